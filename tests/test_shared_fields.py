"""One field for inches across rulesets: the same refusals and the same bounds rules.

fleet-action once had its own FleetActionInches and dreadnought its DreadnoughtInches
(the same float refusing strings and booleans, one spelling out the message marshmallow
gives anyway, the bounds set inline in one and by a helper in the other). Both rulesets now
use ``service.http.document.fields.inches(low, high)``: a JSON number, fractions allowed, never a
string, a boolean or a value past the field's bounds. A plain ``fields.Float`` would take
"40" and fail here.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

FLEET_FIRE = {
    "firer": {"class": "Battleship", "crew": "Veteran"},
    "target": {"class": "Destroyer", "crew": "Seasoned"},
    "range": 40,
    "line_of_sight": True,
    "dice": {"seed": "inches", "nonce": 0},
}
DREADNOUGHT_RANGE = {"calibre": 12, "target_class": "Battleship", "distance": 40}

CASES = [
    ("/v1/rulesets/fleet-action/fire", FLEET_FIRE, "range"),
    ("/v1/rulesets/dreadnought/range", DREADNOUGHT_RANGE, "distance"),
    ("/v1/rulesets/dreadnought/range", DREADNOUGHT_RANGE, "calibre"),
]


def _post(client: FlaskClient, path: str, body: dict[str, Any]) -> Any:
    return client.post(path, json=body)


@pytest.mark.parametrize(("path", "body", "member"), CASES)
def test_a_fraction_of_an_inch_is_accepted(
    client: FlaskClient, path: str, body: dict[str, Any], member: str
) -> None:
    answer = _post(client, path, {**body, member: body[member] + 0.5})
    assert answer.status_code == 200, answer.get_json()


@pytest.mark.parametrize(("path", "body", "member"), CASES)
@pytest.mark.parametrize("value", ["40", True, False, None, [40], {"inches": 40}])
def test_inches_refuse_what_is_not_a_number_in_every_ruleset(
    client: FlaskClient, path: str, body: dict[str, Any], member: str, value: Any
) -> None:
    answer = _post(client, path, {**body, member: value})
    assert answer.status_code == 422
    problem = answer.get_json()
    assert problem["type"].endswith("validation"), problem
    assert member in str(problem), problem


@pytest.mark.parametrize(("path", "body", "member"), CASES)
def test_inches_name_their_refusal_alike(
    client: FlaskClient, path: str, body: dict[str, Any], member: str
) -> None:
    answer = _post(client, path, {**body, member: "forty"})
    assert "Not a valid number." in str(answer.get_json())


@pytest.mark.parametrize(("path", "body", "member"), CASES)
def test_inches_past_their_bounds_are_refused(
    client: FlaskClient, path: str, body: dict[str, Any], member: str
) -> None:
    assert _post(client, path, {**body, member: 1001}).status_code == 422
    assert _post(client, path, {**body, member: -0.5}).status_code == 422
