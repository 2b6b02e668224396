"""Every step's exact odds against the walk of every face, on small cases.

Each ``/odds`` is worked out from distributions (the totals or the multisets of its rolls
pushed through the step's rules functions, follow-up rolls as sub-distributions). Here the
brute force is the engine's own walk of every face of every die through the step's
resolver (``enumerate_outcomes``, the branch cap lifted), and the two must agree exactly:
the same results with the same fractions, in the same order, or the same refusal.

``walk_disagreements`` checks every step with odds of a served ruleset, a ruleset added
later included, on the request example its document gives (under each reading of each of
its rulings); the tests below it try many more inputs for the rulesets of the service.
(fleet-action's two odds are checked the same way in tests/test_fleet_action_odds.py.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import create_app
from service.engine import budget, dice
from service.engine.errors import LimitError, RuleError
from service.engine.ruleset import NoInput, Ruleset, step_odds
from service.http.endpoints import steps as http_steps
from service.http.endpoints.contract import RulesetAPI
from service.rulesets import dreadnought, salvo_solo
from service.rulesets.api import registered
from service.rulesets.dreadnought import steps as dn
from service.rulesets.dreadnought import tables as dt
from service.rulesets.dreadnought.ships import CATALOG as DN_CATALOG
from service.rulesets.dreadnought.ships import Battery, ShipCard, ShipState
from service.rulesets.dreadnought.ships import Ship as DnShip
from service.rulesets.salvo_solo import steps as ss
from service.rulesets.salvo_solo import tables as st_
from service.rulesets.salvo_solo.results import (
    SalvoSoloAction,
    SalvoSoloBearing,
    SalvoSoloRange,
    SalvoSoloWeather,
)
from service.rulesets.salvo_solo.ships import CATALOG as SS_CATALOG
from service.rulesets.salvo_solo.ships import Ship as SsShip
from service.rulesets.salvo_solo.ships import ShipState as SsState
from tests.fixtures.coin_ruleset import COIN, LOADED
from tests.fixtures.tiny_ruleset import EVERY, EXTRA

DREADNOUGHT = dreadnought.RULESET
SALVO_SOLO = salvo_solo.RULESET
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# The branch cap lifted for the brute force: the heaviest walk of a test here is far under it.
WALK_CAP = 250_000


@contextmanager
def walk_unbounded() -> Iterator[None]:
    """The walk of every face with no cap on its branches and no bound on its work (inside a
    request, the request's budget would refuse the big walks)."""
    token = budget.open_budget(budget.NO_LIMIT)
    try:
        with mock.patch.object(dice, "MAX_ODDS_BRANCHES", WALK_CAP):
            yield
    finally:
        budget.close_budget(token)


def odds_of(ruleset: str | None, step: Any, inputs: Any, rules: Any = None) -> Any:
    """The odds answer, or the refusal (its type and words)."""
    try:
        with walk_unbounded():
            return step_odds(ruleset, step, inputs, rules)
    except RuleError as error:
        return (type(error).__name__, error.field, str(error))


def answer(ruleset: Ruleset, name: str, inputs: Any, exact: bool) -> Any:
    step = ruleset.step(name)
    if not exact:
        step = dataclasses.replace(step, exact_odds=None)
    return odds_of(ruleset.id, step, inputs)


def assert_exact(ruleset: Ruleset, name: str, inputs: Any) -> None:
    step = ruleset.step(name)
    assert step.exact_odds is not None, f"{ruleset.id} {name} walks every face"
    walked = answer(ruleset, name, inputs, exact=False)
    assert answer(ruleset, name, inputs, exact=True) == walked


# --- every ruleset: each step with odds on its document's example -----------------------------

# Steps whose example's walk is too large to run here, each with where its exact odds are
# checked against the walk instead. Named one by one: a ruleset added later has none, so
# each of its steps with odds is walked on its example.
EXEMPT: dict[tuple[str, str], str] = {
    ("salvo-solo", "attack"): "its odds are of a summary of the whole attack, not of the "
    "step's result, and the walk of its example's dice takes minutes: walked and summed up "
    "the same way on smaller attacks in tests/test_salvo_solo_attack_odds.py",
    ("fleet-action", "fire"): "its example, a battleship's attack, has more than 250,000 "
    "branches to walk: walked on smaller pools in tests/test_fleet_action_odds.py",
}


def odds_bodies(document: dict[str, Any], api: RulesetAPI, route: str) -> list[dict[str, Any]]:
    """The step's /odds request example, as it is and under each reading of each ruling
    that is not the default."""
    operation = document["paths"][f"/v1/rulesets/{api.id}/{route}/odds"]["post"]
    example: dict[str, Any] = operation["requestBody"]["content"]["application/json"]["example"]
    return [
        example,
        *(
            {**example, "rules": {ruling.id: reading.id}}
            for ruling in api.ruleset.rulings
            for reading in ruling.readings
            if not reading.default
        ),
    ]


def step_disagreements(client: Any, api: RulesetAPI, step: Any, bodies: list[Any]) -> list[str]:
    """Each of ``bodies`` posted to the step's /odds, the odds the service works out there
    compared with the walk of the same inputs under the same readings."""
    name = f"{api.id} {step.name}"
    found: list[str] = []
    compared: list[bool] = []
    asked: list[Any] = [None]

    def both(ruleset: str | None, served: Any, inputs: Any, rules: Any = None) -> Any:
        exact = odds_of(ruleset, served, inputs, rules)
        walked = odds_of(ruleset, dataclasses.replace(served, exact_odds=None), inputs, rules)
        if isinstance(walked, tuple) and walked[0] == "LimitError" and exact != walked:
            found.append(f"{name}: the walk of {asked[0]} is too large ({walked[2]})")
        compared.append(exact == walked)
        return step_odds(ruleset, served, inputs, rules)  # the answer as it is served

    with mock.patch.object(http_steps, "step_odds", both):
        for body in bodies:
            asked[0] = body
            response = client.post(f"/v1/rulesets/{api.id}/{step.route}/odds", json=body)
            if response.status_code != 200:
                found.append(f"{name}: {body} answers {response.status_code}")
    if not compared:
        found.append(f"{name}: its odds were not worked out by step_odds")
    elif not all(compared):
        found.append(f"{name}: exact odds differ from the walk in {compared.count(False)}")
    return found


def walk_disagreements(app: Flask, api: RulesetAPI) -> list[str]:
    """Every step with odds of ``api`` (served by ``app``) whose exact odds are not the walk of
    every face for its document's example (as it is and under each reading of each ruling)."""
    client = app.test_client()
    document = client.get("/openapi.json").get_json()
    found: list[str] = []
    for step in api.ruleset.steps:
        if not step.odds or (api.id, step.name) in EXEMPT:
            continue
        if step.exact_odds is None:
            found.append(f"{api.id} {step.name}: no exact odds")
            continue
        found += step_disagreements(client, api, step, odds_bodies(document, api, step.route))
    return found


def test_every_step_with_odds_has_exact_odds() -> None:
    walked = [
        f"{api.id} {step.name}"
        for api in EVERY
        for step in api.ruleset.steps
        if step.odds and step.exact_odds is None
    ]
    assert walked == []


@pytest.mark.parametrize("api", EVERY, ids=lambda api: api.id)
def test_every_rulesets_exact_odds_are_the_walk_of_its_examples(
    every_app: Flask, api: RulesetAPI
) -> None:
    assert walk_disagreements(every_app, api) == []


def test_a_ruleset_added_later_is_walked_and_wrong_odds_are_caught() -> None:
    # the coin as docs/rulesets.md adds a ruleset, served beside the service's own: its fair
    # odds agree with the walk; planted at heads 2/3 they do not, and the check says so
    app = create_app({"TESTING": True, "RULESETS": (*registered(), COIN, LOADED)})
    assert walk_disagreements(app, COIN) == []
    assert walk_disagreements(app, LOADED) == [
        "coin-loaded toss: exact odds differ from the walk in 1"
    ]


def test_only_named_steps_of_the_services_rulesets_are_exempt() -> None:
    steps = {(api.id, step.name): step for api in registered() for step in api.ruleset.steps}
    for key, reason in EXEMPT.items():
        assert key in steps and steps[key].odds, key
        assert "tests/test_" in reason, f"{key}: say where its odds are walked instead"


@pytest.mark.parametrize("api", EXTRA, ids=lambda api: api.id)
def test_the_test_rulesets_exact_odds_are_the_walk(api: RulesetAPI) -> None:
    # each under its own default reading of the one ruling id the two share
    assert_exact(api.ruleset, "roll", NoInput())


# --- dreadnought --------------------------------------------------------------------------


@st.composite
def dn_ship(draw: st.DrawFn, heavy: bool | None = None) -> DnShip:
    if draw(st.booleans()):
        card = draw(st.sampled_from(list(DN_CATALOG.values())))
    else:
        classes = [
            row.name for row in dt.SHIP_CLASSES if heavy is None or (row.weight == "heavy") is heavy
        ]
        calibres = draw(
            st.lists(st.sampled_from([3, 4, 6, 8, 9.2, 11, 12, 13.5, 15]), min_size=1, max_size=3)
        )
        batteries = []
        for calibre in dict.fromkeys(calibres):
            barrels = draw(st.integers(1, 12))
            turrets = draw(st.one_of(st.none(), st.integers(1, barrels)))
            batteries.append(Battery(calibre, barrels, turrets))
        card = ShipCard(
            "Card",
            draw(st.sampled_from(classes)),
            draw(st.sampled_from(["British", "German", "French"])),
            draw(st.sampled_from(dt.CREWS)),
            tuple(batteries),
            to_hit=draw(st.one_of(st.none(), st.integers(2, 20))),
            damage_reduction=draw(st.one_of(st.none(), st.integers(0, 4))),
        )
    main = card.batteries[0]
    state = ShipState(
        damage_taken=draw(st.integers(0, 12)),
        turrets_lost=draw(st.integers(0, main.turret_count)),
        director_destroyed=draw(st.booleans()),
    )
    return DnShip(card, state)


@SETTINGS
@given(
    firer=dn_ship(),
    target=dn_ship(),
    distance=st.sampled_from([0, 1, 5, 10, 20, 30]),
    flags=st.lists(st.booleans(), min_size=5, max_size=5),
    pick=st.integers(0, 2),
)
def test_dreadnought_fire(
    firer: DnShip, target: DnShip, distance: int, flags: list[bool], pick: int
) -> None:
    # a calibre the firer has, that may fire at the target when one of them can
    calibres = [b.calibre for b in firer.card.batteries]
    fit = [c for c in calibres if dn.weapon_row(c, target.card.ship_class)[1]] or calibres
    inputs = dn.FireInput(firer, fit[pick % len(fit)], target, distance, *flags)
    assert_exact(DREADNOUGHT, "fire", inputs)


@SETTINGS
@given(
    firer=dn_ship(heavy=False),
    target=dn_ship(),
    distance=st.sampled_from([0, 3, 10, 11]),
    torpedoes=st.integers(1, 20),
)
def test_dreadnought_torpedo(firer: DnShip, target: DnShip, distance: int, torpedoes: int) -> None:
    assert_exact(DREADNOUGHT, "torpedo", dn.TorpedoInput(firer, target, distance, torpedoes))


@SETTINGS
@given(target=dn_ship(), throw=st.sampled_from([*dt.THROWS, "double 9"]))
def test_dreadnought_critical(target: DnShip, throw: Any) -> None:
    assert_exact(DREADNOUGHT, "critical", dn.CriticalInput(target, throw))


@SETTINGS
@given(ship=dn_ship(), way=st.sampled_from([None, "left", "right"]))
def test_dreadnought_rudder(ship: DnShip, way: Any) -> None:
    jammed = DnShip(ship.card, dataclasses.replace(ship.state, rudder_jammed=way))
    assert_exact(DREADNOUGHT, "rudder", dn.RudderInput(jammed))


def test_dreadnought_fire_at_its_heaviest_tree() -> None:
    # 2D8 and a D10, every throw a hit on a British battleship with two turrets left: every
    # double goes on to the Critical Hits table, and double 8 to two more D6.
    firer = DnShip(DN_CATALOG["Queen Elizabeth"])
    card = dataclasses.replace(
        DN_CATALOG["Dreadnought"], ship_class="Battleship", to_hit=2, name="Target"
    )
    target = DnShip(card, ShipState(turrets_lost=3))
    assert target.main_turrets_left == dt.TWO_TURRETS_AT_MOST
    assert firer.gunner_die == 10
    inputs = dn.FireInput(firer, 15, target, 1)
    assert_exact(DREADNOUGHT, "fire", inputs)
    # walked face by face it is 1,215 branches, past the cap: the exact odds walk none
    walked = dataclasses.replace(DREADNOUGHT.step("fire"), exact_odds=None)
    with pytest.raises(LimitError, match="dice outcomes"):
        step_odds(DREADNOUGHT.id, walked, inputs)
    with mock.patch.object(dice, "MAX_ODDS_BRANCHES", 1_215):
        step_odds(DREADNOUGHT.id, walked, inputs)
    with mock.patch.object(dice, "MAX_ODDS_BRANCHES", 1_214), pytest.raises(LimitError):
        step_odds(DREADNOUGHT.id, walked, inputs)


# --- salvo-solo ---------------------------------------------------------------------------


@st.composite
def ss_ship(draw: st.DrawFn) -> SsShip:
    card = draw(st.sampled_from(list(SS_CATALOG.values())))
    state = SsState(
        flotation_hits=draw(st.integers(0, card.flotation + 1)),
        turret_hits=draw(st.integers(0, card.turret + 1)),
        speed_hits=draw(st.integers(0, 3)),
        fire_control=draw(st.sampled_from(["ready", "lost-next-turn", "lost-this-turn"])),
    )
    return SsShip(card, state)


WEATHERS = st.sampled_from(list(st_.WEATHER_RANGE_MODIFIER))
RANGES = st.sampled_from(list(st_.RANGES))
ACTIONS = st.sampled_from(list(st_.ACTION_EFFECTS))


@pytest.mark.parametrize("name", ["weather", "special-damage"])
def test_salvo_solo_steps_of_dice_alone(name: str) -> None:
    assert_exact(SALVO_SOLO, name, NoInput())


@SETTINGS
@given(weather=WEATHERS)
def test_salvo_solo_range(weather: SalvoSoloWeather) -> None:
    assert_exact(SALVO_SOLO, "range", ss.RangeInput(weather))


@SETTINGS
@given(player=ss_ship(), enemy=ss_ship())
def test_salvo_solo_initiative(player: SsShip, enemy: SsShip) -> None:
    assert_exact(SALVO_SOLO, "initiative", ss.InitiativeInput(player, enemy))


@SETTINGS
@given(enemy=ss_ship(), player=ss_ship(), last=st.one_of(st.none(), ACTIONS))
def test_salvo_solo_enemy_action(
    enemy: SsShip, player: SsShip, last: SalvoSoloAction | None
) -> None:
    assert_exact(SALVO_SOLO, "enemy-action", ss.EnemyActionInput(enemy, player, last))


@SETTINGS
@given(
    range_=RANGES,
    weather=WEATHERS,
    straddled=st.booleans(),
    firer=st.one_of(st.none(), ss_ship()),
)
def test_salvo_solo_fire(
    range_: SalvoSoloRange, weather: SalvoSoloWeather, straddled: bool, firer: SsShip | None
) -> None:
    assert_exact(SALVO_SOLO, "fire", ss.FireInput(range_, weather, straddled, firer))


@SETTINGS
@given(
    firer=ss_ship(),
    target=ss_ship(),
    range_=RANGES,
    bearing=st.sampled_from(["bow", "broadside", "stern"]),
)
def test_salvo_solo_straddle(
    firer: SsShip, target: SsShip, range_: SalvoSoloRange, bearing: SalvoSoloBearing
) -> None:
    assert_exact(SALVO_SOLO, "straddle", ss.StraddleInput(firer, target, range_, bearing))


@SETTINGS
@given(target=ss_ship(), range_=RANGES)
def test_salvo_solo_critical(target: SsShip, range_: SalvoSoloRange) -> None:
    assert_exact(SALVO_SOLO, "critical", ss.CriticalInput(target, range_))


@SETTINGS
@given(firer=ss_ship(), target=ss_ship(), range_=RANGES, weather=WEATHERS)
def test_salvo_solo_torpedo(
    firer: SsShip, target: SsShip, range_: SalvoSoloRange, weather: SalvoSoloWeather
) -> None:
    assert_exact(SALVO_SOLO, "torpedo", ss.TorpedoInput(firer, target, range_, weather))


@SETTINGS
@given(weather=WEATHERS, player=ACTIONS, enemy=ACTIONS)
def test_salvo_solo_end_of_turn(
    weather: SalvoSoloWeather, player: SalvoSoloAction, enemy: SalvoSoloAction
) -> None:
    assert_exact(SALVO_SOLO, "end-of-turn", ss.EndOfTurnInput(weather, player, enemy))
