"""HTTP face of Salvo!: request and result schemas, one line per step to register it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask_smorest import Blueprint
from marshmallow import Schema, fields, post_load, validate

from ...http.components import EnumType
from ...http.contract import RulesetAPI
from ...http.dice_in import SealedDiceSchema, SeededDiceSchema
from ...http.fields import Const, OneOf, StrictBoolean, count
from ...http.ship_reference import ship_reference
from ...http.steps import NoInputs, StepHTTP, inputs, no_input, register_steps
from . import RULESET, advice, results, steps, tables
from .ships import ALIASES, CATALOG, FIRE_CONTROL_STATES, MAX_HITS, Ship, ShipCard, ShipState

blp = Blueprint(
    "salvo-solo",
    __name__,
    url_prefix="/v1/rulesets/salvo-solo",
    description="Salvo!: solitaire WWII gunnery duel driven by tables.",
)

# --- one component per concept ------------------------------------------------------------

RANGE = EnumType("SalvoSoloRange", tables.RANGES, "A range band, nearest first.")
WEATHER = EnumType("SalvoSoloWeather", tables.WEATHERS, "The weather of the game.")
ACTION = EnumType(
    "SalvoSoloAction",
    tables.ACTIONS,
    "A ship's Action: C (Close), OB (Offer Broadside), W (Withdraw).",
)
BEARING = EnumType("SalvoSoloBearing", ("bow", "broadside", "stern"), "Which guns bear.")
SIDE = EnumType("SalvoSoloSide", ("player", "enemy"), "One of the two ships' sides.")
SHIP_TYPE = EnumType("SalvoSoloShipType", tables.SHIP_TYPES, "A ship's type, as on its card.")
CARD_PROVENANCE = EnumType(
    "SalvoSoloCardProvenance",
    ("card", "derived", "custom"),
    "Where a card's figures come from: a published card, derived from one, or the player's.",
)
FIRE_CONTROL = EnumType(
    "SalvoSoloFireControl", FIRE_CONTROL_STATES, "The state of a ship's fire control."
)
SHIP_NAME = EnumType(
    "SalvoSoloShipName",
    CATALOG,
    "A ship of the catalog (GET /v1/rulesets/salvo-solo/ships).",
    aliases=ALIASES,
)
STRADDLE_OUTCOME = EnumType(
    "SalvoSoloStraddleOutcome",
    dict.fromkeys(result for _, _, result in tables.STRADDLE if result is not None),
    "A row of the Straddle table: NE (no effect), hits (F, T, S), Special or Critical.",
)
ROLL_NEXT = EnumType(
    "SalvoSoloRollNext", ("special-damage", "critical"), "The step to roll next on a straddle."
)
Hits = fields.String(
    required=True,
    validate=validate.Regexp(r"^[FTS]*$"),
    metadata={"description": "F, T and S hits, e.g. FFST; empty for none"},
)


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


class SalvoSoloShipStatusSchema(Schema):
    name = fields.String(required=True)
    state = fields.Nested(SalvoSoloShipStateSchema, required=True)
    speed = fields.Integer(required=True)
    sunk = fields.Boolean(required=True)
    can_fire = fields.Boolean(required=True)
    must_offer_broadside = fields.Boolean(required=True)


class SalvoSoloWeatherResult(Schema):
    weather = WEATHER.field(required=True)
    initial_range_modifier = fields.Integer(required=True)


class SalvoSoloRangeResult(Schema):
    range = _range()


class SalvoSoloInitiativeResult(Schema):
    first = SIDE.field(required=True, metadata={"description": "Who acts first"})


class SalvoSoloEnemyActionResult(Schema):
    action = _action()
    reason = fields.String(required=True)


class SalvoSoloManeuverResult(Schema):
    range = RANGE.field(
        required=True, allow_none=True, metadata={"description": "null: out of range"}
    )
    range_change = fields.Integer(required=True)
    out_of_range = fields.Boolean(required=True)
    game_over = fields.Boolean(required=True)
    player_guns_bearing = _bearing()
    enemy_guns_bearing = _bearing()


class SalvoSoloFireResult(Schema):
    straddle = fields.Boolean(required=True)
    shots_per_turn = fields.Integer(required=True)


class SalvoSoloStraddleResult(Schema):
    outcome = STRADDLE_OUTCOME.field(required=True)
    hits = Hits
    roll_next = ROLL_NEXT.field(required=True, allow_none=True)


class SalvoSoloSpecialDamageResult(Schema):
    name = fields.String(required=True)
    hits = Hits
    fire_control_lost = fields.Boolean(required=True)


class SalvoSoloCriticalResult(Schema):
    name = fields.String(required=True)
    hits = Hits


class SalvoSoloTorpedoResult(Schema):
    hit = fields.Boolean(required=True)
    hits = Hits


class SalvoSoloDamageResult(Schema):
    ship = fields.Nested(SalvoSoloShipStatusSchema, required=True)
    newly_sunk = fields.Boolean(required=True)


class SalvoSoloEndOfTurnResult(Schema):
    game_over = fields.Boolean(required=True)


class SalvoSoloShotSchema(Schema):
    shot = fields.Integer(required=True)
    fire = fields.Nested(SalvoSoloFireResult, required=True)
    straddle = fields.Nested(SalvoSoloStraddleResult)
    special_damage = fields.Nested(SalvoSoloSpecialDamageResult)
    critical = fields.Nested(SalvoSoloCriticalResult)
    hits = fields.String(validate=validate.Regexp(r"^[FTS]*$"))
    target = fields.Nested(SalvoSoloShipStatusSchema, required=True)


class SalvoSoloAttackResult(Schema):
    shots = fields.List(fields.Nested(SalvoSoloShotSchema), required=True)
    target = fields.Nested(SalvoSoloShipStatusSchema, required=True)
    straddled = fields.Boolean(required=True)
    target_sunk = fields.Boolean(required=True)


class SalvoSoloHeldFireSchema(Schema):
    """A ship that could not fire this turn, and why."""

    fired = Const(False, required=True)
    reason = fields.String(required=True)


class SalvoSoloFireOrderResult(Schema):
    first = SIDE.field(required=True, metadata={"description": "Gun sizes tied: who fired first"})


def _event(phase: str, result: Any, sided: bool = False) -> type[Schema]:
    name = "SalvoSolo" + "".join(p.capitalize() for p in phase.split("-")) + "Event"
    members: dict[str, Any] = {"phase": Const(phase, required=True), "result": result}
    if sided:
        members["side"] = SIDE.field(required=True, metadata={"description": "The firer"})
    return type(name, (Schema,), members)


def _result(schema: type[Schema]) -> fields.Nested:
    return fields.Nested(schema, required=True)


EVENTS = [
    _event("initiative", _result(SalvoSoloInitiativeResult)),
    _event("enemy-action", _result(SalvoSoloEnemyActionResult)),
    _event("maneuver", _result(SalvoSoloManeuverResult)),
    _event("fire-order", _result(SalvoSoloFireOrderResult)),
    _event(
        "fire",
        OneOf([SalvoSoloAttackResult, SalvoSoloHeldFireSchema], required=True),
        sided=True,
    ),
    _event("torpedo", _result(SalvoSoloTorpedoResult), sided=True),
    _event("end-of-turn", _result(SalvoSoloEndOfTurnResult)),
]


class SalvoSoloPendingTurnSchema(Schema):
    """The enemy has the initiative and has chosen: the player's Action is still to come."""

    first = Const("enemy", required=True, metadata={"description": "Who acts first"})
    enemy_action = _action()
    choose = Const("player_action", required=True, metadata={"description": "What to send"})
    choices = fields.List(
        ACTION.field(), required=True, metadata={"description": "The Actions the player may take"}
    )
    dice_used = fields.Integer(
        required=True,
        metadata={"description": "Dice rolled so far; supplied dice resend these first"},
    )
    dice = OneOf(
        [SeededDiceSchema, SealedDiceSchema],
        required=True,
        allow_none=True,
        metadata={
            "description": "The `dice` the finishing call sends, exactly: the seed and nonce "
            "of seeded dice (for fresh dice, the seed the service chose, so the enemy's Action "
            "stays the one shown), the sealed token, client seed and nonce of sealed dice; "
            "null for supplied dice (resend these values, then the rest of the turn's)"
        },
    )
    detail = fields.String(required=True)


