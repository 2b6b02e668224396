"""The hard computer captain: aims by the heat map, and beats the standard one (seeded)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from service.engine.dice import SeededDice
from service.engine.resolution import Resolution
from service.http.document.derive import shape_schema
from service.rulesets.salvo_grid import hard
from service.rulesets.salvo_grid.fleet import (
    LayoutInput,
    LootInput,
    Ocean,
    Placement,
    layout,
    loot,
)
from service.rulesets.salvo_grid.results import SalvoGridCaptain, SalvoGridComputerLevel
from service.rulesets.salvo_grid.salvo import Salvo, SalvoInput, Side, View, salvo
from tests.salvo_grid_helpers import ocean_b, resolve

# An answer's shapes read back as a request reads them.
OCEAN = shape_schema(Ocean)()
VIEW = shape_schema(View)()
SALVO = shape_schema(Salvo)()


def aim(client: FlaskClient, view: dict[str, Any], level: str | None = "hard") -> dict[str, Any]:
    body: dict[str, Any] = {"ocean": ocean_b(), "view": view, "dice": {"seed": "h", "nonce": 2}}
    if level is not None:
        body["level"] = level
    return resolve(client, "computer", body)


def test_the_level_is_standard_unless_asked(client: FlaskClient) -> None:
    view = {"misses": ["A2"], "hits": ["A1"]}
    assert aim(client, view, None)["result"]["level"] == "standard"
    standard = aim(client, view, "standard")["result"]
    assert standard["level"] == "standard"
    assert {a["reason"] for a in standard["aims"]} <= {"contact", "next to a hit", "at random"}
    answer = aim(client, view)
    assert answer["result"]["level"] == "hard"
    assert {a["reason"] for a in answer["result"]["aims"]} == {"most likely"}


def test_hard_fires_where_the_heat_map_says(client: FlaskClient) -> None:
    """A1 and B1 hit, A2 and B2 misses: the ship runs on along row 1, so C1 is certain."""
    view = {"misses": ["A2", "B2"], "hits": ["A1", "B1"]}
    result = aim(client, view)["result"]
    heat = resolve(client, "heatmap", {"view": view, "dice": {"seed": "h", "nonce": 2}})
    assert heat["result"]["rows"][0][2] == 1.0
    aimed = result["salvo"]["shots"] + [
        sq for special in result["salvo"]["specials"] for sq in [special.get("square")] if sq
    ]
    assert "C1" in aimed or any(
        s["ship"] == "destroyer" and s.get("square") in ("C1", "B1", "A1")
        for s in result["salvo"]["specials"]
    )


def test_a_contact_is_fired_on_first(client: FlaskClient) -> None:
    """A contact is a ship square for sure: the depth charges take it in (they also hit a
    diving submarine), or else the first shot."""
    result = aim(client, {"contacts": ["F6"], "misses": ["A1"]})["result"]
    charges = [s for s in result["salvo"]["specials"] if s["ship"] == "destroyer"]
    if charges:
        (charge,) = charges
        column, row = ord(charge["square"][0]) - ord("A"), int(charge["square"][1:])
        step = (1, 0) if charge["orientation"] == "horizontal" else (0, 1)
        line = {f"{chr(ord('A') + column + step[0] * i)}{row + step[1] * i}" for i in range(3)}
        assert "F6" in line
        assert "F6" not in result["salvo"]["shots"]
    else:
        assert result["aims"][0] == {"square": "F6", "reason": "contact"}


def test_the_same_dice_give_the_same_salvo(client: FlaskClient) -> None:
    view = {"misses": ["A2", "C5"], "hits": ["A1"]}
    assert aim(client, view)["result"] == aim(client, view)["result"]


def _ocean(seed: str, nonce: int) -> Ocean:
    placed = layout(LayoutInput(None), Resolution(SeededDice(seed, nonce)))["fleet"]
    assert placed is not None  # laid out by the dice when no fleet is given
    fleet = shape_schema(Placement)(many=True).load(placed)
    pieces = loot(LootInput(tuple(fleet)), Resolution(SeededDice(seed, nonce + 1)))["loot"]
    ocean: Ocean = OCEAN.load({"fleet": placed, "loot": pieces})
    return ocean


CAPTAINS: tuple[SalvoGridCaptain, ...] = ("a", "b")


def _battle(number: int) -> str | None:
    """One seeded battle, hard as captain a in even battles and b in odd ones."""
    seed = f"hard-test-{number}"
    levels: dict[str, SalvoGridComputerLevel] = (
        {"a": "hard", "b": "standard"} if number % 2 == 0 else {"a": "standard", "b": "hard"}
    )
    oceans = {"a": _ocean(seed, 1), "b": _ocean(seed, 3)}
    views = {"a": View(), "b": View()}
    for round_number in range(1, 101):
        salvos = {}
        for i, c in enumerate("ab"):
            res = Resolution(SeededDice(seed, 10 * round_number + i))
            inp = hard.LevelledInput(oceans[c], views[c], levels[c])
            salvos[c] = SALVO.load(hard.captain(inp, res)["salvo"])
        out = salvo(
            SalvoInput(Side(oceans["a"], salvos["a"]), Side(oceans["b"], salvos["b"])),
            Resolution(SeededDice(seed, 10 * round_number + 5)),
        )
        for c in CAPTAINS:
            oceans[c] = OCEAN.load(out[c]["ocean"])
            views[c] = VIEW.load(out[c]["view"])
        if out["game_over"]:
            winner = out["winner"]
            return None if out["draw"] or winner is None else levels[winner]
    return None


def test_hard_beats_standard_over_seeded_battles() -> None:
    """Twenty seeded battles, at least 14 won (docs/computer.md has the 1,000-battle
    figures: about 83%; the standard captain's share of these 20 is a fixed outcome of the
    seeds, not a sample that could come out otherwise)."""
    winners = [_battle(n) for n in range(20)]
    assert winners.count("hard") >= 14, winners


def test_with_its_charges_spent_the_first_shot_takes_the_contact(client: FlaskClient) -> None:
    body = {
        "ocean": ocean_b(specials_used=["destroyer", "battleship"]),
        "view": {"contacts": ["F6"], "misses": ["A1"]},
        "level": "hard",
        "dice": {"seed": "h", "nonce": 2},
    }
    result = resolve(client, "computer", body)["result"]
    assert result["salvo"]["specials"] == []
    assert result["aims"][0] == {"square": "F6", "reason": "contact"}
