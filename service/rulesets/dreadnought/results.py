"""What each dreadnought step hands back, as typed dicts: one per result and nested shape.

Each shape is defined here once. The step functions return these, so mypy checks every
look-up a composite step makes in the result of another; the answer schemas and their
OpenAPI components are derived from them (service/http/document/derive.py), and each fixed set
(``Annotated[Literal[...], Fixed(...)]``) is the one definition its tables, types and enum
component read (service/engine/typed.py). What an answer hands back that a request sends
again (a ship's state, the action between turns) is a shape of the request (ships.py,
turn.py), named here by ``JsonOf``.

No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict whose
annotations are strings counts its NotRequired keys as required at run time, and the
derivation reads them.
"""

from typing import Annotated, Literal, TypedDict

from ...engine.typed import Doc, Fixed, Headline, JsonObject, JsonOf, Limits

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
    name: Annotated[str, Headline()]
    effect: Annotated[DreadnoughtCriticalEffect, Headline()]


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


class DreadnoughtBatteryStatus(TypedDict):
    calibre: float
    barrels: int
    primary: bool


DreadnoughtShipStatus = TypedDict(
    "DreadnoughtShipStatus",
    {
        "name": str,
        "class": DreadnoughtShipClass,
        "state": Annotated[JsonObject, JsonOf(f"{__package__}.ships.ShipState")],
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


# --- a whole turn -----------------------------------------------------------------------

DreadnoughtNationality = Annotated[
    Literal[
        "British",
        "German",
        "American",
        "Austro-Hungarian",
        "French",
        "Italian",
        "Japanese",
        "Russian",
        "Turkish",
        "other",
    ],
    Fixed("DreadnoughtNationality", "A ship's navy."),
]

DreadnoughtCrew = Annotated[
    Literal["good", "average"],
    Fixed(
        "DreadnoughtCrew",
        "Crew quality: good British crews roll a D10 gunner die (Germans always).",
    ),
]

# Other spellings of a catalog ship's name a player may type.
SHIP_NAME_ALIASES = {"Konig": "König", "Koenig": "König"}

DreadnoughtShipName = Annotated[
    Literal[
        "Queen Elizabeth",
        "Iron Duke",
        "Dreadnought",
        "König",
        "Lion",
        "Invincible",
        "Derfflinger",
        "Seydlitz",
        "Pommern",
        "Defence",
        "Southampton",
        "M-class destroyer",
        "V-class torpedo boat",
    ],
    Fixed(
        "DreadnoughtShipName",
        "A record card of the catalog (GET /v1/rulesets/dreadnought/ships).",
        aliases=SHIP_NAME_ALIASES,
    ),
]


DreadnoughtFormation = Annotated[
    Literal["line astern", "other"],
    Fixed("DreadnoughtFormation", "The ship's squadron formation as it plotted its orders."),
]

DreadnoughtMovesOn = Annotated[
    Literal["this turn's orders", "last turn's plot", "straight on", "its jammed rudder"],
    Fixed(
        "DreadnoughtMovesOn",
        "The orders a ship moved on this turn: written this turn (line astern, or an enemy "
        'within 6"), the plot written last turn, straight on at the same speed (no plot), or '
        "the same speed on its rudder jammed left or right (no plot).",
    ),
]


class DreadnoughtOrdersEvent(TypedDict):
    phase: Literal["orders"]
    ship: str
    moves_on: DreadnoughtMovesOn
    turned: Annotated[bool, Doc("The ship turned this turn (to-hit modifiers)")]
    plots_for_next_turn: Annotated[bool, Doc("Its orders written now take effect next turn")]
    reason: str


class DreadnoughtGunEvent(TypedDict):
    phase: Literal["fire"]
    ship: Annotated[str, Doc("The firer")]
    battery: Annotated[float, Doc("Calibre, inches")]
    target: str
    result: DreadnoughtFireResult


class DreadnoughtTorpedoEvent(TypedDict):
    phase: Literal["torpedo"]
    ship: Annotated[str, Doc("The firer")]
    target: str
    torpedoes: int
    result: DreadnoughtTorpedoResult


class DreadnoughtDamageEvent(TypedDict):
    phase: Literal["damage"]
    ship: str
    points: Annotated[int, Doc("Boxes marked off this turn, from every hit together")]
    effects: Annotated[list[DreadnoughtCriticalEffect], Doc("Critical effects, in fire order")]
    sunk: bool


class DreadnoughtRudderEvent(TypedDict):
    phase: Literal["rudder"]
    ship: str
    repaired: bool


class DreadnoughtBridgeEvent(TypedDict):
    phase: Literal["bridge"]
    ship: str
    no_orders_turns: Annotated[int, Doc("Turns left with no orders")]


# A turn's events, told apart by phase.
DreadnoughtTurnEvent = (
    DreadnoughtOrdersEvent
    | DreadnoughtGunEvent
    | DreadnoughtTorpedoEvent
    | DreadnoughtDamageEvent
    | DreadnoughtRudderEvent
    | DreadnoughtBridgeEvent
)


# The side of a ship of the action, as the players name it in the state's `ships`.
DreadnoughtSide = Annotated[
    str,
    Doc("The ship's side, as `state.ships` names it; ships of one side do not fire at each other"),
]


class DreadnoughtActionShipStatus(DreadnoughtShipStatus):
    """A ship of the action after the turn, with its side."""

    side: DreadnoughtSide


class DreadnoughtTurnResult(TypedDict):
    turn: Annotated[int, Doc("The turn played")]
    state: Annotated[
        JsonObject,
        JsonOf(f"{__package__}.turn.ActionState"),
        Doc("Send it back as the next turn's `state`"),
    ]
    ships: Annotated[
        list[DreadnoughtActionShipStatus], Doc("Every ship after the turn, state order")
    ]
    sunk: Annotated[list[str], Doc("Ships sunk this turn")]
    action_over: Annotated[bool, Doc("At most one side has a ship afloat")]
    winner: Annotated[str | None, Doc("The side left afloat once the action is over; else null")]
    events: Annotated[
        list[DreadnoughtTurnEvent], Doc("What happened, in order; told apart by `phase`")
    ]


DreadnoughtOddsKind = Annotated[
    Literal["exact", "seeded-games"],
    Fixed(
        "DreadnoughtOddsKind",
        "exact: every outcome enumerated, chances as fractions; seeded-games: sampled, "
        "shares with a 95% interval.",
    ),
]


class DreadnoughtChance(TypedDict):
    probability: Annotated[str, Doc("Exact fraction, or count/games", example="7/64")]
    p: float
    interval: Annotated[
        list[float] | None,
        Limits(length=2),
        Doc("95% Wilson score interval [low, high] of a sampled share; null when exact"),
    ]


class DreadnoughtDamageChance(TypedDict):
    points: Annotated[int, Doc("Boxes marked off this turn, counted up to the boxes left")]
    chance: DreadnoughtChance


class DreadnoughtCriticalChance(TypedDict):
    effect: DreadnoughtCriticalEffect
    chance: Annotated[DreadnoughtChance, Doc("At least one such critical this turn")]


class DreadnoughtShipOdds(TypedDict):
    ship: str
    side: DreadnoughtSide
    boxes_left: Annotated[int, Doc("Before the turn")]
    attacks: Annotated[int, Doc("Batteries and torpedo salvoes aimed at it")]
    sunk: DreadnoughtChance
    damage: Annotated[list[DreadnoughtDamageChance], Doc("Fewest points first")]
    criticals: Annotated[list[DreadnoughtCriticalChance], Doc("Each effect that can happen")]


class DreadnoughtOddsMethod(TypedDict):
    kind: DreadnoughtOddsKind
    branches: Annotated[
        int,
        Doc(
            "exact: the outcome pairs combined; seeded-games: the most the exact odds could "
            "have taken, past the limit"
        ),
    ]
    branch_limit: int
    games: Annotated[int | None, Doc("Seeded games played; null when exact")]
    algorithm: Annotated[
        str | None, Doc("How the games draw (docs/dreadnought-turn.md); null when exact")
    ]


class DreadnoughtTurnOddsResult(TypedDict):
    turn: int
    ships: Annotated[list[DreadnoughtShipOdds], Doc("Every ship afloat, state order")]
    method: DreadnoughtOddsMethod


# The result of each step, by step name (its schema is derived from it).
STEP_RESULTS: dict[str, type] = {
    "range": DreadnoughtRangeResult,
    "fire": DreadnoughtFireResult,
    "critical": DreadnoughtCriticalResult,
    "torpedo": DreadnoughtTorpedoResult,
    "damage": DreadnoughtDamageResult,
    "rudder": DreadnoughtRudderResult,
    "turn": DreadnoughtTurnResult,
    "turn-odds": DreadnoughtTurnOddsResult,
}
