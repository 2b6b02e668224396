"""HTTP face of Dreadnought: request schemas, one line per step to register it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_smorest import Blueprint
from marshmallow import Schema, fields, post_load, validate

from ...engine.errors import LimitError
from ...http.components import EnumType
from ...http.contract import RulesetAPI
from ...http.derive import same_shape
from ...http.fields import BoundedList, StrictBoolean, count, inches
from ...http.ship_reference import ship_reference
from ...http.steps import StepHTTP, inputs, register_steps
from . import RULESET, results, steps, tables
from .ships import ALIASES, CATALOG, Battery, Ship, ShipCard, ShipState

blp = Blueprint(
    "dreadnought",
    __name__,
    url_prefix="/v1/rulesets/dreadnought",
    description="Dreadnought: WWI fleet miniatures, three-dice gunnery (2D8 + gunner die).",
)


SHIP_CLASS = EnumType.of(results.DreadnoughtShipClass)
SHIP_NAME = EnumType(
    "DreadnoughtShipName",
    CATALOG,
    "A record card of the catalog (GET /v1/rulesets/dreadnought/ships).",
    aliases=ALIASES,
)
NATIONALITY = EnumType("DreadnoughtNationality", tables.NATIONALITIES, "A ship's navy.")
CREW = EnumType(
    "DreadnoughtCrew",
    tables.CREWS,
    "Crew quality: good British crews roll a D10 gunner die (Germans always).",
)
RUDDER = EnumType.of(results.DreadnoughtRudder)
THROW = EnumType.of(results.DreadnoughtThrow)
CRITICAL_EFFECT = EnumType.of(results.DreadnoughtCriticalEffect)
# Every odds branch looks through a card's batteries; with 10 a fire/odds at the branch cap
# took 51 ms of CPU, past the 50 ms budget (docs/performance.md). Four calibres a card is
# more than the ships of the rules carry (main, secondary, tertiary, anti-torpedo).
MAX_BATTERIES = 4


# The most damage a state records; a damage step that would pass it is refused (a limit), so
# every state the damage step hands back is accepted again.
MAX_DAMAGE = 10_000


def _damage_input(args: dict[str, Any]) -> steps.DamageInput:
    taken = args["ship"].state.damage_taken
    if taken + args["points"] > MAX_DAMAGE:
        raise LimitError(
            f"damage_taken {taken} + points {args['points']} passes {MAX_DAMAGE}, the most a "
            "ship's state records (a ship breaks up long before)",
            field="points",
        )
    return steps.DamageInput(**args)


def _class_name(name: str) -> str:
    return SHIP_CLASS.canonical(name)


# --- ships in ---------------------------------------------------------------------------


class DreadnoughtBatterySchema(Schema):
    """All guns of one calibre: they fire as one battery."""

    calibre = inches(1, 20, required=True, metadata={"description": "Bore, inches"})
    barrels = count(1, 40, required=True)
    turrets = count(
        1, 40, metadata={"description": "Left out: twin turrets (barrels / 2, rounded up)"}
    )

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Battery:
        return Battery(**data)


class DreadnoughtShipCardSchema(Schema):
    """A ship record card: the class's figures unless the card gives its own."""

    name = fields.String(required=True, validate=validate.Length(min=1, max=60))
    ship_class = SHIP_CLASS.field(required=True, data_key="class")
    nationality = NATIONALITY.field(required=True)
    crew = CREW.field(required=True)
    batteries = BoundedList(
        fields.Nested(DreadnoughtBatterySchema), required=True, least=1, most=MAX_BATTERIES
    )
    speed = count(0, 30, metadata={"description": "Inches; left out: the class's higher figure"})
    to_hit = count(2, 40)
    damage_reduction = count(0, 20)
    damage_boxes = count(1, 500)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ShipCard:
        data["ship_class"] = _class_name(data["ship_class"])
        data["batteries"] = tuple(data["batteries"])
        return ShipCard(**data)


class DreadnoughtShipStateSchema(Schema):
    """What has happened to the ship so far: sent in, and handed back by every answer that
    changes it."""

    damage_taken = count(
        0,
        MAX_DAMAGE,
        load_default=0,
        metadata={"description": f"At most {MAX_DAMAGE}: damage that would pass it is a 422"},
    )
    turrets_lost = count(0, 40, load_default=0)
    director_destroyed = StrictBoolean(load_default=False)
    no_orders_turns = count(0, tables.BRIDGE_NO_ORDERS_TURNS, load_default=0)
    rudder_jammed = RUDDER.field(load_default=None, allow_none=True)
    destroyed = StrictBoolean(load_default=False)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ShipState:
        return ShipState(**data)


ship_field = ship_reference(
    "Dreadnought",
    SHIP_NAME,
    CATALOG,
    DreadnoughtShipCardSchema,
    DreadnoughtShipStateSchema,
    Ship,
    ShipState,
)


Distance = inches(0, 1000, required=True, metadata={"description": "Inches on the table"})

# --- requests -----------------------------------------------------------------------------


class DreadnoughtRangeInputs(Schema):
    calibre = inches(1, 20, required=True, metadata={"description": "Bore, inches"})
    target_class = SHIP_CLASS.field(required=True)
    distance = Distance


