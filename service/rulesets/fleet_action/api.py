"""HTTP face of Fleet Action: request schemas, one line per step to register it."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from flask_smorest import Blueprint
from marshmallow import Schema, fields, post_load, validate

from ...http import pictures
from ...http.document.components import EnumType
from ...http.document.derive import same_shape
from ...http.document.fields import BoundedList, StrictBoolean, StrictInteger, count, inches
from ...http.endpoints.contract import RulesetAPI
from ...http.endpoints.steps import NoInputs, StepHTTP, inputs, no_input, register_steps
from . import RULESET, results, steps, tables, turn_odds
from . import turn as fleet_turn
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
VISIBILITY = EnumType.of(results.FleetActionVisibility)
PLAYER = EnumType.of(results.FleetActionPlayer)
WEAPON = EnumType.of(results.FleetActionWeapon)
ODDS_METHOD = EnumType.of(results.FleetActionTurnOddsMethodChoice)
MAX_SHIPS = 2 * tables.MAX_SHIPS_PER_SIDE
MAX_NAME = 60


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


# --- the turn ------------------------------------------------------------------------------


def _name(**kwargs: Any) -> fields.String:
    return fields.String(validate=validate.Length(min=1, max=MAX_NAME), **kwargs)


class FleetActionTurnShipSchema(Schema):
    """A ship in the action: its own name, whose it is, its class, crew and Hull lost."""

    name = _name(required=True, metadata={"example": "Destroyer 1"})
    player = PLAYER.field(required=True)
    ship_class = SHIP_CLASS.field(required=True, data_key="class")
    crew = CREW.field(required=True)
    hull_lost = StrictInteger(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_HULL),
        metadata={"description": "Hull points lost so far (at most the class's Hull)"},
    )

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> fleet_turn.TurnShip:
        player = data.pop("player")
        return fleet_turn.TurnShip(player, Ship.of(**data))


class FleetActionTurnStateSchema(Schema):
    """The action between calls: a turn call hands it back as `result.state`, and the next
    call takes it as `state`, as it is. A new game is the turn number and the ships."""

    turn = count(
        1,
        tables.MAX_TURN,
        required=True,
        metadata={"description": f"The turn being played; the count stops at {tables.MAX_TURN:,}"},
    )
    ships = BoundedList(
        fields.Nested(FleetActionTurnShipSchema),
        required=True,
        least=2,
        most=MAX_SHIPS,
        metadata={
            "description": f"Every ship of both players, sunk or afloat: 1 to "
            f"{tables.MAX_SHIPS_PER_SIDE} a player, each with a name of its own"
        },
    )
    visibility = VISIBILITY.field(load_default="Clear")
    first_pick = PLAYER.field(
        load_default=None,
        allow_none=True,
        metadata={"description": "Who picked first this turn; null: initiative to roll"},
    )
    next_pick = PLAYER.field(
        load_default=None,
        allow_none=True,
        metadata={"description": "Whose pick is next; null: initiative to roll, or game over"},
    )
    gone = BoundedList(
        _name(),
        load_default=list,
        most=MAX_SHIPS,
        metadata={"description": "The ships that have gone this turn, in order"},
    )

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> fleet_turn.TurnState:
        return fleet_turn.TurnState(
            turn=data["turn"],
            ships=tuple(data["ships"]),
            visibility=data["visibility"],
            first_pick=data["first_pick"],
            next_pick=data["next_pick"],
            gone=tuple(data["gone"]),
        )


# What the players measured, sent when it applies (null or left out: not given).
_MEASURED: dict[str, Any] = {"load_default": None, "allow_none": True}


def _inches(description: str, most: float = MAX_INCHES) -> Any:
    return inches(0, most, **_MEASURED, metadata={"description": description})


class FleetActionActivationSchema(Schema):
    """One ship's go as the players measured it on the table: its move, then its fire."""

    ship = _name(required=True, metadata={"description": "The ship picked, by name"})
    weapon = WEAPON.field(required=True)
    target = _name(**_MEASURED, metadata={"description": "The enemy it fires at (not with none)"})
    range = _inches("Inches to the target, measured after the move")
    line_of_sight = StrictBoolean(
        **_MEASURED, metadata={"description": "Can it see the target after its move?"}
    )
    moved = _inches("Inches moved, checked against the class's Speed")
    turned = _inches(f"Degrees turned in the move, at most {tables.MAX_TURN_DEGREES}", 360)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> fleet_turn.Activation:
        return fleet_turn.Activation(**data)


class FleetActionTurnInputs(Schema):
    state = fields.Nested(FleetActionTurnStateSchema, required=True)
    activation = fields.Nested(
        FleetActionActivationSchema,
        load_default=None,
        metadata={
            "description": "Leave out to roll initiative when the turn starts (no first_pick); "
            "afterwards the one ship that goes this call"
        },
    )


class FleetActionTurnOddsInputs(Schema):
    state = fields.Nested(
        FleetActionTurnStateSchema,
        required=True,
        metadata={"description": "The action as a turn call hands it back (`result.state`)"},
    )
    fire = BoundedList(
        fields.Nested(FleetActionActivationSchema),
        required=True,
        least=1,
        most=MAX_SHIPS,
        metadata={
            "description": "The attacks declared for the rest of the turn, in the order the "
            "ships will go, each ship once"
        },
    )
    method = ODDS_METHOD.field(load_default="auto")

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        return {**data, "fire": tuple(data["fire"])}


# What a turn hands back that the next call sends again is one component, the request's.
same_shape(results.FleetActionTurnShip, FleetActionTurnShipSchema)
same_shape(results.FleetActionTurnState, FleetActionTurnStateSchema)


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
        inputs=FleetActionTurnInputs,
        result=results.FleetActionTurnResult,
        build=inputs(fleet_turn.TurnInput),
        example={
            "state": EXAMPLE_STATE,
            "activation": BATTLESHIP_FIRES,
            "dice": {"values": [2, 4, 5, 1, 6, 3, 5, 2, 4]},
        },
    ),
    StepHTTP(
        name="turn-odds",
        inputs=FleetActionTurnOddsInputs,
        result=results.FleetActionTurnOddsResult,
        build=inputs(turn_odds.TurnOddsInput),
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
