"""What each salvo-grid step hands back, as typed dicts: one per result and nested shape.

Each answer shape is defined here once; what an answer hands back that a later request
sends again (a placement, an ocean, a view, a salvo) is a shape of its own (a frozen
dataclass: fleet.py, salvo.py), named here with ``JsonOf``. The step functions return
these, so mypy checks every look-up a composite step makes in the result of another; the
answer schemas and their OpenAPI components are derived from them
(service/http/document/derive.py), and each fixed set (``Annotated[Literal[...],
Fixed(...)]``) and each named square form (``Annotated[str, Pattern(...)]``) is the one
definition its tables, types, request fields and component read (service/engine/typed.py).

No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict whose
annotations are strings counts its NotRequired keys as required at run time, and the
derivation reads them.
"""

from typing import Annotated, Literal, TypedDict

from ...engine.typed import Doc, Fixed, JsonObject, JsonOf, Pattern

SalvoGridFaultKind = Annotated[
    Literal[
        "missing-ship",
        "extra-ship",
        "repeated-square",
        "wrong-size",
        "off-board",
        "gap",
        "diagonal",
        "not-in-line",
        "overlap",
    ],
    Fixed("SalvoGridFaultKind", "What is wrong with a fleet sent for checking."),
]

SalvoGridShip = Annotated[
    Literal["carrier", "battleship", "cruiser", "submarine", "destroyer"],
    Fixed("SalvoGridShip", "One of the five ships of a fleet."),
]

SalvoGridCountingShip = Annotated[
    Literal["carrier", "cruiser"],
    Fixed(
        "SalvoGridCountingShip",
        "A ship whose special counts: the carrier's recon flight, the cruiser's sonar sweep.",
    ),
]

# What a request is told of a square it writes wrong, in either form.
NOT_A_SQUARE = "Not a square: write a column letter and a row, like C5."

# A fleet sent for checking may name squares off the board (K3, A11): the check names them.
SalvoGridAnySquare = Annotated[
    str,
    Pattern(
        "SalvoGridAnySquare",
        r"^[A-Z](0|[1-9][0-9]?)$",
        "A square as a fleet sent for checking may name it: a column letter "
        "and a row, on the board (A-J, 1-10) or off it (K3, A11), which the check names.",
        example="C5",
        invalid=NOT_A_SQUARE,
    ),
]


class SalvoGridFault(TypedDict):
    fault: SalvoGridFaultKind
    detail: str
    field: Annotated[str, Doc("The request member at fault")]
    ship: SalvoGridShip | None
    squares: list[SalvoGridAnySquare]


# The shapes an answer hands back as they are (fleet.py, salvo.py).
SalvoGridPlacementJson = Annotated[JsonObject, JsonOf(f"{__package__}.fleet.Placement")]
SalvoGridLootPieceJson = Annotated[JsonObject, JsonOf(f"{__package__}.fleet.LootPiece")]
SalvoGridSunkShipJson = Annotated[JsonObject, JsonOf(f"{__package__}.salvo.SunkShip")]


class SalvoGridLayoutResult(TypedDict):
    legal: bool
    faults: list[SalvoGridFault]
    fleet: Annotated[
        list[SalvoGridPlacementJson] | None,
        Doc(
            "Each ship's squares in reading order, to send as the `fleet` of "
            "loot and of an ocean; null if not legal"
        ),
    ]


SalvoGridSquare = Annotated[
    str,
    Pattern(
        "SalvoGridSquare",
        r"^[A-J](10|[1-9])$",
        "A square of the 10 x 10 board: a column A-J and a row 1-10.",
        example="C5",
        invalid=NOT_A_SQUARE,
    ),
]

SalvoGridLootKind = Annotated[
    Literal["crate", "mine", "radar-buoy"],
    Fixed("SalvoGridLootKind", "A piece of loot hidden in an ocean."),
]


class SalvoGridLootResult(TypedDict):
    loot: list[SalvoGridLootPieceJson]


SalvoGridFiredBy = Annotated[
    Literal["depth charges", "heavy shell", "shot"],
    Fixed("SalvoGridFiredBy", "What fired on a square."),
]

