"""HTTP face of Dreadnought: one entry per step to register it (its inputs are shapes,
whose schemas are derived)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Annotated, Any, TypedDict

from flask_smorest import Blueprint

from ...engine.typed import Headline, Landed
from ...http import pictures
from ...http.document.components import EnumType
from ...http.endpoints.contract import RulesetAPI
from ...http.endpoints.steps import StepHTTP, register_steps
from . import RULESET, results, steps
from .turn import TurnInput

blp = Blueprint(
    "dreadnought",
    __name__,
    url_prefix="/v1/rulesets/dreadnought",
    description="Dreadnought: WWI fleet miniatures, three-dice gunnery (2D8 + gunner die).",
)

# The components the catalog's ships refer to (GET /v1/rulesets/dreadnought/ships).
SHIP_CLASS = EnumType.of(results.DreadnoughtShipClass)
NATIONALITY = EnumType.of(results.DreadnoughtNationality)
CREW = EnumType.of(results.DreadnoughtCrew)


# --- registration ---------------------------------------------------------------------------

QE = {"ship": "Queen Elizabeth"}
DERFFLINGER = {"ship": "Derfflinger"}
SEED = {"seed": "jutland", "nonce": 1}


class DreadnoughtHitWords(TypedDict):
    """A shot's or a torpedo's outcome as its /odds picture says it."""

    hit: Annotated[bool, Landed()]
    damage: int
    critical: str | None


def hit_words(result: Mapping[str, Any]) -> DreadnoughtHitWords:
    """A shot's or a torpedo's outcome as its /odds picture says it: a miss, or the damage
    and the critical, by name (the band, die and score needed are the same in every one)."""
    critical = result["critical"]
    return {
        "hit": result["hit"],
        "damage": result["damage"],
        "critical": critical["name"] if critical else None,
    }


def _boxes(points: int) -> str:
    return f"{points} box{'' if points == 1 else 'es'} marked off"


def _declared(body: Mapping[str, Any]) -> dict[str, str]:
    """What each ship was declared to fire this turn, in words, by ship name."""
    said: dict[str, str] = {}
    for declaration in body.get("declarations") or []:
        if not isinstance(declaration, Mapping):
            continue
        ship = str(declaration.get("ship"))
        shots = [
            pictures.fires(shot, firer=ship)
            for shot in (*(declaration.get("fire") or ()), *(declaration.get("torpedoes") or ()))
            if isinstance(shot, Mapping)
        ]
        if shots := [shot for shot in shots if shot]:
            said[ship] = "; ".join(shots)
    return said


def turn_odds_picture(answer: Mapping[str, Any], body: Mapping[str, Any]) -> str:
    """The odds of a turn: for each ship, what it fires at, its chances of being sunk, of any
    damage and of each critical as bars, and the boxes it has marked off as a histogram."""
    result = answer["result"]
    method = result["method"]
    exact = method["kind"] == "exact"
    declared = _declared(body)
    groups = []
    for ship in result["ships"]:
        untouched = sum(
            (Fraction(d["chance"]["probability"]) for d in ship["damage"] if d["points"] == 0),
            Fraction(0),
        )
        bars = [
            ("sunk", Fraction(ship["sunk"]["probability"])),
            ("any damage", 1 - untouched),
            *((c["effect"], Fraction(c["chance"]["probability"])) for c in ship["criticals"]),
        ]
        groups.append(
            pictures.ChanceGroup(
                heading=f"{ship['ship']} ({ship['side']}): {ship['boxes_left']} boxes left",
                said=declared.get(ship["ship"]) or "Fires at no one this turn",
                bars=bars,
                spread=[
                    (d["points"], Fraction(d["chance"]["probability"])) for d in ship["damage"]
                ],
                spread_name="Boxes marked off this turn",
                spread_says=_boxes,
            )
        )
    how = "exact" if exact else f"{method['games']} seeded games"
    desc = (
        "What each ship fires at, and its chance of being sunk, of any damage, of each "
        "critical and of each number of boxes marked off this turn, "
        + (
            "exact over every outcome"
            if exact
            else "as shares of seeded games, each with a 95% interval in the JSON answer"
        )
        + "; the JSON answer (Accept: application/json) gives the same numbers and is signed."
    )
    return pictures.chances(f"Turn {result['turn']}: the odds ({how})", desc, groups)


class DreadnoughtRudderWords(TypedDict):
    outcome: Annotated[str, Headline()]


def rudder_words(result: Mapping[str, Any]) -> DreadnoughtRudderWords:
    return {"outcome": "Rudder repaired" if result["repaired"] else "Rudder still jammed"}


# Two ships fire at one target (Derfflinger: more than one ship firing), Seydlitz is under
# no fire, Queen Elizabeth has fired at Derfflinger before, Iron Duke turned.
TURN_EXAMPLE: dict[str, Any] = {
    "state": {
        "turn": 2,
        "ships": [
            {
                "side": "Grand Fleet",
                "ship": {"ship": "Queen Elizabeth"},
                "fired_at": [{"target": "Derfflinger", "turn": 1}],
            },
            {"side": "Grand Fleet", "ship": {"ship": "Iron Duke"}},
            {
                "side": "High Seas Fleet",
                "ship": {"ship": "Derfflinger", "state": {"damage_taken": 6}},
                "fired_at": [{"target": "Queen Elizabeth", "turn": 1}],
            },
            {"side": "High Seas Fleet", "ship": {"ship": "Seydlitz"}},
        ],
    },
    "declarations": [
        {
            "ship": "Queen Elizabeth",
            "formation": "line astern",
            "orders": "ahead 8",
            "fire": [{"battery": 15, "target": "Derfflinger", "distance": 20}],
        },
        {
            "ship": "Iron Duke",
            "formation": "line astern",
            "orders": "ahead 3, turn 60 to starboard",
            "turned": True,
            "fire": [{"battery": 13.5, "target": "Derfflinger", "distance": 22}],
        },
        {
            "ship": "Derfflinger",
            "enemy_within_6": False,
            "orders": "ahead 9",
            "fire": [{"battery": 12, "target": "Queen Elizabeth", "distance": 20}],
        },
        {
            "ship": "Seydlitz",
            "formation": "line astern",
            "fire": [{"battery": 11, "target": "Iron Duke", "distance": 24}],
        },
    ],
    "dice": SEED,
}


STEPS = [
    StepHTTP(
        name="range",
        inputs=steps.RangeInput,
        result=results.DreadnoughtRangeResult,
        example={"calibre": 8, "target_class": "Armoured Cruiser", "distance": 12},
    ),
    StepHTTP(
        name="fire",
        words=hit_words,
        inputs=steps.FireInput,
        result=results.DreadnoughtFireResult,
        example={
            "firer": QE,
            "battery": 15,
            "target": DERFFLINGER,
            "distance": 20,
            "first_time_at_target": True,
            "dice": {"values": [7, 5, 6]},
        },
    ),
    StepHTTP(
        name="critical",
        inputs=steps.CriticalInput,
        result=results.DreadnoughtCriticalResult,
        example={"target": {"ship": "Lion"}, "throw": "double 8", "dice": {"values": [5]}},
    ),
    StepHTTP(
        name="torpedo",
        words=hit_words,
        inputs=steps.TorpedoInput,
        result=results.DreadnoughtTorpedoResult,
        example={
            "firer": {"ship": "V-class torpedo boat"},
            "target": {"ship": "Southampton"},
            "distance": 8,
            "torpedoes": 4,
            "dice": SEED,
        },
    ),
    StepHTTP(
        name="damage",
        inputs=steps.DamageInput,
        result=results.DreadnoughtDamageResult,
        example={"ship": {"ship": "Lion", "state": {"damage_taken": 12}}, "points": 9},
    ),
    StepHTTP(
        name="rudder",
        words=rudder_words,
        inputs=steps.RudderInput,
        result=results.DreadnoughtRudderResult,
        example={"ship": {"ship": "Seydlitz", "state": {"rudder_jammed": "left"}}, "dice": SEED},
    ),
    StepHTTP(
        name="turn",
        inputs=TurnInput,
        result=results.DreadnoughtTurnResult,
        example=TURN_EXAMPLE,
    ),
    StepHTTP(
        name="turn-odds",
        inputs=TurnInput,
        request_of="turn",
        result=results.DreadnoughtTurnOddsResult,
        picture=turn_odds_picture,
        example=TURN_EXAMPLE,
    ),
]

register_steps(blp, RULESET, STEPS)

API = RulesetAPI(
    ruleset=RULESET,
    blueprint=blp,
    results=results.STEP_RESULTS,
    shape_refs={"class": SHIP_CLASS.name, "nationality": NATIONALITY.name, "crew": CREW.name},
)
