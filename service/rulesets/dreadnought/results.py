"""What each dreadnought step hands back, as typed dicts: one per result and nested shape.

The step functions return these, so mypy checks every look-up a composite step makes in the
result of another; tests/test_typed_results.py holds each one equal, key for key (required
or not), to the step's answer `result` schema in the served OpenAPI document. Literal
aliases name the same fixed sets as the document's enum components.

No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict whose
annotations are strings counts its NotRequired keys as required at run time, and the
test reads them.
"""

from typing import Literal, NotRequired, TypedDict

DreadnoughtWeapon = Literal['<5.5"', '5.5"-<7"', '7"-9"', '>9"-<11"', '11"-12"', '13.5"-15"']

DreadnoughtTargetWeight = Literal["light", "heavy"]

DreadnoughtRangeBand = Literal["short", "medium", "long"]

DreadnoughtDamageColumn = Literal["Low", "Medium", "High"]


class DreadnoughtRangeResult(TypedDict):
    weapon: DreadnoughtWeapon
    targets: DreadnoughtTargetWeight
    may_fire: bool
    band: DreadnoughtRangeBand | None
    score_needed_change: int | None
    damage: DreadnoughtDamageColumn
    reason: str | None


DreadnoughtGunnerDie = Literal["d10", "d8"]

DreadnoughtThrow = Literal[
    "triples",
    "double 8",
    "double 7",
    "double 6",
    "double 5",
    "double 4",
    "double 3",
    "double 2",
    "double 1",
]

DreadnoughtCriticalEffect = Literal[
    "no effect",
    "ship destroyed",
    "turret destroyed",
    "director destroyed",
    "bridge destroyed",
    "rudder jammed left",
    "rudder jammed right",
    "rudder jammed straight ahead",
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
    damage: int
    critical: DreadnoughtCriticalResult | None


class DreadnoughtTorpedoResult(TypedDict):
    in_range: bool
    hit: bool
    score_needed: int
    damage: int
    critical: DreadnoughtCriticalResult | None


DreadnoughtShipClass = Literal[
    "Destroyer",
    "Protected Cruiser",
    "Armoured Cruiser",
    "Battlecruiser",
    "Battleship",
    "Dreadnought",
    "Super Dreadnought",
]

DreadnoughtRudder = Literal["left", "right", "straight ahead"]


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


# The result of each step, by step name (checked against the document by test).
STEP_RESULTS: dict[str, type] = {
    "range": DreadnoughtRangeResult,
    "fire": DreadnoughtFireResult,
    "critical": DreadnoughtCriticalResult,
    "torpedo": DreadnoughtTorpedoResult,
    "damage": DreadnoughtDamageResult,
    "rudder": DreadnoughtRudderResult,
}
