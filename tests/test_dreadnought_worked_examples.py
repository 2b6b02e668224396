"""The rule text's own numbers, through the HTTP API with supplied dice."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.dreadnought_helpers import applied, check, fire, resolve, ship


def test_queen_elizabeth_fires_her_eight_15_inch_guns(client: FlaskClient) -> None:
    """A good British Queen Elizabeth firing 8 x 15" rolls 2D8 + 1D10, +4 for barrels."""
    data = fire(
        client,
        [7, 2, 5],
        firer=ship("Queen Elizabeth"),
        tgt=ship("Derfflinger"),
        battery=15,
        distance=20,
    )
    assert [(r["label"], r["notation"], r["values"]) for r in data["rolls"]] == [
        ("to hit", "2d8", [7, 2]),
        ("to hit: gunner die", "1d10", [5]),
    ]
    # "our 8 gun battery is 7 extra barrels divided by 2 rounded up, or +4 on the to hit dice"
    assert applied(data, "to hit") == {"8 barrels: +1/2 per barrel beyond the first, rounded up": 4}
    assert check(data, "to hit")["final"] == 14 + 4
    assert data["result"]["hit"] is True  # a battlecruiser needs 17


def test_ten_points_on_an_undamaged_queen_elizabeth_are_reduced_by_4_to_6(
    client: FlaskClient,
) -> None:
    # Derfflinger's 8 x 12" (Medium damage, +1/2 per extra barrel rounded up = +4):
    # dice 3, 8, 6 hit (17 + 4 = 21 against 16) and do the middle die, 6, +4 = 10.
    data = fire(
        client,
        [3, 8, 6],
        firer=ship("Derfflinger"),
        tgt=ship("Queen Elizabeth"),
        battery=12,
        distance=20,
    )
    damage = check(data, "damage")
    assert damage["natural"] == 6
    assert damage["applied"] == [
        {"source": "8 barrels: +1/2 per barrel beyond the first, rounded up", "value": 4},
        {"source": "Queen Elizabeth damage reduction", "value": -4},
    ]
    assert damage["final"] == 6
    assert data["result"] == {
        "weapon": '11"-12"',
        "band": "medium",
        "gunner_die": "d10",
        "score_needed": 16,
        "hit": True,
        "damage": 6,
        "critical": None,
    }
    marked = resolve(client, "damage", {"ship": ship("Queen Elizabeth"), "points": 6})
    assert marked["result"]["ship"]["boxes_left"] == 74


def test_each_attacker_battery_is_reduced_on_its_own(client: FlaskClient) -> None:
    """Two ships firing at her each lose 4 from their damage, not 4 between them."""
    hurt = ship("Queen Elizabeth", damage_taken=6)
    for attacker in ("Derfflinger", "König"):
        data = fire(client, [3, 8, 6], firer=ship(attacker), tgt=hurt, battery=12, distance=20)
        assert applied(data, "damage")["Queen Elizabeth damage reduction"] == -4


def test_a_battlecruiser_needs_17_a_predreadnought_15(client: FlaskClient) -> None:
    lion = fire(client, [1, 2, 3], firer=ship("König"), tgt=ship("Lion"), distance=20)
    pommern = fire(client, [1, 2, 3], firer=ship("König"), tgt=ship("Pommern"), distance=20)
    assert lion["result"]["score_needed"] == 17
    assert pommern["result"]["score_needed"] == 15


def test_british_capital_ships_turn_for_3_germans_for_2(client: FlaskClient) -> None:
    iron_duke = resolve(client, "damage", {"ship": ship("Iron Duke"), "points": 0})
    konig = resolve(client, "damage", {"ship": ship("König"), "points": 0})
    assert iron_duke["result"]["ship"]["turn_cost"] == 3
    assert konig["result"]["ship"]["turn_cost"] == 2
