"""What each fleet-action step hands back, as typed dicts: one per result and nested shape.

Each shape is defined here once. The step functions return these, so mypy checks every
look-up a composite step makes in the result of another; the answer schemas and their
OpenAPI components are derived from them (service/http/document/derive.py), and each fixed set
(``Annotated[Literal[...], Fixed(...)]``) is the one definition its tables, types and enum
component read (service/engine/typed.py).

No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict whose
annotations are strings counts its NotRequired keys as required at run time, and the
derivation reads them.
"""

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from ...engine.dice_requests import Again
from ...engine.typed import Doc, Fixed, JsonObject, JsonOf, Limits

FleetActionPlayer = Annotated[
    Literal["A", "B"], Fixed("FleetActionPlayer", "One of the two players.")
]


class FleetActionInitiativeResult(TypedDict):
    winner: Annotated[FleetActionPlayer, Doc("Goes second")]
    first: Annotated[FleetActionPlayer, Doc("The loser: goes first")]
    second: FleetActionPlayer
    ties: Annotated[int, Doc("Tied rounds rolled again")]


FleetActionShipClass = Annotated[
    Literal["Corvette", "Destroyer", "Cruiser", "Battleship"],
    Fixed("FleetActionShipClass", "A ship class (GET /v1/rulesets/fleet-action/ships)."),
]

FleetActionCrew = Annotated[
    Literal["Green", "Seasoned", "Veteran", "Elite"],
    Fixed("FleetActionCrew", "Crew quality (sets To Hit)."),
]

FleetActionVisibility = Annotated[
    Literal["Clear", "Poor", "Terrible"],
    Fixed("FleetActionVisibility", "Clear; Poor (rain, dusk) +1 to Hit; Terrible (fog, night) +2."),
]

FleetActionShipStatus = TypedDict(
    "FleetActionShipStatus",
    {
        "name": str | None,
        "class": FleetActionShipClass,
        "crew": FleetActionCrew | None,
        "hull": int,
        "hull_lost": int,
        "hull_left": int,
        "sunk": bool,
    },
)


class FleetActionTorpedoResult(TypedDict):
    hits: int
    hull_lost: Annotated[int, Doc("Hits that got through, one Hull point each")]
    catastrophic: Annotated[bool, Doc("An unmodified 6 got through: sunk outright")]
    target: FleetActionShipStatus


class FleetActionFireResult(FleetActionTorpedoResult):
    saves: Annotated[int, Doc("Hits cancelled by Armour")]


FleetActionSunkBy = Annotated[
    Literal["hull", "catastrophic hit"], Fixed("FleetActionSunkBy", "What sank a ship.")
]


class FleetActionDamageResult(TypedDict):
    ship: FleetActionShipStatus
    sunk: bool
    sunk_by: FleetActionSunkBy | None


# --- the turn ------------------------------------------------------------------------------

FleetActionWeapon = Annotated[
    Literal["guns", "torpedoes", "none"],
    Fixed(
        "FleetActionWeapon",
        "What a ship fires when it goes: its guns, its torpedoes (instead of guns: Destroyers "
        "and Cruisers), or nothing (it moves only).",
    ),
]

FleetActionTurnCall = Annotated[
    Literal["initiative", "activation"],
    Fixed(
        "FleetActionTurnCall",
        "What a turn call does: roll initiative (a request with no `activation`), or resolve "
        "one ship's activation.",
    ),
]


class FleetActionActivationResult(TypedDict):
    """One ship's go: it moved, then fired its guns or its torpedoes, or nothing."""

    ship: str
    player: FleetActionPlayer
    weapon: FleetActionWeapon
    target: Annotated[str | None, Doc("null: it fired at nothing")]
    range: Annotated[float | None, Doc("Inches to the target after the move, as measured")]
    line_of_sight: bool | None
    moved: Annotated[float | None, Doc("Inches moved, as measured; null: not given")]
    turned: Annotated[float | None, Doc("Degrees turned, as measured; null: not given")]
    guns: Annotated[FleetActionFireResult | None, Doc("The guns' attack, when it fired guns")]
    torpedoes: Annotated[
        FleetActionTorpedoResult | None, Doc("The torpedo attack, when it fired torpedoes")
    ]


class FleetActionNextCall(TypedDict):
    """What the next call of the turn sends."""

    call: FleetActionTurnCall
    player: Annotated[FleetActionPlayer | None, Doc("Whose pick it is; null: initiative")]
    ships: Annotated[list[str], Doc("The ships that player may pick (afloat, not yet gone)")]
    targets: Annotated[
        list[str],
        Doc(
            "The enemy ships a ship of that player may fire at: every one afloat (range and "
            "line of sight are measured on the table); empty for initiative"
        ),
    ]
    dice: Annotated[
        Again,
        Doc(
            "These dice with the nonce counted up by one, for the next call (seeded or "
            "sealed); null for supplied dice, or past the last nonce"
        ),
    ]
    detail: str


