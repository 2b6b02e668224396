"""HTTP face of Salvo!: request and result schemas, one line per step to register it."""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint
from marshmallow import Schema, fields, post_load, validate

from ...http.common import StepHTTP, inputs, register_steps, ship_reference
from ...http.fields import StrictBoolean, choice, count
from . import RULESET, steps, tables
from .ships import ALIASES, CATALOG, FIRE_CONTROL_STATES, MAX_HITS, Ship, ShipCard, ShipState

blp = Blueprint(
    "salvo-solo",
    __name__,
    url_prefix="/v1/rulesets/salvo-solo",
    description="Salvo!: solitaire WWII gunnery duel driven by tables.",
)

Range = fields.String(required=True, validate=validate.OneOf(tables.RANGES))


# --- ships in ---------------------------------------------------------------------------


class SalvoSoloShipCardSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=60))
    type = choice(tables.SHIP_TYPES, required=True)
    guns = count(1, 20, required=True, metadata={"description": "Main gun size, inches"})
    broadside = count(-5, 10, required=True)
    stern = count(-5, 10, required=True)
    bow = count(-5, 10, required=True)
    flotation = count(1, 20, required=True)
    turret = count(1, 20, required=True)
    speed = count(0, 20, required=True, metadata={"description": "Maximum speed (x3 = knots)"})
    armor = count(0, 20, required=True)
    nation = fields.String(required=True, validate=validate.Length(min=1, max=40))
    provenance = choice(("card", "derived", "custom"), load_default="custom")

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ShipCard:
        return ShipCard(**data)


class SalvoSoloShipStateSchema(Schema):
    flotation_hits = count(0, MAX_HITS, load_default=0)
    turret_hits = count(0, MAX_HITS, load_default=0)
    speed_hits = count(0, MAX_HITS, load_default=0)
    fire_control = choice(FIRE_CONTROL_STATES, load_default="ready")

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ShipState:
        return ShipState(**data)


ship_field = ship_reference(
    "SalvoSolo",
    CATALOG,
    ALIASES,
    SalvoSoloShipCardSchema,
    SalvoSoloShipStateSchema,
    Ship,
    ShipState,
)


Weather = choice(tables.WEATHERS, required=True)
Action = choice(tables.ACTIONS, required=True, metadata={"description": "C, OB or W"})
Bearing = choice(("bow", "broadside", "stern"), required=True)


# --- requests -----------------------------------------------------------------------------


class NoInputs(Schema):
    pass


class RangeInputs(Schema):
    weather = Weather


class InitiativeInputs(Schema):
    player = ship_field(required=True)
    enemy = ship_field(required=True)


class EnemyActionInputs(Schema):
    enemy = ship_field(required=True)
    player = ship_field(required=True)
    last_action = choice(
        tables.ACTIONS,
        load_default=None,
        allow_none=True,
        metadata={"description": "The enemy's Act last turn; null on turn 1"},
    )


class ManeuverInputs(Schema):
    range = Range
    player_action = Action
    enemy_action = Action
    player = ship_field(metadata={"description": "Checks speed 0 forces OB"})
    enemy = ship_field()


class FireInputs(Schema):
    range = Range
    weather = Weather
    previously_straddled = StrictBoolean(load_default=False)
    firer = ship_field(metadata={"description": "Checks the ship can fire"})


class StraddleInputs(Schema):
    firer = ship_field(required=True)
    target = ship_field(required=True)
    range = Range
    guns_bearing = Bearing


class CriticalInputs(Schema):
    target = ship_field(required=True)
    range = Range


class TorpedoInputs(Schema):
    firer = ship_field(required=True)
    target = ship_field(required=True)
    range = Range
    weather = Weather


class DamageInputs(Schema):
    ship = ship_field(required=True)
    hits = fields.String(
        required=True,
        validate=validate.Regexp(r"^[FTS]{0,40}$"),
        metadata={"description": "F, T and S hits, e.g. FFST"},
    )
    fire_control_lost = StrictBoolean(load_default=False)


