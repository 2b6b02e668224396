"""Each Salvo! ruling, tested by name ("ruling <id>"), as served by GET /v1/rulesets/salvo-solo."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from service.engine import dice
from service.engine.errors import RuleError
from service.engine.resolution import Resolution, readings_in_force
from service.rulesets.salvo_solo import steps as solo_steps
from service.rulesets.salvo_solo.ships import CATALOG, Ship, ShipState
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


def test_ruling_gun_size_bands_if_gun_size_8_or_6_and_no_other(client: FlaskClient) -> None:
    """ruling gun-size-bands: by default only 'If gun size 8": -1' and 'If gun size 6": -2';
    5", 7" and 9" guns have no modifier against armor above 2."""
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
    for guns, modifier in ((5, 0), (6, -2), (7, 0), (8, -1), (9, 0)):
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


def test_ruling_turn_count_cap(client: FlaskClient) -> None:
    """ruling turn-count-cap: a turn at 10,000 is played and hands back 10,000."""
    body = {"state": {**START, "turn": 10_000}, "player_action": "OB"}
    result = resolve(client, "turn", body, [1, 1, 1, 1, 1, 1, 1])["result"]
    assert result["state"]["turn"] == 10_000 and result["game_over"] is False


# --- rule options: each reading both ways, with supplied dice ----------------------------------

HOOD_AT_SHORT = {
    "firer": {"ship": "Hood"},
    "target": {"ship": "Graf Spee"},
    "range": "Short",
    "guns_bearing": "broadside",
}


def test_reading_straddle_21_plus_as_20_and_no_effect(client: FlaskClient) -> None:
    """Hood's broadside at Short on Graf Spee: +5 +5 -2; a 13 makes 21, the empty row."""
    as_20 = resolve(client, "straddle", HOOD_AT_SHORT, [6, 6, 1])
    assert as_20["result"] == {"outcome": "FFSST", "hits": "FFSST", "roll_next": None}
    assert as_20["rules"]["straddle-21-plus"] == "as-20"
    body = {**HOOD_AT_SHORT, "rules": {"straddle-21-plus": "no-effect"}}
    empty = resolve(client, "straddle", body, [6, 6, 1])
    assert empty["result"] == {"outcome": "NE", "hits": "", "roll_next": None}
    assert empty["rules"]["straddle-21-plus"] == "no-effect"
    assert empty["modifiers"][0]["compared_with"] == (
        "Straddle table 21+ (printed empty; read no-effect)"
    )
    # A 20 is FFSST either way: only the empty row is read.
    assert resolve(client, "straddle", body, [6, 5, 1])["result"]["outcome"] == "FFSST"


def test_reading_straddle_21_plus_odds(client: FlaskClient) -> None:
    """26% of Hood's straddles land on 21+ (3d6 of 13 or more: 56 in 216)."""

    def chances(rules: dict[str, str]) -> dict[str, str]:
        answer = client.post(f"{BASE}/straddle/odds", json={**HOOD_AT_SHORT, "rules": rules})
        assert answer.status_code == 200, answer.get_json()
        return {o["result"]["outcome"]: o["probability"] for o in answer.get_json()["outcomes"]}

    as_20, empty = chances({}), chances({"straddle-21-plus": "no-effect"})
    assert as_20["FFSST"] == "3/8" and "NE" not in as_20  # 81 in 216
    assert empty["FFSST"] == "25/216" and empty["NE"] == "7/27"  # 25 and 56 in 216


def test_tables_show_the_straddle_rows_as_printed(client: FlaskClient) -> None:
    straddle = client.get(f"{BASE}/tables").get_json()["tables"]["straddle"]
    assert straddle["rows"][-2:] == [
        {"from": 20, "to": 20, "result": "FFSST"},
        {"from": 21, "to": None, "result": None},
    ]
    assert straddle["empty_row_readings"] == {"as-20": "FFSST", "no-effect": "NE"}
    assert straddle["gun_size_modifier_printed"] == {"8": -1, "6": -2}


def custom_firer(guns: int) -> dict[str, object]:
    card = {"name": "Custom", "type": "CL", "guns": guns, "broadside": 0, "stern": 0, "bow": 0}
    card |= {"flotation": 3, "turret": 4, "speed": 10, "armor": 0, "nation": "Britain"}
    return {"card": card}


