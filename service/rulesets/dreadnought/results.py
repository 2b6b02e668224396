"""What each dreadnought step hands back, as typed dicts: one per result and nested shape.

Each shape is defined here once. The step functions return these, so mypy checks every
look-up a composite step makes in the result of another; the answer schemas and their
OpenAPI components are derived from them (service/http/derive.py), and each fixed set
(``Annotated[Literal[...], Fixed(...)]``) is the one definition its tables, types and enum
component read (service/engine/typed.py).

No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict whose
annotations are strings counts its NotRequired keys as required at run time, and the
derivation reads them.
"""

from typing import Annotated, Literal, NotRequired, TypedDict

from ...engine.typed import Doc, Fixed

DreadnoughtWeapon = Annotated[
    Literal['<5.5"', '5.5"-<7"', '7"-9"', '>9"-<11"', '11"-12"', '13.5"-15"'],
    Fixed("DreadnoughtWeapon", "A row of the Weapons Effect table, by calibre."),
]

DreadnoughtTargetWeight = Annotated[
    Literal["light", "heavy"],
    Fixed(
        "DreadnoughtTargetWeight",
        "light: Destroyers and Protected Cruisers; heavy: Armoured Cruisers and heavier.",
    ),
]

DreadnoughtRangeBand = Annotated[
    Literal["short", "medium", "long"],
    Fixed("DreadnoughtRangeBand", "A range band."),
]

DreadnoughtDamageColumn = Annotated[
    Literal["Low", "Medium", "High"],
    Fixed("DreadnoughtDamageColumn", "The damage column of a weapon row."),
]


class DreadnoughtRangeResult(TypedDict):
    weapon: DreadnoughtWeapon
    targets: DreadnoughtTargetWeight
    may_fire: bool
    band: Annotated[DreadnoughtRangeBand | None, Doc("null: none")]
    score_needed_change: int | None
    damage: DreadnoughtDamageColumn
    reason: str | None


DreadnoughtGunnerDie = Annotated[
    Literal["d10", "d8"],
    Fixed("DreadnoughtGunnerDie", "The gunner die rolled."),
]

DreadnoughtThrow = Annotated[
    Literal[
        "triples",
        "double 8",
        "double 7",
        "double 6",
        "double 5",
        "double 4",
        "double 3",
        "double 2",
        "double 1",
    ],
    Fixed("DreadnoughtThrow", "A throw that makes a critical hit: triples or a double."),
]

DreadnoughtCriticalEffect = Annotated[
    Literal[
        "no effect",
        "ship destroyed",
        "turret destroyed",
        "director destroyed",
        "bridge destroyed",
        "rudder jammed left",
        "rudder jammed right",
        "rudder jammed straight ahead",
    ],
    Fixed("DreadnoughtCriticalEffect", "What a critical hit does to a ship."),
]


class DreadnoughtCriticalResult(TypedDict):
    throw: DreadnoughtThrow
    name: str
    effect: DreadnoughtCriticalEffect


class DreadnoughtFireResult(TypedDict):
    weapon: DreadnoughtWeapon
    band: DreadnoughtRangeBand
    gunner_die: DreadnoughtGunnerDie
    score_needed: int
    hit: bool
    damage: Annotated[int, Doc("Points marked off")]
    critical: DreadnoughtCriticalResult | None


class DreadnoughtTorpedoResult(TypedDict):
    in_range: bool
    hit: bool
    score_needed: int
    damage: int
    critical: DreadnoughtCriticalResult | None


# "Protected cruiser and light cruiser are the same thing. Armoured Cruiser is the same as
# heavy cruiser": the other names a player may use for a class.
CLASS_ALIASES = {
    "Light Cruiser": "Protected Cruiser",
    "Heavy Cruiser": "Armoured Cruiser",
    "Armored Cruiser": "Armoured Cruiser",
    "Pre-Dreadnought": "Battleship",
}

DreadnoughtShipClass = Annotated[
    Literal[
        "Destroyer",
        "Protected Cruiser",
        "Armoured Cruiser",
        "Battlecruiser",
        "Battleship",
        "Dreadnought",
        "Super Dreadnought",
    ],
    Fixed(
        "DreadnoughtShipClass",
        "A ship class, lightest first (GET /v1/rulesets/dreadnought/ships).",
        aliases=CLASS_ALIASES,
    ),
]

DreadnoughtRudder = Annotated[
    Literal["left", "right", "straight ahead"],
    Fixed("DreadnoughtRudder", "Which way a jammed rudder is stuck."),
]


class DreadnoughtShipState(TypedDict):
    damage_taken: NotRequired[int]
    turrets_lost: NotRequired[int]
    director_destroyed: NotRequired[bool]
    no_orders_turns: NotRequired[int]
    rudder_jammed: NotRequired[DreadnoughtRudder | None]
    destroyed: NotRequired[bool]


class DreadnoughtBatteryStatus(TypedDict):
    calibre: float
    barrels: int
    primary: bool


DreadnoughtShipStatus = TypedDict(
    "DreadnoughtShipStatus",
    {
        "name": str,
        "class": DreadnoughtShipClass,
        "state": DreadnoughtShipState,
        "damage_boxes": int,
        "boxes_left": int,
        "damage_reduction": int,
        "speed": int,
        "turn_cost": int,
        "to_hit": int,
        "gunner_die": DreadnoughtGunnerDie,
        "batteries": list[DreadnoughtBatteryStatus],
        "sunk": bool,
    },
)


class DreadnoughtDamageResult(TypedDict):
    ship: DreadnoughtShipStatus
    newly_sunk: bool


class DreadnoughtRudderResult(TypedDict):
    repaired: bool
    ship: DreadnoughtShipStatus


# The result of each step, by step name (its schema is derived from it).
STEP_RESULTS: dict[str, type] = {
    "range": DreadnoughtRangeResult,
    "fire": DreadnoughtFireResult,
    "critical": DreadnoughtCriticalResult,
    "torpedo": DreadnoughtTorpedoResult,
    "damage": DreadnoughtDamageResult,
    "rudder": DreadnoughtRudderResult,
}
