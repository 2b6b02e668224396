"""The trail of one resolution: every roll, every modifier, every comparison."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from . import shape
from .dice import DiceSource, Roll
from .envelope import Check

# --- rule options: the reading of each contested ruling in force -----------------------------

# The default readings of every ruleset made in this process, by ruleset id. A step run
# puts its own ruleset's readings in force (``Ruleset.readings_in_force``), so two rulesets
# may give one ruling id different defaults; these are what a Resolution made outside any
# run falls back to (a rules function called on its own), while the id names one default.
_DEFAULTS: dict[str, Mapping[str, str]] = {}


class _MadeTwice(dict[str, str]):
    """The defaults of a ruleset id that two Rulesets give differently: neither is the id's,
    so a run under that id alone reads none of them (each Ruleset's own readings in force,
    ``Ruleset.readings_in_force``, still say every one). Never the last one made."""

    def __init__(self, ruleset: str) -> None:
        super().__init__()
        self.ruleset = ruleset

    def get(self, ruling: str, default: object = None) -> Any:
        raise KeyError(
            f"two rulesets of id {self.ruleset!r} give their rulings different defaults: "
            f"resolve {ruling!r} under its ruleset's readings (Ruleset.readings_in_force)"
        )


def register_defaults(ruleset: str, defaults: Mapping[str, str]) -> None:
    """Record the default reading of each of a ruleset's rulings with readings. A second
    ruleset of the same id with other defaults replaces neither's (``_MadeTwice``)."""
    found = _DEFAULTS.get(ruleset)
    if found is None:
        _DEFAULTS[ruleset] = dict(defaults)
    elif isinstance(found, _MadeTwice) or found != dict(defaults):
        _DEFAULTS[ruleset] = _MadeTwice(ruleset)


def default_reading(ruling: str) -> str:
    """The default of ``ruling`` outside any run: the one every ruleset declaring it gives."""
    found = {
        ruleset: defaults[ruling] for ruleset, defaults in _DEFAULTS.items() if ruling in defaults
    }
    if not found:
        raise KeyError(f"no ruling {ruling!r} declares readings")
    if len(set(found.values())) > 1:
        raise KeyError(
            f"ruling {ruling!r} has different defaults in rulesets {sorted(found)}: resolve "
            "it under its ruleset's readings (Ruleset.readings_in_force)"
        )
    return next(iter(found.values()))


class Readings:
    """The readings a request chose (ruling id to reading id); the rest are the defaults of
    ``ruleset`` (when it is known, else what ``default_reading`` finds)."""

    __slots__ = ("chosen", "defaults")

    def __init__(self, chosen: Mapping[str, str] | None = None, ruleset: str | None = None) -> None:
        self.chosen: Mapping[str, str] = chosen or {}
        self.defaults: Mapping[str, str] = _DEFAULTS.get(ruleset, {}) if ruleset else {}

    def reading(self, ruling: str) -> str:
        """The reading of ``ruling`` in force (a ruling that declares no readings is a bug)."""
        found = self.chosen.get(ruling) or self.defaults.get(ruling)
        return default_reading(ruling) if found is None else found


_DEFAULT_READINGS = Readings()
_IN_FORCE: ContextVar[Readings | None] = ContextVar("readings_in_force", default=None)


def in_force() -> Readings:
    """The readings in force where no Resolution is at hand (exact odds of a step)."""
    return _IN_FORCE.get() or _DEFAULT_READINGS


class readings_in_force:  # noqa: N801 - used as a function: ``with readings_in_force(x):``
    """Make ``chosen`` the readings of every Resolution made inside (the odds' own walks),
    with ``ruleset``'s defaults for the rest.

    A class, not a ``@contextmanager`` generator: it runs on every request (about 1 us
    against 3 for the generator).
    """

    __slots__ = ("readings", "_token")

    def __init__(self, chosen: Mapping[str, str] | None, ruleset: str | None = None) -> None:
        self.readings = Readings(chosen, ruleset)

    def __enter__(self) -> Readings:
        self._token = _IN_FORCE.set(self.readings)
        return self.readings

    def __exit__(self, *_: object) -> None:
        _IN_FORCE.reset(self._token)


@dataclass(frozen=True)
class Modifier:
    """One modifier to a roll, named by where it comes from in the rules: a shape
    (engine/shape.py), written into a check's ``applied`` by ``to_json``."""

    source: str
    value: int


_APPLIED = shape.printer(Modifier)  # a modifier as a check's ``applied`` lists it


class Resolution:
    """Hands out dice for one step and records what was done with them."""

    def __init__(self, dice: DiceSource, readings: Mapping[str, str] | None = None) -> None:
        self.dice = dice
        self.readings = in_force() if readings is None else Readings(readings)
        self.rolls: list[Roll] = []
        self.checks: list[Check] = []

    def reading(self, ruling: str) -> str:
        """The reading of ``ruling`` in force: the request's choice, else the default."""
        return self.readings.reading(ruling)

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
        applied = []  # the modifiers that change the total, in one pass (a check per roll)
        total = natural
        for modifier in modifiers:
            if modifier.value != 0:
                applied.append(_APPLIED(modifier))
                total += modifier.value
        self.checks.append(
            {
                "roll": roll,
                "natural": natural,
                "applied": applied,
                "final": total,
                "compared_with": compared_with,
                "outcome": outcome,
            }
        )
        return total

    def envelope(self, ruleset: str | None, step: str, result: Mapping[str, Any]) -> dict[str, Any]:
        self.dice.finish()
        # An ``Envelope`` (engine/envelope.py), with the step's result after its step.
        return {
            "ruleset": ruleset,
            "step": step,
            "result": result,
            "rolls": [roll.as_dict() for roll in self.rolls],
            "modifiers": self.checks,
            "dice": self.dice.describe(),
        }
