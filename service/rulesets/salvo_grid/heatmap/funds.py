"""The request's budget as the heat map spends it (``_Funds``), and each part's units.

The search counts its own work (places looked at, ``NODE_COST`` a node); the request's
budget (service/engine/budget.py) is in units of about 0.1 us of CPU. Each part of the
search turns its work into units by its own factor, measured on the development machine
(bench/heatmap_views.py; docs/performance.md): its CPU per piece of work at the upper end
of what heavy views showed, so that the units charged are at least the CPU spent. The
samplers' were timed again with the whole worst-case table on a quiet machine
(bench/worst_case.py prints each case's units beside its CPU): the dearest views, drawn
to the budget's end, ran to 50 ms now and then, so their factors are 1.15 times the first.
"""

from __future__ import annotations

import math

from ....engine.budget import Budget
from .limits import CHECK_COST

EXACT_UNITS = 2.3  # the exact count, per place looked at


PROBE_UNITS = 4.5  # the probes, per piece of their declared work (PROBE_COST a path)


LIST_UNITS = 2.0  # the listing of the ways, per piece of its work


PRODUCT_UNITS = 1.9  # the counting of exact draws and their trials


BITS_UNITS = 2.0  # the bitsets of a problem, per place


COUNTED_COST = 20  # counting a way that leaves at most one ship free, in listing work


SAMPLE_UNITS = {"stratified": 2.2, "exact": 1.2, "tree": 1.7}  # a sampler's, per place


ENUMERATE_UNITS = 2.0  # counting every layout down the product's states, per piece of work


OVER = 2 * CHECK_COST + 2_000  # how far past its ``most`` a sampler's work can go


ROOM = 1.5  # a listing is begun when the budget leaves it this many times its foreseen work


ANSWER = 20_000  # units kept for the answer: the heat's rows, the best squares, a draw over


WHAT = "the heat map's search"


CHANGE = "tell the heat map less at once, or fire more shots first"


class _Funds:
    """The request's budget as the heat map draws on it: each part of the search is given
    at most what is left (less what is kept for the answer, and less how far past its limit
    it can go), in its own work at its own factor, and what it did is charged once it has
    done it: so the charge never finds the budget short, and a search that would pass the
    budget is stopped by its own limit (an answer sampled, or the search's refusal)."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget

    def allow(self, work: int, per: float, keep: int = 0) -> int:
        """``work``, or less if the budget left (less ``ANSWER`` and ``keep`` units) is less."""
        return max(0, min(work, int((self.budget.left - ANSWER - keep) / per)))

    def spend(self, work: float, per: float) -> None:
        self.budget.charge(math.ceil(work * per), WHAT, CHANGE)

    def kept(self, work: int, share: int) -> int:
        """The units the sampler keeps while the ways are listed or counted: ``work`` over
        ``share`` (at the exact draws' factor)."""
        return math.ceil(work // share * SAMPLE_UNITS["exact"])
