"""Exact odds of every Salvo! step that rolls, from the steps' own resolvers.

Every Salvo! table is read by a roll's total (plus modifiers), never by which die showed
what, so each roll is walked once per total (``by_total``: 16 runs for 3d6, not 216), the
follow-up rolls (plunging fire, torpedo damage) the same way, each total weighted by its
chance. The resolvers and tables are the very ones that resolve a roll; the tests compare
every step with the walk of every face.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ...engine.distribution import walk_step
from ...engine.resolution import Resolution
from . import steps

Odds = list[tuple[dict[str, Any], Fraction]]


def by_total(resolve: Callable[[Any, Resolution], dict[str, Any]]) -> Callable[[Any], Odds]:
    """The exact odds of a step whose rules read each roll by its total."""

    def odds(inputs: Any) -> Odds:
        return walk_step(resolve, inputs)

    odds.__name__ = f"{resolve.__name__}_odds"
    odds.__doc__ = f"The exact odds of ``steps.{resolve.__name__}``, one run per total."
    return odds


weather_odds = by_total(steps.weather)
initial_range_odds = by_total(steps.initial_range)
initiative_odds = by_total(steps.initiative)
enemy_action_odds = by_total(steps.enemy_action)
fire_odds = by_total(steps.fire)
straddle_odds = by_total(steps.straddle)
special_damage_odds = by_total(steps.special_damage)
critical_odds = by_total(steps.critical)
torpedo_odds = by_total(steps.torpedo)
end_of_turn_odds = by_total(steps.end_of_turn)
