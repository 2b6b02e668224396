"""What each fleet-action step hands back, as typed dicts: one per result and nested shape.

Each shape is defined here once. The step functions return these, so mypy checks every
look-up a composite step makes in the result of another; the answer schemas and their
OpenAPI components are derived from them (service/http/derive.py), and each fixed set
(``Annotated[Literal[...], Fixed(...)]``) is the one definition its tables, types and enum
component read (service/engine/typed.py).

No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict whose
annotations are strings counts its NotRequired keys as required at run time, and the
derivation reads them.
"""

from typing import Annotated, Literal, TypedDict

from ...engine.typed import Doc, Fixed

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


# The result of each step, by step name (its schema is derived from it).
STEP_RESULTS: dict[str, type] = {
    "initiative": FleetActionInitiativeResult,
    "fire": FleetActionFireResult,
    "torpedo": FleetActionTorpedoResult,
    "damage": FleetActionDamageResult,
}
