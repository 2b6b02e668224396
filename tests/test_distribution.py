"""The exact distributions behind /odds, against the walk of every face.

Each building block of ``service/engine/distribution.py`` is compared, exactly, with
``enumerate_outcomes`` walking every face of the same dice; the class walk is held to the
odds branch cap like the walk of every face (just inside, just outside).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import pairwise
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine import budget, dice
from service.engine import distribution as d
from service.engine.errors import LimitError
from service.engine.resolution import Resolution

SIDES = st.integers(2, 10)


def faces_of(source: dice.DiceSource, sides: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(source.draw(f"d{n}", 1, n).total for n in sides)


@settings(max_examples=40, deadline=None)
@given(count=st.integers(1, 3), sides=SIDES)
def test_sums_are_the_walk_of_every_face(count: int, sides: int) -> None:
    walked = dice.enumerate_outcomes(lambda source: source.draw("x", count, sides).total)
    assert d.sums(count, sides) == walked
    assert d.total(d.sums(count, sides).values()) == 1


@settings(max_examples=40, deadline=None)
@given(sides=st.lists(SIDES, min_size=1, max_size=3).map(tuple))
def test_multisets_are_the_walk_of_every_face_sorted(sides: tuple[int, ...]) -> None:
    walked = dice.enumerate_outcomes(lambda source: tuple(sorted(faces_of(source, sides))))
    assert d.multisets(*sides) == walked
    rolled = {faces: p for faces, p in walked.items() if isinstance(faces, tuple)}
    assert rolled == walked
    pairs = d.apply_to_multisets(sides, lambda faces: max(Counter(faces).values()))
    assert pairs == d.apply(rolled, lambda faces: max(Counter(faces).values()))


def test_multisets_of_a_gun_throw() -> None:
    # 2D8 and a D10: the D10's 9 and 10 come alone (72 multisets) or with a pair of D8s
    assert len(d.multisets(8, 8, 10)) == 192
    assert d.multisets(8, 8, 10)[(7, 7, 7)] == Fraction(1, 640)
    assert d.multisets(8, 8, 10)[(1, 2, 9)] == Fraction(2, 640)


@settings(max_examples=30, deadline=None)
@given(sides=SIDES, times=st.integers(0, 4), target=st.integers(1, 10))
def test_repeat_is_the_walk_of_a_pool(sides: int, times: int, target: int) -> None:
    def hits(source: dice.DiceSource) -> int:
        return sum(source.draw("pool", 1, sides).total >= target for _ in range(times))

    one = d.apply(d.uniform(sides), lambda face: face >= target)
    with mock.patch.object(dice, "MAX_ODDS_BRANCHES", 10**5):
        walked = dice.enumerate_outcomes(hits)
    assert d.repeat(0, one, times, lambda n, hit: n + hit) == walked


def test_bind_and_combine_are_follow_up_and_independent_rolls() -> None:
    def follow(source: dice.DiceSource) -> tuple[int, int]:
        first = source.draw("first", 1, 6).total
        second = source.draw("second", 1, 4).total if first > 4 else 0
        return first, second

    bound = d.bind(
        d.uniform(6),
        lambda a: d.apply(d.uniform(4), lambda b: (a, b)) if a > 4 else {(a, 0): d.ONE},
    )
    assert bound == dice.enumerate_outcomes(follow)
    both = d.combine(d.uniform(6), d.uniform(4), lambda a, b: a + b)
    assert both == dice.enumerate_outcomes(
        lambda s: s.draw("a", 1, 6).total + s.draw("b", 1, 4).total
    )
    assert d.certain("x") == {"x": 1}


@settings(max_examples=40, deadline=None)
@given(rolls=st.lists(st.tuples(st.integers(1, 3), st.integers(2, 6)), min_size=1, max_size=2))
def test_the_walk_by_total_is_the_walk_of_every_face(rolls: list[tuple[int, int]]) -> None:
    # a rule that reads each roll by its total only, and whose second roll depends on the first
    def play(source: dice.DiceSource) -> tuple[int, ...]:
        totals = []
        for count, sides in rolls:
            roll = source.draw("x", count, sides)
            totals.append(roll.total)
            if roll.total % 3 == 0:
                totals.append(source.draw("again", 1, 4).total)
        return tuple(totals)

    with mock.patch.object(dice, "MAX_ODDS_BRANCHES", 10**6):
        walked = dice.enumerate_outcomes(play)
        assert d.walk(play, d.by_face) == walked
        assert d.walk(play, d.by_total) == walked


@pytest.mark.parametrize(("count", "sides"), [(1, 6), (2, 6), (3, 6), (2, 8), (4, 3)])
def test_each_total_has_a_throw_that_makes_it(count: int, sides: int) -> None:
    classes = d.by_total(count, sides)
    assert [sum(throw) for throw, _ in classes] == sorted(d.sums(count, sides))
    for throw, _ in classes:
        assert len(throw) == count and all(1 <= face <= sides for face in throw)
    assert [p for _, p in classes] == list(d.sums(count, sides).values())
    assert all(a < b for a, b in pairwise(sum(t) for t, _ in classes))


def _runs(total: int) -> Any:
    """A play of exactly ``total`` branches: a D2, then a die of about half on each side."""
    half = total // 2

    def play(source: dice.DiceSource) -> tuple[int, int]:
        side = source.draw("side", 1, 2).total
        return side, source.draw("x", 1, half if side == 1 else total - half).total

    return play


def test_the_walk_exactly_at_the_branch_cap() -> None:
    walked = d.walk(_runs(dice.MAX_ODDS_BRANCHES), d.by_face)
    assert len(walked) == dice.MAX_ODDS_BRANCHES
    assert d.total(walked.values()) == 1


def test_the_walk_one_run_past_the_cap_is_refused() -> None:
    with pytest.raises(LimitError, match=f"more than {dice.MAX_ODDS_BRANCHES} dice outcomes"):
        d.walk(_runs(dice.MAX_ODDS_BRANCHES + 1), d.by_face)


def test_the_walk_by_total_counts_runs_not_throws(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dice, "MAX_ODDS_BRANCHES", 16)  # 3d6: 216 throws, 16 totals
    walked = d.walk(lambda source: source.draw("x", 3, 6).total, d.by_total)
    assert walked[10] == Fraction(27, 216)
    monkeypatch.setattr(dice, "MAX_ODDS_BRANCHES", 15)
    with pytest.raises(LimitError):
        d.walk(lambda source: source.draw("x", 3, 6).total, d.by_total)


def test_the_walk_keeps_the_dice_limits() -> None:
    with pytest.raises(LimitError, match="sides"):
        d.walk(lambda source: source.draw("x", 1, dice.MAX_SIDES + 1).total)


def test_bind_adds_up_follow_ups_that_land_on_the_same_outcome() -> None:
    # every face of a d3 is followed by a coin; heads and tails are the same whatever the die
    coin = {"heads": Fraction(1, 2), "tails": Fraction(1, 2)}
    assert d.bind(d.uniform(3), lambda _: coin) == coin

    # two faces of four lead to the same follow-up outcome "done"
    def follow(face: int) -> dict[str | int, Fraction]:
        return {"done": d.ONE} if face <= 2 else {face: d.ONE}

    bound = d.bind(d.uniform(4), follow)
    assert bound == {"done": Fraction(1, 2), 3: Fraction(1, 4), 4: Fraction(1, 4)}


@pytest.mark.parametrize("times", [1, 2])
def test_repeat_with_chances_over_different_denominators(times: int) -> None:
    # the common denominator must be the least common multiple of 6, 2 and 3, not the last
    step = {"a": Fraction(1, 6), "b": Fraction(1, 2), "c": Fraction(1, 3)}
    start: tuple[str, ...] = ()
    repeated = d.repeat(start, step, times, lambda state, value: tuple(sorted((*state, value))))
    assert d.total(repeated.values()) == 1
    expected: dict[tuple[str, ...], Fraction] = {(): d.ONE}
    for _ in range(times):
        expected = d.combine(expected, step, lambda state, value: tuple(sorted((*state, value))))
    assert repeated == expected


def test_the_walk_hands_the_step_the_roll_it_asked_for() -> None:
    def play(source: dice.DiceSource) -> tuple[str, int, str, int]:
        roll = source.draw("gunnery", 2, 6)
        return roll.label, roll.sides, roll.notation, roll.total

    walked = d.walk(play, d.by_total)
    assert {(label, sides, notation) for label, sides, notation, _ in walked} == {
        ("gunnery", 6, "2d6")
    }
    assert walked[("gunnery", 6, "2d6", 7)] == Fraction(6, 36)


def test_the_walk_refuses_a_die_past_the_limits_naming_the_roll() -> None:
    with pytest.raises(LimitError, match=r"^range die: a die has 2 to 1000 sides, not 1001$"):
        d.walk(lambda source: source.draw("range die", 1, dice.MAX_SIDES + 1).total)


def test_the_walk_counts_the_dice_of_every_roll_against_the_request_limit() -> None:
    # three rolls, each within the dice limit and any two of them too; all three one die over
    part = dice.MAX_DICE_PER_REQUEST * 2 // 5

    def three_rolls(last: int) -> Any:
        def play(source: dice.DiceSource) -> int:
            first = source.draw("first", part, 2).total
            second = source.draw("second", part, 2).total
            return first + second + source.draw("third", last, 2).total

        return play

    def all_ones(count: int, sides: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
        return (((1,) * count, d.ONE),)  # one class per roll: a single run of the step

    last = dice.MAX_DICE_PER_REQUEST - 2 * part
    message = f"^third: a request may roll at most {dice.MAX_DICE_PER_REQUEST} dice$"
    with pytest.raises(LimitError, match=message):
        d.walk(three_rolls(last + 1), all_ones)
    assert d.walk(three_rolls(last), all_ones) == {dice.MAX_DICE_PER_REQUEST: d.ONE}


def test_the_walk_keeps_to_a_limit_of_its_own() -> None:
    def play(source: dice.DiceSource) -> int:
        return source.draw("d6", 1, 6).total

    assert d.walk(play, limit=6) == d.uniform(6)
    with pytest.raises(LimitError, match="more than 5 dice outcomes"):
        d.walk(play, limit=5)


def test_walk_step_merges_equal_results_whatever_the_order_of_their_members() -> None:
    def resolve(_: Any, res: Resolution) -> dict[str, Any]:
        if res.roll("coin", 1, 2).total == 1:
            return {"hit": True, "hits": 1}
        return {"hits": 1, "hit": True}

    assert d.walk_step(resolve, None) == [({"hit": True, "hits": 1}, d.ONE)]


def test_walk_step_walks_the_classes_it_is_given() -> None:
    def resolve(_: Any, res: Resolution) -> dict[str, Any]:
        return {"first": res.roll("two coins", 2, 2).values[0]}

    by_face = d.walk_step(resolve, None, d.by_face)
    assert by_face == [({"first": 1}, Fraction(1, 2)), ({"first": 2}, Fraction(1, 2))]


def test_the_class_dice_say_they_are_enumerated() -> None:
    # as the walk of every face does (dice._EnumeratingDice)
    assert d._ClassDice([], d.by_total).describe() == {"mode": "enumerated"}


def test_a_walk_charges_each_run_to_the_budget_in_force() -> None:
    """3d6 walked by total is 16 runs of the step, each charged before it runs."""
    with budget.scope() as spent:
        d.walk(lambda source: source.draw("3d6", 3, 6).total, d.by_total)
    assert spent.spent == 16 * dice.BRANCH_UNITS


def test_a_walk_past_the_budget_in_force_is_refused_naming_it() -> None:
    with budget.scope(15 * dice.BRANCH_UNITS), pytest.raises(LimitError, match="work budget"):
        d.walk(lambda source: source.draw("3d6", 3, 6).total, d.by_total)
