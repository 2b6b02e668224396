"""The README's "fleet-action: one turn, call by call" runs as written.

Its fenced ``sh`` blocks run in bash, in order, against a real server (gunicorn with the
production config, tests/serving_helpers.py) in place of localhost:8080, and print what the
section says they print: the example turn ends with player B's win, and the odds before it
are the ones the section reasons out.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from tests.serving_helpers import Server
from tests.test_referee_readme import blocks, run, section
from tests.test_referee_readme import server as server  # the README walkthroughs' server

# It starts the real server (through the imported fixture), like the modules that import
# tests/serving_helpers.py's ``running``.
pytestmark = pytest.mark.serving

TURN = section("### fleet-action: one turn, call by call")


def printed(block: str) -> list[object]:
    """What a block says it prints: its trailing comment lines, read as JSON."""
    lines = [line[2:] for line in block.splitlines() if line.startswith("# ")]
    text, values = "", []
    for line in lines:
        if not text and line[:1] not in '{["':
            continue  # a comment in words
        text += line
        try:
            values.append(json.loads(text))
            text = ""
        except json.JSONDecodeError:
            continue
    return values


def test_the_example_turn_and_its_odds_print_what_the_section_says(
    server: Server, tmp_path: Path
) -> None:
    turn, odds = blocks(TURN)
    out = run(server, tmp_path, [turn, odds]).splitlines()
    said_turn, said_kind, said_ships = printed(turn)[-1], *printed(odds)
    assert json.loads(out[0]) == said_turn
    assert said_turn == {"game_over": True, "winner": "B", "gone": ["Battleship", "Destroyer 2"]}
    assert [json.loads(line) for line in out[1:]] == [said_kind, said_ships]
    assert isinstance(said_ships, list)
    battleship = next(s for s in said_ships if s["name"] == "Battleship")
    assert Fraction(battleship["sunk"]) == 1 - Fraction(35, 36) ** 3
