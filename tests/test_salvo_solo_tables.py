"""Every row of every Salvo! table, each modifier, through the HTTP API with supplied dice.

The expectations are written out here as the printed tables read, independently of the
service's own table data.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.engine import dice
from service.engine.resolution import Resolution
from service.engine.shape import to_json
from service.rulesets.salvo_solo import steps as solo_steps
from service.rulesets.salvo_solo.ships import CATALOG, Ship, ShipCard, ShipState
from tests.http_helpers import check_of
from tests.salvo_solo_helpers import AJAX, NURNBURG, SPEE, faces, refused, resolve, ship

RANGES = ["Short", "Medium", "Medium-Long", "Long", "Extreme"]

# --- Weather (2d6) and Initial Range (2d6) ------------------------------------------------

PRINTED_WEATHER = {
    2: "Stormy",
    3: "Stormy",
    4: "Misty",
    5: "Misty",
    6: "Misty",
    7: "Fair",
    8: "Fair",
    9: "Fair",
    10: "Fair",
    11: "Fine",
    12: "Fine",
}
PRINTED_RANGE_MOD = {"Stormy": -8, "Misty": -4, "Fair": 0, "Fine": 2}


@pytest.mark.parametrize("total", range(2, 13))
def test_weather_row(client: FlaskClient, total: int) -> None:
    data = resolve(client, "weather", {}, faces(total, 2))
    weather = PRINTED_WEATHER[total]
    assert data["result"] == {
        "weather": weather,
        "initial_range_modifier": PRINTED_RANGE_MOD[weather],
    }
    assert data["rolls"][0]["total"] == total


def printed_initial_range(modified: int) -> str:
    if modified <= 1:
        return "Medium"
    if modified <= 4:
        return "Medium-Long"
    if modified <= 9:
        return "Long"
    return "Extreme"


@pytest.mark.parametrize("weather", ["Stormy", "Misty", "Fair", "Fine"])
@pytest.mark.parametrize("total", range(2, 13))
def test_initial_range_row_with_weather(client: FlaskClient, weather: str, total: int) -> None:
    data = resolve(client, "range", {"weather": weather}, faces(total, 2))
    modified = total + PRINTED_RANGE_MOD[weather]
    assert data["result"] == {"range": printed_initial_range(modified)}
    assert data["modifiers"][0]["final"] == modified


# --- Initiative (1d6) and the enemy's Action (1d6) ----------------------------------------


@pytest.mark.parametrize("die", range(1, 7))
@pytest.mark.parametrize(
    ("enemy", "player", "modifier"),
    [
        (ship("Graf Spee"), ship("Hood"), 1),  # speed 8 against 10: enemy slower, +1
        (ship("Graf Spee"), ship("Graf Spee"), 0),
        (ship("Hood"), ship("Graf Spee"), -1),  # enemy faster, -1
        (ship("Hood", speed_hits=2), ship("Graf Spee"), 1),  # 10 - 4 = 6 < 8: now slower
    ],
)
def test_initiative(
    client: FlaskClient, die: int, enemy: dict[str, Any], player: dict[str, Any], modifier: int
) -> None:
    data = resolve(client, "initiative", {"player": player, "enemy": enemy}, [die])
    assert data["result"]["first"] == ("player" if die + modifier <= 3 else "enemy")
    assert data["modifiers"][0]["final"] == die + modifier


@pytest.mark.parametrize("die", range(1, 7))
@pytest.mark.parametrize("smaller_guns", [False, True])
@pytest.mark.parametrize("last_action", [None, "C", "W"])
def test_enemy_action(
    client: FlaskClient, die: int, smaller_guns: bool, last_action: str | None
) -> None:
    enemy, player = (SPEE, {"ship": "Hood"}) if smaller_guns else (SPEE, {"ship": "Ajax"})
    body = {"enemy": enemy, "player": player, "last_action": last_action}
    data = resolve(client, "enemy-action", body, [die])
    modified = die + (1 if smaller_guns else 0)
    expected = {1: "C", 2: "C", 3: "OB", 4: "OB"}.get(modified)
    if modified == 5:
        expected = last_action or "OB"
    if modified >= 6:
        expected = "W"
    assert data["result"]["action"] == expected


def test_enemy_at_speed_zero_offers_broadside_without_a_roll(client: FlaskClient) -> None:
    body = {"enemy": ship("Graf Spee", speed_hits=4), "player": AJAX, "last_action": "W"}
    data = resolve(client, "enemy-action", body, None)
    assert data["result"]["action"] == "OB" and data["rolls"] == []
    refused(client, "enemy-action", {**body, "dice": {"values": [6]}})  # no die is wanted


# --- Actions and range --------------------------------------------------------------------

STEP = {"C": -1, "OB": 0, "W": 1}
BEARING = {"C": "bow", "OB": "broadside", "W": "stern"}


@pytest.mark.parametrize("start", RANGES)
@pytest.mark.parametrize("player_action", ["C", "OB", "W"])
@pytest.mark.parametrize("enemy_action", ["C", "OB", "W"])
def test_maneuver(client: FlaskClient, start: str, player_action: str, enemy_action: str) -> None:
    body = {"range": start, "player_action": player_action, "enemy_action": enemy_action}
    result = resolve(client, "maneuver", body)["result"]
    index = RANGES.index(start) + STEP[player_action] + STEP[enemy_action]
    assert result["out_of_range"] is (index > 4)
    assert result["game_over"] is (index > 4)
    assert result["range"] == (None if index > 4 else RANGES[max(0, index)])
    assert result["player_guns_bearing"] == BEARING[player_action]
    assert result["enemy_guns_bearing"] == BEARING[enemy_action]


def test_rulebook_example_graf_spee_offers_broadside_ajax_closes(client: FlaskClient) -> None:
    """Ajax & Graf Spee at Long; Graf Spee OB, Ajax C: Medium-Long, broadside +3, bow +0."""
    body = {"range": "Long", "player_action": "C", "enemy_action": "OB"}
    result = resolve(client, "maneuver", body)["result"]
    assert result["range"] == "Medium-Long"
    assert result["enemy_guns_bearing"] == "broadside" and result["player_guns_bearing"] == "bow"
    # "Had Graf Spee chosen C, range would've been Medium."
    body["enemy_action"] = "C"
    assert resolve(client, "maneuver", body)["result"]["range"] == "Medium"


def test_a_ship_at_speed_zero_may_only_offer_broadside(client: FlaskClient) -> None:
    body = {
        "range": "Long",
        "player_action": "C",
        "enemy_action": "OB",
        "player": ship("Ajax", speed_hits=5),
    }
    problem = refused(client, "maneuver", body)
    assert "speed 0" in problem["detail"] and problem["errors"][0]["field"] == "player_action"
    body["player_action"] = "OB"
    assert resolve(client, "maneuver", body)["result"]["range"] == "Long"


# --- Fire table (2d6) ---------------------------------------------------------------------

STRADDLE_FROM = {"Short": 5, "Medium": 6, "Medium-Long": 7, "Long": 8, "Extreme": 10}
FIRE_WEATHER = {"Fine": 0, "Fair": 0, "Misty": -1, "Stormy": -3}


@pytest.mark.parametrize("range_", RANGES)
@pytest.mark.parametrize("weather", ["Fine", "Fair", "Misty", "Stormy"])
@pytest.mark.parametrize("before", [False, True])
def test_fire_table(client: FlaskClient, range_: str, weather: str, before: bool) -> None:
    for total in range(2, 13):
        body = {"range": range_, "weather": weather, "previously_straddled": before}
        data = resolve(client, "fire", body, faces(total, 2))
        modified = total + FIRE_WEATHER[weather] + (2 if before else 0)
        assert data["result"]["straddle"] is (modified >= STRADDLE_FROM[range_]), total
        assert data["result"]["shots_per_turn"] == (2 if range_ in ("Short", "Medium") else 1)
        assert data["modifiers"][0]["final"] == modified


def test_a_ship_that_cannot_fire_is_refused(client: FlaskClient) -> None:
    body = {"range": "Long", "weather": "Fair", "firer": ship("Graf Spee", turret_hits=4)}
    assert "can't fire anymore" in refused(client, "fire", body)["detail"]
    body["firer"] = ship("Graf Spee", fire_control="lost-this-turn")
    assert "fire control" in refused(client, "fire", body)["detail"]
    body["firer"] = ship("Graf Spee", fire_control="lost-next-turn", turret_hits=3)
    assert resolve(client, "fire", body, [6, 6])["result"]["straddle"] is True


# --- Straddle table (3d6) -----------------------------------------------------------------

PRINTED_STRADDLE = {
    10: "F",
    11: "Special",
    12: "T",
    13: "FS",
    14: "T",
    15: "Special",
    16: "Critical",
    17: "FF",
    18: "TT",
    19: "FFST",
    20: "FFSST",
}

# Firer Hood on broadside (+5) at Medium-Long (0) against Nürnburg (armor 0): no modifier
# at all, so the natural roll is the table row.
PLAIN = {
    "firer": {"ship": "Hood"},
    "target": {"ship": "Nürnburg"},
    "range": "Medium-Long",
    "guns_bearing": "stern",
}


@pytest.mark.parametrize("total", range(3, 19))
def test_straddle_row(client: FlaskClient, total: int) -> None:
    body = {**PLAIN, "guns_bearing": "stern"}  # Hood stern +2
    data = resolve(client, "straddle", body, faces(total, 3))
    modified = total + 2
    expected = "NE" if modified <= 9 else PRINTED_STRADDLE.get(modified, "FFSST")
    assert data["result"]["outcome"] == expected
    follow = {"Special": "special-damage", "Critical": "critical"}.get(expected)
    assert data["result"]["roll_next"] == follow
    assert data["result"]["hits"] == ("" if expected in ("NE", "Special", "Critical") else expected)


def straddle_final(
    client: FlaskClient, body: dict[str, Any], total: int = 10
) -> tuple[int, list[Any]]:
    data = resolve(client, "straddle", body, faces(total, 3))
    check = data["modifiers"][0]
    return check["final"], check["applied"]


@pytest.mark.parametrize(("bearing", "rating"), [("bow", 2), ("broadside", 5), ("stern", 2)])
def test_straddle_guns_bearing(client: FlaskClient, bearing: str, rating: int) -> None:
    final, _ = straddle_final(client, {**PLAIN, "guns_bearing": bearing})
    assert final == 10 + rating


@pytest.mark.parametrize(
    ("range_", "modifier"),
    [("Short", 5), ("Medium", 2), ("Medium-Long", 0), ("Long", -2), ("Extreme", -5)],
)
def test_straddle_range(client: FlaskClient, range_: str, modifier: int) -> None:
    final, _ = straddle_final(client, {**PLAIN, "range": range_})
    assert final == 10 + 2 + modifier


@pytest.mark.parametrize("target", ["King George V", "Hood", "Graf Spee", "Nürnburg"])
def test_straddle_target_armor(client: FlaskClient, target: str) -> None:
    armor = {"King George V": 6, "Hood": 4, "Graf Spee": 2, "Nürnburg": 0}[target]
    final, _ = straddle_final(client, {**PLAIN, "target": {"ship": target}})
    assert final == 10 + 2 - armor  # Hood's 15" guns: no gun-size modifier


@pytest.mark.parametrize("t_hits", [0, 1, 3, 7])
def test_straddle_each_firer_t_hit(client: FlaskClient, t_hits: int) -> None:
    body = {**PLAIN, "firer": ship("Hood", turret_hits=t_hits)}
    assert straddle_final(client, body)[0] == 10 + 2 - t_hits


@pytest.mark.parametrize(
    ("firer", "target", "gun_modifier"),
    [
        ("Nürnburg", "King George V", -2),  # 6" against armor 6
        ("Prinz Eugen", "King George V", -1),  # 8" against armor 6
        ("Nürnburg", "Graf Spee", 0),  # the * note: armor 2 is exempt
        ("Prinz Eugen", "Ajax", 0),  # armor 1 is exempt
        ("Nürnburg", "Nürnburg", 0),  # armor 0 is exempt
        ("Graf Spee", "Hood", 0),  # 11" guns: no modifier
        ("Nürnburg", "Hood", -2),  # armor 4 is not exempt
    ],
)
def test_straddle_gun_size(client: FlaskClient, firer: str, target: str, gun_modifier: int) -> None:
    body = {
        **PLAIN,
        "firer": {"ship": firer},
        "target": {"ship": target},
        "guns_bearing": "broadside",
    }
    final, applied = straddle_final(client, body)
    armor = {"King George V": 6, "Graf Spee": 2, "Ajax": 1, "Nürnburg": 0, "Hood": 4}[target]
    broadside = {"Nürnburg": 1, "Prinz Eugen": 2, "Graf Spee": 3}[firer]
    assert final == 10 - armor + broadside + gun_modifier
    assert any(m["source"].startswith("gun size") for m in applied) is (gun_modifier != 0)


def test_rulebook_example_ajax_straddles_graf_spee_at_long_range(client: FlaskClient) -> None:
    """-2 armor, bow guns +0, 6" gun size +0 against armor 2, Long -2: a 12 becomes 8, NE."""
    body = {"firer": AJAX, "target": SPEE, "range": "Long", "guns_bearing": "bow"}
    data = resolve(client, "straddle", body, [6, 4, 2])
    check = data["modifiers"][0]
    assert check["natural"] == 12 and check["final"] == 8
    assert data["result"]["outcome"] == "NE"
    assert {m["source"]: m["value"] for m in check["applied"]} == {
        "target armor 2": -2,
        "range Long": -2,
    }


