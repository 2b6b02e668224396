"""Each Salvo! ruling, tested by name ("ruling <id>"), as served by GET /v1/rulesets/salvo-solo."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.salvo_solo_helpers import AJAX, BASE, SPEE, faces, refused, resolve, ship

START = {"turn": 1, "weather": "Fair", "range": "Long", "player": AJAX, "enemy": SPEE}


def test_ruling_straddle_21_plus(client: FlaskClient) -> None:
    """ruling straddle-21-plus: 21 or more is FFSST, like 20."""
    body = {
        "firer": {"ship": "Hood"},
        "target": {"ship": "Nürnburg"},
        "range": "Short",
        "guns_bearing": "broadside",
    }
    for total in (11, 13, 18):  # +5 broadside +5 Short: 21, 23, 28
        result = resolve(client, "straddle", body, faces(total, 3))["result"]
        assert result == {"outcome": "FFSST", "hits": "FFSST", "roll_next": None}


def test_ruling_initial_range_bands(client: FlaskClient) -> None:
    """ruling initial-range-bands: -6 is Medium, 14 is Extreme."""
    assert resolve(client, "range", {"weather": "Stormy"}, [1, 1])["result"]["range"] == "Medium"
    assert resolve(client, "range", {"weather": "Fine"}, [6, 6])["result"]["range"] == "Extreme"


def test_ruling_no_short_start(client: FlaskClient) -> None:
    """ruling no-short-start: no weather and no roll starts a game at Short."""
    for weather in ("Stormy", "Misty", "Fair", "Fine"):
        found = client.post(f"{BASE}/range/odds", json={"weather": weather}).get_json()
        assert "Short" not in {o["result"]["range"] for o in found["outcomes"]}


def test_ruling_gun_size_tie(client: FlaskClient) -> None:
    """ruling gun-size-tie: equal guns roll 1d6, 1-3 the player fires first, 4-6 the enemy."""
    state = {**START, "range": "Medium-Long", "enemy": {"ship": "Nürnburg"}}
    for die, first in ((3, "player"), (4, "enemy")):
        values = [1, 3, die, 1, 1, 1, 1, 3]  # two misses, end of turn 3
        result = resolve(client, "turn", {"state": state, "player_action": "OB"}, values)["result"]
        order = [e for e in result["events"] if e["phase"] == "fire-order"]
        assert order == [{"phase": "fire-order", "result": {"first": first}}]
        assert [e["side"] for e in result["events"] if e["phase"] == "fire"][0] == first


def test_ruling_firer_t_hits(client: FlaskClient) -> None:
    """ruling firer-t-hits: -1 per T hit to straddle; at the Turret rating, no fire at all."""
    body = {
        "firer": ship("Graf Spee", turret_hits=3),
        "target": AJAX,
        "range": "Medium-Long",
        "guns_bearing": "stern",
    }
    check = resolve(client, "straddle", body, [4, 4, 4])["modifiers"][0]
    assert {"source": "firer has 3 T hits", "value": -3} in check["applied"]
    body["firer"] = ship("Graf Spee", turret_hits=4)
    assert "can't fire anymore" in refused(client, "straddle", body)["detail"]


def test_ruling_sunk_is_final(client: FlaskClient) -> None:
    """ruling sunk-is-final: no critical, damage or shot against a sunk ship."""
    sunk = ship("Graf Spee", flotation_hits=5)
    assert (
        "already sunk" in refused(client, "critical", {"target": sunk, "range": "Short"})["detail"]
    )
    assert "already sunk" in refused(client, "damage", {"ship": sunk, "hits": "F"})["detail"]
    # An Explosion that sinks the ship is applied in full.
    body = {"ship": ship("Graf Spee", flotation_hits=3), "hits": "FFFSS"}
    state = resolve(client, "damage", body)["result"]["ship"]["state"]
    assert state["flotation_hits"] == 6 and state["speed_hits"] == 2


def test_ruling_speed_floor(client: FlaskClient) -> None:
    """ruling speed-floor: speed stops at 0."""
    result = resolve(client, "damage", {"ship": SPEE, "hits": "SSSSSS"})["result"]["ship"]
    assert result["speed"] == 0 and result["state"]["speed_hits"] == 6


def test_ruling_gun_size_bands(client: FlaskClient) -> None:
    """ruling gun-size-bands: 5" -2, 7" -1, 9" 0 against armor above 2."""
    card = {
        "name": "Custom",
        "type": "CL",
        "broadside": 0,
        "stern": 0,
        "bow": 0,
        "flotation": 3,
        "turret": 4,
        "speed": 10,
        "armor": 0,
        "nation": "Britain",
    }
    for guns, modifier in ((5, -2), (7, -1), (9, 0)):
        body = {
            "firer": {"card": {**card, "guns": guns}},
            "target": {"ship": "Hood"},
            "range": "Medium-Long",
            "guns_bearing": "bow",
        }
        check = resolve(client, "straddle", body, [4, 3, 3])["modifiers"][0]
        assert check["final"] == 10 - 4 + modifier


