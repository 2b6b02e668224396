"""One way for every ruleset's tests to call a step and read its answer."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient


def call(
    client: FlaskClient,
    path: str,
    body: dict[str, Any],
    values: list[int] | None = None,
    status: int = 200,
) -> dict[str, Any]:
    """POST ``body`` (with supplied dice ``values`` if given); assert the status and shape."""
    if values is not None:
        body = {**body, "dice": {"values": values}}
    response = client.post(path, json=body)
    assert response.status_code == status, response.get_json()
    if status >= 400:
        assert response.mimetype == "application/problem+json"
    data: dict[str, Any] = response.get_json()
    return data


def check_of(data: dict[str, Any], roll: str) -> dict[str, Any]:
    """The recorded check of one roll, by its label (exactly one)."""
    found = [entry for entry in data["modifiers"] if entry["roll"] == roll]
    assert len(found) == 1, (roll, [entry["roll"] for entry in data["modifiers"]])
    entry: dict[str, Any] = found[0]
    return entry