def test_straddle_against_a_sunk_ship_is_refused(client: FlaskClient) -> None:
    body = {
        "firer": AJAX,
        "target": ship("Graf Spee", flotation_hits=5),
        "range": "Long",
        "guns_bearing": "bow",
    }
    assert "already sunk" in refused(client, "straddle", body)["detail"]


# --- Special Damage (2d6) and Critical Hit (2d6) ------------------------------------------

PRINTED_SPECIAL = {
    2: ("Listing", "FF"),
    3: ("Listing", "FF"),
    4: ("Flooding", "FS"),
    5: ("Fire Control", ""),
    6: ("Turret", "T"),
    7: ("Engineering", "S"),
    8: ("Hydraulics", "FS"),
    9: ("Magazine Flooded", "TT"),
    10: ("Transverse Bulkhead", "F"),
    11: ("Steering", "SS"),
    12: ("Steering", "SS"),
}


@pytest.mark.parametrize("total", range(2, 13))
def test_special_damage_row(client: FlaskClient, total: int) -> None:
    result = resolve(client, "special-damage", {}, faces(total, 2))["result"]
    name, hits = PRINTED_SPECIAL[total]
    assert result == {"name": name, "hits": hits, "fire_control_lost": total == 5}


PRINTED_CRITICAL = {
    2: ("Flooding", "FFFS"),
    3: ("Flooding", "FFFS"),
    4: ("Fire director", "TT"),
    5: ("Fire director", "TT"),
    6: ("Fire director", "TT"),
    8: ("Bridge/Navigation", "SS"),
    9: ("Gunnery", "FTT"),
    10: ("Gunnery", "FTT"),
    11: ("Gunnery", "FTT"),
}


