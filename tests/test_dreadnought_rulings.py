"""Every dreadnought ruling is served and tested; the ones not shown elsewhere are shown here."""

from __future__ import annotations

import importlib

import pytest
from flask.testing import FlaskClient

from tests.dreadnought_helpers import BASE, card, fire, gun, resolve, ship, target

# Each ruling and the test that shows it (module, function).
RULING_TESTS = {
    "barrels-bonus": ("tables", "test_barrels_bonus_to_damage"),
    "equal-dice": ("resolution", "test_equal_dice_rule"),
    "doubles": ("resolution", "test_throws"),
    "low-doubles": ("resolution", "test_each_critical_hit"),
    "seven-to-nine-rows": ("rulings", "test_exactly_7_and_9_inches_are_7_to_9_guns"),
    "calibre-gaps": ("rulings", "test_calibres_the_table_leaves_out"),
    "range-bands": ("rulings", "test_distances_between_whole_inches"),
    "range-changes-score-needed": (
        "tables",
        "test_short_range_lowers_and_long_range_raises_the_score_needed",
    ),
    "wear-down": ("resolution", "test_damage_reduction_wears_down_with_the_boxes"),
    "damage-floor": ("resolution", "test_a_fully_absorbed_hit_still_makes_its_critical"),
    "break-up": ("resolution", "test_a_ship_breaks_up_when_its_boxes_run_out"),
    "battlecruiser-boxes": ("rulings", "test_battlecruiser_boxes"),
    "printed-figures": ("rulings", "test_printed_figures_are_kept_and_cards_may_differ"),
    "blow-up-roll": ("resolution", "test_blow_up_roll_is_explained"),
    "blow-up-who": ("resolution", "test_each_critical_hit"),
    "two-turrets": ("resolution", "test_each_critical_hit"),
    "turrets": ("rulings", "test_turrets_default_to_twin_mountings"),
    "rudder-jam-direction": ("resolution", "test_each_critical_hit"),
    "german-turn-cost": ("rulings", "test_german_capital_ships_turn_for_2"),
    "speed": ("rulings", "test_speed_from_the_card_or_the_class"),
    "torpedo-throws": ("readings", "test_by_default_the_to_hit_modifiers_never_exempt_torpedoes"),
    "torpedo-count": ("readings", "test_torpedo_count_both_ways_plus_1_per_torpedo_by_default"),
    "gunner-die": ("tables", "test_gunner_die"),
    "orders-this-turn": ("turn", "test_a_ship_out_of_formation_moves_on_last_turns_plot"),
    "simultaneous-fire": (
        "turn",
        "test_guns_fire_simultaneously_so_a_ship_sunk_this_turn_still_fires",
    ),
    "turn-modifiers": ("turn", "test_two_batteries_of_one_ship_are_one_ship_firing"),
    "first-time-firing": ("turn", "test_first_time_firing_both_ways_after_a_turn_away"),
    "jammed-rudder": ("turn", "test_a_rudder_jammed_over_as_measured"),
    "rudder-repair": (
        "turn",
        "test_a_rudder_jammed_this_turn_even_again_moves_jammed_at_least_once",
    ),
    "bridge-no-orders": ("turn", "test_three_turns_of_a_four_ship_action"),
    "torpedoes-lost": ("turn", "test_torpedoes_are_resolved_in_their_turn_and_lost"),
    "boxes-marked": ("turn", "test_a_ship_broken_up_is_reported_sunk_and_the_action_ends"),
}


def test_every_ruling_is_served_with_its_reason(client: FlaskClient) -> None:
    rulings = client.get(BASE).get_json()["rulings"]
    assert [r["id"] for r in rulings] == list(RULING_TESTS)
    for ruling in rulings:
        assert ruling["question"] and ruling["ruling"] and ruling["reason"], ruling["id"]


@pytest.mark.parametrize(("ruling", "where"), RULING_TESTS.items())
def test_every_ruling_has_a_test(ruling: str, where: tuple[str, str]) -> None:
    module = importlib.import_module(f"tests.test_dreadnought_{where[0]}")
    assert callable(getattr(module, where[1], None)), ruling


def _row(client: FlaskClient, calibre: float, target_class: str) -> str:
    body = {"calibre": calibre, "target_class": target_class, "distance": 1}
    weapon: str = resolve(client, "range", body)["result"]["weapon"]
    return weapon


def test_exactly_7_and_9_inches_are_7_to_9_guns(client: FlaskClient) -> None:
    for calibre in (7, 8, 9):
        light = resolve(
            client, "range", {"calibre": calibre, "target_class": "Destroyer", "distance": 18}
        )["result"]
        heavy = resolve(
            client, "range", {"calibre": calibre, "target_class": "Dreadnought", "distance": 24}
        )["result"]
        assert (light["weapon"], light["band"], light["damage"]) == ('7"-9"', "long", "High")
        assert (heavy["weapon"], heavy["band"], heavy["damage"]) == ('7"-9"', "long", "Low")
    assert _row(client, 6.9, "Destroyer") == '5.5"-<7"'
    assert _row(client, 9.2, "Dreadnought") == '>9"-<11"'