class SalvoSoloTurnResult(Schema):
    game_over = fields.Boolean(required=True)
    winner = SIDE.field(required=True, allow_none=True, metadata={"description": "null: none"})
    draw = fields.Boolean(required=True)
    reason = fields.String(required=True, allow_none=True)
    state = fields.Nested(
        SalvoSoloGameStateSchema,
        required=True,
        metadata={"description": "Send it back as the next turn's `state`"},
    )
    events = fields.List(
        OneOf(EVENTS, discriminator="phase"),
        required=True,
        metadata={"description": "What happened, in order; told apart by `phase`"},
    )
    pending = fields.Nested(
        SalvoSoloPendingTurnSchema,
        metadata={
            "description": "Only while the turn waits for the player's Action; the state is "
            "handed back unchanged"
        },
    )


# --- attack odds and the advisor --------------------------------------------------------------


class SalvoSoloAttackOddsResult(Schema):
    """What a whole attack does to its target, summed over its shots."""

    flotation_hits = fields.Integer(required=True, metadata={"description": "F hits dealt"})
    turret_hits = fields.Integer(required=True, metadata={"description": "T hits dealt"})
    speed_hits = fields.Integer(required=True, metadata={"description": "S hits dealt"})
    fire_control_lost = fields.Boolean(
        required=True, metadata={"description": "The target newly loses its fire control"}
    )
    speed_lost = fields.Integer(required=True, metadata={"description": "Current speed lost"})
    silenced = fields.Boolean(
        required=True, metadata={"description": "The target has as many T hits as its Turret"}
    )
    sunk = fields.Boolean(required=True)
    straddled = fields.Boolean(
        required=True, metadata={"description": "The firer has straddled the target (+2 later)"}
    )


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


