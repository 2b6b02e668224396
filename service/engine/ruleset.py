"""What a ruleset is: its steps, tables, ships and rulings, and how a step is run."""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Any

from .dice import DiceSource, enumerate_outcomes
from .resolution import Resolution

Resolver = Callable[[Any, Resolution], dict[str, Any]]
# For a step whose dice tree is too big to walk branch by branch: the exact (result,
# probability) pairs for these inputs, computed from the same rules functions the step uses.
ExactOdds = Callable[[Any], Iterable[tuple[dict[str, Any], Fraction]]]


@dataclass(frozen=True)
class Ruling:
    """A decision where the rule text is silent or contradicts itself."""

    id: str
    question: str
    ruling: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {
            "id": self.id,
            "question": self.question,
            "ruling": self.ruling,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Step:
    """One resolution step: one endpoint, one engine function."""

    name: str
    summary: str
    description: str
    dice: str
    resolve: Resolver
    odds: bool = False
    exact_odds: ExactOdds | None = None

    def as_dict(self, ruleset: str) -> dict[str, Any]:
        path = f"/v1/rulesets/{ruleset}/{self.name}"
        return {
            "name": self.name,
            "summary": self.summary,
            "dice": self.dice,
            "path": path,
            "odds_path": f"{path}/odds" if self.odds else None,
        }


@dataclass(frozen=True)
class Ruleset:
    """Everything one ruleset offers, as data and functions."""

    id: str
    title: str
    source: str
    description: str
    steps: Sequence[Step]
    tables: Mapping[str, Any]
    ships: Sequence[Mapping[str, Any]]
    rulings: Sequence[Ruling] = field(default_factory=tuple)

    def step(self, name: str) -> Step:
        for step in self.steps:
            if step.name == name:
                return step
        raise KeyError(name)

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "source": self.source,
            "steps": [step.name for step in self.steps],
        }

    def detail(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "source": self.source,
            "description": self.description,
            "steps": [step.as_dict(self.id) for step in self.steps],
            "rulings": [ruling.as_dict() for ruling in self.rulings],
        }


def run_step(ruleset: str | None, step: Step, inputs: Any, dice: DiceSource) -> dict[str, Any]:
    """Resolve one step with the given dice and return the response envelope."""
    resolution = Resolution(dice)
    result = step.resolve(inputs, resolution)
    return resolution.envelope(ruleset, step.name, result)


def _key(result: dict[str, Any]) -> Hashable:
    return json.dumps(result, sort_keys=True)


def step_odds(ruleset: str, step: Step, inputs: Any) -> dict[str, Any]:
    """The exact distribution of a step's results, from the step's own code."""

    def play(dice: DiceSource) -> Hashable:
        return _key(step.resolve(inputs, Resolution(dice)))

    if step.exact_odds is None:
        distribution = enumerate_outcomes(play)
    else:
        distribution = {}
        for result, probability in step.exact_odds(inputs):
            key = _key(result)
            distribution[key] = distribution.get(key, Fraction(0)) + probability
    # Most likely first, ties by result: chances compared as integers over one common
    # denominator (exact, and cheaper than comparing fractions).
    common = lcm(*(p.denominator for p in distribution.values()))
    outcomes = sorted(
        distribution.items(),
        key=lambda item: (-item[1].numerator * (common // item[1].denominator), str(item[0])),
    )
    return {
        "ruleset": ruleset,
        "step": step.name,
        "outcomes": [
            {
                "result": json.loads(str(key)),
                "probability": f"{p.numerator}/{p.denominator}",
                "p": float(p),
            }
            for key, p in outcomes
        ],
    }
