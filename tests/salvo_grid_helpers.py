"""Helpers for the SALVO tests: two known oceans, and one call per step."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

BASE = "/v1/rulesets/salvo-grid"

# Captain a's ocean: carrier along row 1, battleship down column A, submarine down column G.
FLEET_A = [
    {"ship": "carrier", "squares": ["A1", "B1", "C1", "D1", "E1"]},
    {"ship": "battleship", "squares": ["A3", "A4", "A5", "A6"]},
    {"ship": "cruiser", "squares": ["C3", "D3", "E3"]},
    {"ship": "submarine", "squares": ["G5", "G6", "G7"]},
    {"ship": "destroyer", "squares": ["I9", "J9"]},
]
LOOT_A = [
    {"square": "F1", "kind": "crate"},
    {"square": "B5", "kind": "crate"},
    {"square": "H8", "kind": "crate"},
    {"square": "D6", "kind": "mine"},
    {"square": "J3", "kind": "mine"},
    {"square": "E9", "kind": "radar-buoy"},
    {"square": "C10", "kind": "radar-buoy"},
]
# Captain b's ocean: carrier down column J, submarine along row 2, destroyer in the corner.
FLEET_B = [
    {"ship": "carrier", "squares": ["J1", "J2", "J3", "J4", "J5"]},
    {"ship": "battleship", "squares": ["B8", "C8", "D8", "E8"]},
    {"ship": "cruiser", "squares": ["E4", "E5", "E6"]},
    {"ship": "submarine", "squares": ["G2", "H2", "I2"]},
    {"ship": "destroyer", "squares": ["A10", "B10"]},
]
LOOT_B = [
    {"square": "A1", "kind": "crate"},
    {"square": "F5", "kind": "crate"},
    {"square": "C3", "kind": "crate"},
    {"square": "H9", "kind": "mine"},
    {"square": "D1", "kind": "mine"},
    {"square": "G7", "kind": "radar-buoy"},
    {"square": "B4", "kind": "radar-buoy"},
]
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
    if values is not None:
        body = {**body, "dice": {"values": values}}
    response = post(client, step, body)
    assert response.status_code == 200, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


def refused(client: FlaskClient, step: str, body: dict[str, Any]) -> dict[str, Any]:
    response = post(client, step, body)
    assert response.status_code == 422, response.get_json()
    assert response.mimetype == "application/problem+json"
    data: dict[str, Any] = response.get_json()
    return data


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