class EndOfTurnInputs(Schema):
    weather = Weather
    player_action = Action
    enemy_action = Action


class AttackInputs(Schema):
    firer = ship_field(required=True)
    target = ship_field(required=True)
    range = Range
    weather = Weather
    guns_bearing = Bearing
    previously_straddled = StrictBoolean(load_default=False)


class GameStateSchema(Schema):
    turn = count(1, 10_000, required=True)
    weather = Weather
    range = Range
    player = ship_field(required=True)
    enemy = ship_field(required=True)
    enemy_last_action = choice(tables.ACTIONS, load_default=None, allow_none=True)
    player_has_straddled = StrictBoolean(load_default=False)
    enemy_has_straddled = StrictBoolean(load_default=False)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> steps.GameState:
        return steps.GameState(**data)


class TurnInputs(Schema):
    state = fields.Nested(GameStateSchema, required=True)
    player_action = Action


# --- results ------------------------------------------------------------------------------


class ShipStateOut(Schema):
    flotation_hits = fields.Integer(required=True)
    turret_hits = fields.Integer(required=True)
    speed_hits = fields.Integer(required=True)
    fire_control = fields.String(required=True)


class ShipStatusSchema(Schema):
    name = fields.String(required=True)
    state = fields.Nested(ShipStateOut, required=True)
    speed = fields.Integer(required=True)
    sunk = fields.Boolean(required=True)
    can_fire = fields.Boolean(required=True)
    must_offer_broadside = fields.Boolean(required=True)


class WeatherResult(Schema):
    weather = fields.String(required=True)
    initial_range_modifier = fields.Integer(required=True)


class RangeResult(Schema):
    range = fields.String(required=True)


class InitiativeResult(Schema):
    first = fields.String(required=True, metadata={"description": "player or enemy"})


class EnemyActionResult(Schema):
    action = fields.String(required=True)
    reason = fields.String(required=True)


class ManeuverResult(Schema):
    range = fields.String(required=True, allow_none=True)
    range_change = fields.Integer(required=True)
    out_of_range = fields.Boolean(required=True)
    game_over = fields.Boolean(required=True)
    player_guns_bearing = fields.String(required=True)
    enemy_guns_bearing = fields.String(required=True)


class FireResult(Schema):
    straddle = fields.Boolean(required=True)
    shots_per_turn = fields.Integer(required=True)


class StraddleResult(Schema):
    outcome = fields.String(required=True)
    hits = fields.String(required=True)
    roll_next = fields.String(required=True, allow_none=True)


class SpecialDamageResult(Schema):
    name = fields.String(required=True)
    hits = fields.String(required=True)
    fire_control_lost = fields.Boolean(required=True)


class CriticalResult(Schema):
    name = fields.String(required=True)
    hits = fields.String(required=True)


class TorpedoResult(Schema):
    hit = fields.Boolean(required=True)
    hits = fields.String(required=True)


class DamageResult(Schema):
    ship = fields.Nested(ShipStatusSchema, required=True)
    newly_sunk = fields.Boolean(required=True)


class EndOfTurnResult(Schema):
    game_over = fields.Boolean(required=True)


class ShotSchema(Schema):
    shot = fields.Integer(required=True)
    fire = fields.Nested(FireResult, required=True)
    straddle = fields.Nested(StraddleResult)
    special_damage = fields.Nested(SpecialDamageResult)
    critical = fields.Nested(CriticalResult)
    hits = fields.String()
    target = fields.Nested(ShipStatusSchema, required=True)


class AttackResult(Schema):
    shots = fields.List(fields.Nested(ShotSchema), required=True)
    target = fields.Nested(ShipStatusSchema, required=True)
    straddled = fields.Boolean(required=True)
    target_sunk = fields.Boolean(required=True)


class GameStateOut(Schema):
    turn = fields.Integer(required=True)
    weather = fields.String(required=True)
    range = fields.String(required=True)
    player = ship_field(required=True)
    enemy = ship_field(required=True)
    enemy_last_action = fields.String(required=True, allow_none=True)
    player_has_straddled = fields.Boolean(required=True)
    enemy_has_straddled = fields.Boolean(required=True)


