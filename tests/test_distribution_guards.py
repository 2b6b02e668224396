"""The building blocks of the exact odds, where a mutation run found them unguarded.

Each test is named for what it protects and was checked against the mutant it kills (the
change applied by hand, the test seen to fail, the change reverted); docs/testing.md lists
them with the mutation scores of ``service/engine/distribution.py``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from service.engine import dice
from service.engine import distribution as d
from service.engine.errors import LimitError
from service.engine.resolution import Resolution


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
