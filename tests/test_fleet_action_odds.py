"""Exact odds of guns and torpedoes.

The per-die odds are checked three ways: against brute-force enumeration of every die
through the step's own code (the engine's ``step_odds`` without the per-die shortcut) on
pools small enough to walk, against closed forms written from the rule text, and against
seeded rolls (every rolled result is one the odds call possible).
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from typing import Any
from unittest import mock

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine import dice
from service.engine.dice import MAX_ODDS_BRANCHES
from service.engine.ruleset import Step, step_odds
from service.rulesets.fleet_action import RULESET, steps
from service.rulesets.fleet_action.ships import Firer, Ship
from tests.fleet_action_helpers import (
    BASE,
    PRINTED_CLASSES,
    PRINTED_CREW,
    PRINTED_VISIBILITY,
    armour,
    attack,
    printed_to_hit,
    resolve,
    ship,
    shot,
)

CLASSES = list(PRINTED_CLASSES)
CREWS: list[Any] = list(PRINTED_CREW)
VISIBILITIES: list[Any] = list(PRINTED_VISIBILITY)
# The walk of every die costs about 0.1 ms a branch: the random cases stay under this many
# (2 to 3 dice), the pinned cases below cover the rest of what the odds read.
BRUTE_FORCE_BRANCHES = 2_000


def distribution(odds: dict[str, Any]) -> dict[str, Fraction]:
    return {
        json.dumps(o["result"], sort_keys=True): Fraction(o["probability"])
        for o in odds["outcomes"]
    }


def brute_force(step: Step, inputs: Any) -> dict[str, Fraction]:
    """Every die walked through the step's own code, as the engine does without a shortcut."""
    walked = dataclasses.replace(step, exact_odds=None)
    return distribution(step_odds(RULESET.id, walked, inputs))


def branches(ship_class: str, to_hit: int, target_class: str) -> int:
    per_die = (to_hit - 1) + (7 - to_hit) * 6
    return int(per_die ** attack(ship_class))  # int ** int is Any to mypy (may be a float)


def marginal(odds: dict[str, Any], field: str) -> dict[Any, Fraction]:
    totals: dict[Any, Fraction] = {}
    for outcome in odds["outcomes"]:
        value = outcome["result"][field]
        totals[value] = totals.get(value, Fraction(0)) + Fraction(outcome["probability"])
    return totals


def binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    from math import comb

    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


# --- against brute force --------------------------------------------------------------------


@st.composite
def small_fire(draw: st.DrawFn) -> steps.FireInput:
    firer_class = draw(st.sampled_from(CLASSES))
    crew = draw(st.sampled_from(CREWS))
    visibility = draw(st.sampled_from(VISIBILITIES))
    target_class = draw(st.sampled_from(CLASSES))
    to_hit = printed_to_hit(crew, visibility)
    if branches(firer_class, to_hit, target_class) > BRUTE_FORCE_BRANCHES:
        firer_class = "Corvette"  # 2 dice: at most 26**2 branches
    hull_lost = draw(st.integers(0, PRINTED_CLASSES[target_class][4] - 1))
    return steps.FireInput(
        Firer.of(firer_class, crew),
        Ship.of(target_class, hull_lost=hull_lost, name=draw(st.sampled_from([None, "T"]))),
        range=draw(st.integers(0, 16)),
        line_of_sight=True,
        visibility=visibility,
    )


def fire_odds_and_brute_force(inputs: steps.FireInput) -> None:
    fire = RULESET.step("fire")
    exact = distribution(step_odds(RULESET.id, fire, inputs))
    with mock.patch.object(dice, "MAX_ODDS_BRANCHES", 250_000):  # the brute force is slow
        assert exact == brute_force(fire, inputs)
    assert sum(exact.values()) == 1


@settings(max_examples=40, deadline=None)
@given(inputs=small_fire())
def test_fire_odds_equal_brute_force_enumeration(inputs: steps.FireInput) -> None:
    fire_odds_and_brute_force(inputs)


# Every To Hit number (3+ to 6+, and 6+ held there from 8+ by the ruling never-worse-than-6),
# every Armour (6+, 5+, 4+, 2+), 2 and 3 attack dice, a fresh target, one a hit from sinking
# and one with a single Hull point, named and not: each a walk of at most 4,096 branches.
PINNED_FIRE = [
    # firer, crew, visibility, target, its hull lost, its name
    ("Corvette", "Elite", "Clear", "Battleship", 5, None),  # 3+ against 2+: 676 branches
    ("Corvette", "Veteran", "Clear", "Cruiser", 0, "T"),  # 4+ against 4+
    ("Corvette", "Seasoned", "Clear", "Destroyer", 1, None),  # 5+ against 5+, one Hull left
    ("Corvette", "Green", "Terrible", "Corvette", 0, "T"),  # 8+ held at 6+ against 6+
    ("Destroyer", "Seasoned", "Poor", "Cruiser", 3, None),  # 3 dice at 6+: 1,331 branches
    ("Destroyer", "Veteran", "Poor", "Corvette", 0, None),  # 3 dice at 5+: 4,096 branches
]


@pytest.mark.parametrize(
    ("firer", "crew", "visibility", "target", "hull_lost", "name"), PINNED_FIRE
)
def test_fire_odds_equal_brute_force_on_every_to_hit_and_armour(
    firer: str, crew: Any, visibility: Any, target: str, hull_lost: int, name: str | None
) -> None:
    fire_odds_and_brute_force(
        steps.FireInput(
            Firer.of(firer, crew),
            Ship.of(target, hull_lost=hull_lost, name=name),
            range=12,
            line_of_sight=True,
            visibility=visibility,
        )
    )


