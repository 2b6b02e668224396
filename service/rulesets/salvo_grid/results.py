"""What each salvo-grid step hands back, as typed dicts: one per result and nested shape.

The step functions return these, so mypy checks every look-up a composite step makes in the
result of another; tests/test_typed_results.py holds each one equal, key for key (required
or not), to the step's answer `result` schema in the served OpenAPI document. Literal
aliases name the same fixed sets as the document's enum components.

No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict whose
annotations are strings counts its NotRequired keys as required at run time, and the
test reads them.
"""

from typing import Literal, NotRequired, TypedDict

SalvoGridFaultKind = Literal[
    "missing-ship",
    "extra-ship",
    "repeated-square",
    "wrong-size",
    "off-board",
    "gap",
    "diagonal",
    "not-in-line",
    "overlap",
]

SalvoGridShip = Literal["carrier", "battleship", "cruiser", "submarine", "destroyer"]

SalvoGridAnySquare = str


class SalvoGridFault(TypedDict):
    fault: SalvoGridFaultKind
    detail: str
    field: str
    ship: SalvoGridShip | None
    squares: list[SalvoGridAnySquare]


class SalvoGridPlacement(TypedDict):
    ship: SalvoGridShip
    squares: list[SalvoGridAnySquare]


class SalvoGridLayoutResult(TypedDict):
    legal: bool
    faults: list[SalvoGridFault]
    fleet: list[SalvoGridPlacement] | None


SalvoGridSquare = str

SalvoGridLootKind = Literal["crate", "mine", "radar-buoy"]


class SalvoGridLootPiece(TypedDict):
    square: SalvoGridSquare
    kind: SalvoGridLootKind


class SalvoGridLootResult(TypedDict):
    loot: list[SalvoGridLootPiece]


SalvoGridFiredBy = Literal["depth charges", "heavy shell", "shot"]

SalvoGridShotResult = Literal["miss", "hit", "sunk", "contact"]


class SalvoGridToldFire(TypedDict):
    square: SalvoGridSquare
    by: SalvoGridFiredBy
    result: SalvoGridShotResult
    ship: SalvoGridShip | None
    position: list[SalvoGridSquare]
    loot: SalvoGridLootKind | None


SalvoGridSpecialName = Literal[
    "recon flight", "heavy shell", "sonar sweep", "dive", "depth charges"
]


class SalvoGridSpecialReport(TypedDict):
    ship: SalvoGridShip
    special: SalvoGridSpecialName
    squares: list[SalvoGridSquare]
    count: int | None


class SalvoGridRadar(TypedDict):
    buoy: SalvoGridSquare
    contact: SalvoGridSquare | None


class SalvoGridSunkShip(TypedDict):
    ship: SalvoGridShip
    squares: list[SalvoGridSquare]


class SalvoGridTold(TypedDict):
    fire: list[SalvoGridToldFire]
    specials: list[SalvoGridSpecialReport]
    radar: list[SalvoGridRadar]
    sunk: list[SalvoGridSunkShip]
    loot_bonus: int


class SalvoGridSeenFire(TypedDict):
    square: SalvoGridSquare
    by: SalvoGridFiredBy
    result: SalvoGridShotResult
    ship: SalvoGridShip | None
    loot: SalvoGridLootKind | None


class SalvoGridSeen(TypedDict):
    fire: list[SalvoGridSeenFire]
    radar: list[SalvoGridRadar]
    sunk: list[SalvoGridSunkShip]


class SalvoGridOcean(TypedDict):
    fleet: list[SalvoGridPlacement]
    loot: list[SalvoGridLootPiece]
    shots_received: NotRequired[list[SalvoGridSquare]]
    contacts: NotRequired[list[SalvoGridSquare]]
    specials_used: NotRequired[list[SalvoGridShip]]
    diving: NotRequired[bool]
    loot_bonus: NotRequired[int]


class SalvoGridView(TypedDict):
    misses: NotRequired[list[SalvoGridSquare]]
    hits: NotRequired[list[SalvoGridSquare]]
    contacts: NotRequired[list[SalvoGridSquare]]
    sunk: NotRequired[list[SalvoGridSunkShip]]
    dive_contacts: NotRequired[list[SalvoGridSquare]]


class SalvoGridCaptainResult(TypedDict):
    told: SalvoGridTold
    own_ocean: SalvoGridSeen
    afloat: list[SalvoGridShip]
    salvo_size: int
    ocean: SalvoGridOcean
    view: SalvoGridView


SalvoGridCaptain = Literal["a", "b"]


class SalvoGridSalvoResult(TypedDict):
    a: SalvoGridCaptainResult
    b: SalvoGridCaptainResult
    game_over: bool
    winner: SalvoGridCaptain | None
    draw: bool


SalvoGridOrientation = Literal["horizontal", "vertical"]

SalvoGridColumn = Literal["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"]


class SalvoGridSpecial(TypedDict):
    ship: SalvoGridShip
    square: NotRequired[SalvoGridSquare]
    orientation: NotRequired[SalvoGridOrientation]
    row: NotRequired[int]
    column: NotRequired[SalvoGridColumn]


class SalvoGridSalvo(TypedDict):
    shots: NotRequired[list[SalvoGridSquare]]
    specials: NotRequired[list[SalvoGridSpecial]]


SalvoGridAimReason = Literal["contact", "next to a hit", "at random", "most likely"]


class SalvoGridAim(TypedDict):
    square: SalvoGridSquare
    reason: SalvoGridAimReason


SalvoGridComputerLevel = Literal["standard", "hard"]


class SalvoGridComputerPick(TypedDict):
    """The standard captain's choice (computer.computer), before the step names its level;
    not a component of its own."""

    salvo: SalvoGridSalvo
    aims: list[SalvoGridAim]
    salvo_size: int


class SalvoGridComputerResult(TypedDict):
    salvo: SalvoGridSalvo
    aims: list[SalvoGridAim]
    salvo_size: int
    level: SalvoGridComputerLevel


SalvoGridHeatMethod = Literal["exact", "sampled"]


class SalvoGridSampler(TypedDict):
    method: str
    seed: int
    chains: int
    burn_in: int
    samples: int


class SalvoGridLikelySquare(TypedDict):
    square: SalvoGridSquare
    p: float


class SalvoGridHeatmapResult(TypedDict):
    method: SalvoGridHeatMethod
    margin: float
    placements: int | None
    sampler: SalvoGridSampler | None
    afloat: list[SalvoGridShip]
    rows: list[list[float]]
    best: list[SalvoGridLikelySquare]


class SalvoGridRatingSide(TypedDict):
    rating: int
    expected_score: float
    change: int
    new_rating: int


SalvoGridBattleResult = Literal["a-wins", "b-wins", "draw"]


class SalvoGridRatingResult(TypedDict):
    a: SalvoGridRatingSide
    b: SalvoGridRatingSide
    result: SalvoGridBattleResult


# The result of each step, by step name (checked against the document by test).
STEP_RESULTS: dict[str, type] = {
    "layout": SalvoGridLayoutResult,
    "loot": SalvoGridLootResult,
    "salvo": SalvoGridSalvoResult,
    "computer": SalvoGridComputerResult,
    "heatmap": SalvoGridHeatmapResult,
    "rating": SalvoGridRatingResult,
}
