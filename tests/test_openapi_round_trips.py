"""What an answer hands back for the next request is the very component that request takes.

A generated client then assigns `next.state = answer.result.state` with no conversion: the
document walk checks each pair of references, and a short game checks the server accepts
what it handed back as it is.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

SALVO_GRID_AI = "/v1/rulesets/salvo-grid/computer"

# (where the answer hands it back, where the next request takes it): component/member/...;
# "[]" steps into an array's items.
PAIRS = [
    ("SalvoSoloTurnResult/state", "SalvoSoloTurnRequest/state"),
    ("SalvoSoloShipStatus/state", "SalvoSoloNamedShip/state"),
    ("SalvoSoloShipStatus/state", "SalvoSoloInlineShip/state"),
    ("SalvoSoloShipsResponse/ships/[]", "SalvoSoloInlineShip/card"),
    ("SalvoGridCaptainResult/ocean", "SalvoGridComputerRequest/ocean"),
    ("SalvoGridCaptainResult/ocean", "SalvoGridSide/ocean"),
    ("SalvoGridCaptainResult/view", "SalvoGridComputerRequest/view"),
    ("SalvoGridComputerResult/salvo", "SalvoGridSide/salvo"),
    ("SalvoGridLayoutResult/fleet/[]", "SalvoGridLootRequest/fleet/[]"),
    ("SalvoGridLayoutResult/fleet/[]", "SalvoGridOcean/fleet/[]"),
    ("SalvoGridLootResult/loot/[]", "SalvoGridOcean/loot/[]"),
    ("DreadnoughtShipStatus/state", "DreadnoughtNamedShip/state"),
    ("DreadnoughtShipStatus/state", "DreadnoughtInlineShip/state"),
]


def _reference(schemas: dict[str, Any], where: str) -> str:
    name, *members = where.split("/")
    node: dict[str, Any] = schemas[name]
    for member in members:
        node = node["items"] if member == "[]" else node["properties"][member]
    options = [o for o in node.get("oneOf", [node]) if o != {"type": "null"}]
    assert len(options) == 1 and "$ref" in options[0], f"{where} is not one component: {node}"
    return str(options[0]["$ref"])


@pytest.mark.parametrize(("answer", "request_"), PAIRS)
def test_each_round_trip_shares_its_component(app: Flask, answer: str, request_: str) -> None:
    schemas = app.test_client().get("/openapi.json").get_json()["components"]["schemas"]
    assert _reference(schemas, answer) == _reference(schemas, request_)


def test_no_answer_only_twin_of_a_request_component(app: Flask) -> None:
    """The old answer-side copies (`GameStateOut`, `SalvoGridShipOut`, `SalvoGridViewOut`,
    `...ShipStateOut`) are gone."""
    schemas = app.test_client().get("/openapi.json").get_json()["components"]["schemas"]
    assert [name for name in schemas if name.endswith("Out")] == []


def test_a_turn_feeds_its_state_to_the_next_as_it_is(client: FlaskClient) -> None:
    body = {
        "state": {
            "turn": 1,
            "weather": "Fair",
            "range": "Long",
            "player": {"ship": "Ajax"},
            "enemy": {"ship": "Graf Spee"},
        },
        "player_action": "C",
    }
    for nonce in range(1, 6):
        answer = client.post(
            "/v1/rulesets/salvo-solo/turn", json={**body, "dice": {"seed": "rt", "nonce": nonce}}
        )
        assert answer.status_code == 200, answer.get_json()
        result = answer.get_json()["result"]
        if result["game_over"]:
            break
        body["state"] = result["state"]


def test_a_salvo_feeds_ocean_and_view_to_the_computer_and_back(client: FlaskClient) -> None:
    from service.rulesets.salvo_grid.api import OCEAN_A, OCEAN_B

    sides = {"a": {"ocean": OCEAN_A}, "b": {"ocean": OCEAN_B}}
    views: dict[str, Any] = {"a": {}, "b": {}}
    for nonce in range(1, 4):
        for captain in ("a", "b"):
            aimed = client.post(
                SALVO_GRID_AI,
                json={
                    "ocean": sides[captain]["ocean"],
                    "view": views[captain],
                    "dice": {"seed": "rt", "nonce": nonce},
                },
            )
            assert aimed.status_code == 200, aimed.get_json()
            sides[captain]["salvo"] = aimed.get_json()["result"]["salvo"]
        fired = client.post(
            "/v1/rulesets/salvo-grid/salvo", json={**sides, "dice": {"seed": "rt", "nonce": nonce}}
        )
        assert fired.status_code == 200, fired.get_json()
        result = fired.get_json()["result"]
        for captain in ("a", "b"):
            sides[captain] = {"ocean": result[captain]["ocean"]}
            views[captain] = result[captain]["view"]


def test_a_layout_feeds_loot_and_an_ocean(client: FlaskClient) -> None:
    fleet = client.post(
        "/v1/rulesets/salvo-grid/layout", json={"dice": {"seed": "rt", "nonce": 1}}
    ).get_json()["result"]["fleet"]
    loot = client.post(
        "/v1/rulesets/salvo-grid/loot", json={"fleet": fleet, "dice": {"seed": "rt", "nonce": 2}}
    ).get_json()["result"]["loot"]
    answer = client.post(
        SALVO_GRID_AI,
        json={"ocean": {"fleet": fleet, "loot": loot}, "view": {}, "dice": {"seed": "rt"}},
    )
    assert answer.status_code == 200, answer.get_json()


def test_a_listed_card_is_sent_back_inline(client: FlaskClient) -> None:
    card = client.get("/v1/rulesets/salvo-solo/ships").get_json()["ships"][0]
    answer = client.post(
        "/v1/rulesets/salvo-solo/damage", json={"ship": {"card": card}, "hits": "F"}
    )
    assert answer.status_code == 200, answer.get_json()
    state = answer.get_json()["result"]["ship"]["state"]
    again = client.post(
        "/v1/rulesets/salvo-solo/damage", json={"ship": {"card": card, "state": state}, "hits": ""}
    )
    assert again.status_code == 200 and again.get_json()["result"]["ship"]["state"] == state


def test_the_last_turn_hands_back_a_state_the_schema_still_takes(client: FlaskClient) -> None:
    """schemathesis found turn 10000 answered with turn 10001, which no request takes."""
    state = {"turn": 9_999, "weather": "Fair", "range": "Long"}
    state |= {"player": {"ship": "Ajax"}, "enemy": {"ship": "Graf Spee"}}
    body = {"player_action": "OB", "dice": {"seed": "rt", "nonce": 1}}
    answer = client.post("/v1/rulesets/salvo-solo/turn", json={**body, "state": state})
    assert answer.status_code == 200, answer.get_json()
    handed_back = answer.get_json()["result"]["state"]
    assert handed_back["turn"] == 10_000
    again = client.post("/v1/rulesets/salvo-solo/turn", json={**body, "state": handed_back})
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["result"]["state"]["turn"] == 10_000  # ruling turn-count-cap


def test_damage_never_hands_back_a_state_past_its_cap(client: FlaskClient) -> None:
    """schemathesis found damage_taken 12 + 9999 answered as 10011, which no request takes."""
    path = "/v1/rulesets/dreadnought/damage"
    ship = {"ship": "Lion", "state": {"damage_taken": 12}}
    refused = client.post(path, json={"ship": ship, "points": 9_999})
    assert refused.status_code == 422
    problem = refused.get_json()
    assert problem["type"].endswith("#limit") and problem["errors"][0]["field"] == "points"
    answer = client.post(path, json={"ship": ship, "points": 9_988})
    assert answer.status_code == 200, answer.get_json()
    state = answer.get_json()["result"]["ship"]["state"]
    assert state["damage_taken"] == 10_000
    # The state loads again: a wrecked ship is refused by the rules, not by the schema.
    again = client.post(path, json={"ship": {"ship": "Lion", "state": state}, "points": 0})
    assert again.get_json()["type"].endswith("#rule-violation"), again.get_json()