@pytest.mark.parametrize("range_", RANGES)
@pytest.mark.parametrize("total", range(2, 12))
def test_critical_row(client: FlaskClient, range_: str, total: int) -> None:
    result = resolve(client, "critical", {"target": SPEE, "range": range_}, faces(total, 2))[
        "result"
    ]
    if total == 7:
        assert result == {
            "name": "Explosion",
            "hits": "FFFSS" if range_ in ("Short", "Medium") else "FFS",
        }
    else:
        name, hits = PRINTED_CRITICAL[total]
        assert result == {"name": name, "hits": hits}


@pytest.mark.parametrize("range_", ["Long", "Extreme"])
@pytest.mark.parametrize("sub_total", range(2, 13))
def test_plunging_fire_at_long_and_extreme(
    client: FlaskClient, range_: str, sub_total: int
) -> None:
    body = {"target": {"ship": "Hood"}, "range": range_}  # armor 4
    data = resolve(client, "critical", body, [6, 6, *faces(sub_total, 2)])
    count = max(0, sub_total - 4)
    assert data["result"] == {"name": "Plunging fire", "hits": "F" * count + "S" * count}
    assert data["rolls"][1]["notation"] == "2d6"
    assert data["modifiers"][1]["final"] == sub_total - 4


@pytest.mark.parametrize("range_", ["Short", "Medium", "Medium-Long"])
def test_plunging_fire_elsewhere_has_no_effect(client: FlaskClient, range_: str) -> None:
    data = resolve(client, "critical", {"target": SPEE, "range": range_}, [6, 6])
    assert data["result"] == {"name": "Plunging fire", "hits": ""}
    assert len(data["rolls"]) == 1


