"""The trail of one resolution: every roll, every modifier, every comparison."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .dice import DiceSource, Roll


@dataclass(frozen=True)
class Modifier:
    """One modifier to a roll, named by where it comes from in the rules."""

    source: str
    value: int

    def as_dict(self) -> dict[str, Any]:
        return {"source": self.source, "value": self.value}


class Resolution:
    """Hands out dice for one step and records what was done with them."""

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice
        self.rolls: list[Roll] = []
        self.checks: list[dict[str, Any]] = []

    def roll(self, label: str, count: int, sides: int) -> Roll:
        roll = self.dice.draw(label, count, sides)
        self.rolls.append(roll)
        return roll

    def check(
        self,
        roll: str,
        natural: int,
        modifiers: Iterable[Modifier],
        compared_with: str,
        outcome: str,
    ) -> int:
        """Record how a roll total was modified and what it was compared with."""
        applied = [m for m in modifiers if m.value != 0]
        total = natural + sum(m.value for m in applied)
        self.checks.append(
            {
                "roll": roll,
                "natural": natural,
                "applied": [m.as_dict() for m in applied],
                "final": total,
                "compared_with": compared_with,
                "outcome": outcome,
            }
        )
        return total

    def envelope(self, ruleset: str | None, step: str, result: dict[str, Any]) -> dict[str, Any]:
        self.dice.finish()
        return {
            "ruleset": ruleset,
            "step": step,
            "result": result,
            "rolls": [roll.as_dict() for roll in self.rolls],
            "modifiers": self.checks,
            "dice": self.dice.describe(),
        }