def test_calibres_the_table_leaves_out(client: FlaskClient) -> None:
    assert _row(client, 12, "Dreadnought") == '11"-12"'
    assert _row(client, 13, "Dreadnought") == '11"-12"'
    assert _row(client, 13.4, "Dreadnought") == '11"-12"'
    assert _row(client, 13.5, "Dreadnought") == '13.5"-15"'
    assert _row(client, 16, "Dreadnought") == '13.5"-15"'
    assert _row(client, 18, "Dreadnought") == '13.5"-15"'
    assert _row(client, 1, "Destroyer") == '<5.5"'


def test_distances_between_whole_inches(client: FlaskClient) -> None:
    def band(distance: float) -> str | None:
        body = {"calibre": 4, "target_class": "Destroyer", "distance": distance}
        found: str | None = resolve(client, "range", body)["result"]["band"]
        return found

    assert [band(d) for d in (0, 0.5, 2, 2.01, 2.5, 6, 6.5, 8, 8.01)] == [
        "short",
        "short",
        "short",
        "medium",
        "medium",
        "medium",
        "long",
        "long",
        None,
    ]


def test_battlecruiser_boxes(client: FlaskClient) -> None:
    plain = resolve(client, "damage", {"ship": target("Battlecruiser"), "points": 0})
    assert plain["result"]["ship"]["damage_boxes"] == 40
    big = resolve(
        client, "damage", {"ship": target("Battlecruiser", damage_boxes=48), "points": 40}
    )
    assert (big["result"]["ship"]["boxes_left"], big["result"]["newly_sunk"]) == (8, False)


def test_printed_figures_are_kept_and_cards_may_differ(client: FlaskClient) -> None:
    def reduction(cls: str, **figures: int) -> int:
        data = resolve(client, "damage", {"ship": target(cls, **figures), "points": 0})
        value: int = data["result"]["ship"]["damage_reduction"]
        return value

    assert (reduction("Protected Cruiser"), reduction("Armoured Cruiser")) == (2, 1)
    assert reduction("Armoured Cruiser", damage_reduction=2) == 2
    tough = target("Dreadnought", to_hit=18)
    assert fire(client, [1, 2, 3], tgt=tough)["result"]["score_needed"] == 18


def test_turrets_default_to_twin_mountings(client: FlaskClient) -> None:
    # 7 barrels in ceil(7 / 2) = 4 turrets: losing one leaves 7 * 3 // 4 = 5 barrels
    who = ship(card("Dreadnought", (12, 7)), turrets_lost=1)
    status = resolve(client, "damage", {"ship": who, "points": 0})["result"]["ship"]
    assert status["batteries"][0]["barrels"] == 5
    # 4 barrels in 2 turrets: the two-turret roll applies
    data = resolve(
        client,
        "critical",
        {
            "target": ship(card("Dreadnought", (12, 4))),
            "throw": "double 8",
            "dice": {"values": [2]},
        },
    )
    assert data["result"]["effect"] == "no effect"


@pytest.mark.parametrize(
    ("cls", "german", "british"),
    [
        ("Destroyer", 1, 1),
        ("Protected Cruiser", 1, 1),
        ("Armoured Cruiser", 2, 2),
        ("Battlecruiser", 2, 2),
        ("Battleship", 2, 3),
        ("Dreadnought", 2, 3),
        ("Super Dreadnought", 2, 3),
    ],
)
def test_german_capital_ships_turn_for_2(
    client: FlaskClient, cls: str, german: int, british: int
) -> None:
    for nationality, cost in (("German", german), ("British", british)):
        who = ship(card(cls, (12, 2), nationality=nationality))
        status = resolve(client, "damage", {"ship": who, "points": 0})["result"]["ship"]
        assert status["turn_cost"] == cost, nationality


def test_speed_from_the_card_or_the_class(client: FlaskClient) -> None:
    def speed(who: dict[str, object]) -> int:
        value: int = resolve(client, "damage", {"ship": who, "points": 0})["result"]["ship"][
            "speed"
        ]
        return value

    assert speed(target("Battleship")) == 6
    assert speed(target("Battleship", speed=5)) == 5
    assert speed(ship("Pommern")) == 6


def test_catalog_cards_are_served(client: FlaskClient) -> None:
    ships = client.get(f"{BASE}/ships").get_json()["ships"]
    cards = {s["name"]: s for s in ships if s["kind"] == "record card"}
    qe = cards["Queen Elizabeth"]
    assert (qe["class"], qe["nationality"], qe["crew"]) == ("Super Dreadnought", "British", "good")
    assert qe["batteries"][0] == {"calibre": 15, "barrels": 8, "turrets": 4}
    for name in cards:
        resolve(client, "damage", {"ship": ship(name), "points": 0})
    assert fire(client, [1, 2, 3], firer=gun(12), tgt=ship("Konig"))["result"]["hit"] is False