def test_reading_gun_size_bands_and_printed_only(client: FlaskClient) -> None:
    """Against Hood (armor 4): 5" and 7" guns by band, or no modifier at all as printed."""
    for guns, bands, printed in ((5, -2, 0), (6, -2, -2), (7, -1, 0), (8, -1, -1), (9, 0, 0)):
        body = {
            "firer": custom_firer(guns),
            "target": {"ship": "Hood"},
            "range": "Medium-Long",
            "guns_bearing": "bow",
        }
        body["rules"] = {"gun-size-bands": "bands"}
        check = resolve(client, "straddle", body, [4, 3, 3])["modifiers"][0]
        assert check["final"] == 10 - 4 + bands, guns
        body["rules"] = {}  # the default: printed-only
        check = resolve(client, "straddle", body, [4, 3, 3])["modifiers"][0]
        assert check["final"] == 10 - 4 + printed, guns
        gun = [m for m in check["applied"] if m["source"].startswith("gun size")]
        assert gun == ([{"source": f'gun size {guns}"', "value": printed}] if printed else [])


def test_reading_gun_size_bands_odds(client: FlaskClient) -> None:
    body = {
        "firer": custom_firer(5),
        "target": {"ship": "Hood"},
        "range": "Short",
        "guns_bearing": "bow",
    }
    path = f"{BASE}/straddle/odds"
    bands = client.post(path, json={**body, "rules": {"gun-size-bands": "bands"}}).get_json()
    printed = client.post(path, json=body)
    assert printed.status_code == 200
    ne = {o["result"]["outcome"]: o["probability"] for o in bands["outcomes"]}["NE"]
    ne_printed = {o["result"]["outcome"]: o["probability"] for o in printed.get_json()["outcomes"]}
    # 3d6 - 1 (bands: -4 armor +5 Short -2 gun) against 3d6 + 1 (printed-only): NE is 9 or
    # less, so 3d6 <= 10 (108 in 216) against 3d6 <= 8 (56 in 216).
    assert (ne, ne_printed["NE"]) == ("1/2", "7/27")


def maneuver(
    client: FlaskClient, range_: str, player: str, enemy: str, **extra: object
) -> dict[str, Any]:
    body = {"range": range_, "player_action": player, "enemy_action": enemy, **extra}
    result: dict[str, Any] = resolve(client, "maneuver", body)["result"]
    return result


def test_reading_simultaneous_actions_in_initiative_order(client: FlaskClient) -> None:
    """The four cases of 45 that differ, each with the initiative order that makes it differ."""
    order = {"rules": {"simultaneous-actions": "in-initiative-order"}}
    # Extreme: the withdrawing ship acts first and the game is over before the other closes.
    assert maneuver(client, "Extreme", "W", "C")["range"] == "Extreme"
    out = maneuver(client, "Extreme", "W", "C", first="player", **order)
    assert (out["range"], out["out_of_range"], out["game_over"]) == (None, True, True)
    assert maneuver(client, "Extreme", "C", "W", first="enemy", **order)["out_of_range"] is True
    # Short: a Close stays at Short, then the other ship's Withdraw opens to Medium.
    assert maneuver(client, "Short", "C", "W")["range"] == "Short"
    assert maneuver(client, "Short", "C", "W", first="player", **order)["range"] == "Medium"
    assert maneuver(client, "Short", "W", "C", first="enemy", **order)["range"] == "Medium"
    # The other order gives the net answer.
    assert maneuver(client, "Extreme", "W", "C", first="enemy", **order)["range"] == "Extreme"
    assert maneuver(client, "Short", "C", "W", first="enemy", **order)["range"] == "Short"


def test_reading_simultaneous_actions_differs_in_4_of_45_cases(client: FlaskClient) -> None:
    differ = set()
    for range_ in ("Short", "Medium", "Medium-Long", "Long", "Extreme"):
        for player in ("C", "OB", "W"):
            for enemy in ("C", "OB", "W"):
                net = maneuver(client, range_, player, enemy)
                for first in ("player", "enemy"):
                    rules = {"simultaneous-actions": "in-initiative-order"}
                    one_by_one = maneuver(client, range_, player, enemy, first=first, rules=rules)
                    if (one_by_one["range"], one_by_one["out_of_range"]) != (
                        net["range"],
                        net["out_of_range"],
                    ):
                        differ.add((range_, player, enemy))
    assert differ == {
        ("Short", "C", "W"),
        ("Short", "W", "C"),
        ("Extreme", "C", "W"),
        ("Extreme", "W", "C"),
    }


