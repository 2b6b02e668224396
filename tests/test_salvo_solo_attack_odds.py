"""POST /v1/rulesets/salvo-solo/attack/odds: the exact odds of a whole attack.

The odds are put together shot by shot from the exact odds of the steps a shot is made of
(``odds.attack_odds``); these tests compare them with the brute force: ``steps.attack``
itself walked over every total of every roll it makes, its results summed up the same way.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.dice import DiceSource, SuppliedDice
from service.engine.distribution import walk, walk_step
from service.engine.errors import RuleError
from service.engine.resolution import Modifier, Resolution, readings_in_force
from service.rulesets.salvo_solo import odds, steps
from service.rulesets.salvo_solo.results import SalvoSoloBearing, SalvoSoloRange, SalvoSoloWeather
from service.rulesets.salvo_solo.ships import CATALOG, Ship, ShipCard, ShipState
from tests.salvo_solo_helpers import AJAX, BASE, SPEE

ONE_SHOT_RANGES = ("Medium-Long", "Long", "Extreme")


def _key(result: dict[str, Any]) -> str:
    return json.dumps(result, sort_keys=True)


def brute_force(inp: steps.AttackInput) -> dict[str, Fraction]:
    """``steps.attack`` walked over every total of every roll, summed up as the odds are."""

    def play(dice: DiceSource) -> str:
        result = steps.attack(inp, Resolution(dice))
        after = Ship(inp.target.card, ShipState(**result["target"]["state"]))
        hits = "".join(shot.get("hits", "") for shot in result["shots"])
        dealt = (hits.count("F"), hits.count("T"), hits.count("S"))
        return _key(odds.attack_summary(inp.target, after, dealt, result["straddled"]))

    return walk(play, limit=10**6)


def exact(inp: steps.AttackInput) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for result, p in odds.attack_odds(inp):
        out[_key(result)] = out.get(_key(result), Fraction(0)) + p
    return out


ships = st.sampled_from(sorted(CATALOG))


@settings(max_examples=30, deadline=None)
@given(
    firer=ships,
    target=ships,
    firer_turret_hits=st.integers(0, 3),
    target_flotation_hits=st.integers(0, 3),
    range_=st.sampled_from(ONE_SHOT_RANGES),
    weather=st.sampled_from(("Fine", "Fair", "Misty", "Stormy")),
    bearing=st.sampled_from(("bow", "broadside", "stern")),
    straddled=st.booleans(),
    twenty_one=st.sampled_from(("as-20", "no-effect")),
    gun_size=st.sampled_from(("bands", "printed-only")),
)
def test_one_shot_attacks_match_the_walk_of_the_step(
    firer: str,
    target: str,
    firer_turret_hits: int,
    target_flotation_hits: int,
    range_: SalvoSoloRange,
    weather: SalvoSoloWeather,
    bearing: SalvoSoloBearing,
    straddled: bool,
    twenty_one: str,
    gun_size: str,
) -> None:
    inp = steps.AttackInput(
        Ship(CATALOG[firer], ShipState(turret_hits=firer_turret_hits)),
        Ship(CATALOG[target], ShipState(flotation_hits=target_flotation_hits)),
        range_,
        weather,
        bearing,
        straddled,
    )
    rules = {"straddle-21-plus": twenty_one, "gun-size-bands": gun_size}
    with readings_in_force(rules):
        assert exact(inp) == brute_force(inp)


def test_two_shots_with_a_target_one_hit_from_sinking_match_the_walk_of_the_step() -> None:
    # At Medium range a ship fires twice; any F hit sinks this Graf Spee, and then the second
    # shot is not fired (ruling sunk-is-final). Stormy weather keeps the walk short.
    inp = steps.AttackInput(
        Ship(CATALOG["Hood"]),
        Ship(CATALOG["Graf Spee"], ShipState(flotation_hits=4, turret_hits=1, speed_hits=1)),
        "Medium",
        "Stormy",
        "broadside",
    )
    got = exact(inp)
    assert got == brute_force(inp)
    assert sum(got.values()) == 1
    sunk = sum(p for key, p in got.items() if json.loads(key)["sunk"])
    assert 0 < sunk < 1


@pytest.mark.parametrize("gun_size", ["bands", "printed-only"])
def test_hits_past_the_cap_are_still_resolved_and_reported(gun_size: str) -> None:
    # Graf Spee has 99 T hits, one short of the cap (ruling hit-count-cap): its state counts
    # one more, but every T hit a shot deals is still reported, so the T hits of the odds are
    # those against an undamaged Graf Spee, two at most from one straddle.
    def turret_hits(state: ShipState) -> dict[int, Fraction]:
        inp = steps.AttackInput(
            Ship(CATALOG["Hood"]), Ship(CATALOG["Graf Spee"], state), "Long", "Fair", "broadside"
        )
        with readings_in_force({"gun-size-bands": gun_size}):
            got = exact(inp)
            assert got == brute_force(inp)
        out: dict[int, Fraction] = {}
        for key, p in got.items():
            hits = json.loads(key)["turret_hits"]
            out[hits] = out.get(hits, Fraction(0)) + p
        return out

    at_cap = turret_hits(ShipState(turret_hits=99))
    assert at_cap == turret_hits(ShipState())
    assert max(at_cap) == 2


def test_the_straddle_21_plus_reading_changes_the_odds() -> None:
    # Hood's broadside at Short against an unarmoured Nürnburg reaches 21+ on the Straddle
    # table: as-20 deals FFSST there, no-effect nothing.
    inp = steps.AttackInput(
        Ship(CATALOG["Hood"]), Ship(CATALOG["Nürnburg"]), "Short", "Fine", "broadside"
    )
    with readings_in_force({"straddle-21-plus": "as-20"}):
        as_20 = exact(inp)
    with readings_in_force({"straddle-21-plus": "no-effect"}):
        no_effect = exact(inp)
    assert as_20 != no_effect
    assert sum(as_20.values()) == sum(no_effect.values()) == 1


EXAMPLE = {
    "firer": AJAX,
    "target": SPEE,
    "range": "Medium",
    "weather": "Fair",
    "guns_bearing": "broadside",
    "previously_straddled": False,
}


def test_attack_odds_answer_every_outcome_by_what_it_does(client: FlaskClient) -> None:
    response = client.post(f"{BASE}/attack/odds", json=EXAMPLE)
    assert response.status_code == 200, response.get_json()
    data = response.get_json()
    assert (data["ruleset"], data["step"]) == ("salvo-solo", "attack")
    outcomes = data["outcomes"]
    assert sum(Fraction(o["probability"]) for o in outcomes) == 1
    results = [o["result"] for o in outcomes]
    assert len({_key(r) for r in results}) == len(results)
    for result in results:
        assert set(result) == {
            "flotation_hits",
            "turret_hits",
            "speed_hits",
            "fire_control_lost",
            "speed_lost",
            "silenced",
            "sunk",
            "straddled",
        }
        # Graf Spee: speed 8, Turret 4, Flotation 4; 2 speed lost per S hit.
        assert result["speed_lost"] == min(8, 2 * result["speed_hits"])
        assert result["silenced"] == (result["turret_hits"] >= 4)
        assert result["sunk"] == (result["flotation_hits"] > 4)
    # Nothing happens only when both fires miss: (1 - 26/36)^2 at Medium in Fair weather,
    # the second with no straddle to add.
    nothing = [r for r in results if not r["straddled"]]
    assert len(nothing) == 1
    chance = next(o for o in outcomes if not o["result"]["straddled"])["probability"]
    assert Fraction(chance) == Fraction(10, 36) ** 2
    assert data["rules"]["straddle-21-plus"] == "as-20"


def test_attack_odds_match_the_step_over_the_http_face(client: FlaskClient) -> None:
    body = {**EXAMPLE, "range": "Long", "previously_straddled": True}
    data = client.post(f"{BASE}/attack/odds", json=body).get_json()
    inp = steps.AttackInput(
        Ship(CATALOG["Ajax"]), Ship(CATALOG["Graf Spee"]), "Long", "Fair", "broadside", True
    )
    with readings_in_force(None):
        want = brute_force(inp)
    got = {_key(o["result"]): Fraction(o["probability"]) for o in data["outcomes"]}
    assert got == want


def test_a_ship_that_cannot_fire_is_refused_by_name(client: FlaskClient) -> None:
    silenced = {"ship": "Ajax", "state": {"turret_hits": 5}}
    response = client.post(f"{BASE}/attack/odds", json={**EXAMPLE, "firer": silenced})
    assert response.status_code == 422
    problem = response.get_json()
    assert "Ajax" in problem["detail"] and "Turret" in problem["detail"]


def test_a_sunk_target_is_refused(client: FlaskClient) -> None:
    sunk = {"ship": "Graf Spee", "state": {"flotation_hits": 5}}
    response = client.post(f"{BASE}/attack/odds", json={**EXAMPLE, "target": sunk})
    assert response.status_code == 422
    assert "Graf Spee is already sunk" in response.get_json()["detail"]


def test_the_ruleset_lists_the_attack_odds(client: FlaskClient) -> None:
    steps_ = client.get("/v1/rulesets/salvo-solo").get_json()["steps"]
    attack = next(s for s in steps_ if s["name"] == "attack")
    assert attack["odds_path"] == f"{BASE}/attack/odds"


def test_an_attack_summary_counts_only_this_attack_s_hits() -> None:
    # A Graf Spee already holding F, TT and S hits takes FFTSS and loses its fire control:
    # the summary names what this attack did, not the damage it already had.
    before = Ship(CATALOG["Graf Spee"], ShipState(flotation_hits=1, turret_hits=2, speed_hits=1))
    after = before.apply("FFTSS", fire_control_lost=True)
    assert odds.attack_summary(before, after, (2, 1, 2), True) == {
        "flotation_hits": 2,
        "turret_hits": 1,
        "speed_hits": 2,
        "fire_control_lost": True,
        "speed_lost": 4,  # speed 6 before (8, 2 per S hit), 2 after
        "silenced": False,  # 3 T hits of its Turret 4
        "sunk": False,
        "straddled": True,
    }
    summary = odds.attack_summary(before, before.apply("F"), (1, 0, 0), False)
    assert summary["fire_control_lost"] is False


def _noting_walks(step: Any, walks: list[Any], key: Any) -> Any:
    """``step`` as the odds run it, noting ``key(inputs)`` once per walk of it: a walk runs
    the step once per total of its first roll, the highest total once (the single run that
    reads an input's modifiers rolls every die as 1)."""

    def run(inputs: Any, res: Resolution) -> Any:
        result = step(inputs, res)
        first = res.rolls[0]
        if first.total == first.sides * len(first.values):
            walks.append(key(inputs))
        return result

    run.__name__ = step.__name__
    return run


def test_a_step_noted_by_its_walks_counts_one_for_a_walk_and_none_for_a_single_run() -> None:
    inp = steps.StraddleInput(Ship(CATALOG["Hood"]), Ship(CATALOG["Graf Spee"]), "Short", "bow")
    walks: list[Any] = []
    noted = _noting_walks(steps.straddle, walks, lambda _: "walked")
    assert walk_step(noted, inp) == walk_step(steps.straddle, inp)
    assert walks == ["walked"]
    noted(inp, Resolution(SuppliedDice([1, 1, 1])))
    assert walks == ["walked"]


def test_a_firer_s_shots_at_every_t_hit_count_take_two_walks_of_the_straddle_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The Straddle tables of one firer differ only in the modifier of its T hits: they are one
    # family, learnt from two walks for Hood's eight counts (0, then 7, whose window holds
    # every final still missing); fire, special damage and critical hit are walked once each.
    # Each firer's shot is the one a cold worker finds for that firer alone.
    hood, spee = CATALOG["Hood"], Ship(CATALOG["Graf Spee"])
    firers = [Ship(hood, ShipState(turret_hits=hits)) for hits in range(hood.turret)]
    with readings_in_force(None):
        alone = []
        for firer in firers:
            odds.clear_caches()
            alone.append(odds.shot_weights(firer, spee, "Short", "Fine", "broadside", False))
    odds.clear_caches()
    straddles: list[int] = []
    others: list[str] = []
    monkeypatch.setattr(
        steps,
        "straddle",
        _noting_walks(steps.straddle, straddles, lambda inp: inp.firer.state.turret_hits),
    )
    monkeypatch.setattr(steps, "fire", _noting_walks(steps.fire, others, lambda _: "fire"))
    for name, step in odds.FOLLOW_UP.items():
        monkeypatch.setitem(
            odds.FOLLOW_UP, name, _noting_walks(step, others, lambda _, n=step.__name__: n)
        )
    with readings_in_force(None):
        together = [
            odds.shot_weights(firer, spee, "Short", "Fine", "broadside", False) for firer in firers
        ]
    assert together == alone
    assert straddles == [0, 7]
    assert others == ["fire", "special_damage", "critical"]


SILENCED_AJAX = Ship(CATALOG["Ajax"], ShipState(turret_hits=5))
SUNK_SPEE = Ship(CATALOG["Graf Spee"], ShipState(flotation_hits=5))
AJAX_SILENCED = "Ajax has 5 T hits, as many as its Turret rating of 5: it can't fire anymore"
SPEE_SUNK = "Graf Spee is already sunk: nothing more happens to it"


@pytest.mark.parametrize(
    ("firer", "target", "field", "detail"),
    [
        (SILENCED_AJAX, Ship(CATALOG["Graf Spee"]), "firer", AJAX_SILENCED),
        (Ship(CATALOG["Ajax"]), SUNK_SPEE, "target", SPEE_SUNK),
        (SILENCED_AJAX, SUNK_SPEE, "firer", AJAX_SILENCED),  # the firer first, as the step
        (
            Ship(CATALOG["Ajax"], ShipState(fire_control="lost-this-turn")),
            SUNK_SPEE,
            "firer",
            "Ajax lost its fire control last turn: it can't fire this turn",
        ),
    ],
)
def test_the_attack_odds_refuse_as_the_attack_step_does(
    firer: Ship, target: Ship, field: str, detail: str
) -> None:
    inp = steps.AttackInput(firer, target, "Medium", "Fair", "broadside")
    with pytest.raises(RuleError) as by_odds:
        odds.attack_odds(inp)
    with pytest.raises(RuleError) as by_step:
        steps.attack(inp, Resolution(DiceSource()))
    assert (by_odds.value.field, by_odds.value.detail) == (field, detail)
    assert (by_step.value.field, by_step.value.detail) == (field, detail)


def test_a_target_whose_fire_control_is_already_lost_matches_the_walk_of_the_step() -> None:
    # Losing its fire control again leaves this Graf Spee as it was: the shots that take it
    # and those that do not end in the same target, one outcome with both chances added.
    inp = steps.AttackInput(
        Ship(CATALOG["Ajax"]),
        Ship(CATALOG["Graf Spee"], ShipState(fire_control="lost-next-turn")),
        "Long",
        "Fair",
        "broadside",
        True,
    )
    got = exact(inp)
    assert got == brute_force(inp)
    assert sum(got.values()) == 1
    assert len(odds.attack_odds(inp)) == len(got)


# A card at the request limits: 20 turrets, so a firer has 20 Straddle tables (T hits 0-19).
TWENTY_TURRETS = ShipCard("Twenty turrets", "CL", 6, 10, 10, 10, 20, 20, 20, 0, "Test")


@pytest.mark.parametrize(
    ("order", "walks"),
    [
        # 0 T hits first, then the member whose window holds every final still missing and
        # the most not yet seen (16: the window of 3d6 is 16 wide), then the last (19)
        (range(20), [0, 16, 19]),
        # 19 first, then the member whose window holds every final still missing and the
        # most not yet seen (3), then the last (0)
        (range(19, -1, -1), [19, 3, 0]),
    ],
    ids=["fewest T hits first", "most T hits first"],
)
def test_a_firer_s_twenty_straddle_tables_take_three_walks(order: range, walks: list[int]) -> None:
    # The other 17 tables are put together from what those three walks taught, each equal
    # to its own walk.
    odds.clear_caches()
    walked: list[int] = []
    straddle = _noting_walks(steps.straddle, walked, lambda inp: inp.firer.state.turret_hits)
    target = Ship(TWENTY_TURRETS)
    with readings_in_force(None):
        for hits in order:
            firer = Ship(TWENTY_TURRETS, ShipState(turret_hits=hits))
            inp = steps.StraddleInput(firer, target, "Short", "bow")
            assert list(odds.table(straddle, inp, odds._straddle_family(inp))) == (
                walk_step(steps.straddle, inp)
            )
    assert walked == walks


def _checks_its_second_roll_first(modifier: int, res: Resolution) -> dict[str, Any]:
    first = res.roll("first", 1, 6)
    second = res.roll("second", 1, 6)
    final = res.check("second", second.total, [Modifier("m", modifier)], "4+", "?")
    return {"first": first.total, "hit": final >= 4}


def _each_the_walk_of_its_input(step: Any, modifiers: tuple[int, ...]) -> odds.Family:
    """A cold worker asks the family of ``step`` for each modifier in turn: each table is
    the walk of that input."""
    odds.clear_caches()
    family = odds.Family(step.__name__)
    for modifier in modifiers:
        assert list(odds.table(step, modifier, family)) == walk_step(step, modifier)
    return family


def _checks_nothing(modifier: int, res: Resolution) -> dict[str, Any]:
    return {"face": res.roll("unchecked", 1, 6).total + modifier}


def _rolls_nothing(modifier: int, res: Resolution) -> dict[str, Any]:
    return {"modifier": modifier}


@pytest.mark.parametrize(
    "step",
    [_checks_its_second_roll_first, _checks_nothing, _rolls_nothing],
    ids=lambda step: step.__name__,
)
def test_a_family_whose_first_roll_cannot_be_read_is_walked_input_by_input(step: Any) -> None:
    # A family reads its first roll through the first check, of that roll: a step whose first
    # check is of another roll, or that checks nothing, is walked; one that rolls nothing has
    # its one outcome for sure.
    family = _each_the_walk_of_its_input(step, (0, 1, 2))
    if step is _rolls_nothing:
        assert odds.table(step, 3, family) == (({"modifier": 3}, Fraction(1)),)


def _six_adds_one(modifier: int, res: Resolution) -> dict[str, Any]:
    die = res.roll("die", 1, 6).total
    mods = [Modifier("m", modifier), Modifier("a six", 1 if die == 6 else 0)]
    return {"final": res.check("die", die, mods, "-", "?")}


def _checked_only_when_low(modifier: int, res: Resolution) -> dict[str, Any]:
    die = res.roll("die", 1, 6).total
    final = res.check("die" if die <= 3 else "a note", die, [Modifier("m", modifier)], "-", "?")
    return {"final": final}


def _rolls_again_on_a_hit(modifier: int, res: Resolution) -> dict[str, Any]:
    die = res.roll("die", 1, 6).total
    final = res.check("die", die, [Modifier("m", modifier)], "4+", "?")
    if final < 4:
        return {"hit": False, "big": False}
    return {"hit": True, "big": res.roll("size", 1, 6).total >= 5}


@pytest.mark.parametrize(
    "step",
    [_six_adds_one, _checked_only_when_low, _rolls_again_on_a_hit],
    ids=lambda step: step.__name__,
)
def test_a_family_step_is_the_walk_of_each_input_in_any_order(step: Any) -> None:
    # Modifiers 0, then 2 (finals 7 and 8 new: walked), then 1 (every final known): a step
    # whose modifier changes with the face, or whose first check is not always of its first
    # roll, switches the family off on its first walk; a follow-up roll is learnt per final.
    family = _each_the_walk_of_its_input(step, (0, 2, 1))
    learnt = odds._learnt(step, family, odds.rules_key(), 1, 6)
    assert learnt.sound is (step is _rolls_again_on_a_hit)
