"""The heat map step and its answer: exact if the search fits, else sampled with a seed
from the dice (``heat``), within the request's budget; the heat then answered as rows of
probabilities and the best squares to fire (``answer``, ``heatmap``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated

from ....engine.budget import scope
from ....engine.resolution import Resolution
from ....engine.typed import Doc, Limits
from .. import tables as t
from ..fleet import Square, name, names, ship_name
from ..results import SalvoGridHeatmapResult
from ..salvo import View, open_squares
from .bits import _Bits
from .board import (
    GAME,
    Board,
    Count,
    Heat,
    SearchLimit,
    Told,
    ToldCount,
    _Budget,
    _impossible,
    _why_none,
)
from .funds import (
    BITS_UNITS,
    COUNTED_COST,
    ENUMERATE_UNITS,
    EXACT_UNITS,
    LIST_UNITS,
    OVER,
    PRODUCT_UNITS,
    SAMPLE_UNITS,
    _Funds,
)
from .limits import EXACT_WORK, GRACE, SEED_DICE, SEED_SIDES, WORK
from .product import COUNTABLE, TRIALS, TRIED_UNITS, _enumerated, _Product, _tried
from .samplers import _Plan, _plan, _sampled, left_over
from .told import problem
from .tree import _exact
from .ways import counted


def heat(
    told: Told,
    res: Resolution | None,
    board: Board = GAME,
    exact_work: int = EXACT_WORK,
    work: int = WORK,
    label: str = "heat map sampler seed",
) -> Heat:
    """Exact if the search fits its budget, or if every way of meeting what was told leaves
    at most one ship free; otherwise sampled with a seed from the dice (``label``'s roll)."""
    prob = problem(told, board)
    with scope() as budget:
        funds = _Funds(budget)
        found, spent = _exact(prob, funds.allow(exact_work, EXACT_UNITS))
        funds.spend(spent, EXACT_UNITS)
        if found is not None:
            return found
        bits = _Bits(prob)
        funds.spend(bits.cost, BITS_UNITS)
        # Counted down the product's states while the budget leaves the draws a third of
        # their work, unless the trial draws foresee too many layouts to count; else drawn
        # exactly from it.
        keep = funds.kept(work, 3)
        try:
            product: _Product | None = _Product(
                prob, bits, funds.allow(work, PRODUCT_UNITS, keep + TRIED_UNITS)
            )
        except _Budget as over:
            funds.spend(int(over.args[0]), PRODUCT_UNITS)
            product = None
        if product is not None:
            funds.spend(product.work, PRODUCT_UNITS)
            if not product.ways:
                raise _impossible(_why_none(prob), "view")
            tried, kept, spent = _tried(bits, product)
            funds.spend(spent, PRODUCT_UNITS)
            if product.ways * (kept + 1) <= COUNTABLE * (TRIALS + 1):
                # With too few trials kept to draw, half is kept for listing the ways.
                reserve = keep if tried is not None else (funds.budget.left + keep) // 2
                found, spent = _enumerated(
                    prob, bits, product, funds.allow(work * 2, ENUMERATE_UNITS, reserve)
                )
                funds.spend(spent, ENUMERATE_UNITS)
                if found is not None:
                    return found
            if tried is not None:
                plan = _Plan(None, tried, product.work + spent)
            else:
                plan = _plan(prob, bits, work, funds)
        else:
            plan = _plan(prob, bits, work, funds)
        if plan.listed is not None:
            funds.spend(COUNTED_COST * len(plan.listed), LIST_UNITS)
            found = counted(prob, bits, plan.listed)
            if found is not None:
                return found
        seed = 0
        if res is not None:
            roll = res.roll(label, SEED_DICE, SEED_SIDES)
            for value in roll.values:
                seed = seed * SEED_SIDES + (value - 1)
        per = SAMPLE_UNITS[_kind(plan)]
        share = left_over(work, plan.spent)
        # A sampler stops within a checkpoint, a draw and the answer's weighing of ``most``.
        most = max(0, funds.allow(GRACE * share, per) - OVER)
        try:
            found = _sampled(prob, bits, plan, seed, share, most)
        except SearchLimit as none:
            funds.spend(none.work, per)
            raise
        funds.spend(found.work, per)
        return found


def _kind(plan: _Plan) -> str:
    if plan.listed is not None:
        return "stratified"
    return "tree" if plan.product is None else "exact"


BEST = t.MAX_SALVO


DECIMALS = 6


@dataclass(frozen=True)
class HeatmapInput:
    """The view a salvo answer hands back, and the recon and sonar counts told so far."""

    view: Annotated[View, Doc("The `view` a salvo answer handed back, as it is")]
    counts: Annotated[
        tuple[ToldCount, ...],
        Limits(most=len(t.COUNTING_SHIPS)),
        Doc("The recon and sonar counts told so far (each once a game)"),
    ] = ()


def told_of(view: View, counts: tuple[Count, ...] = ()) -> Told:
    sunk = tuple((sunk.ship, sunk.squares) for sunk in view.sunk)
    dived = view.dive_contacts or ()
    return Told(view.misses, view.hits, view.contacts, sunk, counts, dived)


def answer(found: Heat, told: Told, open_to_fire: Sequence[Square] = ()) -> SalvoGridHeatmapResult:
    """The heat as the step answers it: rows of probabilities, the best squares to fire and
    every square a shot may aim at (``open_to_fire``)."""
    board = found.board
    probabilities = found.probabilities()
    fired = board.mask(told.misses) | board.mask(told.hits)
    fired |= board.mask(sq for _, sqs in told.sunk for sq in sqs)
    open_squares = [
        (index, sq) for index, sq in enumerate(board.squares()) if not fired & board.bit(sq)
    ]
    ranked = sorted(open_squares, key=lambda item: -probabilities[item[0]])[:BEST]
    sunk = {ship for ship, _ in told.sunk}
    return {
        "method": found.method,
        "placements": found.placements,
        "sampler": found.sampler,
        "margin": round(found.margin, DECIMALS),
        "afloat": [ship_name(ship) for ship, _ in board.fleet if ship not in sunk],
        "rows": [
            [round(probabilities[r * board.columns + c], DECIMALS) for c in range(board.columns)]
            for r in range(board.rows)
        ],
        "best": [
            {"square": name(sq), "p": round(probabilities[index], DECIMALS)} for index, sq in ranked
        ],
        "may_fire_at": names(open_to_fire),
    }


def heatmap(inp: HeatmapInput, res: Resolution) -> SalvoGridHeatmapResult:
    """The heat map step: every square's chance of holding a ship afloat."""
    told = told_of(inp.view, inp.counts)
    return answer(heat(told, res), told, open_squares(inp.view.fired_on))