def test_reading_simultaneous_actions_needs_the_initiative_in_maneuver(
    client: FlaskClient,
) -> None:
    body: dict[str, Any] = {"range": "Short", "player_action": "C", "enemy_action": "W"}
    body["rules"] = {"simultaneous-actions": "in-initiative-order"}
    problem = refused(client, "maneuver", body)
    assert problem["errors"][0]["field"] == "first"


def test_reading_simultaneous_actions_in_a_turn(client: FlaskClient) -> None:
    """At Extreme Ajax (initiative 1 +1 = 2, first) withdraws; Graf Spee (action 1) closes."""
    state = {**START, "range": "Extreme"}
    body = {"state": state, "player_action": "W"}
    together = resolve(client, "turn", body, [1, 1, 1, 1, 1, 1, 1])["result"]
    assert together["game_over"] is False and together["state"]["range"] == "Extreme"
    body["rules"] = {"simultaneous-actions": "in-initiative-order"}
    in_order = resolve(client, "turn", body, [1, 1])["result"]
    assert (in_order["game_over"], in_order["draw"], in_order["reason"]) == (
        True,
        True,
        "out of range",
    )


def test_reading_initiative_in_turn_player_commits(client: FlaskClient) -> None:
    """Graf Spee has the initiative (3 +1): the default shows its Action; player-commits
    refuses a turn without the player's Action, before any die is read."""
    pending = resolve(client, "turn", {"state": START}, [3, 1])["result"]["pending"]
    assert pending["enemy_action"] == "C"
    commits = {"state": START, "rules": {"initiative-in-turn": "player-commits"}}
    problem = refused(client, "turn", {**commits, "dice": {"values": [3, 1]}})
    assert problem["errors"][0]["field"] == "player_action"
    assert "player-commits" in problem["detail"]
    # With the Action up front both readings play the very same turn.
    values = [3, 1, 1, 1, 1, 1, 1]
    reacts = resolve(client, "turn", {"state": START, "player_action": "W"}, values)
    committed = resolve(client, "turn", {**commits, "player_action": "W"}, values)
    assert committed["result"] == reacts["result"] and committed["rolls"] == reacts["rolls"]
    assert committed["rules"]["initiative-in-turn"] == "player-commits"
    assert reacts["rules"]["initiative-in-turn"] == "player-reacts"


SILENCED_NURNBURG = ship("Nürnburg", turret_hits=4)


def test_reading_torpedoes_are_not_guns_silenced_cannot_launch(client: FlaskClient) -> None:
    """Nürnburg, its four turrets silenced, at Short in Fair weather against Ajax (a CL, -1)."""
    body = {"firer": SILENCED_NURNBURG, "target": AJAX, "range": "Short", "weather": "Fair"}
    launched = resolve(client, "torpedo", body, [6, 6, 3])["result"]
    assert launched == {"hit": True, "hits": "FFFSSS"}
    body["rules"] = {"torpedoes-are-not-guns": "silenced-cannot-launch"}
    problem = refused(client, "torpedo", body)
    assert problem["errors"][0]["field"] == "firer"
    assert problem["detail"] == (
        "Nürnburg has 4 T hits, as many as its Turret rating of 4: it can't fire anymore, "
        "nor launch torpedoes (reading silenced-cannot-launch)"
    )
    odds = client.post(f"{BASE}/torpedo/odds", json={**body, "rules": {}})
    assert odds.status_code == 200
    assert client.post(f"{BASE}/torpedo/odds", json=body).status_code == 422


def test_reading_torpedoes_are_not_guns_in_a_turn(client: FlaskClient) -> None:
    """Ajax leads (1), Nürnburg offers broadside (3) at Short; the fire order tie goes to
    Ajax (1), whose two shots miss (1+1 twice); the silenced Nürnburg holds its fire; then
    the torpedoes (1+1 each, misses) and the End of Turn (1)."""
    state = {**START, "range": "Short", "enemy": SILENCED_NURNBURG}
    body = {"state": state, "player_action": "OB"}
    guns_only = resolve(client, "turn", body, [1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])["result"]
    sides = [e["side"] for e in guns_only["events"] if e["phase"] == "torpedo"]
    assert sides == ["player", "enemy"]
    body["rules"] = {"torpedoes-are-not-guns": "silenced-cannot-launch"}
    silenced = resolve(client, "turn", body, [1, 3, 1, 1, 1, 1, 1, 1, 1, 1])["result"]
    assert [e["side"] for e in silenced["events"] if e["phase"] == "torpedo"] == ["player"]