def test_ruling_guns_bearing_is_a_straddle_modifier(client: FlaskClient) -> None:
    """ruling guns-bearing-is-a-straddle-modifier: the Fire roll has no bearing modifier."""
    body = {"range": "Long", "weather": "Fair", "firer": {"ship": "Hood"}}
    check = resolve(client, "fire", body, [4, 3])["modifiers"][0]
    assert check["applied"] == [] and check["final"] == 7


def test_ruling_plunging_fire_ranges(client: FlaskClient) -> None:
    """ruling plunging-fire-ranges: Medium-Long has no plunging fire; never below 0 hits."""
    body = {"target": {"ship": "King George V"}, "range": "Medium-Long"}
    assert resolve(client, "critical", body, [6, 6])["result"]["hits"] == ""
    body["range"] = "Extreme"
    assert resolve(client, "critical", body, [6, 6, 2, 1])["result"]["hits"] == ""


def test_ruling_fire_control(client: FlaskClient) -> None:
    """ruling fire-control: lost-next-turn fires now, lost-this-turn does not."""
    firer = ship("Ajax", fire_control="lost-next-turn")
    body = {"range": "Long", "weather": "Fair", "firer": firer}
    assert resolve(client, "fire", body, [4, 4])["result"]["straddle"] is True
    body["firer"] = ship("Ajax", fire_control="lost-this-turn")
    assert refused(client, "fire", body)["errors"][0]["field"] == "firer"


def test_ruling_simultaneous_actions(client: FlaskClient) -> None:
    """ruling simultaneous-actions: C and W at Extreme cancel; both C at Medium is Short."""
    body = {"range": "Extreme", "player_action": "C", "enemy_action": "W"}
    assert resolve(client, "maneuver", body)["result"]["range"] == "Extreme"
    body = {"range": "Medium", "player_action": "C", "enemy_action": "C"}
    assert resolve(client, "maneuver", body)["result"]["range"] == "Short"


def test_ruling_initiative_in_turn(client: FlaskClient) -> None:
    """ruling initiative-in-turn: initiative is rolled and reported; the order of dice holds."""
    values = [6, 3, 1, 1, 1, 1, 3]  # enemy has initiative; nothing else changes
    result = resolve(client, "turn", {"state": START, "player_action": "C"}, values)["result"]
    assert result["events"][0] == {"phase": "initiative", "result": {"first": "enemy"}}
    assert result["state"]["range"] == "Medium-Long"


def test_ruling_torpedoes_are_not_guns(client: FlaskClient) -> None:
    """ruling torpedoes-are-not-guns: a silenced CL still launches torpedoes."""
    body = {
        "firer": ship("Ajax", turret_hits=5, fire_control="lost-this-turn"),
        "target": SPEE,
        "range": "Short",
        "weather": "Fair",
    }
    assert resolve(client, "torpedo", body, [5, 5, 2])["result"]["hit"] is True


def test_ruling_draw(client: FlaskClient) -> None:
    """ruling draw: the End of Turn table ends the game drawn."""
    values = [2, 3, 1, 1, 1, 1, 6]
    result = resolve(client, "turn", {"state": START, "player_action": "OB"}, values)["result"]
    assert result["game_over"] is True and result["draw"] is True and result["winner"] is None


def test_ruling_derived_cards(client: FlaskClient) -> None:
    """ruling derived-cards: Nelson, Prinz Eugen and Ajax on the printed cards' scale."""
    ships = {s["name"]: s for s in client.get(f"{BASE}/ships").get_json()["ships"]}
    nelson, eugen, ajax = ships["Nelson"], ships["Prinz Eugen"], ships["Ajax"]
    assert (nelson["guns"], nelson["speed"], nelson["armor"], nelson["bow"], nelson["stern"]) == (
        16,
        7,
        6,
        3,
        1,
    )
    assert (eugen["type"], eugen["guns"], eugen["armor"], eugen["flotation"]) == ("CA", 8, 1, 4)
    assert (ajax["type"], ajax["guns"], ajax["bow"], ajax["speed"]) == ("CL", 6, 0, 10)
    # Not stronger than the printed ship it sits beside on the scale.
    assert nelson["broadside"] <= ships["King George V"]["broadside"]
    assert ajax["flotation"] <= ships["Nürnburg"]["flotation"]


def test_ruling_hit_count_cap(client: FlaskClient) -> None:
    """ruling hit-count-cap: counts stop at 100, and the state handed back is accepted again."""
    stopped = ship("Graf Spee", speed_hits=99, turret_hits=100)
    result = resolve(client, "damage", {"ship": stopped, "hits": "SSST"})["result"]["ship"]
    assert result["state"]["speed_hits"] == 100 and result["state"]["turret_hits"] == 100
    state = {**START, "range": "Short", "enemy": {"ship": "Graf Spee", "state": result["state"]}}
    # Graf Spee, silenced, cannot fire; Ajax closes to fire twice and torpedoes at Short.
    body = {"state": state, "player_action": "OB", "dice": {"seed": "cap", "nonce": 1}}
    answer = resolve(client, "turn", body)["result"]
    assert answer["state"]["enemy"]["state"]["speed_hits"] <= 100
    if not answer["game_over"]:
        resolve(client, "turn", {**body, "state": answer["state"]})  # accepted as it came back
