"""Errors the rules engine raises, each carrying a message a player understands."""

from __future__ import annotations


class RuleError(Exception):
    """A request the rules do not allow (HTTP 422).

    ``field`` names the request member at fault, as a dotted path, when there is one.
    """

    kind = "rule-violation"
    title = "The rules do not allow this"

    def __init__(self, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.field = field


class DiceError(RuleError):
    """Supplied dice that do not fit what the step rolls."""

    kind = "dice"
    title = "The supplied dice do not fit this step"

    def __init__(self, detail: str) -> None:
        super().__init__(detail, field="dice.values")


class LimitError(RuleError):
    """A request that would make unbounded work: it names the limit it crossed."""

    kind = "limit"
    title = "Request exceeds a documented limit"
