"""Composites (attack, turn), odds, ships, tables and rulings of Salvo!."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from service.rulesets.salvo_solo import RULESET, tables
from tests.salvo_solo_helpers import AJAX, BASE, SPEE, START_STATE, refused, resolve, ship

# --- attack ----------------------------------------------------------------------------------


def test_attack_at_medium_fires_twice_and_the_second_shot_knows_the_first_straddled(
    client: FlaskClient,
) -> None:
    body = {
        "firer": AJAX,
        "target": SPEE,
        "range": "Medium",
        "weather": "Fair",
        "guns_bearing": "broadside",
    }
    # shot 1: fire 6 straddles at Medium; straddle 15 +1 broadside -2 armor +2 Medium = 16,
    # Critical; critical 7 is an Explosion, FFFSS at Medium.
    # shot 2: fire 4 +2 (straddled before) = 6 straddles; straddle 17 +1 = 18, TT.
    values = [3, 3, 5, 5, 5, 3, 4, 2, 2, 6, 6, 5]
    data = resolve(client, "attack", body, values)
    shots = data["result"]["shots"]
    assert [s["fire"]["straddle"] for s in shots] == [True, True]
    assert shots[0]["critical"] == {"name": "Explosion", "hits": "FFFSS"}
    assert shots[1]["straddle"]["outcome"] == "TT"
    second_fire = next(c for c in data["modifiers"] if c["roll"] == "shot 2 fire")
    assert {"source": "firer has straddled the target before", "value": 2} in second_fire["applied"]
    assert data["result"]["target"]["state"] == {
        "flotation_hits": 3,
        "turret_hits": 2,
        "speed_hits": 2,
        "fire_control": "ready",
    }
    assert data["result"]["straddled"] is True
    assert [r["label"] for r in data["rolls"]] == [
        "shot 1 fire",
        "shot 1 straddle",
        "shot 1 critical hit",
        "shot 2 fire",
        "shot 2 straddle",
    ]


def test_attack_stops_when_the_target_sinks(client: FlaskClient) -> None:
    body = {
        "firer": AJAX,
        "target": ship("Graf Spee", flotation_hits=4),
        "range": "Medium",
        "weather": "Fair",
        "guns_bearing": "broadside",
    }
    data = resolve(client, "attack", body, [6, 6, 3, 3, 3])  # straddle 9 + 1 = 10: F
    assert len(data["result"]["shots"]) == 1
    assert data["result"]["target_sunk"] is True


def test_attack_with_special_damage_losing_fire_control(client: FlaskClient) -> None:
    body = {
        "firer": AJAX,
        "target": SPEE,
        "range": "Long",
        "weather": "Fine",
        "guns_bearing": "stern",
    }
    # fire 8 straddles at Long; straddle 15 -2 armor -2 Long = 11: Special; 2d6 = 5: Fire Control
    data = resolve(client, "attack", body, [4, 4, 5, 5, 5, 2, 3])
    shot = data["result"]["shots"][0]
    assert shot["special_damage"]["name"] == "Fire Control"
    assert data["result"]["target"]["state"]["fire_control"] == "lost-next-turn"


def test_a_silenced_ship_cannot_attack(client: FlaskClient) -> None:
    body = {
        "firer": ship("Ajax", turret_hits=5),
        "target": SPEE,
        "range": "Long",
        "weather": "Fine",
        "guns_bearing": "bow",
    }
    assert "can't fire anymore" in refused(client, "attack", body)["detail"]


# --- turn -------------------------------------------------------------------------------------

START = START_STATE


def test_a_whole_turn_in_the_rulebook_order(client: FlaskClient) -> None:
    # initiative 2: player; enemy action 3: OB; Long + C = Medium-Long, one shot each.
    # Graf Spee (11") fires first: 2 misses. Ajax fires 12: straddle 18 - 2 armor = 16,
    # Critical; critical 8: Bridge/Navigation SS. No torpedoes at Medium-Long.
    # End of turn 3 - 1 (a ship closed) = 2: a new turn.
    values = [2, 3, 1, 1, 6, 6, 6, 6, 6, 4, 4, 3]
    data = resolve(client, "turn", {"state": START, "player_action": "C"}, values)
    result = data["result"]
    assert [e["phase"] for e in result["events"]] == [
        "initiative",
        "enemy-action",
        "maneuver",
        "fire",
        "fire",
        "end-of-turn",
    ]
    assert [e.get("side") for e in result["events"] if e["phase"] == "fire"] == ["enemy", "player"]
    assert result["game_over"] is False and result["winner"] is None
    assert result["state"] == {
        "turn": 2,
        "weather": "Fair",
        "range": "Medium-Long",
        "player": {
            "ship": "Ajax",
            "state": {
                "flotation_hits": 0,
                "turret_hits": 0,
                "speed_hits": 0,
                "fire_control": "ready",
            },
        },
        "enemy": {
            "ship": "Graf Spee",
            "state": {
                "flotation_hits": 0,
                "turret_hits": 0,
                "speed_hits": 2,
                "fire_control": "ready",
            },
        },
        "enemy_last_action": "OB",
        "player_has_straddled": True,
        "enemy_has_straddled": False,
    }


def test_the_state_sent_back_plays_the_next_turn(client: FlaskClient) -> None:
    state = START
    for nonce in range(1, 40):
        body = {"state": state, "player_action": "C", "dice": {"seed": "campaign", "nonce": nonce}}
        result = client.post(f"{BASE}/turn", json=body).get_json()["result"]
        if result["game_over"]:
            assert result["draw"] or result["winner"] in ("player", "enemy")
            return
        assert result["state"]["turn"] == state["turn"] + 1
        state = result["state"]
    pytest.fail("forty turns without an end: the End of Turn table ends games on a 6")


def test_two_light_cruisers_torpedo_each_other_and_both_sink_draw(client: FlaskClient) -> None:
    state = {**START, "range": "Short", "enemy": {"ship": "Nürnburg"}}
    # initiative 1; enemy action 3: OB; equal 6" guns: fire order 2, player first; four
    # misses; player torpedo 12 - 1 (CL) hits for 5 FS; enemy torpedo 11 - 1 hits for 4 FS.
    values = [1, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 6, 6, 5, 6, 5, 4]
    result = resolve(client, "turn", {"state": state, "player_action": "OB"}, values)["result"]
    phases = [e["phase"] for e in result["events"]]
    assert phases.count("torpedo") == 2 and "fire-order" in phases
    assert result["game_over"] is True and result["draw"] is True and result["winner"] is None
    assert result["reason"] == "both ships sunk"


def test_out_of_range_ends_the_game_drawn(client: FlaskClient) -> None:
    state = {**START, "range": "Extreme"}
    result = resolve(client, "turn", {"state": state, "player_action": "W"}, [2, 6])["result"]
    assert result["game_over"] is True and result["draw"] is True
    assert result["reason"] == "out of range"


def test_sinking_the_enemy_wins(client: FlaskClient) -> None:
    state = {**START, "range": "Medium", "enemy": ship("Graf Spee", flotation_hits=4)}
    # initiative 1; enemy action 3: OB; Medium stays Medium (player OB). Graf Spee fires
    # first, two misses; Ajax's first shot: fire 6, straddle 9 + 1 + 2 - 2 = 10: F. Sunk.
    values = [1, 3, 1, 1, 1, 1, 3, 3, 3, 3, 3]
    result = resolve(client, "turn", {"state": state, "player_action": "OB"}, values)["result"]
    assert result["winner"] == "player" and result["game_over"] is True
    assert result["state"]["enemy"]["state"]["flotation_hits"] == 5


def test_fire_control_lost_last_turn_silences_this_turn_only(client: FlaskClient) -> None:
    state = {**START, "player": ship("Ajax", fire_control="lost-next-turn")}
    values = [2, 3, 1, 1, 3]  # Graf Spee misses; Ajax cannot fire; end of turn 3 - 1
    result = resolve(client, "turn", {"state": state, "player_action": "C"}, values)["result"]
    silenced = [e for e in result["events"] if e.get("side") == "player"]
    assert silenced[0]["result"]["fired"] is False
    assert result["state"]["player"]["state"]["fire_control"] == "ready"


def test_a_game_already_won_is_refused(client: FlaskClient) -> None:
    state = {**START, "enemy": ship("Graf Spee", flotation_hits=5)}
    assert (
        "already sunk" in refused(client, "turn", {"state": state, "player_action": "C"})["detail"]
    )


# --- odds -------------------------------------------------------------------------------------


def odds(client: FlaskClient, step: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"{BASE}/{step}/odds", json=body)
    assert response.status_code == 200, response.get_json()
    outcomes = response.get_json()["outcomes"]
    assert sum(Fraction(o["probability"]) for o in outcomes) == 1
    for outcome in outcomes:
        assert outcome["p"] == pytest.approx(float(Fraction(outcome["probability"])))
    return {str(sorted(o["result"].items())): Fraction(o["probability"]) for o in outcomes}


def test_weather_odds(client: FlaskClient) -> None:
    found = odds(client, "weather", {})
    by_weather = {k.split("'weather', '")[1].split("'")[0]: v for k, v in found.items()}
    assert by_weather == {
        "Stormy": Fraction(3, 36),
        "Misty": Fraction(12, 36),
        "Fair": Fraction(18, 36),
        "Fine": Fraction(3, 36),
    }


def test_fire_odds_at_long_range(client: FlaskClient) -> None:
    found = odds(client, "fire", {"range": "Long", "weather": "Fair"})
    straddle = sum(p for k, p in found.items() if "('straddle', True)" in k)
    assert straddle == Fraction(15, 36)  # 8+ on 2d6


def test_critical_odds_include_the_plunging_fire_sub_roll(client: FlaskClient) -> None:
    found = odds(client, "critical", {"target": {"ship": "Hood"}, "range": "Long"})
    plunging_none = [p for k, p in found.items() if "Plunging" in k and "('hits', '')" in k]
    # a 12 (1/36), then 2d6 minus armor 4 at or below 0: 2, 3 or 4 (6 of 36)
    assert plunging_none == [Fraction(1, 36) * Fraction(6, 36)]


def test_torpedo_odds_against_a_slow_target(client: FlaskClient) -> None:
    body = {
        "firer": AJAX,
        "target": ship("Graf Spee", speed_hits=2),
        "range": "Short",
        "weather": "Fair",
    }
    found = odds(client, "torpedo", body)
    miss = sum(p for k, p in found.items() if "('hit', False)" in k)
    assert miss == Fraction(15, 36)  # 2d6 + 3 >= 10 needs 7+ (21/36); 2 to 6 miss
    assert len(found) == 7


def test_straddle_odds_match_resolving_every_roll(client: FlaskClient) -> None:
    body = {"firer": AJAX, "target": SPEE, "range": "Long", "guns_bearing": "bow"}
    found = odds(client, "straddle", body)
    counted: dict[str, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                result = resolve(client, "straddle", body, [a, b, c])["result"]
                key = str(sorted(result.items()))
                counted[key] = counted.get(key, Fraction(0)) + Fraction(1, 216)
    assert counted == found


def test_steps_without_dice_offer_no_odds(client: FlaskClient) -> None:
    assert client.post(f"{BASE}/maneuver/odds", json={}).status_code == 404
    assert client.post(f"{BASE}/turn/odds", json={}).status_code == 404


# --- ships, tables, rulings --------------------------------------------------------------------


def test_ships_from_the_cards_and_derived(client: FlaskClient) -> None:
    ships = {s["name"]: s for s in client.get(f"{BASE}/ships").get_json()["ships"]}
    assert ships["King George V"] == {
        "name": "King George V",
        "type": "BB",
        "guns": 14,
        "broadside": 5,
        "stern": 2,
        "bow": 3,
        "flotation": 6,
        "turret": 6,
        "speed": 9,
        "armor": 6,
        "nation": "Britain",
        "provenance": "card",
    }
    assert (ships["Hood"]["guns"], ships["Hood"]["turret"], ships["Hood"]["armor"]) == (15, 8, 4)
    assert (ships["Graf Spee"]["type"], ships["Graf Spee"]["speed"]) == ("PB", 8)
    assert (ships["Nürnburg"]["type"], ships["Nürnburg"]["flotation"]) == ("CL", 3)
    derived = {name for name, s in ships.items() if s["provenance"] == "derived"}
    assert derived == {"Nelson", "Prinz Eugen", "Ajax"}
    assert ships["Ajax"]["bow"] == 0  # the rulebook example: Ajax's bow guns are +0


def test_a_ship_card_may_come_inline(client: FlaskClient) -> None:
    card = {
        "name": "Exeter",
        "type": "CA",
        "guns": 8,
        "broadside": 2,
        "stern": 1,
        "bow": 1,
        "flotation": 4,
        "turret": 5,
        "speed": 10,
        "armor": 1,
        "nation": "Britain",
    }
    body = {
        "firer": {"card": card},
        "target": {"ship": "King George V"},
        "range": "Medium-Long",
        "guns_bearing": "broadside",
    }
    check = resolve(client, "straddle", body, [4, 3, 3])["modifiers"][0]
    assert check["final"] == 10 - 6 + 2 - 1  # armor 6, broadside +2, 8" gun size -1


def test_a_ship_card_needs_exactly_one_of_name_or_card(client: FlaskClient) -> None:
    body = {
        "firer": {"ship": "Ajax", "card": {}},
        "target": SPEE,
        "range": "Long",
        "guns_bearing": "bow",
    }
    response = client.post(f"{BASE}/straddle", json=body)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "firer"


def test_tables_are_the_data_the_engine_resolves_with(client: FlaskClient) -> None:
    served = client.get(f"{BASE}/tables").get_json()["tables"]
    assert served["straddle"]["rows"][0] == {"from": None, "to": 9, "result": "NE"}
    assert served["fire"]["straddle_from"] == tables.FIRE_STRADDLE_FROM
    assert served == RULESET.tables


def test_every_ruling_is_served_and_tested(client: FlaskClient) -> None:
    served = client.get("/v1/rulesets/salvo-solo").get_json()["rulings"]
    ids = {r["id"] for r in served}
    assert len(ids) == len(served) >= 10
    tests = (Path(__file__).parent / "test_salvo_solo_rulings.py").read_text(encoding="utf-8")
    assert {i for i in ids if f"ruling {i}" not in tests} == set()


# --- reproducibility ----------------------------------------------------------------------------


def test_same_seed_and_nonce_give_the_same_answer_on_two_separate_apps() -> None:
    first, second = create_app(), create_app()
    body: dict[str, Any] = {
        "state": START,
        "player_action": "C",
        "dice": {"seed": "replica", "nonce": 9},
    }
    one = first.test_client().post(f"{BASE}/turn", json=body).get_json()
    two = second.test_client().post(f"{BASE}/turn", json=body).get_json()
    assert one["rolls"] == two["rolls"] and one["result"] == two["result"]
    body["dice"]["nonce"] = 10
    three = first.test_client().post(f"{BASE}/turn", json=body).get_json()
    assert three["rolls"] != one["rolls"]


def test_without_dice_the_server_seed_is_returned_and_replays(app: Flask) -> None:
    client = app.test_client()
    body = {"firer": AJAX, "target": SPEE, "range": "Short", "guns_bearing": "broadside"}
    first = client.post(f"{BASE}/straddle", json=body).get_json()
    assert first["dice"]["seed_source"] == "server"
    replay = {**body, "dice": {"seed": first["dice"]["seed"], "nonce": first["dice"]["nonce"]}}
    again = client.post(f"{BASE}/straddle", json=replay).get_json()
    assert again["rolls"] == first["rolls"] and again["result"] == first["result"]
