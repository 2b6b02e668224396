"""The work one request may do: one budget per request, drawn on wherever work grows.

Every loop whose length grows with what a caller sends (the exact odds of a notation, its
face tables and explosion chains, a walk of dice outcomes, the heat map's search, a game
log's checks, a body's scan) charges the request's budget before it does the work, in
units of about 0.1 us of CPU (measured on the development machine: docs/performance.md,
*Work budget*). The HTTP layer opens one budget for every request (``open_budget``), so a
code path cannot forget it: each charge reads the budget in force (``current``).

Where the size of the work is known before it starts (a notation's odds are planned from
the dice alone), the whole of it is charged first (``afford``) and a request that asks too
much is refused before any of it is done: the refusal costs almost nothing. Elsewhere each
piece is charged as it comes, so what is done before a refusal is bounded by the budget.

A refusal is a ``LimitError`` (a 422 ``limit`` problem) naming the budget, what ran out
of it and what the caller can change.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .errors import LimitError

# About 40 ms of CPU: with the request's own handling (reading, checking, signing and
# writing the answer) every answer stays within 50 ms of CPU.
REQUEST_WORK = 400_000
UNIT_US = 0.1  # what one unit of work costs, about, in microseconds of CPU
REQUEST_MS = round(REQUEST_WORK * UNIT_US / 1000)


class Budget:
    """What is left of one request's work, in units."""

    __slots__ = ("limit", "spent")

    def __init__(self, limit: int = REQUEST_WORK) -> None:
        self.limit = limit
        self.spent = 0

    @property
    def left(self) -> int:
        return self.limit - self.spent

    def afford(self, units: int, what: str, change: str, field: str | None = None) -> None:
        """Refuse now if ``units`` more would pass the budget (nothing is spent)."""
        if units > self.limit - self.spent:
            raise LimitError(
                f"{what} would take more work than one request may do (about "
                f"{_ms(self.spent + units)} ms of CPU or more, where a request's work budget "
                f"is {_ms(self.limit)} ms); {change}",
                field=field,
            )

    def charge(self, units: int, what: str, change: str, field: str | None = None) -> None:
        """Spend ``units`` on work about to be done, refusing first if they are not there."""
        self.afford(units, what, change, field)
        self.spent += units

    def allow(self, limit: int) -> None:
        """Give this request a larger budget than the default (a route with an allowance
        of its own: the Salvo! advisor, the verify of a whole game)."""
        self.limit = max(self.limit, limit)


def _ms(units: int) -> str:
    ms = units * UNIT_US / 1000
    return f"{ms:,.0f}" if ms >= 10 else f"{ms:.1f}"


_CURRENT: ContextVar[Budget | None] = ContextVar("fire_control_budget", default=None)
# Outside a request and outside any scope (a test's brute-force oracle, a tool), work is
# not bounded: every request has a budget of its own (service/http/middleware/budget.py).
NO_LIMIT = 1 << 62
_UNBOUNDED = Budget(NO_LIMIT)


def current() -> Budget:
    """The budget in force: the request's, or a scope's; outside both, no bound."""
    budget = _CURRENT.get()
    return _UNBOUNDED if budget is None else budget


@contextmanager
def scope(limit: int = REQUEST_WORK) -> Iterator[Budget]:
    """The budget in force, or a new one of ``limit`` units for the calls inside (a test
    or a tool that wants a request's bound outside a request)."""
    budget = _CURRENT.get()
    if budget is not None:
        yield budget
        return
    budget = Budget(limit)
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


def open_budget(limit: int = REQUEST_WORK) -> object:
    """Open a fresh budget for a request; pass what it returns to ``close_budget``."""
    return _CURRENT.set(Budget(limit))


def close_budget(token: object) -> None:
    _CURRENT.reset(token)  # type: ignore[arg-type]
