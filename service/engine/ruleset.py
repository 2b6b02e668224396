"""What a ruleset is: its steps, tables, ships and rulings, and how a step is run."""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import lcm
from typing import Annotated, Any

from . import shape
from .catalog import RulesetDetail, RulesetSummary, StepInfo
from .dice import DiceSource, enumerate_outcomes
from .resolution import Resolution, readings_in_force, register_defaults
from .typed import Doc

# A step's result: a TypedDict of its ruleset's results.py (a dict at run time).
Resolver = Callable[[Any, Resolution], Mapping[str, Any]]
# For a step whose dice tree is too big to walk branch by branch: the exact (result,
# probability) pairs for these inputs, computed from the same rules functions the step uses.
ExactOdds = Callable[[Any], Iterable[tuple[Mapping[str, Any], Fraction]]]


@dataclass(frozen=True)
class NoInput:
    """The input of a step that needs nothing but dice (any ruleset's)."""


@dataclass(frozen=True, kw_only=True)
class Reading:
    """One fair reading of a contested ruling, which a request may choose under ``rules``: a
    shape (engine/shape.py), written into the catalog by ``to_json``.

    ``wording_supports``: the rule text's own words lean this way (docs/rulings.md says so);
    a ruling may have no such reading (the words settle nothing) or more than one.
    """

    id: Annotated[str, Doc(example="pre-dreadnought-only")]
    text: str
    default: Annotated[bool, Doc("In force when a request does not choose")] = False
    wording_supports: Annotated[bool, Doc("The rule text's own words lean to this reading")] = False


@dataclass(frozen=True, kw_only=True)
class Ruling:
    """A decision where the rule text is silent or contradicts itself: a shape
    (engine/shape.py), written into the catalog by ``to_json``.

    A ruling a player could fairly read another way declares its ``readings`` (exactly one of
    them the default, today's behaviour); step code asks ``res.reading(id)`` which one is in
    force. ``wording`` says, in a sentence, which reading the text's own words support.
    ``default_reading`` is worked out from the readings (one given must be that one).
    """

    id: str
    question: str
    ruling: Annotated[str, Doc("The default reading")]
    reason: str
    readings: Annotated[
        tuple[Reading, ...],
        Doc(
            "The fair readings a request may choose under `rules` (ruling id to reading id); "
            "empty for a ruling the service reads one way only"
        ),
    ] = ()
    default_reading: Annotated[
        str | None, Doc("The reading in force unless a request chooses; null if none")
    ] = None
    wording: Annotated[
        str | None,
        Doc(
            "Which reading the rule text's wording supports, and why; null for a ruling "
            "without readings"
        ),
    ] = None

    def __post_init__(self) -> None:
        default = next((r.id for r in self.readings if r.default), None)
        if self.default_reading not in (None, default):
            raise ValueError(f"ruling {self.id!r}: its default reading is {default!r}")
        object.__setattr__(self, "default_reading", default)
        object.__setattr__(self, "wording", self.wording or None)
        if not self.readings:
            return
        ids = [reading.id for reading in self.readings]
        defaults = [reading.id for reading in self.readings if reading.default]
        if len(ids) < 2 or len(set(ids)) != len(ids) or len(defaults) != 1:
            raise ValueError(
                f"ruling {self.id!r}: readings need two or more distinct ids and exactly one "
                f"default, not {ids} with defaults {defaults}"
            )

    @property
    def default(self) -> str | None:
        return self.default_reading


@dataclass(frozen=True, kw_only=True)
class Step:
    """One resolution step: one endpoint, one engine function."""

    name: str
    summary: str
    description: str
    dice: str
    resolve: Resolver
    odds: bool = False
    exact_odds: ExactOdds | None = None
    # Where it is served under its ruleset, when not at its name: the odds of a whole turn,
    # a step of its own (seeded games where it cannot be exact), sit at ``turn/odds``.
    path: str | None = None

    @property
    def route(self) -> str:
        """The step's path under ``/v1/rulesets/<id>/``."""
        return self.path or self.name

    def info(self, ruleset: str) -> StepInfo:
        """The step as the catalog lists it, under ``ruleset``."""
        path = f"/v1/rulesets/{ruleset}/{self.route}"
        return {
            "name": self.name,
            "summary": self.summary,
            "dice": self.dice,
            "path": path,
            "odds_path": f"{path}/odds" if self.odds else None,
        }


