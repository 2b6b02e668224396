"""Damage from the three dice, damage reduction, criticals, torpedoes, damage and rudders."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from service.rulesets.dreadnought.steps import damage_from_dice, throw_of
from tests.dreadnought_helpers import (
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

# --- damage from the three dice --------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "low", "medium", "high", "total"),
    [
        ((2, 5, 7), 2, 5, 7, 14),  # all different: one die each
        ((2, 2, 5), 4, 4, 5, 9),  # two equal lowest are added (and they hold the middle)
        ((2, 5, 5), 2, 10, 10, 12),  # two equal highest are added (and hold the middle)
        ((5, 2, 5), 2, 10, 10, 12),  # order does not matter
        ((4, 4, 4), 12, 12, 12, 12),  # all three the same count them all
        ((1, 8, 10), 1, 8, 10, 19),
    ],
)
def test_equal_dice_rule(
    dice: tuple[int, int, int], low: int, medium: int, high: int, total: int
) -> None:
    assert damage_from_dice("Low", dice) == low
    assert damage_from_dice("Medium", dice) == medium
    assert damage_from_dice("High", dice) == high
    assert damage_from_dice("All", dice) == total


@pytest.mark.parametrize(
    ("calibre", "dice", "damage"),
    [
        (10, [3, 3, 7], 6),  # Low: two equal lowest
        (12, [3, 3, 7], 6),  # Medium: the middle 3 and its twin
        (12, [3, 7, 7], 14),  # Medium: the middle 7 and its twin
        (15, [3, 7, 7], 14),  # High: two equal highest
        (15, [6, 6, 6], 18),  # triples count them all
        (10, [6, 6, 6], 18),
    ],
)
def test_equal_dice_rule_through_fire(
    client: FlaskClient, calibre: float, dice: list[int], damage: int
) -> None:
    # against a light-free heavy target of no armour and no criticals to roll:
    tgt = target("Dreadnought", to_hit=2, damage_reduction=0)
    data = fire(client, dice, firer=gun(calibre), tgt=tgt, battery=calibre, distance=1)
    assert data["result"]["damage"] == damage


def test_throws() -> None:
    assert throw_of((3, 4, 5)) is None
    assert throw_of((8, 8, 1)) == "double 8"
    assert throw_of((8, 1, 8)) == "double 8"  # the gunner die pairs with either D8
    assert throw_of((1, 8, 8)) == "double 8"
    assert throw_of((6, 6, 6)) == "triples"


# --- damage reduction --------------------------------------------------------------------


def test_damage_reduction_is_deducted_and_never_goes_below_zero(client: FlaskClient) -> None:
    tgt = target("Super Dreadnought", to_hit=2)
    data = fire(client, [2, 5, 7], firer=gun(15), tgt=tgt, battery=15, distance=1)
    assert applied(data, "damage") == {"Test ship damage reduction": -4}
    assert data["result"]["damage"] == 3
    small = fire(client, [1, 2, 3], firer=gun(15), tgt=tgt, battery=15, distance=1)
    assert check(small, "damage")["final"] == -1
    assert (small["result"]["hit"], small["result"]["damage"]) == (True, 0)


def test_damage_reduction_wears_down_with_the_boxes(client: FlaskClient) -> None:
    for taken, reduction in [(0, 4), (19, 4), (20, 3), (40, 2), (60, 1), (79, 1)]:
        tgt = target("Super Dreadnought", to_hit=2, state={"damage_taken": taken})
        data = fire(client, [2, 5, 7], firer=gun(15), tgt=tgt, battery=15, distance=1)
        assert applied(data, "damage") == {"Test ship damage reduction": -reduction}, taken
        assert data["result"]["damage"] == 7 - reduction


def test_a_fully_absorbed_hit_still_makes_its_critical(client: FlaskClient) -> None:
    tgt = target("Super Dreadnought", to_hit=2, damage_reduction=12)
    data = fire(client, [5, 5, 8, 1], firer=gun(8), tgt=tgt, battery=8, distance=1)
    assert data["result"]["damage"] == 0  # 7"-9" against heavy: Low, 5 + 5 = 10, -12
    assert data["result"]["critical"] == {
        "throw": "double 5",
        "name": "Rudder Destroyed",
        "effect": "rudder jammed left",
    }


# --- critical hits -------------------------------------------------------------------------

HEAVY = ["Armoured Cruiser", "Battlecruiser", "Battleship", "Dreadnought", "Super Dreadnought"]


@pytest.mark.parametrize("cls", ["Destroyer", "Protected Cruiser"])
@pytest.mark.parametrize("dice", [[7, 7, 3], [8, 8, 8], [5, 1, 5]])
def test_no_criticals_against_lesser_escort_vessels(
    client: FlaskClient, cls: str, dice: list[int]
) -> None:
    tgt = target(cls, to_hit=2)
    data = fire(client, dice, firer=gun(8), tgt=tgt, battery=8, distance=1)
    assert data["result"]["hit"] is True
    assert data["result"]["critical"] is None
    assert len(data["rolls"]) == 2


@pytest.mark.parametrize("cls", HEAVY)
def test_criticals_against_armoured_cruisers_and_heavier(client: FlaskClient, cls: str) -> None:
    data = fire(client, [7, 3, 7], tgt=target(cls, to_hit=2), distance=1)
    assert data["result"]["critical"] == {
        "throw": "double 7",
        "name": "Director Destroyed",
        "effect": "director destroyed",
    }


def test_no_critical_without_a_hit(client: FlaskClient) -> None:
    data = fire(client, [5, 5, 5], tgt=target("Dreadnought"))  # 15 against 16
    assert (data["result"]["hit"], data["result"]["critical"]) == (False, None)


def _critical(client: FlaskClient, tgt: dict[str, Any], throw: str, values: list[int]) -> Any:
    body = {"target": tgt, "throw": throw}
    if values:
        body["dice"] = {"values": values}
        return resolve(client, "critical", body)
    data = resolve(client, "critical", body)
    assert data["rolls"] == []
    return data


@pytest.mark.parametrize(
    ("tgt", "throw", "values", "name", "effect"),
    [
        (
            ship(card("Armoured Cruiser", (9.2, 4), nationality="French")),
            "triples",
            [],
            "Magazine Hit",
            "ship destroyed",
        ),
        (ship("Queen Elizabeth"), "triples", [], "Magazine Hit", "ship destroyed"),
        (ship("Queen Elizabeth"), "double 7", [], "Director Destroyed", "director destroyed"),
        (ship("Queen Elizabeth"), "double 6", [], "Bridge Destroyed", "bridge destroyed"),
        (ship("Queen Elizabeth"), "double 5", [1], "Rudder Destroyed", "rudder jammed left"),
        (ship("Queen Elizabeth"), "double 5", [2], "Rudder Destroyed", "rudder jammed left"),
        (ship("Queen Elizabeth"), "double 5", [3], "Rudder Destroyed", "rudder jammed right"),
        (ship("Queen Elizabeth"), "double 5", [4], "Rudder Destroyed", "rudder jammed right"),
        (
            ship("Queen Elizabeth"),
            "double 5",
            [5],
            "Rudder Destroyed",
            "rudder jammed straight ahead",
        ),
        (
            ship("Queen Elizabeth"),
            "double 5",
            [6],
            "Rudder Destroyed",
            "rudder jammed straight ahead",
        ),
        (ship("Queen Elizabeth"), "double 4", [], "No effect", "no effect"),
        (ship("Queen Elizabeth"), "double 1", [], "No effect", "no effect"),
        # Turret Explodes: British battleships 1 in D6 of blowing up (a 6); a Battleship
        # means a pre dreadnought battleship, so British Dreadnoughts and Super Dreadnoughts
        # lose the turret without a blow-up roll (ruling blow-up-who)
        (ship("Queen Elizabeth"), "double 8", [], "Turret Explodes", "turret destroyed"),
        (ship("Dreadnought"), "double 8", [], "Turret Explodes", "turret destroyed"),
        (
            ship(card("Battleship", (12, 6, 3))),
            "double 8",
            [6],
            "Turret Explodes",
            "ship destroyed",
        ),
        # German battlecruisers 1 in D6
        (ship("Derfflinger"), "double 8", [6], "Turret Explodes", "ship destroyed"),
        (ship("Derfflinger"), "double 8", [5], "Turret Explodes", "turret destroyed"),
        # British battlecruisers 2 in D6 (5 or 6)
        (ship("Lion"), "double 8", [5], "Turret Explodes", "ship destroyed"),
        (ship("Lion"), "double 8", [4], "Turret Explodes", "turret destroyed"),
        # everyone else loses the turret without a blow-up roll
        (ship("König"), "double 8", [], "Turret Explodes", "turret destroyed"),
        (ship("Defence"), "double 8", [], "Turret Explodes", "turret destroyed"),
        (
            ship(card("Battlecruiser", (12, 8), nationality="Japanese")),
            "double 8",
            [],
            "Turret Explodes",
            "turret destroyed",
        ),
        # two turrets: 1-3 no effect, 4-6 the turret explodes (then any blow-up roll)
        (ship("Pommern"), "double 8", [3], "Turret Explodes", "no effect"),
        (ship("Pommern"), "double 8", [1], "Turret Explodes", "no effect"),
        (ship("Pommern"), "double 8", [4], "Turret Explodes", "turret destroyed"),
        (
            ship(card("Battleship", (12, 4, 2))),
            "double 8",
            [4, 6],
            "Turret Explodes",
            "ship destroyed",
        ),
        (
            ship(card("Battleship", (12, 4, 2))),
            "double 8",
            [6, 5],
            "Turret Explodes",
            "turret destroyed",
        ),
        (ship(card("Battleship", (12, 4, 2))), "double 8", [2], "Turret Explodes", "no effect"),
        (ship("Lion", turrets_lost=2), "double 8", [3], "Turret Explodes", "no effect"),
        (ship("Lion", turrets_lost=2), "double 8", [6, 5], "Turret Explodes", "ship destroyed"),
        (ship("Pommern", turrets_lost=2), "double 8", [], "Turret Explodes", "no effect"),
    ],
)
def test_each_critical_hit(
    client: FlaskClient,
    tgt: dict[str, Any],
    throw: str,
    values: list[int],
    name: str,
    effect: str,
) -> None:
    data = _critical(client, tgt, throw, values)
    assert data["result"] == {"throw": throw, "name": name, "effect": effect}


def test_blow_up_roll_is_explained(client: FlaskClient) -> None:
    data = _critical(client, ship("Lion"), "double 8", [5])
    blow = check(data, "critical: blow up")
    assert blow["compared_with"] == "British Battlecruiser: 2 in D6, 5-6 blows up"
    assert blow["outcome"] == "ship blows up"
    data = _critical(client, ship("Derfflinger"), "double 8", [5])
    assert check(data, "critical: blow up")["compared_with"] == (
        "German Battlecruiser: 1 in D6, 6 blows up"
    )


@pytest.mark.parametrize("cls", ["Destroyer", "Protected Cruiser"])
def test_critical_step_refuses_lesser_escort_vessels(client: FlaskClient, cls: str) -> None:
    problem = refused(client, "critical", {"target": target(cls), "throw": "triples"})
    assert problem["errors"][0]["field"] == "target"
    assert "lesser escort vessels" in problem["detail"]


def test_fire_rolls_the_critical_after_the_damage(client: FlaskClient) -> None:
    data = fire(client, [8, 2, 8, 5], firer=gun(12, 2), tgt=ship("Lion"), distance=20)
    assert data["result"]["critical"] == {
        "throw": "double 8",
        "name": "Turret Explodes",
        "effect": "ship destroyed",
    }
    assert [r["label"] for r in data["rolls"]] == [
        "to hit",
        "to hit: gunner die",
        "critical: blow up",
    ]
    assert [m["roll"] for m in data["modifiers"]] == [
        "to hit",
        "damage",
        "critical: blow up",
    ]


# --- torpedoes ------------------------------------------------------------------------------


def _torpedo(client: FlaskClient, values: list[int] | None, **body: Any) -> Any:
    request = {"firer": ship("M-class destroyer"), "target": target("Dreadnought"), **body}
    return resolve(client, "torpedo", request, values)


def test_torpedoes_beyond_10_inches_miss_without_a_roll(client: FlaskClient) -> None:
    data = _torpedo(client, None, distance=10.5, torpedoes=4)
    assert data["rolls"] == []
    assert data["result"] == {
        "in_range": False,
        "hit": False,
        "score_needed": 16,
        "damage": 0,
        "critical": None,
    }
    extra = {"firer": ship("M-class destroyer"), "target": target(), "distance": 11}
    problem = post(client, "torpedo", {**extra, "dice": {"values": [1, 2, 3]}}, 422)
    assert problem["type"].endswith("dice")


@pytest.mark.parametrize("distance", [0, 4.5, 10])
def test_torpedoes_roll_2d6_and_the_gunner_die_up_to_10_inches(
    client: FlaskClient, distance: float
) -> None:
    data = _torpedo(client, [6, 5, 4], distance=distance)
    assert [(r["label"], r["notation"]) for r in data["rolls"]] == [
        ("torpedo", "2d6"),
        ("torpedo: gunner die", "1d8"),
    ]
    assert data["result"]["in_range"] is True
    assert check(data, "torpedo")["compared_with"].startswith("16+")  # no range change


def test_a_german_torpedo_boat_rolls_a_d10(client: FlaskClient) -> None:
    data = _torpedo(client, [1, 2, 10], firer=ship("V-class torpedo boat"), distance=5)
    assert data["rolls"][1]["notation"] == "1d10"


@pytest.mark.parametrize(
    ("torpedoes", "bonus", "count"),
    [
        (1, 1, "every-torpedo"),
        (4, 4, "every-torpedo"),
        (1, 0, "beyond-the-first"),
        (2, 1, "beyond-the-first"),
        (4, 3, "beyond-the-first"),
        (6, 5, "beyond-the-first"),
    ],
)
def test_plus_one_per_torpedo_to_hit_and_damage_all(
    client: FlaskClient, torpedoes: int, bonus: int, count: str
) -> None:
    rules = {} if count == "every-torpedo" else {"torpedo-count": count}  # the default first
    data = _torpedo(client, [6, 5, 4], distance=5, torpedoes=torpedoes, rules=rules)
    assert data["rules"]["torpedo-count"] == count
    assert check(data, "torpedo")["final"] == 15 + bonus
    assert data["result"]["hit"] is (15 + bonus >= 16)
    if data["result"]["hit"]:
        # All damage: 6 + 5 + 4, the torpedo bonus again, less the Dreadnought's 3
        words = "(every torpedo)" if count == "every-torpedo" else "beyond the first"
        assert data["result"]["damage"] == 15 + bonus - 3
        assert applied(data, "torpedo damage") == {
            f"{torpedoes} torpedoes: +1 per torpedo {words}": bonus,
            "Test ship damage reduction": -3,
        }


def test_torpedoes_ignore_gunnery_modifiers_under_torpedo_bonus_only(
    client: FlaskClient,
) -> None:
    firer = ship(card("Destroyer", (4, 3)), director_destroyed=True)
    rules = {"torpedo-throws": "torpedo-bonus-only", "torpedo-count": "beyond-the-first"}
    data = _torpedo(client, [6, 5, 5, 3], firer=firer, distance=9, torpedoes=2, rules=rules)
    assert applied(data, "torpedo") == {"2 torpedoes: +1 per torpedo beyond the first": 1}
    # doubles on a hit against a Dreadnought: a critical, as for guns
    assert data["result"]["critical"] == {
        "throw": "double 5",
        "name": "Rudder Destroyed",
        "effect": "rudder jammed right",
    }


def test_torpedo_hit_on_a_destroyer_has_no_critical(client: FlaskClient) -> None:
    data = _torpedo(client, [6, 6, 6], target=target("Destroyer"), distance=3, torpedoes=2)
    assert data["result"]["hit"] is True and data["result"]["critical"] is None
    assert data["result"]["damage"] == 18 + 2 - 1  # +1 per torpedo, less its 1


# --- damage step ---------------------------------------------------------------------------


def _damage(client: FlaskClient, who: dict[str, Any], points: int, **extra: Any) -> Any:
    result = resolve(client, "damage", {"ship": who, "points": points, **extra})["result"]
    return result


def test_damage_marks_boxes_and_wears_down_reduction_speed_and_secondaries(
    client: FlaskClient,
) -> None:
    status = _damage(client, ship("Queen Elizabeth"), 40)["ship"]
    assert (status["boxes_left"], status["damage_reduction"], status["speed"]) == (40, 2, 4)
    assert status["batteries"] == [
        {"calibre": 15, "barrels": 8, "primary": True},  # primaries only to turrets
        {"calibre": 6, "barrels": 7, "primary": False},
    ]
    later = _damage(client, ship("Queen Elizabeth", damage_taken=40), 21)["ship"]
    assert (later["boxes_left"], later["damage_reduction"], later["speed"]) == (19, 1, 2)
    assert later["batteries"][1]["barrels"] == 4


def test_light_ships_lose_their_primary_guns_to_damage(client: FlaskClient) -> None:
    status = _damage(client, ship("M-class destroyer"), 10)["ship"]
    assert status["batteries"] == [{"calibre": 4, "barrels": 2, "primary": False}]


def test_a_ship_breaks_up_when_its_boxes_run_out(client: FlaskClient) -> None:
    result = _damage(client, ship("Lion", damage_taken=30), 10)
    assert result["newly_sunk"] is True
    assert result["ship"]["boxes_left"] == 0 and result["ship"]["sunk"] is True
    problem = refused(client, "damage", {"ship": ship("Lion", damage_taken=40), "points": 1})
    assert "already broken up" in problem["detail"]
    refused(
        client,
        "fire",
        {
            "firer": ship("Lion", destroyed=True),
            "battery": 13.5,
            "target": ship("Derfflinger"),
            "distance": 20,
        },
    )


@pytest.mark.parametrize(
    ("effect", "state"),
    [
        ("no effect", {}),
        ("ship destroyed", {"destroyed": True}),
        ("turret destroyed", {"turrets_lost": 1}),
        ("director destroyed", {"director_destroyed": True}),
        ("bridge destroyed", {"no_orders_turns": 2}),
        ("rudder jammed left", {"rudder_jammed": "left"}),
        ("rudder jammed right", {"rudder_jammed": "right"}),
        ("rudder jammed straight ahead", {"rudder_jammed": "straight ahead"}),
    ],
)
def test_damage_applies_a_critical_effect(
    client: FlaskClient, effect: str, state: dict[str, Any]
) -> None:
    result = _damage(client, ship("Iron Duke"), 0, critical_effect=effect)
    fresh = {
        "damage_taken": 0,
        "turrets_lost": 0,
        "director_destroyed": False,
        "no_orders_turns": 0,
        "rudder_jammed": None,
        "destroyed": False,
    }
    assert result["ship"]["state"] == {**fresh, **state}
    assert result["newly_sunk"] is (effect == "ship destroyed")


def test_a_lost_turret_takes_its_barrels(client: FlaskClient) -> None:
    status = _damage(client, ship("Queen Elizabeth", turrets_lost=1), 0)["ship"]
    assert status["batteries"][0] == {"calibre": 15, "barrels": 6, "primary": True}
    data = fire(client, [1, 1, 2], firer=ship("Queen Elizabeth", turrets_lost=1), battery=15)
    assert applied(data, "to hit") == {"6 barrels: +1/2 per barrel beyond the first, rounded up": 3}
    problem = refused(
        client,
        "fire",
        {
            "firer": ship("Queen Elizabeth", turrets_lost=4),
            "battery": 15,
            "target": target(),
            "distance": 20,
        },
    )
    assert "no barrels left" in problem["detail"]


# --- rudder -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("die", "repaired"), [(1, False), (4, False), (5, True), (6, True)])
def test_rudder_repair_needs_5_or_6(client: FlaskClient, die: int, repaired: bool) -> None:
    data = resolve(client, "rudder", {"ship": ship("Lion", rudder_jammed="right")}, [die])
    assert data["result"]["repaired"] is repaired
    assert data["result"]["ship"]["state"]["rudder_jammed"] == (None if repaired else "right")
    assert data["rolls"] == [
        {"label": "rudder repair", "notation": "1d6", "values": [die], "total": die}
    ]


def test_rudder_that_is_not_jammed_is_refused(client: FlaskClient) -> None:
    problem = refused(client, "rudder", {"ship": ship("Lion")})
    assert problem["errors"][0]["field"] == "ship.state.rudder_jammed"


# --- cards the rules cannot read ------------------------------------------------------------


def test_cards_the_rules_cannot_read_are_refused_by_rule(client: FlaskClient) -> None:
    twice = ship(card("Dreadnought", (12, 4), (12, 2)))
    problem = refused(client, "damage", {"ship": twice, "points": 0})
    assert problem["type"].endswith("rule-violation")
    assert problem["errors"][0]["field"] == "ship.card.batteries"
    crowded = ship(card("Dreadnought", (12, 2, 3)))
    problem = refused(client, "damage", {"ship": crowded, "points": 0})
    assert problem["errors"][0]["field"] == "ship.card.batteries.0.turrets"
    lost = ship("Pommern", turrets_lost=3)
    problem = refused(client, "damage", {"ship": lost, "points": 0})
    assert problem["errors"][0]["field"] == "ship.state.turrets_lost"
    problem = refused(
        client, "fire", {"firer": gun(12), "battery": 15, "target": target(), "distance": 20}
    )
    assert problem["errors"][0]["field"] == "battery"


def test_schema_refuses_strings_and_booleans_for_inches(client: FlaskClient) -> None:
    for bad in ("8", True, None):
        response = client.post(
            "/v1/rulesets/dreadnought/range",
            json={"calibre": bad, "target_class": "Destroyer", "distance": 1},
        )
        assert response.status_code == 422
        assert response.get_json()["type"].endswith("validation")
