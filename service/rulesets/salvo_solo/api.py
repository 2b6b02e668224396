"""HTTP face of Salvo!: request schemas, one line per step to register it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypedDict, cast

from flask_smorest import Blueprint
from marshmallow import Schema, fields, post_load, validate

from ...engine.typed import Headline, Hits
from ...http.document.components import EnumType
from ...http.document.derive import same_shape
from ...http.document.fields import StrictBoolean, count
from ...http.endpoints.contract import RulesetAPI
from ...http.endpoints.ship_reference import ship_reference
from ...http.endpoints.steps import NoInputs, StepHTTP, inputs, no_input, register_steps
from . import RULESET, advice, results, steps, tables
from .ships import CATALOG, MAX_HITS, Ship, ShipCard, ShipState

blp = Blueprint(
    "salvo-solo",
    __name__,
    url_prefix="/v1/rulesets/salvo-solo",
    description="Salvo!: solitaire WWII gunnery duel driven by tables.",
)

# --- one component per concept ------------------------------------------------------------

RANGE = EnumType.of(results.SalvoSoloRange)
WEATHER = EnumType.of(results.SalvoSoloWeather)
ACTION = EnumType.of(results.SalvoSoloAction)
BEARING = EnumType.of(results.SalvoSoloBearing)
SHIP_TYPE = EnumType.of(results.SalvoSoloShipType)
CARD_PROVENANCE = EnumType.of(results.SalvoSoloCardProvenance)
FIRE_CONTROL = EnumType.of(results.SalvoSoloFireControl)
SHIP_NAME = EnumType.of(results.SalvoSoloShipName)
SIDE = EnumType.of(results.SalvoSoloSide)


# --- ships in ---------------------------------------------------------------------------


class SalvoSoloShipCardSchema(Schema):
    """A ship card: as GET /ships lists it, and as a request may send it inline."""

    name = fields.String(required=True, validate=validate.Length(min=1, max=60))
    type = SHIP_TYPE.field(required=True)
    guns = count(1, 20, required=True, metadata={"description": "Main gun size, inches"})
    broadside = count(-5, 10, required=True)
    stern = count(-5, 10, required=True)
    bow = count(-5, 10, required=True)
    flotation = count(1, 20, required=True)
    turret = count(1, 20, required=True)
    speed = count(0, 20, required=True, metadata={"description": "Maximum speed (x3 = knots)"})
    armor = count(0, 20, required=True)
    nation = fields.String(required=True, validate=validate.Length(min=1, max=40))
    provenance = CARD_PROVENANCE.field(load_default="custom")

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ShipCard:
        return ShipCard(**data)


class SalvoSoloShipStateSchema(Schema):
    """What has happened to a ship: sent in, and handed back by every answer that changes it."""

    flotation_hits = count(0, MAX_HITS, load_default=0)
    turret_hits = count(0, MAX_HITS, load_default=0)
    speed_hits = count(0, MAX_HITS, load_default=0)
    fire_control = FIRE_CONTROL.field(load_default="ready")

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ShipState:
        return ShipState(**data)


ship_field = ship_reference(
    "SalvoSolo",
    SHIP_NAME,
    CATALOG,
    SalvoSoloShipCardSchema,
    SalvoSoloShipStateSchema,
    Ship,
    ShipState,
)


def _range(**kwargs: Any) -> fields.String:
    return RANGE.field(required=True, **kwargs)


def _weather() -> fields.String:
    return WEATHER.field(required=True)


def _action() -> fields.String:
    return ACTION.field(required=True)


def _bearing() -> fields.String:
    return BEARING.field(required=True)


# --- requests -----------------------------------------------------------------------------


class SalvoSoloRangeInputs(Schema):
    weather = _weather()


class SalvoSoloInitiativeInputs(Schema):
    player = ship_field(required=True)
    enemy = ship_field(required=True)


class SalvoSoloEnemyActionInputs(Schema):
    enemy = ship_field(required=True)
    player = ship_field(required=True)
    last_action = ACTION.field(
        load_default=None,
        allow_none=True,
        metadata={"description": "The enemy's Act last turn; null on turn 1"},
    )


class SalvoSoloManeuverInputs(Schema):
    range = _range()
    player_action = _action()
    enemy_action = _action()
    player = ship_field(metadata={"description": "Checks speed 0 forces OB"})
    enemy = ship_field()
    first = SIDE.field(
        metadata={
            "description": "Who has the initiative: needed when the Actions apply in "
            "initiative order (ruling simultaneous-actions, reading in-initiative-order)"
        }
    )


class SalvoSoloFireInputs(Schema):
    range = _range()
    weather = _weather()
    previously_straddled = StrictBoolean(load_default=False)
    firer = ship_field(metadata={"description": "Checks the ship can fire"})


class SalvoSoloStraddleInputs(Schema):
    firer = ship_field(required=True)
    target = ship_field(required=True)
    range = _range()
    guns_bearing = _bearing()


class SalvoSoloCriticalInputs(Schema):
    target = ship_field(required=True)
    range = _range()


class SalvoSoloTorpedoInputs(Schema):
    firer = ship_field(required=True)
    target = ship_field(required=True)
    range = _range()
    weather = _weather()


class SalvoSoloDamageInputs(Schema):
    ship = ship_field(required=True)
    hits = fields.String(
        required=True,
        validate=validate.Regexp(r"^[FTS]{0,40}$"),
        metadata={"description": "F, T and S hits, e.g. FFST"},
    )
    fire_control_lost = StrictBoolean(load_default=False)


class SalvoSoloEndOfTurnInputs(Schema):
    weather = _weather()
    player_action = _action()
    enemy_action = _action()


class SalvoSoloAttackInputs(Schema):
    firer = ship_field(required=True)
    target = ship_field(required=True)
    range = _range()
    weather = _weather()
    guns_bearing = _bearing()
    previously_straddled = StrictBoolean(load_default=False)


class SalvoSoloGameStateSchema(Schema):
    """The whole game between turns: a turn's answer hands it back as `result.state`, and
    the next turn's request takes it as `state`, as it is."""

    turn = count(
        1,
        steps.MAX_TURN,
        required=True,
        metadata={
            "description": f"The turn to play. The count stops at {steps.MAX_TURN}: a turn "
            f"played at {steps.MAX_TURN} hands back {steps.MAX_TURN} (ruling turn-count-cap)"
        },
    )
    weather = _weather()
    range = _range()
    player = ship_field(required=True)
    enemy = ship_field(required=True)
    enemy_last_action = ACTION.field(load_default=None, allow_none=True)
    player_has_straddled = StrictBoolean(load_default=False)
    enemy_has_straddled = StrictBoolean(load_default=False)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> steps.GameState:
        return steps.GameState(**data)