@dataclass(frozen=True)
class Ruleset:
    """Everything one ruleset offers, as data and functions: a small ruleset may have no
    tables, no ships and no rulings. Its rulings' ids are its own: another ruleset may use
    the same id with another default."""

    id: str
    title: str
    source: str
    description: str
    steps: Sequence[Step]
    tables: Mapping[str, Any] = field(default_factory=dict)
    ships: Sequence[Mapping[str, Any]] = field(default_factory=tuple)
    rulings: Sequence[Ruling] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        for kind, names in (
            ("step", [step.name for step in self.steps]),
            ("ruling", [ruling.id for ruling in self.rulings]),
        ):
            twice = sorted({name for name in names if names.count(name) > 1})
            if twice:
                raise ValueError(f"ruleset {self.id!r}: two {kind}s named {twice}")
        if not self.steps:
            raise ValueError(f"ruleset {self.id!r} has no step")
        register_defaults(self.id, self._defaults)

    @cached_property
    def optional(self) -> tuple[Ruling, ...]:
        """The rulings a request may read another way (those that declare readings)."""
        return tuple(ruling for ruling in self.rulings if ruling.readings)

    @cached_property
    def _defaults(self) -> dict[str, str]:
        return {ruling.id: str(ruling.default) for ruling in self.optional}

    def readings_in_force(self, chosen: Mapping[str, str] | None = None) -> dict[str, str]:
        """Every ruling with readings to the reading in force: ``chosen``, else the default.

        ``chosen`` is already validated (the HTTP layer's rules schema); the answer echoes
        this whole mapping, defaults included, so a signed answer names every rule it used.
        """
        return {**self._defaults, **chosen} if chosen else dict(self._defaults)

    def step(self, name: str) -> Step:
        for step in self.steps:
            if step.name == name:
                return step
        raise KeyError(name)

    def summary(self) -> RulesetSummary:
        return {
            "id": self.id,
            "title": self.title,
            "source": self.source,
            "steps": [step.name for step in self.steps],
        }

    def detail(self) -> RulesetDetail:
        return {
            "id": self.id,
            "title": self.title,
            "source": self.source,
            "description": self.description,
            "steps": [step.info(self.id) for step in self.steps],
            "rulings": [shape.to_json(ruling) for ruling in self.rulings],
        }


def run_step(
    ruleset: str | None,
    step: Step,
    inputs: Any,
    dice: DiceSource,
    rules: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Resolve one step with the given dice and return the response envelope.

    ``rules``: the readings in force (``Ruleset.readings_in_force``), echoed in the answer
    under ``rules``; without it the defaults apply and the answer has no ``rules``.
    """
    with readings_in_force(rules, ruleset):
        resolution = Resolution(dice)
        result = step.resolve(inputs, resolution)
    envelope = resolution.envelope(ruleset, step.name, result)
    if rules is not None:
        envelope["rules"] = dict(rules)
    return envelope


def _key(result: Mapping[str, Any]) -> Hashable:
    return json.dumps(result, sort_keys=True)


def step_odds(
    ruleset: str | None, step: Step, inputs: Any, rules: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The exact distribution of a step's results, from the step's own code.

    ``rules`` are in force for every Resolution made while the odds are worked out (and for
    ``resolution.in_force()``); they are echoed in the answer when given.
    """

    def play(dice: DiceSource) -> Hashable:
        return _key(step.resolve(inputs, Resolution(dice)))

    with readings_in_force(rules, ruleset):
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
    answer: dict[str, Any] = {"ruleset": ruleset, "step": step.name}
    if rules is not None:
        answer["rules"] = dict(rules)
    return {
        **answer,
        "outcomes": [
            {
                "result": json.loads(str(key)),
                "probability": f"{p.numerator}/{p.denominator}",
                "p": float(p),
            }
            for key, p in outcomes
        ],
    }