def test_the_rulings_with_readings_and_their_defaults(client: FlaskClient) -> None:
    """Today's behaviour is the default of each; the rest of the rulings have one reading."""
    served = client.get(BASE).get_json()["rulings"]
    readings = {
        r["id"]: ([x["id"] for x in r["readings"]], r["default_reading"])
        for r in served
        if r["readings"]
    }
    assert readings == {
        "straddle-21-plus": (["as-20", "no-effect"], "as-20"),
        "gun-size-bands": (["bands", "printed-only"], "printed-only"),
        "simultaneous-actions": (["together", "in-initiative-order"], "together"),
        "initiative-in-turn": (["player-reacts", "player-commits"], "player-reacts"),
        "torpedoes-are-not-guns": (["guns-only", "silenced-cannot-launch"], "guns-only"),
    }
    unknown = refused(client, "straddle", {**HOOD_AT_SHORT, "rules": {"straddle-21-plus": "x"}})
    assert unknown["errors"][0]["field"] == "rules.straddle-21-plus"


# --- a step reads the readings its Resolution carries -------------------------------------

# Ajax silenced (5 T hits against Turret 5), launching at Graf Spee at Short in Fair weather.
SILENCED_AJAX = Ship(CATALOG["Ajax"], ShipState(turret_hits=5))


SILENCED_AJAX_AT_SPEE = solo_steps.TorpedoInput(
    firer=SILENCED_AJAX, target=Ship(CATALOG["Graf Spee"]), range="Short", weather="Fair"
)


SILENCED_AJAX_CANNOT_LAUNCH = (
    "Ajax has 5 T hits, as many as its Turret rating of 5: it can't fire anymore, "
    "nor launch torpedoes (reading silenced-cannot-launch)"
)


@pytest.mark.parametrize(
    ("reading", "launches"), [("guns-only", True), ("silenced-cannot-launch", False)]
)
def test_torpedo_step_reads_torpedoes_are_not_guns_from_its_resolution(
    reading: str, launches: bool
) -> None:
    # The reading is carried by the Resolution only, none is in force around the call.
    inp = SILENCED_AJAX_AT_SPEE
    res = Resolution(dice.SuppliedDice([6, 6, 3]), {"torpedoes-are-not-guns": reading})
    if launches:
        assert solo_steps.torpedo(inp, res)["hits"] == "FFFSSS"
        return
    with pytest.raises(RuleError) as refusal:
        solo_steps.torpedo(inp, res)
    assert refusal.value.field == "firer"
    assert refusal.value.detail == SILENCED_AJAX_CANNOT_LAUNCH


@pytest.mark.parametrize(
    ("reading", "launching"),
    [("guns-only", ["player", "enemy"]), ("silenced-cannot-launch", ["enemy"])],
)
def test_turn_reads_torpedoes_are_not_guns_from_its_resolution(
    reading: str, launching: list[str]
) -> None:
    # A turn at Short in Fair weather, Ajax silenced: under silenced-cannot-launch only
    # Nürnburg launches. The reading is carried by the Resolution only, none is in force.
    state = solo_steps.GameState(
        turn=1,
        weather="Fair",
        range="Short",
        player=SILENCED_AJAX,
        enemy=Ship(CATALOG["Nürnburg"]),
    )
    res = Resolution(dice.SuppliedDice([1, 3] + [1] * 30), {"torpedoes-are-not-guns": reading})
    result = solo_steps.turn(solo_steps.TurnInput(state, player_action="OB"), res)
    torpedoes = [e["side"] for e in result["events"] if e["phase"] == "torpedo"]
    assert torpedoes == launching


@pytest.mark.parametrize(
    ("chosen", "problem"),
    [
        ({}, None),
        (
            {"torpedoes-are-not-guns": "silenced-cannot-launch"},
            SILENCED_AJAX_CANNOT_LAUNCH,
        ),
    ],
)
def test_torpedo_problem_without_a_reading_takes_the_one_in_force(
    chosen: dict[str, str], problem: str | None
) -> None:
    # How the advisor asks (no Resolution at hand): the reading in force decides.
    inp = SILENCED_AJAX_AT_SPEE
    with readings_in_force(chosen):
        assert solo_steps.torpedo_problem(inp) == problem
