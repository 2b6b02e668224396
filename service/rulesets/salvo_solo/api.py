"""HTTP face of Salvo!: one line per step to register it (its inputs are shapes)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypedDict, cast

from flask_smorest import Blueprint

from ...engine.ruleset import NoInput
from ...engine.typed import Headline, Hits
from ...http.document.components import EnumType
from ...http.endpoints.contract import RulesetAPI
from ...http.endpoints.steps import StepHTTP, register_steps
from . import RULESET, advice, results, steps, tables

blp = Blueprint(
    "salvo-solo",
    __name__,
    url_prefix="/v1/rulesets/salvo-solo",
    description="Salvo!: solitaire WWII gunnery duel driven by tables.",
)

# Every request's inputs are the steps' own shapes (steps.py, advice.py), and a ship is sent
# by its catalog name or its card inline (ships.py); their schemas are derived from them.
SHIP_TYPE = EnumType.of(results.SalvoSoloShipType)
CARD_PROVENANCE = EnumType.of(results.SalvoSoloCardProvenance)


# --- the /odds pictures in words (service/http/pictures/ reads what these return) -------

STRADDLE_WORDS = {
    "NE": "No effect",
    "Special": "Special damage: roll on the Special Damage table",
    "Critical": "Critical: roll on the Critical table",
}


class SalvoSoloWords(TypedDict, total=False):
    """An outcome as its /odds picture says it: its name, then the hits it deals by kind."""

    outcome: Annotated[str | None, Headline()]
    name: Annotated[str, Headline()]
    flotation_hits: Annotated[int, Hits("flotation")]
    speed_hits: Annotated[int, Hits("speed")]
    turret_hits: Annotated[int, Hits("turret")]
    hits: None
    fire_control_lost: bool


class SalvoSoloAttackWords(results.SalvoSoloAttackOddsResult, total=False):
    """A whole attack as its /odds picture says it: a miss names itself."""

    outcome: Annotated[str, Headline()]


def hit_counts(letters: str) -> SalvoSoloWords:
    """F, S and T hits (e.g. "FFS") as counts of each kind, the way a picture says them."""
    return {
        "flotation_hits": letters.count("F"),
        "speed_hits": letters.count("S"),
        "turret_hits": letters.count("T"),
    }


def _straddle_words(result: Mapping[str, Any]) -> SalvoSoloWords:
    return {"outcome": STRADDLE_WORDS.get(result["outcome"]), **hit_counts(result["hits"])}


def _named_hits(result: Mapping[str, Any]) -> SalvoSoloWords:
    said: SalvoSoloWords = {"name": result["name"], "hits": None}
    if "fire_control_lost" in result:
        said["fire_control_lost"] = result["fire_control_lost"]
    return {**said, **hit_counts(result["hits"])}


def _torpedo_words(result: Mapping[str, Any]) -> SalvoSoloWords:
    return hit_counts(result["hits"]) if result["hit"] else {"outcome": "Miss"}


def _enemy_action_words(result: Mapping[str, Any]) -> SalvoSoloWords:
    name = tables.ACTION_EFFECTS[result["action"]]["name"]
    why = result["reason"]
    return {"outcome": name if why == "rolled" else f"{name}: {why}"}


def _attack_words(result: Mapping[str, Any]) -> SalvoSoloAttackWords:
    """The straddle first (a miss says only that), then the damage, then its results."""
    first = ("straddled", "flotation_hits", "speed_hits", "turret_hits", "fire_control_lost")
    said = cast(SalvoSoloAttackWords, {key: result[key] for key in first} | dict(result))
    if not result["straddled"]:
        said["outcome"] = "Miss (no straddle)"
    return said


def _initiative_words(result: Mapping[str, Any]) -> SalvoSoloWords:
    return {"outcome": f"{result['first'].capitalize()} acts first"}


def _fire_words(result: Mapping[str, Any]) -> SalvoSoloWords:
    return {"outcome": "Straddle" if result["straddle"] else "Miss"}


def _end_of_turn_words(result: Mapping[str, Any]) -> SalvoSoloWords:
    return {"outcome": "Game over" if result["game_over"] else "The game goes on"}


STEP_WORDS: dict[str, Callable[[Any], Mapping[str, Any]]] = {
    "initiative": _initiative_words,
    "enemy-action": _enemy_action_words,
    "fire": _fire_words,
    "straddle": _straddle_words,
    "special-damage": _named_hits,
    "critical": _named_hits,
    "torpedo": _torpedo_words,
    "end-of-turn": _end_of_turn_words,
    "attack": _attack_words,
}


# --- registration ---------------------------------------------------------------------------


AJAX = {"ship": "Ajax"}
SPEE = {"ship": "Graf Spee"}
SEED = {"seed": "game-42", "nonce": 1}


STEPS = [
    StepHTTP(
        name="weather",
        inputs=NoInput,
        result=results.SalvoSoloWeatherResult,
        example={"dice": SEED},
    ),
    StepHTTP(
        name="range",
        inputs=steps.RangeInput,
        result=results.SalvoSoloRangeResult,
        example={"weather": "Fair", "dice": {"values": [4, 5]}},
    ),
    StepHTTP(
        name="initiative",
        words=STEP_WORDS["initiative"],
        inputs=steps.InitiativeInput,
        result=results.SalvoSoloInitiativeResult,
        example={"player": AJAX, "enemy": SPEE, "dice": SEED},
    ),
    StepHTTP(
        name="enemy-action",
        words=STEP_WORDS["enemy-action"],
        inputs=steps.EnemyActionInput,
        result=results.SalvoSoloEnemyActionResult,
        example={"enemy": SPEE, "player": AJAX, "last_action": None, "dice": SEED},
    ),
    StepHTTP(
        name="maneuver",
        inputs=steps.ManeuverInput,
        result=results.SalvoSoloManeuverResult,
        example={"range": "Long", "player_action": "C", "enemy_action": "OB"},
    ),
    StepHTTP(
        name="fire",
        words=STEP_WORDS["fire"],
        inputs=steps.FireInput,
        result=results.SalvoSoloFireResult,
        example={"range": "Long", "weather": "Fair", "previously_straddled": False, "dice": SEED},
    ),
    StepHTTP(
        name="straddle",
        words=STEP_WORDS["straddle"],
        inputs=steps.StraddleInput,
        result=results.SalvoSoloStraddleResult,
        example={
            "firer": AJAX,
            "target": SPEE,
            "range": "Long",
            "guns_bearing": "bow",
            "dice": {"values": [6, 4, 2]},
        },
    ),
    StepHTTP(
        name="special-damage",
        words=STEP_WORDS["special-damage"],
        inputs=NoInput,
        result=results.SalvoSoloSpecialDamageResult,
        example={"dice": SEED},
    ),
    StepHTTP(
        name="critical",
        words=STEP_WORDS["critical"],
        inputs=steps.CriticalInput,
        result=results.SalvoSoloCriticalResult,
        example={"target": SPEE, "range": "Long", "dice": {"values": [6, 6, 5, 4]}},
    ),
    StepHTTP(
        name="torpedo",
        words=STEP_WORDS["torpedo"],
        inputs=steps.TorpedoInput,
        result=results.SalvoSoloTorpedoResult,
        example={"firer": AJAX, "target": SPEE, "range": "Short", "weather": "Fair", "dice": SEED},
    ),
    StepHTTP(
        name="damage",
        inputs=steps.DamageInput,
        result=results.SalvoSoloDamageResult,
        example={"ship": SPEE, "hits": "FS", "fire_control_lost": False},
    ),
    StepHTTP(
        name="end-of-turn",
        words=STEP_WORDS["end-of-turn"],
        inputs=steps.EndOfTurnInput,
        result=results.SalvoSoloEndOfTurnResult,
        example={"weather": "Misty", "player_action": "C", "enemy_action": "OB", "dice": SEED},
    ),
    StepHTTP(
        name="attack",
        words=STEP_WORDS["attack"],
        inputs=steps.AttackInput,
        result=results.SalvoSoloAttackResult,
        example={
            "firer": AJAX,
            "target": SPEE,
            "range": "Medium",
            "weather": "Fair",
            "guns_bearing": "broadside",
            "previously_straddled": False,
            "dice": SEED,
        },
        odds_result=results.SalvoSoloAttackOddsResult,
    ),
    StepHTTP(
        name="turn",
        inputs=steps.TurnInput,
        result=results.SalvoSoloTurnResult,
        example={
            "state": {
                "turn": 1,
                "weather": "Fair",
                "range": "Long",
                "player": AJAX,
                "enemy": SPEE,
                "enemy_last_action": None,
                "player_has_straddled": False,
                "enemy_has_straddled": False,
            },
            "player_action": "C",
            "dice": SEED,
        },
    ),
    StepHTTP(
        name="advice",
        inputs=advice.AdviceInput,
        result=results.SalvoSoloAdviceResult,
        example={
            "state": {
                "turn": 3,
                "weather": "Fair",
                "range": "Medium-Long",
                "player": AJAX,
                "enemy": {"ship": "Graf Spee", "state": {"flotation_hits": 2, "turret_hits": 1}},
                "enemy_last_action": "OB",
                "player_has_straddled": True,
                "enemy_has_straddled": False,
            },
            "enemy_action": None,
            "dice": SEED,
        },
    ),
]

register_steps(blp, RULESET, STEPS)

API = RulesetAPI(
    ruleset=RULESET,
    blueprint=blp,
    results=results.STEP_RESULTS,
    # GET /ships lists the cards a request can send back inline.
    ship_component="SalvoSoloShipCard",
    shape_refs={"type": SHIP_TYPE.name, "provenance": CARD_PROVENANCE.name},
)