class SalvoSoloTurnInputs(Schema):
    state = fields.Nested(SalvoSoloGameStateSchema, required=True)
    player_action = ACTION.field(
        metadata={
            "description": "The player's Action. Leave it out to see the enemy's Action "
            "first: if the enemy has the initiative the answer is `result.pending`, and the "
            "same request with `player_action` and the same dice finishes the turn; if the "
            "player has it, a 422 asks for `player_action`"
        }
    )


# --- results ------------------------------------------------------------------------------

# What a result hands back that a later request sends again is one component, the request's,
# with its limits: a ship's state, the game between turns (the dice to finish a turn with are
# service/http/endpoints/dice_in.py's).
same_shape(results.SalvoSoloShipState, SalvoSoloShipStateSchema)
same_shape(results.SalvoSoloGameState, SalvoSoloGameStateSchema)


# --- the advisor ------------------------------------------------------------------------------


class SalvoSoloAdviceInputs(Schema):
    state = fields.Nested(
        SalvoSoloGameStateSchema,
        required=True,
        metadata={"description": "The game as a turn's answer hands it back (`result.state`)"},
    )
    enemy_action = ACTION.field(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "The enemy's Action when it is already known: the one a pending "
            "turn's answer names (`result.pending.enemy_action`); null when not known. Given, "
            "this turn is judged as that pending turn: the enemy has its initiative (it is "
            "not rolled again)"
        },
    )


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
        inputs=NoInputs,
        result=results.SalvoSoloWeatherResult,
        build=no_input,
        example={"dice": SEED},
    ),
    StepHTTP(
        name="range",
        inputs=SalvoSoloRangeInputs,
        result=results.SalvoSoloRangeResult,
        build=inputs(steps.RangeInput),
        example={"weather": "Fair", "dice": {"values": [4, 5]}},
    ),
    StepHTTP(
        name="initiative",
        words=STEP_WORDS["initiative"],
        inputs=SalvoSoloInitiativeInputs,
        result=results.SalvoSoloInitiativeResult,
        build=inputs(steps.InitiativeInput),
        example={"player": AJAX, "enemy": SPEE, "dice": SEED},
    ),
    StepHTTP(
        name="enemy-action",
        words=STEP_WORDS["enemy-action"],
        inputs=SalvoSoloEnemyActionInputs,
        result=results.SalvoSoloEnemyActionResult,
        build=inputs(steps.EnemyActionInput),
        example={"enemy": SPEE, "player": AJAX, "last_action": None, "dice": SEED},
    ),
    StepHTTP(
        name="maneuver",
        inputs=SalvoSoloManeuverInputs,
        result=results.SalvoSoloManeuverResult,
        build=inputs(steps.ManeuverInput),
        example={"range": "Long", "player_action": "C", "enemy_action": "OB"},
    ),
    StepHTTP(
        name="fire",
        words=STEP_WORDS["fire"],
        inputs=SalvoSoloFireInputs,
        result=results.SalvoSoloFireResult,
        build=inputs(steps.FireInput),
        example={"range": "Long", "weather": "Fair", "previously_straddled": False, "dice": SEED},
    ),
    StepHTTP(
        name="straddle",
        words=STEP_WORDS["straddle"],
        inputs=SalvoSoloStraddleInputs,
        result=results.SalvoSoloStraddleResult,
        build=inputs(steps.StraddleInput),
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
        inputs=NoInputs,
        result=results.SalvoSoloSpecialDamageResult,
        build=no_input,
        example={"dice": SEED},
    ),
    StepHTTP(
        name="critical",
        words=STEP_WORDS["critical"],
        inputs=SalvoSoloCriticalInputs,
        result=results.SalvoSoloCriticalResult,
        build=inputs(steps.CriticalInput),
        example={"target": SPEE, "range": "Long", "dice": {"values": [6, 6, 5, 4]}},
    ),
    StepHTTP(
        name="torpedo",
        words=STEP_WORDS["torpedo"],
        inputs=SalvoSoloTorpedoInputs,
        result=results.SalvoSoloTorpedoResult,
        build=inputs(steps.TorpedoInput),
        example={"firer": AJAX, "target": SPEE, "range": "Short", "weather": "Fair", "dice": SEED},
    ),
    StepHTTP(
        name="damage",
        inputs=SalvoSoloDamageInputs,
        result=results.SalvoSoloDamageResult,
        build=inputs(steps.DamageInput),
        example={"ship": SPEE, "hits": "FS", "fire_control_lost": False},
    ),
    StepHTTP(
        name="end-of-turn",
        words=STEP_WORDS["end-of-turn"],
        inputs=SalvoSoloEndOfTurnInputs,
        result=results.SalvoSoloEndOfTurnResult,
        build=inputs(steps.EndOfTurnInput),
        example={"weather": "Misty", "player_action": "C", "enemy_action": "OB", "dice": SEED},
    ),
    StepHTTP(
        name="attack",
        words=STEP_WORDS["attack"],
        inputs=SalvoSoloAttackInputs,
        result=results.SalvoSoloAttackResult,
        build=inputs(steps.AttackInput),
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
        inputs=SalvoSoloTurnInputs,
        result=results.SalvoSoloTurnResult,
        build=inputs(steps.TurnInput),
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
        inputs=SalvoSoloAdviceInputs,
        result=results.SalvoSoloAdviceResult,
        build=inputs(advice.AdviceInput),
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