SalvoGridShotResult = Annotated[
    Literal["miss", "hit", "sunk", "contact"],
    Fixed("SalvoGridShotResult", "What one square fired on found."),
]


class SalvoGridToldFire(TypedDict):
    square: SalvoGridSquare
    by: SalvoGridFiredBy
    result: SalvoGridShotResult
    ship: Annotated[SalvoGridShip | None, Doc("Only if sunk")]
    position: Annotated[list[SalvoGridSquare], Doc("The sunk ship's squares")]
    loot: SalvoGridLootKind | None


SalvoGridSpecialName = Annotated[
    Literal["recon flight", "heavy shell", "sonar sweep", "dive", "depth charges"],
    Fixed(
        "SalvoGridSpecialName",
        "A ship's special, once a game (GET /v1/rulesets/salvo-grid/ships).",
    ),
]


class SalvoGridSpecialReport(TypedDict):
    ship: SalvoGridShip
    special: SalvoGridSpecialName
    squares: list[SalvoGridSquare]
    count: Annotated[int | None, Doc("Recon and sonar only")]


class SalvoGridRadar(TypedDict):
    buoy: SalvoGridSquare
    contact: Annotated[SalvoGridSquare | None, Doc("The revealed square")]


class SalvoGridTold(TypedDict):
    """What the firing captain is told about its own salvo."""

    fire: list[SalvoGridToldFire]
    specials: list[SalvoGridSpecialReport]
    radar: list[SalvoGridRadar]
    sunk: list[SalvoGridSunkShipJson]
    loot_bonus: int


class SalvoGridSeenFire(TypedDict):
    square: SalvoGridSquare
    by: SalvoGridFiredBy
    result: SalvoGridShotResult
    ship: Annotated[SalvoGridShip | None, Doc("Ship struck")]
    loot: SalvoGridLootKind | None


class SalvoGridSeen(TypedDict):
    """What a captain sees land on its own ocean; the rival learns none of the ship names."""

    fire: list[SalvoGridSeenFire]
    radar: list[SalvoGridRadar]
    sunk: list[SalvoGridSunkShipJson]


class SalvoGridCaptainResult(TypedDict):
    told: SalvoGridTold
    own_ocean: SalvoGridSeen
    afloat: list[SalvoGridShip]
    salvo_size: Annotated[int, Doc("Next round's salvo")]
    ocean: Annotated[JsonObject, JsonOf(f"{__package__}.fleet.Ocean"), Doc("Send back next round")]
    view: Annotated[
        JsonObject,
        JsonOf(f"{__package__}.salvo.View"),
        Doc("Of the enemy ocean: the computer step's `view`"),
    ]
    may_fire_at: Annotated[
        list[SalvoGridSquare],
        Doc(
            "The squares this captain's next salvo may fire at, in reading order: every "
            "square of the board not fired on to effect before (a contact may be fired at "
            "again); empty when the battle is over or this captain has no shot"
        ),
    ]


SalvoGridCaptain = Annotated[
    Literal["a", "b"],
    Fixed("SalvoGridCaptain", "One of the two captains."),
]


class SalvoGridSalvoResult(TypedDict):
    a: SalvoGridCaptainResult
    b: SalvoGridCaptainResult
    game_over: bool
    winner: SalvoGridCaptain | None
    draw: bool


SalvoGridOrientation = Annotated[
    Literal["horizontal", "vertical"],
    Fixed("SalvoGridOrientation", "Which way a line of squares runs."),
]

SalvoGridColumn = Annotated[
    Literal["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"],
    Fixed("SalvoGridColumn", "A column of the board."),
]


SalvoGridSalvoJson = Annotated[JsonObject, JsonOf(f"{__package__}.salvo.Salvo")]


SalvoGridAimReason = Annotated[
    Literal["contact", "next to a hit", "at random", "most likely"],
    Fixed(
        "SalvoGridAimReason",
        "Why the computer captain aims there ('most likely': the hard captain's heat map).",
    ),
]


class SalvoGridAim(TypedDict):
    square: SalvoGridSquare
    reason: SalvoGridAimReason


