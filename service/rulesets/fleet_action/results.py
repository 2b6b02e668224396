"""What each fleet-action step hands back, as typed dicts: one per result and nested shape.

The step functions return these, so mypy checks every look-up a composite step makes in the
result of another; tests/test_typed_results.py holds each one equal, key for key (required
or not), to the step's answer `result` schema in the served OpenAPI document. Literal
aliases name the same fixed sets as the document's enum components.

No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict whose
annotations are strings counts its NotRequired keys as required at run time, and the
test reads them.
"""

from typing import Literal, TypedDict

FleetActionPlayer = Literal["A", "B"]


class FleetActionInitiativeResult(TypedDict):
    winner: FleetActionPlayer
    first: FleetActionPlayer
    second: FleetActionPlayer
    ties: int


FleetActionShipClass = Literal["Corvette", "Destroyer", "Cruiser", "Battleship"]

FleetActionCrew = Literal["Green", "Seasoned", "Veteran", "Elite"]

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


class FleetActionFireResult(TypedDict):
    hits: int
    hull_lost: int
    catastrophic: bool
    target: FleetActionShipStatus
    saves: int


class FleetActionTorpedoResult(TypedDict):
    hits: int
    hull_lost: int
    catastrophic: bool
    target: FleetActionShipStatus


FleetActionSunkBy = Literal["hull", "catastrophic hit"]


class FleetActionDamageResult(TypedDict):
    ship: FleetActionShipStatus
    sunk: bool
    sunk_by: FleetActionSunkBy | None


# The result of each step, by step name (checked against the document by test).
STEP_RESULTS: dict[str, type] = {
    "initiative": FleetActionInitiativeResult,
    "fire": FleetActionFireResult,
    "torpedo": FleetActionTorpedoResult,
    "damage": FleetActionDamageResult,
}
