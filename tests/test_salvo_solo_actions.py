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
    """Whoever has the initiative, the turn waits and lists the Actions the player may take."""
    state = {**START_STATE, "player": AJAX_STOPPED}
    firsts = set()
    for nonce in range(1, 9):
        body = {"state": state, "dice": {"seed": "pending", "nonce": nonce}}
        result = resolve(client, "turn", body)["result"]
        assert result["pending"]["choices"] == ["OB"]
        assert result["actions"]["player"] == result["pending"]["choices"]
        firsts.add(result["pending"]["first"])
    assert firsts == {"player", "enemy"}


def test_a_ship_whose_fire_control_is_lost_next_turn_is_drawn_unable_to_fire(
    client: FlaskClient,
) -> None:
    """Its state says lost-next-turn; the turn it plays next it cannot fire, and the card
    says so before the turn is played."""
    state = {**START_STATE, "enemy": ship("Graf Spee", fire_control="lost-next-turn")}
    dice = {"seed": "fire-control", "nonce": 1}
    asked = resolve(client, "turn", {"state": state, "dice": dice})["result"]
    assert asked["ships"]["enemy"]["state"]["fire_control"] == "lost-next-turn"
    assert asked["ships"]["enemy"]["can_fire"] is False
    assert asked["ships"]["player"]["can_fire"] is True
    done = resolve(client, "turn", {"state": state, "player_action": "OB", "dice": dice})
    held = [
        e["result"]
        for e in done["result"]["events"]
        if e["phase"] == "fire" and e["side"] == "enemy"
    ]
    assert held[0]["fired"] is False  # OB from Long stays in range: it held its fire
    assert done["result"]["ships"]["enemy"]["state"]["fire_control"] == "ready"
    assert done["result"]["ships"]["enemy"]["can_fire"] is True


def _drawn(card: dict[str, Any], named: dict[str, Any], per_hit: int) -> dict[str, Any]:
    """What a ship card shows of a state's ship, worked out from the catalog and the tables."""
    hits = {"flotation_hits": 0, "turret_hits": 0, "speed_hits": 0, **named.get("state", {})}
    speed = max(0, card["speed"] - per_hit * hits["speed_hits"])
    return {
        "name": card["name"],
        "speed": speed,
        "sunk": hits["flotation_hits"] > card["flotation"],
        "must_offer_broadside": speed == 0,
        "actions": ["OB"] if speed == 0 else EVERY_ACTION,
    }


def test_a_turn_answer_draws_both_ships_of_the_state_it_hands_back(
    client: FlaskClient,
) -> None:
    """``result.ships``: each ship of ``result.state`` with its speed, whether it is sunk, may
    fire, must Offer Broadside and its Actions, in a pending answer and a finished one."""
    cards = {c["name"]: c for c in client.get(f"{BASE}/ships").get_json()["ships"]}
    per_hit = client.get(f"{BASE}/tables").get_json()["tables"]["speed_per_s_hit"]
    silenced = ship("Ajax", turret_hits=5, speed_hits=2)
    state = {**START_STATE, "range": "Short", "player": silenced}
    compared = 0
    for nonce in range(1, 13):
        dice = {"seed": "ship-cards", "nonce": nonce}
        asked = resolve(client, "turn", {"state": state, "dice": dice})["result"]
        done = resolve(client, "turn", {"state": state, "player_action": "C", "dice": dice})
        for result in (asked, done["result"]):
            for side in ("player", "enemy"):
                drawn = result["ships"][side]
                named = result["state"][side]
                card = cards[named["ship"]]
                assert {k: drawn[k] for k in _drawn(card, named, per_hit)} == _drawn(
                    card, named, per_hit
                )
                assert drawn["state"] == named["state"]
                assert drawn["actions"] == result["actions"][side]
        # Ajax's turrets are silenced: it cannot fire, whatever the turn did.
        assert asked["ships"]["player"]["can_fire"] is False
        assert asked["ships"]["player"]["speed"] == 6
        assert asked["ships"]["enemy"]["can_fire"] is True
        # Only Graf Spee fires at Ajax: Ajax ends the turn as its fire left it.
        events = done["result"]["events"]
        fired = [e for e in events if e["phase"] == "fire" and e["side"] == "enemy"]
        if fired and "target" in fired[0]["result"]:
            assert done["result"]["ships"]["player"] == fired[0]["result"]["target"]
            compared += 1
    assert compared >= 3


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
