"""The README's "House rules, odds and advice" examples run as written.

Each fenced ``sh`` block runs in bash against a real server (gunicorn with the production
config, tests/serving_helpers.py) in place of localhost:8080, and what it prints (or the file
it writes) is checked against what the section says it shows.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from tests.serving_helpers import Server
from tests.test_referee_readme import blocks, readme_server, run, section

HOUSE_RULES = section("## House rules, odds and advice")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from readme_server(tmp_path_factory, "readme-house-rules", ("curl",))


def example(index: int) -> str:
    found = blocks(HOUSE_RULES)
    assert len(found) == 3, "the section shows a house rule, a pending turn and a picture"
    return found[index]


def test_a_house_rule_is_chosen_and_echoed(server: Server, tmp_path: Path) -> None:
    answer = json.loads(run(server, tmp_path, [example(0)]))
    assert answer["rules"]["straddle-21-plus"] == "no-effect"
    # Under no-effect the printed empty 21+ row does nothing: Hood at Short on Graf Spee.
    chances = {o["result"]["outcome"]: o["probability"] for o in answer["outcomes"]}
    assert chances["NE"] == "7/27"


def test_a_turn_without_the_players_action_is_pending_on_the_enemys(
    server: Server, tmp_path: Path
) -> None:
    answer = json.loads(run(server, tmp_path, [example(1)]))
    pending = answer["result"]["pending"]
    assert (pending["first"], pending["enemy_action"]) == ("enemy", "OB")
    assert "Offer Broadside" in HOUSE_RULES
    assert answer["result"]["state"]["turn"] == 1  # unchanged until the player chooses


def test_an_odds_picture_is_an_svg(server: Server, tmp_path: Path) -> None:
    run(server, tmp_path, [example(2)])
    root = ET.parse(tmp_path / "attack-odds.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    bars = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "data-probability" in g.attrib]
    assert bars, "one labelled bar an outcome"
    assert sum(Fraction(bar.attrib["data-probability"]) for bar in bars) == 1