# --- Torpedo table (2d6) ------------------------------------------------------------------


@pytest.mark.parametrize("total", range(2, 13))
@pytest.mark.parametrize(
    ("target", "modifier"),
    [
        ({"ship": "Graf Spee"}, 0),
        ({"ship": "Nürnburg"}, -1),  # CL
        ({"ship": "Prinz Eugen"}, -1),  # CA
        (ship("Graf Spee", speed_hits=2), 3),  # speed 8 - 4 = 4 < 5
        (ship("Nürnburg", speed_hits=3), 2),  # CL and speed 4: -1 + 3
        (ship("Graf Spee", speed_hits=1), 0),  # speed 6: not slow
    ],
)
def test_torpedo(client: FlaskClient, total: int, target: dict[str, Any], modifier: int) -> None:
    body = {"firer": AJAX, "target": target, "range": "Short", "weather": "Fair"}
    hit = total + modifier >= 10
    values = faces(total, 2) + ([4] if hit else [])
    data = resolve(client, "torpedo", body, values)
    assert data["result"] == {"hit": hit, "hits": "FFFFSSSS" if hit else ""}


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"firer": {"ship": "Graf Spee"}}, "only a CL"),
        ({"firer": {"ship": "Prinz Eugen"}}, "only a CL"),
        ({"range": "Medium"}, "Short range only"),
        ({"weather": "Misty"}, "Fair or Fine"),
        ({"weather": "Stormy"}, "Fair or Fine"),
    ],
)
def test_torpedo_conditions(client: FlaskClient, change: dict[str, Any], reason: str) -> None:
    body = {"firer": AJAX, "target": SPEE, "range": "Short", "weather": "Fine", **change}
    assert reason in refused(client, "torpedo", body)["detail"]


