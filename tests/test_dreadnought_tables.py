"""Every row of the dreadnought tables, every to-hit modifier, as a player would check them.

The printed figures are written out here, not read from the service's tables, so a wrong
table fails these tests.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.dreadnought_helpers import (
    BASE,
    applied,
    card,
    check,
    fire,
    gun,
    post,
    refused,
    resolve,
    ship,
    target,
)

# calibre, a target it may fire at, printed weapon, short / medium / long upper figures, damage
WEAPON_ROWS = [
    (4, "Destroyer", '<5.5"', "light", 2, 6, 8, "Low"),
    (6, "Protected Cruiser", '5.5"-<7"', "light", 3, 8, 12, "Medium"),
    (8, "Destroyer", '7"-9"', "light", 4, 10, 18, "High"),
    (8, "Dreadnought", '7"-9"', "heavy", 8, 16, 24, "Low"),
    (10, "Battleship", '>9"-<11"', "heavy", 12, 24, 30, "Low"),
    (12, "Battlecruiser", '11"-12"', "heavy", 14, 26, 33, "Medium"),
    (15, "Super Dreadnought", '13.5"-15"', "heavy", 16, 28, 36, "High"),
]


def _range(client: FlaskClient, calibre: float, target_class: str, distance: float) -> Any:
    body = {"calibre": calibre, "target_class": target_class, "distance": distance}
    return resolve(client, "range", body)["result"]


@pytest.mark.parametrize(
    ("calibre", "cls", "weapon", "targets", "short", "medium", "long", "dmg"), WEAPON_ROWS
)
def test_weapon_row_bands(
    client: FlaskClient,
    calibre: float,
    cls: str,
    weapon: str,
    targets: str,
    short: int,
    medium: int,
    long: int,
    dmg: str,
) -> None:
    expected = [
        (0, "short", -2),
        (1, "short", -2),
        (short, "short", -2),
        (short + 1, "medium", 0),
        (medium, "medium", 0),
        (medium + 0.5, "long", 2),
        (long, "long", 2),
    ]
    for distance, band, change in expected:
        result = _range(client, calibre, cls, distance)
        assert result == {
            "weapon": weapon,
            "targets": targets,
            "may_fire": True,
            "band": band,
            "score_needed_change": change,
            "damage": dmg,
            "reason": None,
        }, distance
    beyond = _range(client, calibre, cls, long + 0.1)
    assert (beyond["may_fire"], beyond["band"], beyond["score_needed_change"]) == (
        False,
        None,
        None,
    )
    assert f'{long}"' in beyond["reason"]


def test_tables_endpoint_prints_each_weapon_row(client: FlaskClient) -> None:
    rows = client.get(f"{BASE}/tables").get_json()["tables"]["weapons_effect"]
    printed = [
        (r["weapon"], r["targets"], r["short"], r["medium"], r["long"], r["damage"], r["to_hit"])
        for r in rows
    ]
    assert printed == [
        ('<5.5"', "light", [1, 2], [3, 6], [7, 8], "Low", "2D8 + Gnr"),
        ('5.5"-<7"', "light", [1, 3], [4, 8], [9, 12], "Medium", "2D8 + Gnr"),
        ('7"-9"', "light", [1, 4], [5, 10], [11, 18], "High", "2D8 + Gnr"),
        ('7"-9"', "heavy", [1, 8], [9, 16], [17, 24], "Low", "2D8 + Gnr"),
        ('>9"-<11"', "heavy", [1, 12], [13, 24], [25, 30], "Low", "2D8 + Gnr"),
        ('11"-12"', "heavy", [1, 14], [15, 26], [27, 33], "Medium", "2D8 + Gnr"),
        ('13.5"-15"', "heavy", [1, 16], [17, 28], [29, 36], "High", "2D8 + Gnr"),
    ]
    barrels = [(r["barrels_to_hit"], r["barrels_damage"]) for r in rows]
    # High rows +1 per barrel for damage, the rest +1/2 rounded up; to hit always +1/2.
    assert barrels == [
        ("half", "half"),
        ("half", "half"),
        ("half", "full"),
        ("half", "half"),
        ("half", "half"),
        ("half", "half"),
        ("half", "full"),
    ]


@pytest.mark.parametrize(
    ("calibre", "cls", "weapon", "targets", "short", "medium", "long", "dmg"), WEAPON_ROWS
)
def test_each_weapon_row_rolls_2d8_and_gunner_die_and_its_damage_type(
    client: FlaskClient,
    calibre: float,
    cls: str,
    weapon: str,
    targets: str,
    short: int,
    medium: int,
    long: int,
    dmg: str,
) -> None:
    tgt = target(cls, to_hit=2, damage_reduction=0)
    data = fire(client, [2, 5, 7], tgt=tgt, battery=calibre, distance=medium)
    assert [(r["label"], r["notation"]) for r in data["rolls"]] == [
        ("to hit", "2d8"),
        ("to hit: gunner die", "1d8"),
    ]
    assert data["result"]["weapon"] == weapon
    assert data["result"]["band"] == "medium"
    assert data["result"]["damage"] == {"Low": 2, "Medium": 5, "High": 7}[dmg]
    assert check(data, "damage")["compared_with"].startswith(f"{dmg} damage")


@pytest.mark.parametrize(
    ("calibre", "light_ok", "heavy_ok"),
    [
        (4, True, False),
        (5.5, True, False),
        (6.9, True, False),
        (7, True, True),
        (9, True, True),
        (9.2, False, True),
        (11, False, True),
        (12, False, True),
        (15, False, True),
    ],
)
def test_light_weapons_fire_at_light_ships_heavy_at_heavy(
    client: FlaskClient, calibre: float, light_ok: bool, heavy_ok: bool
) -> None:
    for cls in ("Destroyer", "Protected Cruiser"):
        assert _range(client, calibre, cls, 1)["may_fire"] is light_ok
    for cls in (
        "Armoured Cruiser",
        "Battlecruiser",
        "Battleship",
        "Dreadnought",
        "Super Dreadnought",
    ):
        assert _range(client, calibre, cls, 1)["may_fire"] is heavy_ok


def test_range_step_says_why_a_gun_may_not_fire(client: FlaskClient) -> None:
    light = _range(client, 4, "Dreadnought", 1)
    assert light["weapon"] == '<5.5"' and light["band"] is None
    assert "light weapons" in light["reason"]
    heavy = _range(client, 15, "Destroyer", 1)
    assert heavy["weapon"] == '13.5"-15"' and "heavy weapons" in heavy["reason"]


def test_fire_refuses_light_guns_at_heavy_ships_and_shots_out_of_range(client: FlaskClient) -> None:
    problem = refused(
        client,
        "fire",
        {"firer": gun(4), "battery": 4, "target": target("Dreadnought"), "distance": 2},
    )
    assert problem["type"].endswith("rule-violation")
    assert problem["errors"] == [{"field": "target", "message": problem["detail"]}]
    far = refused(
        client, "fire", {"firer": gun(12), "battery": 12, "target": target(), "distance": 33.5}
    )
    assert far["errors"][0]["field"] == "distance" and '33"' in far["detail"]


# --- Ship Characteristics table ---------------------------------------------------------

# class, speed, +/- turn, turn cost, to hit, dam reduc, dam boxes (printed)
SHIP_CLASSES = [
    ("Destroyer", [8, 9], 4, 1, 17, 1, 20, "20"),
    ("Protected Cruiser", [7, 8], 4, 1, 16, 2, 30, "30"),
    ("Armoured Cruiser", [6, 7], 2, 2, 16, 1, 30, "30"),
    ("Battlecruiser", [8, 9], 3, 2, 17, 2, 40, "40+?"),
    ("Battleship", [5, 6], 1, 3, 15, 3, 50, "50"),
    ("Dreadnought", [6, 7], 2, 3, 16, 3, 70, "70"),
    ("Super Dreadnought", [7, 8], 2, 3, 16, 4, 80, "80"),
]


def test_ship_characteristics_table_as_printed(client: FlaskClient) -> None:
    rows = client.get(f"{BASE}/tables").get_json()["tables"]["ship_characteristics"]
    assert [
        (
            r["class"],
            r["speed"],
            r["speed_change"],
            r["turn_cost"],
            r["to_hit"],
            r["damage_reduction"],
            r["damage_boxes"],
            r["printed_damage_boxes"],
        )
        for r in rows
    ] == SHIP_CLASSES
    classes = [s for s in client.get(f"{BASE}/ships").get_json()["ships"] if s["kind"] == "class"]
    assert [s["class"] for s in classes] == [row[0] for row in SHIP_CLASSES]


@pytest.mark.parametrize(
    ("cls", "speed", "change", "turn_cost", "to_hit", "reduction", "boxes", "printed"),
    SHIP_CLASSES,
)
def test_each_class_row_drives_a_ship(
    client: FlaskClient,
    cls: str,
    speed: list[int],
    change: int,
    turn_cost: int,
    to_hit: int,
    reduction: int,
    boxes: int,
    printed: str,
) -> None:
    status = resolve(client, "damage", {"ship": ship(card(cls, (4, 2))), "points": 0})["result"]
    assert status["ship"]["damage_boxes"] == boxes
    assert status["ship"]["boxes_left"] == boxes
    assert status["ship"]["damage_reduction"] == reduction
    assert status["ship"]["speed"] == speed[1]
    assert status["ship"]["turn_cost"] == turn_cost
    assert status["ship"]["to_hit"] == to_hit
    # the class's to-hit figure is the score a gun needs at medium range
    calibre, medium = (4, 5) if cls in ("Destroyer", "Protected Cruiser") else (12, 20)
    shot = fire(client, [1, 1, 2], tgt=target(cls), battery=calibre, distance=medium)
    assert shot["result"]["score_needed"] == to_hit


def test_class_aliases_from_the_text(client: FlaskClient) -> None:
    for alias, cls in [
        ("Light Cruiser", "Protected Cruiser"),
        ("Heavy Cruiser", "Armoured Cruiser"),
    ]:
        status = resolve(client, "damage", {"ship": ship(card(alias, (6, 2))), "points": 0})
        assert status["result"]["ship"]["class"] == cls
    assert _range(client, 6, "Light Cruiser", 1)["may_fire"] is True


# --- to hit -------------------------------------------------------------------------------

TO_HIT_MODIFIERS = [
    ("firer_turned", "firing ship turned this turn", -1),
    ("target_turned", "target ship turned this turn", -1),
    ("first_time_at_target", "first time firing at this target", -1),
    ("more_than_one_ship_firing", "more than one ship firing at the same target", -1),
    ("not_under_fire", "not under fire this turn", 1),
]


@pytest.mark.parametrize(("flag", "source", "value"), TO_HIT_MODIFIERS)
def test_each_to_hit_modifier(client: FlaskClient, flag: str, source: str, value: int) -> None:
    # a single 12" gun (no barrels bonus) at a Dreadnought at medium range needs 16
    natural = [5, 5, 5] if value < 0 else [4, 5, 6]  # 15: the modifier decides
    raised: dict[str, Any] = {flag: True}
    plain = fire(client, natural)
    data = fire(client, natural, **raised)
    assert applied(data, "to hit") == {source: value}
    assert check(data, "to hit")["final"] == 15 + value
    assert plain["result"]["hit"] is False
    assert data["result"]["hit"] is (value > 0)
    if value < 0:
        assert fire(client, [3, 6, 7])["result"]["hit"] is True
        assert fire(client, [3, 6, 7], **raised)["result"]["hit"] is False


def test_director_down_comes_from_the_firers_state(client: FlaskClient) -> None:
    firer = ship(card("Dreadnought", (12, 1)), director_destroyed=True)
    data = fire(client, [6, 6, 6], firer=firer)
    assert applied(data, "to hit") == {"director down": -2}
    assert check(data, "to hit")["final"] == 16


def test_every_modifier_together(client: FlaskClient) -> None:
    flags: dict[str, Any] = {flag: True for flag, _, _ in TO_HIT_MODIFIERS}
    firer = ship(card("Dreadnought", (12, 1)), director_destroyed=True)
    data = fire(client, [8, 6, 7], firer=firer, **flags)
    assert sum(applied(data, "to hit").values()) == -2 - 1 - 1 - 1 - 1 + 1
    assert check(data, "to hit")["final"] == 21 - 5


def test_tables_list_the_to_hit_modifiers(client: FlaskClient) -> None:
    to_hit = client.get(f"{BASE}/tables").get_json()["tables"]["to_hit"]
    assert to_hit["modifiers"] == {
        "director down": -2,
        **{source: value for _, source, value in TO_HIT_MODIFIERS},
    }
    assert to_hit["range_changes_score_needed"] == {"short": -2, "medium": 0, "long": 2}


@pytest.mark.parametrize(
    ("distance", "band", "needed"), [(14, "short", 14), (26, "medium", 16), (27, "long", 18)]
)
def test_short_range_lowers_and_long_range_raises_the_score_needed(
    client: FlaskClient, distance: float, band: str, needed: int
) -> None:
    data = fire(client, [3, 5, 6], distance=distance)  # 14 on the dice
    assert (data["result"]["band"], data["result"]["score_needed"]) == (band, needed)
    assert data["result"]["hit"] is (needed <= 14)
    assert check(data, "to hit")["natural"] == 14  # the roll itself is not changed
    assert check(data, "to hit")["compared_with"].startswith(f"{needed}+")


def test_range_has_no_effect_on_damage(client: FlaskClient) -> None:
    tgt = target(to_hit=2, damage_reduction=0)
    damage = {
        d: fire(client, [3, 4, 6], tgt=tgt, distance=d)["result"]["damage"] for d in (1, 20, 30)
    }
    assert damage == {1: 4, 20: 4, 30: 4}  # 11"-12": Medium damage


# --- barrels ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("barrels", "to_hit"), [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (8, 4), (9, 4), (10, 5)]
)
def test_barrels_bonus_to_hit_half_per_extra_barrel_rounded_up(
    client: FlaskClient, barrels: int, to_hit: int
) -> None:
    data = fire(client, [1, 2, 3], firer=gun(12, barrels))
    assert check(data, "to hit")["final"] == 6 + to_hit


@pytest.mark.parametrize(
    ("calibre", "barrels", "bonus"),
    [(15, 1, 0), (15, 2, 1), (15, 8, 7), (12, 2, 1), (12, 3, 1), (12, 8, 4), (4, 5, 2), (4, 6, 3)],
)
def test_barrels_bonus_to_damage(
    client: FlaskClient, calibre: float, barrels: int, bonus: int
) -> None:
    cls = "Destroyer" if calibre < 5.5 else "Dreadnought"
    tgt = target(cls, to_hit=2, damage_reduction=0)
    data = fire(
        client, [2, 3, 4], firer=gun(calibre, barrels), tgt=tgt, battery=calibre, distance=1
    )
    base = {15.0: 4, 12.0: 3, 4.0: 2}[calibre]  # High, Medium, Low of 2, 3, 4
    assert data["result"]["damage"] == base + bonus


# --- gunner die ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("nationality", "crew", "die"),
    [
        ("German", "good", "1d10"),
        ("German", "average", "1d10"),
        ("British", "good", "1d10"),
        ("British", "average", "1d8"),
        ("French", "good", "1d8"),
        ("American", "good", "1d8"),
        ("other", "average", "1d8"),
    ],
)
def test_gunner_die(client: FlaskClient, nationality: str, crew: str, die: str) -> None:
    firer = ship(card("Dreadnought", (12, 1), nationality=nationality, crew=crew))
    data = fire(client, [1, 1, 1], firer=firer)
    assert data["rolls"][1]["notation"] == die
    assert data["result"]["gunner_die"] == die[1:]


def test_a_d10_face_is_refused_on_a_d8_gunner_die(client: FlaskClient) -> None:
    body = {"firer": gun(), "battery": 12, "target": target(), "distance": 20}
    problem = post(client, "fire", {**body, "dice": {"values": [1, 1, 9]}}, 422)
    assert problem["type"].endswith("dice") and "1d8 for to hit: gunner die" in problem["detail"]