class EventSchema(Schema):
    phase = fields.String(required=True)
    side = fields.String()
    result = fields.Dict(required=True)


class TurnResult(Schema):
    game_over = fields.Boolean(required=True)
    winner = fields.String(required=True, allow_none=True)
    draw = fields.Boolean(required=True)
    reason = fields.String(required=True, allow_none=True)
    state = fields.Nested(GameStateOut, required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)


# --- registration ---------------------------------------------------------------------------

AJAX = {"ship": "Ajax"}
SPEE = {"ship": "Graf Spee"}
SEED = {"seed": "game-42", "nonce": 1}


STEPS = [
    StepHTTP("weather", NoInputs, WeatherResult, lambda _: steps.NoInput(), {"dice": SEED}),
    StepHTTP(
        "range",
        RangeInputs,
        RangeResult,
        inputs(steps.RangeInput),
        {"weather": "Fair", "dice": {"values": [4, 5]}},
    ),
    StepHTTP(
        "initiative",
        InitiativeInputs,
        InitiativeResult,
        inputs(steps.InitiativeInput),
        {"player": AJAX, "enemy": SPEE, "dice": SEED},
    ),
    StepHTTP(
        "enemy-action",
        EnemyActionInputs,
        EnemyActionResult,
        inputs(steps.EnemyActionInput),
        {"enemy": SPEE, "player": AJAX, "last_action": None, "dice": SEED},
    ),
    StepHTTP(
        "maneuver",
        ManeuverInputs,
        ManeuverResult,
        inputs(steps.ManeuverInput),
        {"range": "Long", "player_action": "C", "enemy_action": "OB"},
    ),
    StepHTTP(
        "fire",
        FireInputs,
        FireResult,
        inputs(steps.FireInput),
        {"range": "Long", "weather": "Fair", "previously_straddled": False, "dice": SEED},
    ),
    StepHTTP(
        "straddle",
        StraddleInputs,
        StraddleResult,
        inputs(steps.StraddleInput),
        {
            "firer": AJAX,
            "target": SPEE,
            "range": "Long",
            "guns_bearing": "bow",
            "dice": {"values": [6, 4, 2]},
        },
    ),
    StepHTTP(
        "special-damage", NoInputs, SpecialDamageResult, lambda _: steps.NoInput(), {"dice": SEED}
    ),
    StepHTTP(
        "critical",
        CriticalInputs,
        CriticalResult,
        inputs(steps.CriticalInput),
        {"target": SPEE, "range": "Long", "dice": {"values": [6, 6, 5, 4]}},
    ),
    StepHTTP(
        "torpedo",
        TorpedoInputs,
        TorpedoResult,
        inputs(steps.TorpedoInput),
        {"firer": AJAX, "target": SPEE, "range": "Short", "weather": "Fair", "dice": SEED},
    ),
    StepHTTP(
        "damage",
        DamageInputs,
        DamageResult,
        inputs(steps.DamageInput),
        {"ship": SPEE, "hits": "FS", "fire_control_lost": False},
    ),
    StepHTTP(
        "end-of-turn",
        EndOfTurnInputs,
        EndOfTurnResult,
        inputs(steps.EndOfTurnInput),
        {"weather": "Misty", "player_action": "C", "enemy_action": "OB", "dice": SEED},
    ),
    StepHTTP(
        "attack",
        AttackInputs,
        AttackResult,
        inputs(steps.AttackInput),
        {
            "firer": AJAX,
            "target": SPEE,
            "range": "Medium",
            "weather": "Fair",
            "guns_bearing": "broadside",
            "previously_straddled": False,
            "dice": SEED,
        },
    ),
    StepHTTP(
        "turn",
        TurnInputs,
        TurnResult,
        inputs(steps.TurnInput),
        {
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
]

register_steps(blp, RULESET, STEPS)