FleetActionTurnShipStatus = TypedDict(
    "FleetActionTurnShipStatus",
    {
        "name": str,
        "player": FleetActionPlayer,
        "class": FleetActionShipClass,
        "crew": FleetActionCrew,
        "hull": Annotated[int, Doc("The class's Hull")],
        "hull_lost": int,
        "hull_left": int,
        "sunk": Annotated[bool, Doc("No Hull left: removed from the table")],
        "gone": Annotated[bool, Doc("It has gone this turn")],
    },
)


class FleetActionTurnBase(TypedDict):
    turn_over: Annotated[bool, Doc("Every ship afloat has gone: `state` starts the next turn")]
    game_over: Annotated[bool, Doc("A player has no ship afloat")]
    winner: Annotated[FleetActionPlayer | None, Doc("null: the game goes on")]
    ships: Annotated[
        list[FleetActionTurnShipStatus],
        Doc(
            "Every ship of the state after this call, in its order, with its Hull and whether "
            "it is sunk"
        ),
    ]
    state: Annotated[
        JsonObject,
        JsonOf(f"{__package__}.turn.TurnState"),
        Doc("Send it back as the next call's `state`"),
    ]
    next: Annotated[FleetActionNextCall | None, Doc("null: the game is over")]


class FleetActionTurnInitiative(FleetActionTurnBase):
    """A turn call that rolled initiative."""

    call: Annotated[Literal["initiative"], Doc("What this call did")]
    initiative: FleetActionInitiativeResult


class FleetActionTurnActivation(FleetActionTurnBase):
    """A turn call that resolved one ship's activation."""

    call: Annotated[Literal["activation"], Doc("What this call did")]
    activation: FleetActionActivationResult


# A turn call's answer, told apart by `call`.
FleetActionTurnResult = FleetActionTurnInitiative | FleetActionTurnActivation


# --- the odds of a turn -------------------------------------------------------------------

FleetActionTurnOddsKind = Annotated[
    Literal["exact", "monte-carlo"],
    Fixed(
        "FleetActionTurnOddsKind",
        "How turn odds were worked out: exact (every outcome of every attack, as fractions) "
        "or from seeded games, with a 95% interval.",
    ),
]

FleetActionTurnOddsMethodChoice = Annotated[
    Literal["auto", "exact", "monte-carlo"],
    Fixed(
        "FleetActionTurnOddsMethodChoice",
        "auto: exact within the branch limit, else seeded games; exact: refused past the "
        "limit; monte-carlo: seeded games whatever the size.",
    ),
]


class FleetActionTurnChance(TypedDict):
    probability: Annotated[str, Doc("Exact: a fraction; seeded games: count/samples", "97/400")]
    p: float
    interval: NotRequired[
        Annotated[
            list[float],
            Limits(length=2),
            Doc("Seeded games only: the 95% Wilson score interval [low, high]"),
        ]
    ]


class FleetActionHullLostChance(TypedDict):
    hull_lost: Annotated[int, Doc("Hull points lost this turn")]
    chance: FleetActionTurnChance


FleetActionShipOdds = TypedDict(
    "FleetActionShipOdds",
    {
        "name": str,
        "player": FleetActionPlayer,
        "class": FleetActionShipClass,
        "hull_left": Annotated[int, Doc("Hull left at the start of the declared fire")],
        "fires": Annotated[
            FleetActionTurnChance | None,
            Doc("The chance it gets its declared shot off (afloat, target afloat); null: none"),
        ],
        "sunk": Annotated[FleetActionTurnChance, Doc("Sunk by the end of the declared fire")],
        "catastrophic": Annotated[
            FleetActionTurnChance, Doc("Sunk outright by a catastrophic hit (part of `sunk`)")
        ],
        "hull_lost": Annotated[
            list[FleetActionHullLostChance],
            Doc("Hull lost this turn, from 0 to all it had left (a sinking loses all)"),
        ],
        "expected_hull_lost": float,
    },
)


class FleetActionTurnOddsMethod(TypedDict):
    kind: FleetActionTurnOddsKind
    branch_limit: Annotated[int, Doc("Exact odds walk at most this many branches")]
    branches: Annotated[int | None, Doc("Branches walked (exact); null: over the limit")]
    algorithm: Annotated[str | None, Doc("The seeded games' stream (docs); null: exact")]
    samples: Annotated[int | None, Doc("Games played; null: exact")]
    detail: str


class FleetActionTurnOddsResult(TypedDict):
    method: FleetActionTurnOddsMethod
    ships: Annotated[
        list[FleetActionShipOdds],
        Doc(
            "Every ship of the state, in its order. Fleet Action has no lasting critical "
            "effects: a catastrophic hit sinks outright"
        ),
    ]


# The result of each step, by step name (its schema is derived from it).
STEP_RESULTS: dict[str, Any] = {
    "initiative": FleetActionInitiativeResult,
    "fire": FleetActionFireResult,
    "torpedo": FleetActionTorpedoResult,
    "damage": FleetActionDamageResult,
    "turn": FleetActionTurnResult,
    "turn-odds": FleetActionTurnOddsResult,
}