# --- Damage ---------------------------------------------------------------------------------


def test_s_hits_cost_two_speed_and_speed_zero_forces_ob(client: FlaskClient) -> None:
    result = resolve(client, "damage", {"ship": SPEE, "hits": "SSS"})["result"]["ship"]
    assert result["speed"] == 2 and result["must_offer_broadside"] is False
    result = resolve(client, "damage", {"ship": SPEE, "hits": "SSSS"})["result"]["ship"]
    assert result["speed"] == 0 and result["must_offer_broadside"] is True


def test_as_many_t_hits_as_turret_rating_silences_the_guns(client: FlaskClient) -> None:
    three = resolve(client, "damage", {"ship": SPEE, "hits": "TTT"})["result"]["ship"]
    assert three["can_fire"] is True
    four = resolve(client, "damage", {"ship": SPEE, "hits": "TTTT"})["result"]["ship"]
    assert four["can_fire"] is False


def test_sunk_only_when_f_hits_exceed_flotation(client: FlaskClient) -> None:
    four = resolve(client, "damage", {"ship": SPEE, "hits": "FFFF"})["result"]
    assert four["ship"]["sunk"] is False and four["newly_sunk"] is False
    five = resolve(client, "damage", {"ship": SPEE, "hits": "FFFFF"})["result"]
    assert five["ship"]["sunk"] is True and five["newly_sunk"] is True


