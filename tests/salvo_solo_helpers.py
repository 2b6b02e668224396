"""Helpers for the Salvo! tests: dice that sum to a wanted total, and one call per step."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

BASE = "/v1/rulesets/salvo-solo"
AJAX = {"ship": "Ajax"}
SPEE = {"ship": "Graf Spee"}
HOOD = {"ship": "Hood"}
KGV = {"ship": "King George V"}
NURNBURG = {"ship": "Nürnburg"}


def faces(total: int, count: int, sides: int = 6) -> list[int]:
    """``count`` dice of ``sides`` faces that add up to ``total``."""
    assert count <= total <= count * sides
    values = []
    for left in range(count, 0, -1):
        value = min(sides, total - (left - 1))
        values.append(value)
        total -= value
    return values


def resolve(
    client: FlaskClient, step: str, body: dict[str, Any], values: list[int] | None = None
) -> dict[str, Any]:
    if values is not None:
        body = {**body, "dice": {"values": values}}
    response = client.post(f"{BASE}/{step}", json=body)
    assert response.status_code == 200, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


def refused(client: FlaskClient, step: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"{BASE}/{step}", json=body)
    assert response.status_code == 422, response.get_json()
    assert response.mimetype == "application/problem+json"
    data: dict[str, Any] = response.get_json()
    return data


def ship(name: str, **state: Any) -> dict[str, Any]:
    return {"ship": name, "state": state}