class SalvoSoloAdviceShareSchema(Schema):
    """How often one ending came up in the sampled games, with its 95% interval."""

    count = fields.Integer(required=True, metadata={"description": "Games that ended so"})
    probability = fields.String(
        required=True, metadata={"description": "count/samples, exactly", "example": "97/400"}
    )
    p = fields.Float(required=True)
    interval = fields.List(
        fields.Float(),
        required=True,
        validate=validate.Length(equal=2),
        metadata={"description": "95% Wilson score interval of the chance: [low, high]"},
    )


class SalvoSoloAdvisedActionSchema(Schema):
    action = _action()
    samples = fields.Integer(required=True, metadata={"description": "Games played"})
    win = fields.Nested(SalvoSoloAdviceShareSchema, required=True)
    draw = fields.Nested(SalvoSoloAdviceShareSchema, required=True)
    loss = fields.Nested(SalvoSoloAdviceShareSchema, required=True)
    unfinished = fields.Integer(
        required=True, metadata={"description": "Games still going at the horizon"}
    )
    expected_turns = fields.Float(
        required=True, metadata={"description": "Mean turns to the end (unfinished: horizon)"}
    )


class SalvoSoloAdviceMethodSchema(Schema):
    kind = Const("monte-carlo", required=True)
    algorithm = Const(advice.ALGORITHM, required=True, metadata={"description": "docs/advice.md"})
    max_samples = fields.Integer(required=True, metadata={"description": "Games per Action"})
    turn_budget = fields.Integer(
        required=True, metadata={"description": "Turns per Action: no game starts past it"}
    )
    horizon = fields.Integer(required=True, metadata={"description": "Turns per game at most"})
    player = fields.String(required=True, metadata={"description": "How the player plays"})
    enemy = fields.String(required=True, metadata={"description": "How the enemy plays"})


class SalvoSoloAdviceResult(Schema):
    best_action = _action()
    actions = fields.List(
        fields.Nested(SalvoSoloAdvisedActionSchema),
        required=True,
        metadata={"description": "Each Action the player may take, judged"},
    )
    enemy_action = ACTION.field(required=True, allow_none=True)
    method = fields.Nested(SalvoSoloAdviceMethodSchema, required=True)


# --- the /odds pictures in words (service/http/pictures.py reads what these return) -------

HIT_KINDS = {"F": "flotation", "S": "speed", "T": "turret"}
STRADDLE_WORDS = {
    "NE": "No effect",
    "Special": "Special damage: roll on the Special Damage table",
    "Critical": "Critical: roll on the Critical table",
}


def hit_counts(letters: str) -> dict[str, int]:
    """F, S and T hits (e.g. "FFS") as counts of each kind, the way a picture says them."""
    return {f"{kind}_hits": letters.count(code) for code, kind in HIT_KINDS.items()}


def _straddle_words(result: Mapping[str, Any]) -> Mapping[str, Any]:
    return {"outcome": STRADDLE_WORDS.get(result["outcome"]), **hit_counts(result["hits"])}


def _named_hits(result: Mapping[str, Any]) -> Mapping[str, Any]:
    return {**result, **hit_counts(result["hits"]), "hits": None}


def _torpedo_words(result: Mapping[str, Any]) -> Mapping[str, Any]:
    return hit_counts(result["hits"]) if result["hit"] else {"outcome": "Miss"}


def _enemy_action_words(result: Mapping[str, Any]) -> Mapping[str, Any]:
    name = tables.ACTION_EFFECTS[result["action"]]["name"]
    why = result["reason"]
    return {"outcome": name if why == "rolled" else f"{name}: {why}"}


