"""Exact odds against fractions worked by hand, and invariants over seeded rolls."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.dreadnought_helpers import card, chance, gun, odds, post, ship, target

SINGLE_12_AT_DREADNOUGHT = {"firer": gun(12), "battery": 12, "target": target(), "distance": 20}


# 2D8 and a D10 gunner die (good British crew), every throw a hit on a British Battleship
# with two main turrets: every double goes to the Critical Hits table, double 8 to two more
# D6. Walked face by face that is 1,215 branches, past the odds branch cap.
HEAVIEST_FIRE = {
    "firer": ship(card("Dreadnought", (12, 1), crew="good")),
    "battery": 12,
    "target": target("Battleship", to_hit=2),
    "distance": 20,
}


@pytest.mark.parametrize(
    "body",
    [
        SINGLE_12_AT_DREADNOUGHT,
        {
            "firer": ship("Queen Elizabeth"),
            "battery": 15,
            "target": ship("Derfflinger"),
            "distance": 20,
            "first_time_at_target": True,
        },
        HEAVIEST_FIRE,
    ],
    ids=["3D8", "documented example", "heaviest tree"],
)
def test_fire_odds_answer(client: FlaskClient, body: dict[str, Any]) -> None:
    # Every fire tree has 512 throws or more, past the odds branch cap of the walk
    # of every face, so fire/odds answered 422 for every input. The odds now come from the
    # multisets of the three dice, and answer at the cap as it stands.
    outcomes = odds(client, "fire", body)
    assert sum(p for _, p in outcomes) == 1


def test_chance_to_hit_a_dreadnought_with_3d8(client: FlaskClient) -> None:
    # 3D8 >= 16 is as likely as 3D8 <= 11 (the sums mirror about 13.5). Faces 1-8 less
    # one each: x + y + z <= 8 with none above 7: C(11, 3) = 165, less the 3 that put
    # all 8 on one die = 162 of 512.
    outcomes = odds(client, "fire", SINGLE_12_AT_DREADNOUGHT)
    assert chance(outcomes, hit=True) == Fraction(162, 512) == Fraction(81, 256)
    assert sum(p for _, p in outcomes) == 1


def test_chance_of_each_critical_with_a_d8_gunner(client: FlaskClient) -> None:
    body = {**SINGLE_12_AT_DREADNOUGHT, "target": target(to_hit=2)}  # every throw hits
    outcomes = odds(client, "fire", body)

    def crit(effect: str) -> Fraction:
        return sum(
            (p for r, p in outcomes if r["critical"] and r["critical"]["effect"] == effect),
            Fraction(0),
        )

    # triples: 8 of 512; exactly two 7s: 3 places for the odd die x 7 faces = 21 of 512.
    # The target is a British Dreadnought with one turret: double 8 is half spared (two
    # turrets or fewer), and a turret that explodes never blows it up, since a Battleship
    # means a pre-dreadnought battleship (ruling blow-up-who); under the other reading it
    # blows up 1 time in 6.
    double = Fraction(21, 512)
    assert crit("ship destroyed") == Fraction(8, 512)
    assert crit("turret destroyed") == double / 2
    every = odds(client, "fire", {**body, "rules": {"blow-up-who": "every-british-battleship"}})
    blown = sum(
        (p for r, p in every if r["critical"] and r["critical"]["effect"] == "ship destroyed"),
        Fraction(0),
    )
    assert blown == Fraction(8, 512) + double / 2 / 6
    assert crit("director destroyed") == Fraction(21, 512)
    assert crit("bridge destroyed") == Fraction(21, 512)
    # double 5: a third of the rudder rolls each way
    assert crit("rudder jammed left") == Fraction(21, 512) / 3
    # doubles of 1 to 4 name no effect; only three different dice give no critical at all
    assert chance(outcomes, critical=None) == Fraction(8 * 7 * 6, 512)
    low = sum(
        (p for r, p in outcomes if r["critical"] and r["critical"]["name"] == "No effect"),
        Fraction(0),
    )
    assert low == 4 * Fraction(21, 512)


def test_chance_of_each_critical_with_a_d10_gunner(client: FlaskClient) -> None:
    firer = ship(card("Dreadnought", (12, 1), nationality="German"))
    body = {**SINGLE_12_AT_DREADNOUGHT, "firer": firer, "target": target(to_hit=2)}
    outcomes = odds(client, "fire", body)
    director = sum(
        (p for r, p in outcomes if r["critical"] and r["critical"]["name"] == "Director Destroyed"),
        Fraction(0),
    )
    magazine = sum(
        (p for r, p in outcomes if r["critical"] and r["critical"]["name"] == "Magazine Hit"),
        Fraction(0),
    )
    # both D8 show 7 and the D10 not (1/64 x 9/10), or one D8 and the D10 (2 x 1/8 x 7/8 x 1/10)
    assert director == Fraction(9, 640) + Fraction(14, 640) == Fraction(23, 640)
    # triples: the D10 must match a pair of D8s, 8 faces of 640
    assert magazine == Fraction(8, 640)


def test_turret_explodes_odds(client: FlaskClient) -> None:
    lion = odds(client, "critical", {"target": ship("Lion"), "throw": "double 8"})
    assert chance(lion, effect="ship destroyed") == Fraction(1, 3)
    assert chance(lion, effect="turret destroyed") == Fraction(2, 3)
    two = odds(
        client, "critical", {"target": ship(card("Battleship", (12, 4, 2))), "throw": "double 8"}
    )
    assert chance(two, effect="no effect") == Fraction(1, 2)
    assert chance(two, effect="ship destroyed") == Fraction(1, 12)
    assert chance(two, effect="turret destroyed") == Fraction(5, 12)


def test_torpedo_odds(client: FlaskClient) -> None:
    # 2D6 + D8 >= 16: 2D6 of 8..12 (5, 4, 3, 2, 1 ways) with the D8 at least 8..4
    # (1, 2, 3, 4, 5 faces): 5 + 8 + 9 + 8 + 5 = 35 of 288 (a single torpedo's +1 left out)
    body = {
        "firer": ship("M-class destroyer"),
        "target": target(),
        "distance": 6,
        "rules": {"torpedo-count": "beyond-the-first"},
    }
    outcomes = odds(client, "torpedo", body)
    assert chance(outcomes, hit=True) == Fraction(35, 288)
    far = odds(client, "torpedo", {**body, "distance": 12})
    assert [(r["in_range"], p) for r, p in far] == [(False, Fraction(1))]


def test_rudder_odds(client: FlaskClient) -> None:
    outcomes = odds(client, "rudder", {"ship": ship("Lion", rudder_jammed="left")})
    assert chance(outcomes, repaired=True) == Fraction(1, 3)


def test_steps_without_dice_have_no_odds(client: FlaskClient) -> None:
    for step in ("range", "damage"):
        response = client.post(f"/v1/rulesets/dreadnought/{step}/odds", json={})
        assert response.status_code in (404, 405)


HEAVY = ["Armoured Cruiser", "Battlecruiser", "Battleship", "Dreadnought", "Super Dreadnought"]
CLASSES = ["Destroyer", "Protected Cruiser", *HEAVY]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.text(min_size=1, max_size=20),
    nonce=st.integers(min_value=0, max_value=10**6),
    cls=st.sampled_from(CLASSES),
    calibre=st.sampled_from([4, 6, 8, 10, 12, 15]),
    barrels=st.integers(min_value=1, max_value=12),
    taken=st.integers(min_value=0, max_value=19),
    distance=st.floats(min_value=0, max_value=8),
)
def test_fire_invariants(
    app: Flask,
    seed: str,
    nonce: int,
    cls: str,
    calibre: int,
    barrels: int,
    taken: int,
    distance: float,
) -> None:
    client = app.test_client()
    light = cls in ("Destroyer", "Protected Cruiser")
    if light and calibre > 9 or not light and calibre < 7:
        calibre = 8  # a gun that may fire at this target
    body: dict[str, Any] = {
        "firer": gun(calibre, barrels),
        "battery": calibre,
        "target": target(cls, state={"damage_taken": taken}),
        "distance": distance,
        "dice": {"seed": seed, "nonce": nonce},
    }
    data = post(client, "fire", body)
    again = post(client, "fire", body)
    for member in ("result", "rolls", "modifiers", "dice"):
        assert data[member] == again[member]  # same seed and nonce, same answer
    result = data["result"]
    to_hit = next(m for m in data["modifiers"] if m["roll"] == "to hit")
    assert result["hit"] is (to_hit["final"] >= result["score_needed"])
    assert result["damage"] >= 0
    if not result["hit"]:
        assert result["damage"] == 0 and result["critical"] is None
    dice = [v for r in data["rolls"][:2] for v in r["values"]]
    has_pair = len(set(dice)) < 3
    assert (result["critical"] is not None) is (result["hit"] and not light and has_pair)