@pytest.mark.parametrize("target_hull_lost", [0, 1])
@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("crew", CREWS)
@pytest.mark.parametrize("firer_class", ["Destroyer", "Cruiser"])
def test_torpedo_odds_equal_brute_force_enumeration(
    firer_class: str, crew: Any, visibility: Any, target_hull_lost: int
) -> None:
    inputs = steps.TorpedoInput(
        Firer.of(firer_class, crew),
        Ship.of("Cruiser", hull_lost=target_hull_lost),
        range=16,
        line_of_sight=True,
        visibility=visibility,
    )
    torpedo = RULESET.step("torpedo")
    assert distribution(step_odds(RULESET.id, torpedo, inputs)) == brute_force(torpedo, inputs)


def test_the_walk_is_too_big_for_a_battleship_but_the_odds_are_not(client: FlaskClient) -> None:
    # Six dice at 6+ with a save for every hit: 11**6 branches to walk one by one, over the
    # engine's cap; the per-die odds answer at once.
    assert branches("Battleship", 6, "Corvette") > MAX_ODDS_BRANCHES
    body = shot(ship("Battleship", "Green"), ship("Corvette"), 48, "Terrible")
    response = client.post(f"{BASE}/fire/odds", json=body)
    assert response.status_code == 200
    total = sum(Fraction(o["probability"]) for o in response.get_json()["outcomes"])
    assert total == 1


# --- against closed forms from the rule text ----------------------------------------------------


@pytest.mark.parametrize("target_class", CLASSES)
@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("crew", CREWS)
@pytest.mark.parametrize("firer_class", CLASSES)
def test_fire_odds_match_the_closed_form(
    client: FlaskClient, firer_class: str, crew: str, visibility: str, target_class: str
) -> None:
    body = shot(ship(firer_class, crew), ship(target_class), 16, visibility)
    response = client.post(f"{BASE}/fire/odds", json=body)
    assert response.status_code == 200
    odds = response.get_json()
    to_hit = printed_to_hit(crew, visibility)
    hit = Fraction(7 - to_hit, 6)
    fail = Fraction(armour(target_class) - 1, 6)
    dice = attack(firer_class)
    # Each die independently: gets through with chance hit x fail; is a 6 that gets through
    # with chance 1/6 x fail.
    assert marginal(odds, "hull_lost") == {k: p for k, p in binomial(dice, hit * fail).items() if p}
    assert marginal(odds, "hits") == {k: p for k, p in binomial(dice, hit).items() if p}
    catastrophic = 1 - (1 - Fraction(1, 6) * fail) ** dice
    assert marginal(odds, "catastrophic").get(True, Fraction(0)) == catastrophic
    for outcome in odds["outcomes"]:
        assert outcome["p"] == pytest.approx(float(Fraction(outcome["probability"])))


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("crew", CREWS)
def test_torpedo_odds_match_the_closed_form(
    client: FlaskClient, crew: str, visibility: str
) -> None:
    body = shot(ship("Destroyer", crew), ship("Battleship"), 16, visibility)
    response = client.post(f"{BASE}/torpedo/odds", json=body)
    assert response.status_code == 200
    odds = response.get_json()
    hit = Fraction(7 - printed_to_hit(crew, visibility), 6)
    assert marginal(odds, "hull_lost") == binomial(3, hit)
    assert marginal(odds, "catastrophic")[True] == 1 - Fraction(5, 6) ** 3


def test_the_worked_example_odds(client: FlaskClient) -> None:
    # Veteran Battleship at a Seasoned Destroyer: each die is a catastrophic hit with chance
    # 1/6 x 4/6, so the Destroyer goes down that way with chance 1 - (8/9)**6.
    body = shot(ship("Battleship", "Veteran"), ship("Destroyer"), 40)
    odds = client.post(f"{BASE}/fire/odds", json=body).get_json()
    assert marginal(odds, "catastrophic")[True] == 1 - Fraction(8, 9) ** 6
    sunk = sum(
        Fraction(o["probability"]) for o in odds["outcomes"] if o["result"]["target"]["sunk"]
    )
    # Not sunk: at most one hit through and it is not a 6.
    none_through = Fraction(2, 3) ** 6
    one_low_through = 6 * (Fraction(1, 2) - Fraction(1, 6)) * Fraction(4, 6) * Fraction(2, 3) ** 5
    assert sunk == 1 - none_through - one_low_through


# --- against seeded rolls -------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    firer_class=st.sampled_from(CLASSES),
    crew=st.sampled_from(CREWS),
    visibility=st.sampled_from(VISIBILITIES),
    target_class=st.sampled_from(CLASSES),
    torpedo=st.booleans(),
    seed=st.text(min_size=1, max_size=12),
    nonce=st.integers(0, 1000),
)
def test_every_seeded_result_is_a_possible_outcome(
    app: Flask,
    firer_class: str,
    crew: str,
    visibility: str,
    target_class: str,
    torpedo: bool,
    seed: str,
    nonce: int,
) -> None:
    client = app.test_client()
    if torpedo and not PRINTED_CLASSES[firer_class][5]:
        firer_class = "Cruiser"
    step = "torpedo" if torpedo else "fire"
    body = shot(ship(firer_class, crew), ship(target_class), 16, visibility)
    rolled = resolve(client, step, {**body, "dice": {"seed": seed, "nonce": nonce}})
    odds = client.post(f"{BASE}/{step}/odds", json=body).get_json()
    possible = distribution(odds)
    assert possible[json.dumps(rolled["result"], sort_keys=True)] > 0
    result = rolled["result"]
    assert result["hull_lost"] <= result["hits"]
    assert result["target"]["sunk"] == (
        result["catastrophic"] or result["hull_lost"] >= PRINTED_CLASSES[target_class][4]
    )
