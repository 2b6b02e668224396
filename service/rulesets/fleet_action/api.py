"""HTTP face of Fleet Action: one entry per step to register it (its inputs are shapes,
whose schemas are derived)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Annotated, Any, TypedDict

from flask_smorest import Blueprint

from ...engine.ruleset import NoInput
from ...engine.typed import Headline, Hits
from ...http import pictures
from ...http.endpoints.contract import RulesetAPI
from ...http.endpoints.steps import StepHTTP, register_steps
from . import RULESET, results, steps, turn_odds
from . import turn as fleet_turn

blp = Blueprint(
    "fleet-action",
    __name__,
    url_prefix="/v1/rulesets/fleet-action",
    description="Fleet Action: quick fleet miniatures with D6 dice pools and armour saves.",
)

# --- registration ---------------------------------------------------------------------------

SEED = {"seed": "game-42", "nonce": 1}
BATTLESHIP = {"class": "Battleship", "crew": "Veteran"}
DESTROYER = {"class": "Destroyer", "crew": "Seasoned", "name": "Destroyer 1"}


class FleetActionAttackWords(TypedDict, total=False):
    """An attack's outcome as its /odds picture says it."""

    outcome: Annotated[str, Headline()]
    hits: Annotated[int, Hits()]
    saved: int | None
    hull_lost: int
    catastrophic: bool
    sunk: bool


def attack_words(result: Mapping[str, Any]) -> FleetActionAttackWords:
    """An attack's outcome as its /odds picture says it: a miss, or the hits, the saves, the
    hull lost and what came of it (the target's own hull members repeat these)."""
    if not result["hits"]:
        return {"outcome": "Miss"}
    return {
        "hits": result["hits"],
        "saved": result.get("saves"),
        "hull_lost": result["hull_lost"],
        "catastrophic": result["catastrophic"],
        "sunk": result["target"]["sunk"],
    }


def _hull(points: int) -> str:
    return f"{points} Hull lost"


def turn_odds_picture(answer: Mapping[str, Any], body: Mapping[str, Any]) -> str:
    """The odds of a turn's declared fire: for each ship, what it fires at, its chances of
    getting its shot off, of being sunk and of a catastrophic hit as bars, and the Hull it
    loses as a histogram."""
    result = answer["result"]
    method = result["method"]
    exact = method["kind"] == "exact"
    declared: dict[str, str] = {}
    for shot in body.get("fire") or []:
        if isinstance(shot, Mapping):
            said = pictures.fires(shot, firer=str(shot.get("ship")))
            declared[str(shot.get("ship"))] = said or f"{shot.get('ship')} holds its fire"
    groups = []
    for ship in result["ships"]:
        bars = [
            *([("gets its shot off", Fraction(ship["fires"]["probability"]))]
              if ship["fires"] else []),
            ("sunk", Fraction(ship["sunk"]["probability"])),
            ("sunk outright by a catastrophic hit", Fraction(ship["catastrophic"]["probability"])),
        ]  # fmt: skip
        groups.append(
            pictures.ChanceGroup(
                heading=f"{ship['name']} ({ship['player']}, {ship['class']}): "
                f"{ship['hull_left']} Hull left",
                said=declared.get(ship["name"]) or "Declared no fire",
                bars=bars,
                spread=[
                    (lost["hull_lost"], Fraction(lost["chance"]["probability"]))
                    for lost in ship["hull_lost"]
                ],
                spread_name="Hull lost this turn",
                spread_says=_hull,
            )
        )
    how = "exact" if exact else f"{method['samples']:,} seeded games"
    desc = (
        "What each ship fires at, and its chance of getting its shot off, of being sunk, of "
        "a catastrophic hit and of each number of Hull points lost, "
        + ("exact over every outcome" if exact else "as shares of seeded games")
        + "; the JSON answer (Accept: application/json) gives the same numbers and is signed."
    )
    state = body.get("state")
    turn = state.get("turn") if isinstance(state, Mapping) else None
    title = f"Turn {turn}: the odds" if turn is not None else "The turn's odds"
    return pictures.chances(f"{title} ({how})", desc, groups)


STEPS = [
    StepHTTP(
        name="initiative",
        inputs=NoInput,
        result=results.FleetActionInitiativeResult,
        example={"dice": {"values": [3, 5]}},
    ),
    StepHTTP(
        name="fire",
        words=attack_words,
        inputs=steps.FireInput,
        result=results.FleetActionFireResult,
        example={
            "firer": BATTLESHIP,
            "target": DESTROYER,
            "range": 40,
            "line_of_sight": True,
            "visibility": "Clear",
            "dice": SEED,
        },
    ),
    StepHTTP(
        name="torpedo",
        words=attack_words,
        inputs=steps.TorpedoInput,
        result=results.FleetActionTorpedoResult,
        example={
            "firer": DESTROYER,
            "target": BATTLESHIP,
            "range": 12.5,
            "line_of_sight": True,
            "visibility": "Poor",
            "dice": SEED,
        },
    ),
    StepHTTP(
        name="damage",
        inputs=steps.DamageInput,
        result=results.FleetActionDamageResult,
        example={
            "ship": {"class": "Cruiser", "hull_lost": 1},
            "hull_lost": 2,
            "catastrophic": False,
        },
    ),
]


def _turn_ship(name: str, player: str, ship_class: str, crew: str) -> dict[str, Any]:
    return {"name": name, "player": player, "class": ship_class, "crew": crew}


# The rulebook's example turn: A's Veteran Battleship against B's two Seasoned Destroyers.
EXAMPLE_SHIPS = [
    _turn_ship("Battleship", "A", "Battleship", "Veteran"),
    _turn_ship("Destroyer 1", "B", "Destroyer", "Seasoned"),
    _turn_ship("Destroyer 2", "B", "Destroyer", "Seasoned"),
]
EXAMPLE_STATE = {
    "turn": 1,
    "visibility": "Clear",
    "ships": EXAMPLE_SHIPS,
    "first_pick": "A",
    "next_pick": "A",
    "gone": [],
}
BATTLESHIP_FIRES = {
    "ship": "Battleship",
    "weapon": "guns",
    "target": "Destroyer 1",
    "range": 40,
    "line_of_sight": True,
    "moved": 10,
}
STEPS += [
    StepHTTP(
        name="turn",
        inputs=fleet_turn.TurnInput,
        result=results.FleetActionTurnResult,
        example={
            "state": EXAMPLE_STATE,
            "activation": BATTLESHIP_FIRES,
            "dice": {"values": [2, 4, 5, 1, 6, 3, 5, 2, 4]},
        },
    ),
    StepHTTP(
        name="turn-odds",
        inputs=turn_odds.TurnOddsInput,
        result=results.FleetActionTurnOddsResult,
        picture=turn_odds_picture,
        example={
            "state": EXAMPLE_STATE,
            "fire": [
                BATTLESHIP_FIRES,
                {
                    "ship": "Destroyer 2",
                    "weapon": "guns",
                    "target": "Battleship",
                    "range": 18,
                    "line_of_sight": True,
                    "moved": 14,
                },
            ],
            "method": "auto",
            "dice": SEED,
        },
    ),
]

register_steps(blp, RULESET, STEPS)

API = RulesetAPI(ruleset=RULESET, blueprint=blp, results=results.STEP_RESULTS)