class DreadnoughtFireInputs(Schema):
    firer = ship_field(required=True)
    battery = inches(
        1, 20, required=True, metadata={"description": "Calibre of the firing battery, inches"}
    )
    target = ship_field(required=True)
    distance = Distance
    firer_turned = StrictBoolean(load_default=False)
    target_turned = StrictBoolean(load_default=False)
    first_time_at_target = StrictBoolean(load_default=False)
    more_than_one_ship_firing = StrictBoolean(load_default=False)
    not_under_fire = StrictBoolean(load_default=False)


class DreadnoughtCriticalInputs(Schema):
    target = ship_field(required=True)
    throw = THROW.field(required=True)


_TORPEDO_FLAG = (
    'Only with rules {"torpedo-throws": "gunnery-modifiers"}: the gun to-hit modifier of '
    "the same name applies to the torpedo throw (true under the default reading is a 422)"
)


class DreadnoughtTorpedoInputs(Schema):
    firer = ship_field(required=True)
    target = ship_field(required=True)
    distance = inches(
        0,
        1000,
        required=True,
        metadata={"description": "From the torpedoes' firing point to the target now, inches"},
    )
    torpedoes = count(1, 20, load_default=1)
    # The gunnery to-hit flags: played only under rules.torpedo-throws "gunnery-modifiers"
    # (a flag set under the default reading is refused, never silently ignored).
    firer_turned = StrictBoolean(load_default=False, metadata={"description": _TORPEDO_FLAG})
    target_turned = StrictBoolean(load_default=False, metadata={"description": _TORPEDO_FLAG})
    first_time_at_target = StrictBoolean(
        load_default=False, metadata={"description": _TORPEDO_FLAG}
    )
    more_than_one_ship_firing = StrictBoolean(
        load_default=False, metadata={"description": _TORPEDO_FLAG}
    )
    not_under_fire = StrictBoolean(load_default=False, metadata={"description": _TORPEDO_FLAG})


class DreadnoughtDamageInputs(Schema):
    ship = ship_field(required=True)
    points = count(0, 10_000, required=True, metadata={"description": "After damage reduction"})
    critical_effect = CRITICAL_EFFECT.field(load_default="no effect")


class DreadnoughtRudderInputs(Schema):
    ship = ship_field(required=True)


# --- results ------------------------------------------------------------------------------

# A ship's state is handed back and sent again: one component, the request's, with its limits.
same_shape(results.DreadnoughtShipState, DreadnoughtShipStateSchema)


# --- registration ---------------------------------------------------------------------------

QE = {"ship": "Queen Elizabeth"}
DERFFLINGER = {"ship": "Derfflinger"}
SEED = {"seed": "jutland", "nonce": 1}


def hit_words(result: Mapping[str, Any]) -> Mapping[str, Any]:
    """A shot's or a torpedo's outcome as its /odds picture says it: a miss, or the damage
    and the critical, by name (the band, die and score needed are the same in every one)."""
    critical = result["critical"]
    return {
        "hit": result["hit"],
        "damage": result["damage"],
        "critical": critical["name"] if critical else None,
    }


def rudder_words(result: Mapping[str, Any]) -> Mapping[str, Any]:
    return {"outcome": "Rudder repaired" if result["repaired"] else "Rudder still jammed"}


STEPS = [
    StepHTTP(
        name="range",
        inputs=DreadnoughtRangeInputs,
        result=results.DreadnoughtRangeResult,
        build=lambda args: steps.RangeInput(
            args["calibre"], _class_name(args["target_class"]), args["distance"]
        ),
        example={"calibre": 8, "target_class": "Armoured Cruiser", "distance": 12},
    ),
    StepHTTP(
        name="fire",
        words=hit_words,
        inputs=DreadnoughtFireInputs,
        result=results.DreadnoughtFireResult,
        build=inputs(steps.FireInput),
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
        inputs=DreadnoughtCriticalInputs,
        result=results.DreadnoughtCriticalResult,
        build=inputs(steps.CriticalInput),
        example={"target": {"ship": "Lion"}, "throw": "double 8", "dice": {"values": [5]}},
    ),
    StepHTTP(
        name="torpedo",
        words=hit_words,
        inputs=DreadnoughtTorpedoInputs,
        result=results.DreadnoughtTorpedoResult,
        build=inputs(steps.TorpedoInput),
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
        inputs=DreadnoughtDamageInputs,
        result=results.DreadnoughtDamageResult,
        build=_damage_input,
        example={"ship": {"ship": "Lion", "state": {"damage_taken": 12}}, "points": 9},
    ),
    StepHTTP(
        name="rudder",
        words=rudder_words,
        inputs=DreadnoughtRudderInputs,
        result=results.DreadnoughtRudderResult,
        build=inputs(steps.RudderInput),
        example={"ship": {"ship": "Seydlitz", "state": {"rudder_jammed": "left"}}, "dice": SEED},
    ),
]

register_steps(blp, RULESET, STEPS)

API = RulesetAPI(
    ruleset=RULESET,
    blueprint=blp,
    results=results.STEP_RESULTS,
    shape_refs={"class": SHIP_CLASS.name, "nationality": NATIONALITY.name, "crew": CREW.name},
)