def test_damage_is_cumulative(client: FlaskClient) -> None:
    body = {"ship": ship("Graf Spee", flotation_hits=2, turret_hits=1, speed_hits=1), "hits": "FST"}
    state = resolve(client, "damage", body)["result"]["ship"]["state"]
    assert state == {
        "flotation_hits": 3,
        "turret_hits": 2,
        "speed_hits": 2,
        "fire_control": "ready",
    }


def test_fire_control_lost_for_the_next_turn(client: FlaskClient) -> None:
    body = {"ship": SPEE, "hits": "", "fire_control_lost": True}
    result = resolve(client, "damage", body)["result"]["ship"]
    assert result["state"]["fire_control"] == "lost-next-turn"
    assert result["can_fire"] is True  # still fires this turn


# --- End of Turn (1d6) --------------------------------------------------------------------


@pytest.mark.parametrize("die", range(1, 7))
@pytest.mark.parametrize(
    ("weather", "player_action", "enemy_action", "modifier"),
    [
        ("Fair", "OB", "OB", 0),
        ("Fair", "C", "OB", -1),
        ("Fine", "C", "C", -1),  # either ship closed: once
        ("Fair", "W", "OB", 1),
        ("Fair", "C", "W", 0),  # -1 and +1
        ("Misty", "OB", "OB", 1),
        ("Stormy", "OB", "W", 3),
    ],
)
def test_end_of_turn(
    client: FlaskClient,
    die: int,
    weather: str,
    player_action: str,
    enemy_action: str,
    modifier: int,
) -> None:
    body = {"weather": weather, "player_action": player_action, "enemy_action": enemy_action}
    data = resolve(client, "end-of-turn", body, [die])
    assert data["result"]["game_over"] is (die + modifier >= 6)
    assert data["modifiers"][0]["final"] == die + modifier


# --- the enemy-action, end-of-turn and initiative rolls are a d6 --------------------------


@pytest.mark.parametrize(
    ("step", "body", "label"),
    [
        ("enemy-action", {"enemy": SPEE, "player": AJAX, "last_action": None}, "enemy action"),
        (
            "end-of-turn",
            {"weather": "Fair", "player_action": "OB", "enemy_action": "OB"},
            "end of turn",
        ),
        ("initiative", {"enemy": SPEE, "player": AJAX}, "initiative"),
    ],
)
def test_enemy_action_end_of_turn_and_initiative_roll_a_d6(
    client: FlaskClient, step: str, body: dict[str, Any], label: str
) -> None:
    data = resolve(client, step, body, [6])
    assert [(r["label"], r["notation"]) for r in data["rolls"]] == [(label, "1d6")]
    problem = refused(client, step, {**body, "dice": {"values": [7]}})
    assert f"1d6 for {label}" in problem["detail"]


def test_enemy_action_and_end_of_turn_seeded_dice_are_d6_faces() -> None:
    """A d7 would read the same byte stream differently: pin the seeded faces."""
    enemy, player = Ship(CATALOG["Graf Spee"]), Ship(CATALOG["Ajax"])
    for seed in range(40):
        res = Resolution(dice.SeededDice(f"guard-{seed}", 0))
        solo_steps.enemy_action(solo_steps.EnemyActionInput(enemy, player, None), res)
        solo_steps.end_of_turn(solo_steps.EndOfTurnInput("Fair", "OB", "OB"), res)
        expected = dice.SeededDice(f"guard-{seed}", 0).draw("x", 2, 6).values
        assert tuple(roll.values[0] for roll in res.rolls) == expected


