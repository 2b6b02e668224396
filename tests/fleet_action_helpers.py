"""Helpers for the Fleet Action tests: the printed tables, ships, and one call per step.

The printed tables are written out here as the rule text reads, independently of the
service's own table data, so a typo in either shows up as a failing test.
"""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.http_helpers import call, check_of

BASE = "/v1/rulesets/fleet-action"

PRINTED_CREW = {"Green": 6, "Seasoned": 5, "Veteran": 4, "Elite": 3}
# class: (speed, attack, range, armour, hull, torpedoes)
PRINTED_CLASSES = {
    "Corvette": (6, 2, 16, 6, 1, False),
    "Destroyer": (14, 3, 24, 5, 2, True),
    "Cruiser": (12, 4, 36, 4, 4, True),
    "Battleship": (10, 6, 48, 2, 6, False),
}
PRINTED_VISIBILITY = {"Clear": 0, "Poor": 1, "Terrible": 2}
TORPEDO_RANGE = 16


def attack(ship_class: str) -> int:
    return PRINTED_CLASSES[ship_class][1]


def gun_range(ship_class: str) -> int:
    return PRINTED_CLASSES[ship_class][2]


def armour(ship_class: str) -> int:
    return PRINTED_CLASSES[ship_class][3]


def hull(ship_class: str) -> int:
    return PRINTED_CLASSES[ship_class][4]


def printed_to_hit(crew: str, visibility: str = "Clear") -> int:
    return min(6, PRINTED_CREW[crew] + PRINTED_VISIBILITY[visibility])


def ship(ship_class: str, crew: str | None = None, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"class": ship_class, **extra}
    if crew is not None:
        body["crew"] = crew
    return body


def shot(
    firer: dict[str, Any],
    target: dict[str, Any],
    range_: float,
    visibility: str = "Clear",
    line_of_sight: bool = True,
) -> dict[str, Any]:
    return {
        "firer": firer,
        "target": target,
        "range": range_,
        "line_of_sight": line_of_sight,
        "visibility": visibility,
    }


def resolve(
    client: FlaskClient, step: str, body: dict[str, Any], values: list[int] | None = None
) -> dict[str, Any]:
    return call(client, f"{BASE}/{step}", body, values)


def refused(
    client: FlaskClient, step: str, body: dict[str, Any], values: list[int] | None = None
) -> dict[str, Any]:
    return call(client, f"{BASE}/{step}", body, values, status=422)


def fields_at_fault(problem: dict[str, Any]) -> list[str]:
    return [error["field"] for error in problem.get("errors", [])]


check = check_of
