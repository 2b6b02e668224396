"""HTTP face of Fleet Action: request schemas, one line per step to register it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_smorest import Blueprint
from marshmallow import Schema, fields, post_load, validate

from ...http.components import EnumType
from ...http.contract import RulesetAPI
from ...http.fields import StrictBoolean, StrictInteger, inches
from ...http.steps import NoInputs, StepHTTP, inputs, no_input, register_steps
from . import RULESET, results, steps, tables
from .ships import Ship

blp = Blueprint(
    "fleet-action",
    __name__,
    url_prefix="/v1/rulesets/fleet-action",
    description="Fleet Action: quick fleet miniatures with D6 dice pools and armour saves.",
)

MAX_HULL = max(row.hull for row in tables.SHIP_CLASSES.values())
MAX_INCHES = 1000


SHIP_CLASS = EnumType.of(results.FleetActionShipClass)
CREW = EnumType.of(results.FleetActionCrew)
VISIBILITY = EnumType(
    "FleetActionVisibility",
    tables.VISIBILITY,
    "Clear; Poor (rain, dusk) +1 to Hit; Terrible (fog, night) +2.",
)


# --- ships in ----------------------------------------------------------------------------


class FleetActionShipSchema(Schema):
    """A ship by its class, with its crew and the Hull it has lost so far."""

    ship_class = SHIP_CLASS.field(
        required=True, data_key="class", metadata={"example": "Destroyer"}
    )
    crew = CREW.field()
    name = fields.String(
        validate=validate.Length(min=1, max=60),
        metadata={"description": "What the players call it", "example": "Destroyer 1"},
    )
    hull_lost = StrictInteger(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_HULL),
        metadata={"description": "Hull points lost so far (at most the class's Hull)"},
    )

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Ship:
        return Ship.of(**data)


class FleetActionFirerSchema(FleetActionShipSchema):
    """The firing ship: its crew quality is needed, it sets the To Hit number."""

    crew = CREW.field(required=True, metadata={"example": "Veteran"})


# --- requests ------------------------------------------------------------------------------


class FleetActionAttackInputs(Schema):
    firer = fields.Nested(FleetActionFirerSchema, required=True)
    target = fields.Nested(FleetActionShipSchema, required=True)
    range = inches(
        0,
        MAX_INCHES,
        required=True,
        metadata={"description": "Distance to the target in inches, measured by the players"},
    )
    line_of_sight = StrictBoolean(
        required=True, metadata={"description": "Can the firer see the target?"}
    )
    visibility = VISIBILITY.field(load_default="Clear")


class FleetActionDamageInputs(Schema):
    ship = fields.Nested(FleetActionShipSchema, required=True)
    hull_lost = StrictInteger(
        required=True,
        validate=validate.Range(min=0, max=100),
        metadata={"description": "Hull points lost now"},
    )
    catastrophic = StrictBoolean(
        load_default=False, metadata={"description": "A catastrophic hit: sunk outright"}
    )


# --- registration ---------------------------------------------------------------------------

SEED = {"seed": "game-42", "nonce": 1}
BATTLESHIP = {"class": "Battleship", "crew": "Veteran"}
DESTROYER = {"class": "Destroyer", "crew": "Seasoned", "name": "Destroyer 1"}


def attack_words(result: Mapping[str, Any]) -> Mapping[str, Any]:
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


STEPS = [
    StepHTTP(
        name="initiative",
        inputs=NoInputs,
        result=results.FleetActionInitiativeResult,
        build=no_input,
        example={"dice": {"values": [3, 5]}},
    ),
    StepHTTP(
        name="fire",
        words=attack_words,
        inputs=FleetActionAttackInputs,
        result=results.FleetActionFireResult,
        build=inputs(steps.FireInput),
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
        inputs=FleetActionAttackInputs,
        result=results.FleetActionTorpedoResult,
        build=inputs(steps.TorpedoInput),
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
        inputs=FleetActionDamageInputs,
        result=results.FleetActionDamageResult,
        build=inputs(steps.DamageInput),
        example={
            "ship": {"class": "Cruiser", "hull_lost": 1},
            "hull_lost": 2,
            "catastrophic": False,
        },
    ),
]

register_steps(blp, RULESET, STEPS)

API = RulesetAPI(ruleset=RULESET, blueprint=blp, results=results.STEP_RESULTS)
