"""The squares a captain may fire at (`may_fire_at`): every square a salvo answer lists is a
shot the next round takes, and every other square is refused, on generated positions."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from service.rulesets.salvo_grid import RULESET
from service.rulesets.salvo_grid import tables as t
from tests.salvo_grid_helpers import ALL_B, FLEET_A, ocean_a, ocean_b, post, resolve

BOARD = [f"{column}{row}" for row in range(1, t.ROWS + 1) for column in t.COLUMNS]
ALL_A = [sq for ship in FLEET_A for sq in ship["squares"]]
RULES = st.fixed_dictionaries(
    {
        ruling.id: st.sampled_from([reading.id for reading in ruling.readings])
        for ruling in RULESET.optional
    }
)
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _ocean_state(data: st.DataObject, ships: list[str], most: int) -> dict[str, Any]:
    """What the rival has done to an ocean so far: squares fired on (a ship left afloat)
    and a few contacts on ship squares not fired on."""
    fired = data.draw(st.lists(st.sampled_from(BOARD), unique=True, max_size=most))
    assume(not set(ships) <= set(fired))
    left = [sq for sq in ships if sq not in fired]
    contacts = data.draw(st.lists(st.sampled_from(left), unique=True, max_size=2))
    return {"shots_received": fired, "contacts": contacts}


def _position(data: st.DataObject, client: FlaskClient) -> tuple[dict[str, Any], dict[str, str]]:
    """One round played from a generated position, each captain firing one shot: its answer
    and the readings it was played under."""
    a_state = _ocean_state(data, ALL_A, 60)
    b_state = _ocean_state(data, ALL_B, 60)
    a_shot = data.draw(st.sampled_from([sq for sq in BOARD if sq not in b_state["shots_received"]]))
    b_shot = data.draw(st.sampled_from([sq for sq in BOARD if sq not in a_state["shots_received"]]))
    rules = data.draw(RULES)
    body = {
        "a": {"ocean": ocean_a(**a_state), "salvo": {"shots": [a_shot]}},
        "b": {"ocean": ocean_b(**b_state), "salvo": {"shots": [b_shot]}},
        "rules": rules,
        "dice": {"seed": "may-fire-at", "nonce": 1},
    }
    return resolve(client, "salvo", body)["result"], rules


def _next_round(
    client: FlaskClient, result: dict[str, Any], rules: dict[str, str], captain: str, shot: str
) -> Any:
    """The next round from the answer's oceans: ``captain`` fires one shot at ``shot``, the
    rival none."""
    body = {
        side: {
            "ocean": result[side]["ocean"],
            "salvo": {"shots": [shot] if side == captain else []},
        }
        for side in ("a", "b")
    }
    return post(client, "salvo", {**body, "rules": rules, "dice": {"seed": "next", "nonce": 2}})


@SETTINGS
@given(data=st.data())
def test_a_listed_square_is_a_shot_the_next_round_takes_and_another_is_refused(
    client: FlaskClient, data: st.DataObject
) -> None:
    result, rules = _position(data, client)
    for captain in ("a", "b"):
        listed = result[captain]["may_fire_at"]
        assert len(set(listed)) == len(listed)
        if listed:
            shot = data.draw(st.sampled_from(listed), label=f"{captain} fires at a listed square")
            response = _next_round(client, result, rules, captain, shot)
            assert response.status_code == 200, response.get_json()
        others = [sq for sq in BOARD if sq not in listed]
        if others:
            shot = data.draw(st.sampled_from(others), label=f"{captain} fires at another")
            response = _next_round(client, result, rules, captain, shot)
            assert response.status_code == 422, (shot, response.get_json())


@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_the_heat_map_of_a_view_lists_the_squares_its_salvo_answer_listed(
    client: FlaskClient, data: st.DataObject
) -> None:
    """Where the app aims from the heat map, it is told the same squares (while the battle
    goes on and the captain has a shot)."""
    result, _ = _position(data, client)
    assume(not result["game_over"])
    for captain in ("a", "b"):
        listed = result[captain]["may_fire_at"]
        if result[captain]["salvo_size"]:
            heat = resolve(client, "heatmap", {"view": result[captain]["view"]})["result"]
            assert heat["may_fire_at"] == listed
        else:
            assert listed == []


def test_a_battle_over_lists_no_square(client: FlaskClient) -> None:
    """Captain a's last ship afloat, the destroyer, sinks: no one may fire again."""
    fired = [sq for sq in ALL_A if sq not in ("I9", "J9")]
    body = {
        "a": {"ocean": ocean_a(shots_received=fired), "salvo": {"shots": ["A1"]}},
        "b": {"ocean": ocean_b(), "salvo": {"shots": ["I9", "J9"]}},
        "dice": {"seed": "over", "nonce": 1},
    }
    result = resolve(client, "salvo", body)["result"]
    assert result["game_over"] and result["winner"] == "b"
    assert result["a"]["may_fire_at"] == [] and result["b"]["may_fire_at"] == []
    response = _next_round(client, result, {}, "b", "B2")
    assert response.status_code == 422
