"""Exact odds of dreadnought gunnery and torpedoes, from the steps' own rules functions.

A gun throw is 2D8 and a gunner die; a torpedo's 2D6 and a gunner die. ``throw_effect``
judges the three faces by their sum, their sorted order and their pairs only, so the
throw's odds are the distribution of the multiset of its faces (``multisets``: at most
220 of them against 640 throws) pushed through ``throw_effect``. A throw that goes to the
Critical Hits table is followed by that table's own rolls (two turrets, blow up, rudder)
as a sub-distribution, walked through the very ``resolve_critical`` the step uses, once
per distinct throw. The critical and rudder steps are single D6 rolls, walked through
their resolvers.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...engine.distribution import apply_to_multisets, by_face, walk_step
from ...engine.resolution import Resolution, in_force
from . import tables as t
from .ships import Ship
from .steps import (
    CriticalInput,
    FireInput,
    Plan,
    RudderInput,
    TorpedoInput,
    critical,
    fire_plan,
    resolve_critical,
    rudder,
    throw_effect,
    throw_outcome,
    torpedo_plan,
)

Odds = list[tuple[dict[str, Any], Fraction]]


def critical_table_odds(target: Ship, throw: str, label: str) -> Odds:
    """The Critical Hits table's results for this throw against this ship, with its rolls."""

    def resolve(_: None, res: Resolution) -> dict[str, Any]:
        return dict(resolve_critical(target, throw, res, label))

    return walk_step(resolve, None, by_face)


def plan_odds(plan: Plan[Any], dice: tuple[int, int]) -> Odds:
    """Every result of a planned throw of ``dice`` (count, sides) and a gunner die."""
    throw = plan.throw
    if throw is None:
        return [(plan.head, Fraction(1))]
    count, sides = dice
    faces = (*([sides] * count), plan.gunner)
    effects = apply_to_multisets(faces, lambda values: throw_effect(throw, values))
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
