"""Exact distributions over dice, as ``{value: Fraction}``, for the ``/odds`` answers.

Walking every face of every die through a step costs one full resolution per branch
(2D8 and a D10 are 640 branches). Most rules cannot tell many of those branches apart: a
table read by the total of 3d6 sees 16 totals, not 216 throws; a rule that looks at three
dice only through their sum, their sorted order and their pairs sees the multiset of the
faces. So the odds here are built from

* the distribution of a roll's total (``sums``) or of its multiset of faces
  (``multisets``), counted once per shape of dice and kept;
* ``apply``: a rule function pushed through a distribution (outcomes it maps to the same
  value are added up);
* ``bind``: a follow-up roll, a sub-distribution per outcome;
* ``combine`` and ``repeat``: independent parts added up (a pool of dice, one by one);
* ``walk``: a step's own resolver run once per class of each roll (every total of 3d6,
  say), each class weighted by its chance, the follow-up rolls walked the same way.

The weights are exact fractions throughout; where many are added (``repeat``) they are
kept as integers over one denominator and turned into fractions at the end.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Hashable, Iterable, Mapping
from fractions import Fraction
from functools import lru_cache
from math import prod
from typing import Any, TypeVar

from . import budget as work
from .dice import BRANCH_UNITS, FEWER, WALK, DiceSource, Roll
from .errors import LimitError
from .resolution import Resolution

K = TypeVar("K", bound=Hashable)
V = TypeVar("V", bound=Hashable)
S = TypeVar("S", bound=Hashable)

Distribution = dict[Any, Fraction]
PAIR_UNITS = 5  # a (state, value) pair of ``repeat``'s fold, in budget units
FOLD = "adding up the odds of these dice"
ONE = Fraction(1)


def certain(value: K) -> dict[K, Fraction]:
    """A value that happens for sure."""
    return {value: ONE}


def uniform(sides: int) -> dict[int, Fraction]:
    """One die: every face 1..sides equally likely."""
    chance = Fraction(1, sides)
    return dict.fromkeys(range(1, sides + 1), chance)


@lru_cache(maxsize=64)
def _sum_ways(count: int, sides: int) -> tuple[tuple[int, int], ...]:
    ways = {0: 1}
    for _ in range(count):
        following: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, sides + 1):
                following[total + face] = following.get(total + face, 0) + n
        ways = following
    return tuple(sorted(ways.items()))


def sums(count: int, sides: int) -> dict[int, Fraction]:
    """The total of ``count`` dice of ``sides`` sides (convolution of the faces)."""
    throws = sides**count
    return {total: Fraction(n, throws) for total, n in _sum_ways(count, sides)}


@lru_cache(maxsize=64)
def _multiset_ways(sides: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    ways: dict[tuple[int, ...], int] = {(): 1}
    for die in sides:
        following: dict[tuple[int, ...], int] = {}
        for faces, n in ways.items():
            for face in range(1, die + 1):
                key = tuple(sorted((*faces, face)))
                following[key] = following.get(key, 0) + n
        ways = following
    return tuple(sorted(ways.items()))


def multisets(*sides: int) -> dict[tuple[int, ...], Fraction]:
    """The faces of dice rolled together, as a sorted tuple: how a rule sees them when it
    cannot tell which die showed what (sums, highest and lowest, pairs)."""
    throws = prod(sides)
    return {faces: Fraction(n, throws) for faces, n in _multiset_ways(tuple(sides))}


def apply_to_ways(sides: tuple[int, ...], rule: Callable[[tuple[int, ...]], V]) -> dict[V, int]:
    """``rule`` over the multisets of the faces, with the number of ways of each value out of
    the product of the sides (integers: a caller that goes on counting keeps them so)."""
    ways: dict[V, int] = {}
    for faces, n in _multiset_ways(sides):
        key = rule(faces)
        ways[key] = ways.get(key, 0) + n
    return ways


def apply_to_multisets(
    sides: tuple[int, ...], rule: Callable[[tuple[int, ...]], V]
) -> dict[V, Fraction]:
    """``apply(multisets(*sides), rule)``, the ways counted as integers until the end."""
    throws = prod(sides)
    return {key: Fraction(n, throws) for key, n in apply_to_ways(sides, rule).items()}


def apply(distribution: Mapping[K, Fraction], rule: Callable[[K], V]) -> dict[V, Fraction]:
    """The distribution of ``rule(value)``: outcomes the rule cannot tell apart, added up."""
    out: dict[V, Fraction] = {}
    for value, p in distribution.items():
        key = rule(value)
        out[key] = out.get(key, 0) + p
    return out


def bind(
    distribution: Mapping[K, Fraction], follow: Callable[[K], Mapping[V, Fraction]]
) -> dict[V, Fraction]:
    """Each outcome followed by a roll of its own: the mixture of the sub-distributions."""
    out: dict[V, Fraction] = {}
    for value, p in distribution.items():
        for after, q in follow(value).items():
            out[after] = out.get(after, 0) + p * q
    return out


def combine(
    first: Mapping[K, Fraction],
    second: Mapping[V, Fraction],
    rule: Callable[[K, V], S],
) -> dict[S, Fraction]:
    """Two independent parts put together by ``rule`` (a convolution when it adds)."""
    out: dict[S, Fraction] = {}
    for a, p in first.items():
        for b, q in second.items():
            key = rule(a, b)
            out[key] = out.get(key, 0) + p * q
    return out


def repeat(
    start: K,
    step: Mapping[V, Fraction],
    times: int,
    rule: Callable[[K, V], K],
) -> dict[K, Fraction]:
    """``times`` independent draws of ``step`` folded into ``start`` by ``rule``.

    The chances are kept as integers over one common denominator while they are added up
    (an integer sum is many times cheaper than a fraction's), then made fractions.
    Each draw's (state, value) pairs are charged to the request's budget before they are
    folded.
    """
    denominator = 1
    for p in step.values():
        denominator = denominator * p.denominator // _gcd(denominator, p.denominator)
    weights = [(value, int(p * denominator)) for value, p in step.items()]
    states: dict[K, int] = {start: 1}
    budget = work.current()
    for _ in range(times):
        budget.charge(len(states) * len(weights) * PAIR_UNITS, FOLD, FEWER)
        following: dict[K, int] = {}
        for state, n in states.items():
            for value, w in weights:
                key = rule(state, value)
                following[key] = following.get(key, 0) + n * w
        states = following
    total = denominator**times
    return {state: Fraction(n, total) for state, n in states.items()}


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


# --- a step's own resolver, one run per class of each roll ---------------------------------

# The classes of one roll of ``count`` dice of ``sides`` sides: a representative throw for
# each class and the class's chance. The step sees the representative; every throw of the
# class must give it the same result (the tests compare with the walk of every face).
Classes = Callable[[int, int], tuple[tuple[tuple[int, ...], Fraction], ...]]


@lru_cache(maxsize=64)
def by_total(count: int, sides: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """One class per total: for a rule that reads only the roll's total."""
    classes = []
    for total, p in sums(count, sides).items():
        # the lowest faces first: (1, ..., 1, rest) with rest spread from the last die back
        faces = [1] * count
        left = total - count
        for i in range(count - 1, -1, -1):
            faces[i] += min(left, sides - 1)
            left -= faces[i] - 1
        classes.append((tuple(faces), p))
    return tuple(classes)


@lru_cache(maxsize=64)
def by_face(count: int, sides: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every throw its own class: the walk of every face."""
    chance = Fraction(1, sides**count)
    faces = range(1, sides + 1)
    return tuple((throw, chance) for throw in itertools.product(faces, repeat=count))


class _ClassDice(DiceSource):
    """Plays one branch of the tree of classes: a fixed prefix of choices, then the first."""

    def __init__(self, prefix: list[int], classes: Classes) -> None:
        self.prefix = prefix
        self.classes = classes
        self.choices: list[int] = []
        self.chance = ONE

    def draw(self, label: str, count: int, sides: int) -> Roll:
        self.admit(label, count, sides)
        options = self.classes(count, sides)
        position = len(self.choices)
        index = self.prefix[position] if position < len(self.prefix) else 0
        self.choices.append(len(options))
        throw, p = options[index]
        self.chance *= p
        self.used += count
        return Roll(label, sides, throw)

    def describe(self) -> dict[str, Any]:
        return {"mode": "enumerated"}


def walk(
    play: Callable[[DiceSource], K], classes: Classes = by_total, *, limit: int | None = None
) -> dict[K, Fraction]:
    """Exact distribution of ``play``'s outcome, one run per class of every roll it makes.

    Like ``enumerate_outcomes`` (which is this walk with every face its own class) it runs
    the step's own code, depth first like an odometer over each roll's classes; with
    ``by_total`` a 3d6 roll is 16 runs, not 216. ``limit`` (by default the odds branch cap)
    bounds the runs.
    """
    from . import dice

    cap = dice.MAX_ODDS_BRANCHES if limit is None else limit
    out: dict[K, Fraction] = {}
    prefix: list[int] = []
    runs = 0
    budget = work.current()
    while True:
        runs += 1
        budget.charge(BRANCH_UNITS, WALK, FEWER)
        if runs > cap:
            raise LimitError(f"these inputs have more than {cap} dice outcomes to enumerate")
        source = _ClassDice(prefix, classes)
        key = play(source)
        out[key] = out.get(key, 0) + source.chance
        choices = prefix + [0] * (len(source.choices) - len(prefix))
        while choices and choices[-1] == source.choices[len(choices) - 1] - 1:
            choices.pop()
        if not choices:
            return out
        choices[-1] += 1
        prefix = choices


def total(distribution: Iterable[Fraction]) -> Fraction:
    """The sum of the chances (1 for a whole distribution)."""
    return sum(distribution, Fraction(0))


def walk_step(
    resolve: Callable[[Any, Resolution], Mapping[str, Any]],
    inputs: Any,
    classes: Classes = by_total,
) -> list[tuple[dict[str, Any], Fraction]]:
    """A step's results and their chances, from ``walk`` over the step's own resolver."""
    results: dict[str, dict[str, Any]] = {}

    def play(dice: DiceSource) -> str:
        result = resolve(inputs, Resolution(dice))
        key = json.dumps(result, sort_keys=True)
        results.setdefault(key, dict(result))
        return key

    return [(results[key], p) for key, p in walk(play, classes).items()]
