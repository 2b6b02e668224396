"""Exact odds of dreadnought gunnery and torpedoes, from the steps' own rules functions.

A gun throw is 2D8 and a gunner die; a torpedo's 2D6 and a gunner die. ``steps.judge``
reads three faces only through their total, the damage of the throw's kind and their
pairs (``steps.faces_of``), so a throw's odds are the classes of its faces by that summary
(``face_classes``: a few dozen against 640 throws, worked out once per kind of dice)
pushed through ``judge``. A throw that goes to the Critical Hits table is followed by that
table's own rolls (two turrets, blow up, rudder) as a sub-distribution, walked through the
very ``resolve_critical`` the step uses, once per distinct throw. The critical and rudder
steps are single D6 rolls, walked through their resolvers. The odds of a whole turn
(``turn_odds.py``) combine the same throws.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from ...engine.distribution import apply_to_ways, by_face, walk_step
from ...engine.resolution import Resolution, in_force
from . import tables as t
from .ships import Ship
from .steps import (
    CriticalInput,
    FaceSummary,
    FireInput,
    Plan,
    RudderInput,
    TorpedoInput,
    critical,
    faces_of,
    fire_plan,
    judge,
    resolve_critical,
    rudder,
    throw_outcome,
    torpedo_plan,
)

Odds = list[tuple[dict[str, Any], Fraction]]


def critical_table_odds(target: Ship, throw: str, label: str) -> Odds:
    """The Critical Hits table's results for this throw against this ship, with its rolls."""

    def resolve(_: None, res: Resolution) -> dict[str, Any]:
        return dict(resolve_critical(target, throw, res, label))

    return walk_step(resolve, None, by_face)


@lru_cache(maxsize=64)
def face_classes(sides: tuple[int, ...], kind: str) -> tuple[tuple[FaceSummary, int], ...]:
    """The throws of dice of these ``sides``, by what a throw of damage ``kind`` is judged by
    (``steps.faces_of``), each with its number of ways out of the product of the sides: a
    few dozen classes for the 640 throws of 2D8 and a D10."""
    return tuple(apply_to_ways(sides, lambda values: faces_of(kind, values)).items())


def throw_ways(plan: Plan[Any], dice: tuple[int, int]) -> dict[tuple[bool, int, str | None], int]:
    """``steps.judge`` of every class of faces of a planned throw, the ways added up (out of
    the product of the sides)."""
    throw = plan.throw
    assert throw is not None
    count, sides = dice
    ways: dict[tuple[bool, int, str | None], int] = {}
    for summary, n in face_classes((*([sides] * count), plan.gunner), throw.damage_kind):
        key = judge(throw, summary)
        ways[key] = ways.get(key, 0) + n
    return ways


def plan_odds(plan: Plan[Any], dice: tuple[int, int]) -> Odds:
    """Every result of a planned throw of ``dice`` (count, sides) and a gunner die."""
    throw = plan.throw
    if throw is None:
        return [(plan.head, Fraction(1))]
    count, sides = dice
    throws = sides**count * plan.gunner
    effects = {key: Fraction(n, throws) for key, n in throw_ways(plan, dice).items()}
    criticals: dict[str, Odds] = {}
    odds: Odds = []
    for (hit, points, critical_throw), p in effects.items():
        if critical_throw is None:
            odds.append(({**plan.head, **throw_outcome(hit, points, None)}, p))
            continue
        if critical_throw not in criticals:
            label = f"{throw.prefix}critical"
            criticals[critical_throw] = critical_table_odds(throw.target, critical_throw, label)
        for result, q in criticals[critical_throw]:
            odds.append(({**plan.head, **throw_outcome(hit, points, result)}, p * q))
    return odds


def fire_odds(inp: FireInput) -> Odds:
    """Every result of a gun attack with its chance; refused exactly as the step refuses."""
    return plan_odds(fire_plan(inp, in_force()), t.TO_HIT_DICE)


def torpedo_odds(inp: TorpedoInput) -> Odds:
    """Every result of a torpedo attack with its chance (no dice out of range)."""
    return plan_odds(torpedo_plan(inp, in_force()), t.TORPEDO_DICE)


def critical_odds(inp: CriticalInput) -> Odds:
    """The critical step's results: its D6 rolls walked through the step itself."""
    return walk_step(critical, inp, by_face)


def rudder_odds(inp: RudderInput) -> Odds:
    """The rudder repair roll walked through the step itself."""
    return walk_step(rudder, inp, by_face)
