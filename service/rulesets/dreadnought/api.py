"""HTTP face of Dreadnought: request schemas, one line per step to register it."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Annotated, Any, TypedDict

from flask_smorest import Blueprint
from marshmallow import Schema, fields, post_load, validate

from ...engine.errors import LimitError
from ...engine.typed import Headline, Landed
from ...http import pictures
from ...http.document.components import EnumType
from ...http.document.derive import same_shape
from ...http.document.fields import BoundedList, StrictBoolean, count, inches
from ...http.endpoints.contract import RulesetAPI
from ...http.endpoints.ship_reference import ship_reference
from ...http.endpoints.steps import StepHTTP, inputs, register_steps
from . import RULESET, results, steps, tables
from .ships import CATALOG, Battery, Ship, ShipCard, ShipState
from .turn import (
    MAX_PLOT,
    MAX_SALVOES,
    MAX_SHIPS,
    MAX_TURN,
    ActionShip,
    ActionState,
    Declaration,
    FiredAt,
    GunFire,
    TorpedoSalvo,
    TurnInput,
)

blp = Blueprint(
    "dreadnought",
    __name__,
    url_prefix="/v1/rulesets/dreadnought",
    description="Dreadnought: WWI fleet miniatures, three-dice gunnery (2D8 + gunner die).",
)


SHIP_CLASS = EnumType.of(results.DreadnoughtShipClass)
SHIP_NAME = EnumType.of(results.DreadnoughtShipName)
NATIONALITY = EnumType.of(results.DreadnoughtNationality)
CREW = EnumType.of(results.DreadnoughtCrew)
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
    'Under rules {"torpedo-throws": "gunnery-modifiers"}, the default: the gun to-hit '
    "modifier of the same name applies to the torpedo throw (true under "
    '"torpedo-bonus-only" is a 422)'
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
    # The gunnery to-hit flags: played under rules.torpedo-throws "gunnery-modifiers", the
    # default (a flag set under "torpedo-bonus-only" is refused, never silently ignored).
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


# --- a whole turn -------------------------------------------------------------------------

FORMATION = EnumType.of(results.DreadnoughtFormation)
ShipName = fields.String(
    required=True,
    validate=validate.Length(min=1, max=60),
    metadata={"description": "A ship of the action, by its card's name"},
)


def _plot(description: str) -> fields.String:
    return fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=MAX_PLOT),
        metadata={"description": f"{description}; at most {MAX_PLOT} characters"},
    )


class DreadnoughtFiredAtSchema(Schema):
    target = ShipName
    turn = count(1, MAX_TURN, required=True)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> FiredAt:
        return FiredAt(**data)


class DreadnoughtActionShipSchema(Schema):
    """One ship of the action between turns, as a turn's answer hands it back."""

    side = fields.String(
        required=True,
        validate=validate.Length(min=1, max=40),
        metadata={"description": "The ship's side; ships of one side do not fire at each other"},
    )
    ship = ship_field(required=True)
    plot = _plot("Orders written last turn that this turn's move follows")
    fired_at = BoundedList(
        fields.Nested(DreadnoughtFiredAtSchema),
        most=MAX_SHIPS - 1,
        load_default=list,
        metadata={"description": "The ships its guns have fired at, each with the last turn"},
    )

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ActionShip:
        data["fired_at"] = tuple(data["fired_at"])
        return ActionShip(**data)


class DreadnoughtActionStateSchema(Schema):
    """Every ship of an action between turns: a turn's answer hands it back as
    `result.state`, and the next turn's request takes it as `state`, as it is."""

    turn = count(
        1,
        MAX_TURN,
        required=True,
        metadata={
            "description": f"The turn to play. The count stops at {MAX_TURN}: a turn "
            f"played at {MAX_TURN} hands back {MAX_TURN}"
        },
    )
    ships = BoundedList(
        fields.Nested(DreadnoughtActionShipSchema),
        required=True,
        least=1,
        most=MAX_SHIPS,
        metadata={"description": f"At most {MAX_SHIPS} ships, sunk ones too"},
    )

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> ActionState:
        return ActionState(data["turn"], tuple(data["ships"]))


class DreadnoughtGunFireSchema(Schema):
    """One battery's fire this turn."""

    battery = inches(
        1, 20, required=True, metadata={"description": "Calibre of the firing battery, inches"}
    )
    target = ShipName
    distance = inches(
        0, 1000, required=True, metadata={"description": "To the target after movement, inches"}
    )

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> GunFire:
        return GunFire(**data)


class DreadnoughtTorpedoSalvoSchema(Schema):
    """Torpedoes declared before movement, resolved after the guns."""

    target = ShipName
    distance = inches(
        0,
        1000,
        required=True,
        metadata={"description": "From the firing point to the target after movement, inches"},
    )
    torpedoes = count(1, 20, load_default=1)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> TorpedoSalvo:
        return TorpedoSalvo(**data)


class DreadnoughtDeclarationSchema(Schema):
    """What the players plotted, declared and measured for one ship this turn. A ship of the
    action with no declaration keeps to its plot (or straight on) and fires nothing."""

    ship = ShipName
    formation = FORMATION.field(load_default="other")
    enemy_within_6 = StrictBoolean(
        load_default=False, metadata={"description": 'An enemy warship within 6" of the ship'}
    )
    orders = _plot(
        "The orders written this turn (line astern or an enemy within 6\": this turn's move; "
        "otherwise next turn's)"
    )
    turned = StrictBoolean(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "The ship turned this turn, as measured; left out: false, or what "
            "its rudder or a missing plot decides (ruling jammed-rudder, orders-this-turn)"
        },
    )
    fire = BoundedList(
        fields.Nested(DreadnoughtGunFireSchema),
        most=MAX_BATTERIES,
        load_default=list,
        metadata={"description": f"At most {MAX_BATTERIES}: each battery fires once a turn"},
    )
    torpedoes = BoundedList(
        fields.Nested(DreadnoughtTorpedoSalvoSchema),
        most=MAX_SALVOES,
        load_default=list,
        metadata={"description": f"At most {MAX_SALVOES} torpedo salvoes a turn"},
    )

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Declaration:
        data["fire"] = tuple(data["fire"])
        data["torpedoes"] = tuple(data["torpedoes"])
        return Declaration(**data)


class DreadnoughtTurnInputs(Schema):
    state = fields.Nested(DreadnoughtActionStateSchema, required=True)
    declarations = BoundedList(
        fields.Nested(DreadnoughtDeclarationSchema),
        most=MAX_SHIPS,
        load_default=list,
        metadata={"description": f"At most one per ship ({MAX_SHIPS})"},
    )


def _turn_input(args: dict[str, Any]) -> TurnInput:
    return TurnInput(args["state"], tuple(args["declarations"]))


# --- results ------------------------------------------------------------------------------

# What a result hands back that a later request sends again is one component, the
# request's, with its limits: a ship's state, and an action between turns.
same_shape(results.DreadnoughtShipState, DreadnoughtShipStateSchema)
same_shape(results.DreadnoughtActionState, DreadnoughtActionStateSchema)


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
    StepHTTP(
        name="turn",
        inputs=DreadnoughtTurnInputs,
        result=results.DreadnoughtTurnResult,
        build=_turn_input,
        example=TURN_EXAMPLE,
    ),
    StepHTTP(
        name="turn-odds",
        inputs=DreadnoughtTurnInputs,
        result=results.DreadnoughtTurnOddsResult,
        build=_turn_input,
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