SalvoGridComputerLevel = Annotated[
    Literal["standard", "hard"],
    Fixed(
        "SalvoGridComputerLevel",
        "How the computer captain plays: standard (the rules' computer) or hard (it fires where "
        "the heat map says the ships most likely lie; docs/computer.md).",
    ),
]


class SalvoGridComputerPick(TypedDict):
    """The standard captain's choice (computer.computer), before the step names its level;
    not a component of its own."""

    salvo: SalvoGridSalvoJson
    aims: list[SalvoGridAim]
    salvo_size: int


class SalvoGridComputerResult(TypedDict):
    salvo: Annotated[
        SalvoGridSalvoJson, Doc("Ready to send as this captain's `salvo` to the salvo step")
    ]
    aims: list[SalvoGridAim]
    salvo_size: int
    level: SalvoGridComputerLevel


SalvoGridHeatMethod = Annotated[
    Literal["exact", "sampled"],
    Fixed(
        "SalvoGridHeatMethod",
        "How the heat map was worked out: every consistent placement counted, or sampled.",
    ),
]


class SalvoGridSampler(TypedDict):
    """How a sampled heat map was drawn (docs/computer.md): replay it from these."""

    method: Annotated[
        str,
        Doc(
            "`stratified`: every way of meeting the hits, contacts and counts "
            "listed, the free ships drawn under them; `exact draws`: whole layouts drawn "
            "exactly uniformly (too many ways to list); `importance`: whole layouts drawn "
            "down the search tree (neither could be used)",
            example="stratified",
        ),
    ]
    seed: Annotated[int, Doc("From the dice: 3d1000 read as one number")]
    chains: Annotated[int, Doc("Batches the draws were kept in (the margin)")]
    burn_in: Annotated[int, Doc("0: every draw is independent of the others")]
    samples: Annotated[
        int, Doc("Layouts drawn in all, until the work budget is spent (exact draws: kept)")
    ]


class SalvoGridLikelySquare(TypedDict):
    square: SalvoGridSquare
    p: float


class SalvoGridHeatmapResult(TypedDict):
    method: SalvoGridHeatMethod
    margin: Annotated[
        float,
        Doc(
            "How far off a probability can be: 0 when exact; sampled, a bound every "
            "square stays within at once in at least 95% of answers, measured "
            "(docs/computer.md)"
        ),
    ]
    placements: Annotated[
        int | None, Doc("Exact: how many fleet placements fit the view; else null")
    ]
    sampler: Annotated[
        SalvoGridSampler | None,
        Doc("Sampled: the sampler, its sample size and seed; else null"),
    ]
    afloat: list[SalvoGridShip]
    rows: Annotated[
        list[list[float]],
        Doc(
            "Per square, the probability that it holds a ship not yet sunk: "
            "rows 1 to 10, each from column A to J (a hit or contact is 1, a miss 0)"
        ),
    ]
    best: Annotated[
        list[SalvoGridLikelySquare],
        Doc(
            "Squares not yet fired at (contacts included), most likely first: a full salvo's worth"
        ),
    ]
    may_fire_at: Annotated[
        list[SalvoGridSquare],
        Doc(
            "Every square a shot may aim at, in reading order: those of the board this view "
            "shows not fired on to effect (contacts included), as the salvo step allows"
        ),
    ]


class SalvoGridRatingSide(TypedDict):
    rating: int
    expected_score: float
    change: int
    new_rating: int


SalvoGridBattleResult = Annotated[
    Literal["a-wins", "b-wins", "draw"],
    Fixed("SalvoGridBattleResult", "How a battle between captains a and b ended."),
]


class SalvoGridRatingResult(TypedDict):
    a: SalvoGridRatingSide
    b: SalvoGridRatingSide
    result: SalvoGridBattleResult


# The result of each step, by step name (its schema is derived from it).
STEP_RESULTS: dict[str, type] = {
    "layout": SalvoGridLayoutResult,
    "loot": SalvoGridLootResult,
    "salvo": SalvoGridSalvoResult,
    "computer": SalvoGridComputerResult,
    "heatmap": SalvoGridHeatmapResult,
    "rating": SalvoGridRatingResult,
}