# --- the enemy-action modifier needs strictly smaller guns --------------------------------


@pytest.mark.parametrize(("enemy", "player"), [(NURNBURG, AJAX), (SPEE, SPEE)])
def test_enemy_action_equal_guns_take_no_smaller_guns_modifier(
    client: FlaskClient, enemy: dict[str, Any], player: dict[str, Any]
) -> None:
    body = {"enemy": enemy, "player": player, "last_action": "C"}
    data = resolve(client, "enemy-action", body, [5])
    assert data["result"] == {"action": "C", "reason": "same Act as last turn"}
    assert check_of(data, "enemy action")["applied"] == []
    assert check_of(data, "enemy action")["final"] == 5


# --- the gun-size rule spares armour 0-2 only ---------------------------------------------


def _card_with_armor(armor: int) -> ShipCard:
    base = CATALOG["Graf Spee"]
    return replace(base, name=f"armour {armor}", armor=armor)


@pytest.mark.parametrize(("armor", "gun_modifier"), [(2, 0), (3, -2), (4, -2)])
def test_straddle_gun_size_applies_from_armor_3(armor: int, gun_modifier: int) -> None:
    inp = solo_steps.StraddleInput(
        Ship(CATALOG["Nürnburg"]), Ship(_card_with_armor(armor)), "Medium-Long", "broadside"
    )
    by_source = {m.source: m.value for m in solo_steps.straddle_modifiers(inp)}
    assert by_source.get('gun size 6"', 0) == gun_modifier
    assert by_source[f"target armor {armor}"] == -armor


def test_straddle_gun_size_at_armor_3_over_http(client: FlaskClient) -> None:
    card = to_json(replace(_card_with_armor(3), provenance="custom"))
    body = {
        "firer": NURNBURG,
        "target": {"card": card},
        "range": "Medium-Long",
        "guns_bearing": "broadside",
    }
    data = resolve(client, "straddle", body, [4, 4, 4])
    applied = check_of(data, "straddle")["applied"]
    assert {"source": 'gun size 6"', "value": -2} in applied
    # 12 - 3 armor + 1 broadside + 0 range - 2 gun size = 8: no effect
    assert check_of(data, "straddle")["final"] == 8


# --- the slow-target torpedo modifier is for speed below 5, not 5 -------------------------


@pytest.mark.parametrize(("speed_hits", "speed", "modifier"), [(2, 5, None), (3, 3, 3)])
def test_torpedo_slow_target_modifier_needs_speed_below_5(
    speed_hits: int, speed: int, modifier: int | None
) -> None:
    target = Ship(CATALOG["King George V"], ShipState(speed_hits=speed_hits))  # speed 9
    assert target.speed == speed
    res = Resolution(dice.SuppliedDice([1, 1]))
    solo_steps.torpedo(solo_steps.TorpedoInput(Ship(CATALOG["Ajax"]), target, "Short", "Fair"), res)
    slow = [m["value"] for m in res.checks[0]["applied"] if m["source"].startswith("target speed")]
    assert slow == ([] if modifier is None else [modifier])


def test_plunging_fire_trail(client: FlaskClient) -> None:
    data = resolve(client, "critical", {"target": SPEE, "range": "Long"}, [6, 6, 5, 4])
    assert data["result"] == {"name": "Plunging fire", "hits": "FFFFFFFSSSSSSS"}
    assert [(r["label"], r["notation"]) for r in data["rolls"]] == [
        ("critical hit", "2d6"),
        ("critical hit: plunging fire", "2d6"),
    ]
    assert check_of(data, "critical hit: plunging fire") == {
        "roll": "critical hit: plunging fire",
        "natural": 9,
        "applied": [{"source": "target armor 2", "value": -2}],
        "final": 7,
        "compared_with": "number of FS hits (never below 0)",
        "outcome": "7 FS",
    }
