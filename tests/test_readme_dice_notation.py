"""The README's "Dice notation" examples run as written, and show what the service answers.

Each fenced ``sh`` block runs in bash against a real server (gunicorn with the production
config, tests/serving_helpers.py) in place of localhost:8080; the dice the section shows,
and the chance it quotes, are the answer's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from tests.serving_helpers import Server
from tests.test_referee_readme import blocks, readme_server, run, section

NOTATION = section("## Dice notation: any game's rolls, and their exact odds")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from readme_server(tmp_path_factory, "readme-dice-notation", ("curl",))


def test_the_section_rolls_and_asks_the_odds() -> None:
    assert len(blocks(NOTATION)) == 2


def test_the_roll_shows_each_die_as_the_service_answers(server: Server, tmp_path: Path) -> None:
    answer = json.loads(run(server, tmp_path, [blocks(NOTATION)[0]]))
    shown = [json.loads(die) for die in re.findall(r'\{"die":[^}]*\}', NOTATION)]
    (term,) = answer["result"]["terms"]
    assert term["dice"] == shown
    assert answer["result"]["total"] == 13
    # the words under the heading: the third die's 1 rerolled into a 2, the second's 6
    # exploding into a 4, the highest three of the pool kept
    assert [(d["cause"], d["of"], d["face"]) for d in term["dice"][4:]] == [
        ("explosion", 2, 4),
        ("reroll", 3, 2),
    ]
    assert sorted(term["values"], reverse=True)[:3] == [6, 4, 3]


def test_the_odds_quote_21_in_1296_for_an_18(server: Server, tmp_path: Path) -> None:
    answer = json.loads(run(server, tmp_path, [blocks(NOTATION)[1]]))
    by_total = {o["result"]["total"]: Fraction(o["probability"]) for o in answer["outcomes"]}
    assert by_total[18] == Fraction(21, 1296)
    assert "21 of 1,296 throws" in NOTATION
    shown = re.findall(r'"total":(\d+)\},"probability":"([\d/]+)"', NOTATION)
    assert shown and all(by_total[int(t)] == Fraction(p) for t, p in shown)
