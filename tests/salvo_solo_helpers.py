"""Helpers for the Salvo! tests: dice that sum to a wanted total, and one call per step."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.http_helpers import call

BASE = "/v1/rulesets/salvo-solo"
AJAX = {"ship": "Ajax"}
SPEE = {"ship": "Graf Spee"}
HOOD = {"ship": "Hood"}
KGV = {"ship": "King George V"}
NURNBURG = {"ship": "Nürnburg"}
# A game's first turn as a client sends it, every member written out: Ajax closes on
# Graf Spee at Long range in Fair weather.
START_STATE: dict[str, Any] = {
    "turn": 1,
    "weather": "Fair",
    "range": "Long",
    "player": AJAX,
    "enemy": SPEE,
    "enemy_last_action": None,
    "player_has_straddled": False,
    "enemy_has_straddled": False,
}


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
    return call(client, f"{BASE}/{step}", body, values)


def refused(client: FlaskClient, step: str, body: dict[str, Any]) -> dict[str, Any]:
    return call(client, f"{BASE}/{step}", body, status=422)


def ship(name: str, **state: Any) -> dict[str, Any]:
    return {"ship": name, "state": state}
