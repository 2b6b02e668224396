"""Helpers for the SALVO tests: two known oceans, and one call per step."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from service.rulesets.salvo_grid.api import FLEET_A as FLEET_A
from service.rulesets.salvo_grid.api import FLEET_B as FLEET_B
from service.rulesets.salvo_grid.api import LOOT_A, LOOT_B
from tests.http_helpers import call

BASE = "/v1/rulesets/salvo-grid"

# The two oceans of the documented examples: captain a's carrier along row 1, battleship
# down column A, submarine down column G; captain b's carrier down column J, submarine
# along row 2, destroyer in the corner.
ALL_B = [sq for ship in FLEET_B for sq in ship["squares"]]


def ocean_a(**state: Any) -> dict[str, Any]:
    return {"fleet": FLEET_A, "loot": LOOT_A, **state}


def ocean_b(**state: Any) -> dict[str, Any]:
    return {"fleet": FLEET_B, "loot": LOOT_B, **state}


def post(client: FlaskClient, step: str, body: dict[str, Any]) -> Any:
    return client.post(f"{BASE}/{step}", json=body)


def resolve(
    client: FlaskClient, step: str, body: dict[str, Any], values: list[int] | None = None
) -> dict[str, Any]:
    return call(client, f"{BASE}/{step}", body, values)


def refused(client: FlaskClient, step: str, body: dict[str, Any]) -> dict[str, Any]:
    return call(client, f"{BASE}/{step}", body, status=422)


def salvo_body(
    a_shots: list[str] | None = None,
    b_shots: list[str] | None = None,
    *,
    a_specials: list[dict[str, Any]] | None = None,
    b_specials: list[dict[str, Any]] | None = None,
    a: dict[str, Any] | None = None,
    b: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One round between the two known oceans (or the oceans given)."""
    return {
        "a": {
            "ocean": a if a is not None else ocean_a(),
            "salvo": {"shots": a_shots or [], "specials": a_specials or []},
        },
        "b": {
            "ocean": b if b is not None else ocean_b(),
            "salvo": {"shots": b_shots or [], "specials": b_specials or []},
        },
        "dice": {"seed": "test", "nonce": 1},
    }


def round_(client: FlaskClient, *args: Any, **kwargs: Any) -> dict[str, Any]:
    result: dict[str, Any] = resolve(client, "salvo", salvo_body(*args, **kwargs))["result"]
    return result


def results(told_or_seen: dict[str, Any]) -> dict[str, str]:
    """square -> result of every square a salvo fired on."""
    return {entry["square"]: entry["result"] for entry in told_or_seen["fire"]}


def diagonal_cruiser() -> list[dict[str, Any]]:
    """Captain b's fleet with its cruiser laid diagonally (C3, D4, E5): not a legal layout."""
    fleet = [dict(ship) for ship in FLEET_B]
    index = next(i for i, ship in enumerate(fleet) if ship["ship"] == "cruiser")
    fleet[index] = {"ship": "cruiser", "squares": ["C3", "D4", "E5"]}
    return fleet