def _attack_words(result: Mapping[str, Any]) -> Mapping[str, Any]:
    """The straddle first (a miss says only that), then the damage, then its results."""
    first = ("straddled", "flotation_hits", "speed_hits", "turret_hits", "fire_control_lost")
    said = {key: result[key] for key in first} | dict(result)
    return said if result["straddled"] else {**said, "outcome": "Miss (no straddle)"}


STEP_WORDS: dict[str, Callable[[Mapping[str, Any]], Mapping[str, Any]]] = {
    "initiative": lambda result: {"outcome": f"{result['first'].capitalize()} acts first"},
    "enemy-action": _enemy_action_words,
    "fire": lambda result: {"outcome": "Straddle" if result["straddle"] else "Miss"},
    "straddle": _straddle_words,
    "special-damage": _named_hits,
    "critical": _named_hits,
    "torpedo": _torpedo_words,
    "end-of-turn": lambda result: {
        "outcome": "Game over" if result["game_over"] else "The game goes on"
    },
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
        result=SalvoSoloWeatherResult,
        build=no_input,
        example={"dice": SEED},
    ),
    StepHTTP(
        name="range",
        inputs=SalvoSoloRangeInputs,
        result=SalvoSoloRangeResult,
        build=inputs(steps.RangeInput),
        example={"weather": "Fair", "dice": {"values": [4, 5]}},
    ),
    StepHTTP(
        name="initiative",
        words=STEP_WORDS["initiative"],
        inputs=SalvoSoloInitiativeInputs,
        result=SalvoSoloInitiativeResult,
        build=inputs(steps.InitiativeInput),
        example={"player": AJAX, "enemy": SPEE, "dice": SEED},
    ),
    StepHTTP(
        name="enemy-action",
        words=STEP_WORDS["enemy-action"],
        inputs=SalvoSoloEnemyActionInputs,
        result=SalvoSoloEnemyActionResult,
        build=inputs(steps.EnemyActionInput),
        example={"enemy": SPEE, "player": AJAX, "last_action": None, "dice": SEED},
    ),
    StepHTTP(
        name="maneuver",
        inputs=SalvoSoloManeuverInputs,
        result=SalvoSoloManeuverResult,
        build=inputs(steps.ManeuverInput),
        example={"range": "Long", "player_action": "C", "enemy_action": "OB"},
    ),
    StepHTTP(
        name="fire",
        words=STEP_WORDS["fire"],
        inputs=SalvoSoloFireInputs,
        result=SalvoSoloFireResult,
        build=inputs(steps.FireInput),
        example={"range": "Long", "weather": "Fair", "previously_straddled": False, "dice": SEED},
    ),
    StepHTTP(
        name="straddle",
        words=STEP_WORDS["straddle"],
        inputs=SalvoSoloStraddleInputs,
        result=SalvoSoloStraddleResult,
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
        result=SalvoSoloSpecialDamageResult,
        build=no_input,
        example={"dice": SEED},
    ),
    StepHTTP(
        name="critical",
        words=STEP_WORDS["critical"],
        inputs=SalvoSoloCriticalInputs,
        result=SalvoSoloCriticalResult,
        build=inputs(steps.CriticalInput),
        example={"target": SPEE, "range": "Long", "dice": {"values": [6, 6, 5, 4]}},
    ),
    StepHTTP(
        name="torpedo",
        words=STEP_WORDS["torpedo"],
        inputs=SalvoSoloTorpedoInputs,
        result=SalvoSoloTorpedoResult,
        build=inputs(steps.TorpedoInput),
        example={"firer": AJAX, "target": SPEE, "range": "Short", "weather": "Fair", "dice": SEED},
    ),
    StepHTTP(
        name="damage",
        inputs=SalvoSoloDamageInputs,
        result=SalvoSoloDamageResult,
        build=inputs(steps.DamageInput),
        example={"ship": SPEE, "hits": "FS", "fire_control_lost": False},
    ),
    StepHTTP(
        name="end-of-turn",
        words=STEP_WORDS["end-of-turn"],
        inputs=SalvoSoloEndOfTurnInputs,
        result=SalvoSoloEndOfTurnResult,
        build=inputs(steps.EndOfTurnInput),
        example={"weather": "Misty", "player_action": "C", "enemy_action": "OB", "dice": SEED},
    ),
    StepHTTP(
        name="attack",
        words=STEP_WORDS["attack"],
        inputs=SalvoSoloAttackInputs,
        result=SalvoSoloAttackResult,
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
        odds_result=SalvoSoloAttackOddsResult,
    ),
    StepHTTP(
        name="turn",
        inputs=SalvoSoloTurnInputs,
        result=SalvoSoloTurnResult,
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
        result=SalvoSoloAdviceResult,
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
