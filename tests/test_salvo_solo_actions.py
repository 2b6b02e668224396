"""Every answer that hands a ship back lists the Actions it may choose next turn, and the
one-call turn accepts exactly those: an app reads the list instead of meeting a 422."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rulesets.salvo_solo.ships import CATALOG
from service.rulesets.salvo_solo.tables import ACTIONS, RANGES, WEATHERS
from tests.salvo_solo_helpers import AJAX, BASE, SPEE, START_STATE, refused, resolve, ship

AJAX_STOPPED = ship("Ajax", speed_hits=5)  # speed 10, 2 per S hit: speed 0
EVERY_ACTION = list(ACTIONS)


def _turn(client: FlaskClient, state: dict[str, Any], action: str, nonce: int = 1) -> Any:
    body = {"state": state, "player_action": action, "dice": {"seed": "actions", "nonce": nonce}}
    return client.post(f"{BASE}/turn", json=body)


def test_a_ship_at_speed_0_lists_only_offer_broadside(client: FlaskClient) -> None:
    damaged = resolve(client, "damage", {"ship": AJAX, "hits": "SSSSS"})["result"]
    assert damaged["ship"]["speed"] == 0
    assert damaged["ship"]["actions"] == ["OB"]

    state = {**START_STATE, "player": AJAX_STOPPED}
    played = resolve(
        client, "turn", {"state": state, "player_action": "OB", "dice": {"seed": "s", "nonce": 1}}
    )
    assert played["result"]["actions"]["player"] == ["OB"]
    assert played["result"]["actions"]["enemy"] == EVERY_ACTION

    problem = refused(
        client, "turn", {"state": state, "player_action": "C", "dice": {"seed": "s", "nonce": 1}}
    )
    assert problem["detail"] == "Ajax has speed 0 and can only Offer Broadside (OB), not C"


def test_a_ship_under_way_lists_every_action(client: FlaskClient) -> None:
    damaged = resolve(client, "damage", {"ship": SPEE, "hits": "FS"})["result"]
    assert damaged["ship"]["actions"] == EVERY_ACTION
    attacked = resolve(
        client,
        "attack",
        {
            "firer": AJAX,
            "target": SPEE,
            "range": "Short",
            "weather": "Fair",
            "guns_bearing": "broadside",
            "dice": {"seed": "a", "nonce": 1},
        },
    )["result"]
    assert attacked["target"]["actions"] == EVERY_ACTION
    assert all(shot["target"]["actions"] == EVERY_ACTION for shot in attacked["shots"])


def test_a_pending_turn_lists_the_same_actions_as_its_choices(client: FlaskClient) -> None:
    state = {**START_STATE, "player": AJAX_STOPPED}
    for nonce in range(1, 40):  # a nonce where the enemy wins the initiative
        body = {"state": state, "dice": {"seed": "pending", "nonce": nonce}}
        response = client.post(f"{BASE}/turn", json=body)
        if response.status_code == 200:
            result = response.get_json()["result"]
            assert result["pending"]["choices"] == ["OB"]
            assert result["actions"]["player"] == result["pending"]["choices"]
            return
    raise AssertionError("the enemy never had the initiative")


def _accepts_exactly(client: FlaskClient, state: dict[str, Any], listed: list[str]) -> None:
    """The turn from ``state`` accepts each listed Action and refuses each other one."""
    for action in EVERY_ACTION:
        response = _turn(client, state, action)
        if action in listed:
            assert response.status_code == 200, (action, response.get_json())
        else:
            assert response.status_code == 422, (action, response.get_json())
            assert "player_action" in json.dumps(response.get_json())


@st.composite
def afloat_ship(draw: st.DrawFn) -> dict[str, Any]:
    """A catalog ship afloat, often stopped (speed 0), with any other damage."""
    name = draw(st.sampled_from(sorted(CATALOG)))
    card = CATALOG[name]
    return ship(
        name,
        flotation_hits=draw(st.integers(0, card.flotation)),
        turret_hits=draw(st.integers(0, 3)),
        speed_hits=draw(st.integers(0, 8)),
        fire_control=draw(st.sampled_from(["ready", "lost-next-turn", "lost-this-turn"])),
    )


@settings(max_examples=15, deadline=None)
@given(
    player=afloat_ship(),
    enemy=afloat_ship(),
    weather=st.sampled_from(list(WEATHERS)),
    range_=st.sampled_from(list(RANGES)),
    turn=st.integers(1, 20),
)
def test_the_turn_accepts_exactly_the_listed_actions(
    app: Flask, player: dict[str, Any], enemy: dict[str, Any], weather: str, range_: str, turn: int
) -> None:
    client = app.test_client()
    state = {"turn": turn, "weather": weather, "range": range_, "player": player, "enemy": enemy}
    # The list as an answer that hands the ship back gives it (the damage step, no hits).
    listed = resolve(client, "damage", {"ship": player, "hits": ""})["result"]["ship"]["actions"]
    assert listed and set(listed) <= set(EVERY_ACTION)
    _accepts_exactly(client, state, listed)

    # The state a turn hands back, and its lists, for the next turn.
    result = _turn(client, state, listed[-1]).get_json()["result"]
    after, next_actions = result["state"], result["actions"]
    if "sunk" in (result["reason"] or ""):
        return  # a sunk ship plays no more turns (nor takes damage)
    for side in ("player", "enemy"):
        again = resolve(client, "damage", {"ship": after[side], "hits": ""})["result"]["ship"]
        assert next_actions[side] == again["actions"]
    _accepts_exactly(client, after, next_actions["player"])
