"""The samplers: choosing one for a view (``_plan``: by strata of the listed ways, by exact
draws, or down the tree) and drawing with it, the draws in batches whose spread gives the
margin (``sample``, ``_sampled``, ``_bit_stratified``, ``_bit_tree_sample``)."""

from __future__ import annotations

import bisect
import itertools
import math
import random
from dataclasses import dataclass

from .bits import _bit_draw, _bit_free, _Bits, _Tally
from .board import Heat, Problem, _impossible, _not_found, _why_none
from .funds import LIST_UNITS, PROBE_UNITS, PRODUCT_UNITS, ROOM, _Funds
from .limits import BATCHES, CHECK_COST, CHECKS, DRAW_COST, FORESEEN, GOLDEN, GRACE, STOP, WORK
from .product import TRIED, _Product, _product, _product_sample
from .ways import BitCore, foresee, listing, ways_told

SHORT = 0.2  # a listing foreseen within this share of its budget is listed first,


SHORT_CAP = 0.4  # given up past this share of it


def sample(prob: Problem, seed: int, work: int = WORK) -> Heat:
    """Sampled (docs/computer.md): by strata when the ways of meeting what was told are
    few enough to list at once, else by exact draws when enough of them are kept, else by
    strata when the ways can be listed at all, else down the whole search tree; ``work``
    covers the listing and the trials too."""
    bits = _Bits(prob)
    product, spent = _product(prob, bits, work, work)
    plan = _Plan(None, product, spent) if product is not None else _plan(prob, bits, work)
    return _sampled(prob, bits, plan, seed, left_over(work, plan.spent))


@dataclass
class _Plan:
    """How a view is sampled: from its ways (``listed``), by exact draws (``product``), or
    down the tree (neither); and the work spent deciding."""

    listed: list[BitCore] | None
    product: _Product | None
    spent: int


def _plan(prob: Problem, bits: _Bits, work: int, funds: _Funds | None = None) -> _Plan:
    """Listed when the listing is foreseen short and is (within ``SHORT_CAP`` of its
    budget), or foreseen within budget and sure to leave at most one ship free (the view is
    then counted); else by exact draws when enough are kept; else listed when foreseen
    within budget and it is; else down the tree.

    With ``funds`` (the request's budget), each listing and the counting of exact draws
    stop where the budget would leave the sampler less than a third of ``work``: the
    decisions are the same, the work done on them is bounded by the request's."""

    def cap(limit: int, per: float, share: int = 3) -> int:
        """``limit``, or what the budget leaves once the sampler has kept its ``share``."""
        return limit if funds is None else funds.allow(limit, per, funds.kept(work, share))

    def spend(done: float, per: float) -> None:
        if funds is not None:
            funds.spend(done, per)

    guess, spent = foresee(prob, bits)
    spend(spent, PROBE_UNITS)
    budget = listing(work)
    # Every way places at least as many ships as the squares to cover need: with one ship
    # free at most, the listing counts the view exactly.
    whole = prob.ships_needed(prob.required)[0] >= bits.n - 1 and guess <= FORESEEN * budget
    if whole and ROOM * guess > cap(budget, LIST_UNITS, 10):
        # A whole listing counts the view, and may leave the sampler less (a tenth); one
        # foreseen past what the request's budget leaves it is not begun.
        whole = False
    if guess <= SHORT * budget or whole:
        limit = budget if whole else int(SHORT_CAP * budget)
        ceiling = cap(limit, LIST_UNITS, 10 if whole else 3)
        listed, cost = ways_told(prob, bits, limit, ceiling)
        spent += cost
        spend(cost, LIST_UNITS)
        if listed is not None:
            return _Plan(listed, None, spent)
    # (the trial draws come after the counting: at most TRIED of work)
    product, cost = _product(prob, bits, work, max(0, cap(work // 5, PRODUCT_UNITS) - TRIED))
    spent += cost
    spend(cost, PRODUCT_UNITS)
    if product is not None:
        return _Plan(None, product, spent)
    if guess > FORESEEN * budget or whole:  # (a whole listing was tried)
        return _Plan(None, None, spent)
    ceiling = cap(budget, LIST_UNITS)
    if ROOM * guess > ceiling:  # foreseen past what the budget leaves it: not begun
        return _Plan(None, None, spent)
    listed, cost = ways_told(prob, bits, budget, ceiling)
    spend(cost, LIST_UNITS)
    return _Plan(listed, None, spent + cost)


def _sampled(
    prob: Problem, bits: _Bits, plan: _Plan, seed: int, work: int, most: int | None = None
) -> Heat:
    """Drawn by the plan's sampler for ``work``, going on while no fitting layout has been
    drawn; never past ``most`` (by default ``GRACE`` times ``work``; the step's, what the
    request's budget has left)."""
    if plan.listed is not None:
        return _bit_stratified(prob, plan.listed, seed, work, bits, most=most)
    if plan.product is not None:
        return _product_sample(prob, bits, plan.product, seed, work, most)
    return _bit_tree_sample(prob, seed, work, bits, most=most)


def left_over(work: int, spent: int) -> int:
    """The sampler's work after the listing's: what is left of ``work``, at least a third."""
    return max(work - spent, work // 3)


def _bit_tree_sample(
    prob: Problem,
    seed: int,
    work: int,
    bits: _Bits,
    batches: int = BATCHES,
    most: int | None = None,
) -> Heat:
    """Importance sampling down the search tree (docs/computer.md): layouts drawn one after
    another, independently, until ``work`` is spent; each weighted by one over the chance of
    drawing it, and each ship counted over every place it could take given the others."""
    rng = random.Random(seed)
    tally = _Tally(prob, bits, batches)
    spent = bits.cost
    drawn = kept = 0
    pos = [0] * bits.n
    # Each draw's first random number is a batch's next point (as the stratified sampler's).
    starts = [rng.random() for _ in range(batches)]
    check = work // CHECKS
    most = work * GRACE if most is None else most
    while spent < most and (spent < work or not kept):
        b = drawn % batches
        if spent >= check and not b and kept:
            found = _weighed(prob, tally, "importance", seed, drawn, spent + CHECK_COST)
            if found.margin < STOP:
                return found
            check += work // CHECKS
            spent += CHECK_COST
        first = (starts[b] + (drawn // batches) * GOLDEN) % 1.0
        weight, cost = _bit_draw(prob, bits, rng, pos, first)
        spent += cost
        drawn += 1
        if weight:
            kept += 1
            spent += tally.add(b, pos, weight)
    if not kept:
        raise _not_found(spent)
    return _weighed(prob, tally, "importance", seed, drawn, spent + CHECK_COST)


def _bit_stratified(
    prob: Problem,
    cores: list[BitCore],
    seed: int,
    work: int,
    bits: _Bits,
    batches: int = BATCHES,
    most: int | None = None,
) -> Heat:
    """Importance sampling over the ways of meeting what was told (``cores``): a way drawn
    in proportion to the product of its free ships' places clear of it (as if they could not
    collide with each other), then its free ships placed one after another, each uniformly
    among the places clear of the others; weighted by one over the chance of the draw."""
    rng = random.Random(seed)
    rnd = rng.random
    allowed = bits.allowed
    spent = bits.cost + 2 * len(cores)
    priors: list[float] = []
    for _, left, blk in cores:
        prior = 1.0
        for k in left:
            prior *= (allowed[k] & ~blk[k]).bit_count()
        priors.append(prior)
    whole = sum(priors)
    if not whole:
        raise _impossible(_why_none(prob), "view")
    cumulative = list(itertools.accumulate(priors))
    tally = _Tally(prob, bits, batches)
    drawn = 0
    pos = [0] * bits.n
    # Each batch walks the ways at evenly spread points from its own random start (a start,
    # then steps of the golden ratio, modulo 1): every draw is still a way drawn in
    # proportion to its weight, but each batch meets the ways in their shares, not as
    # independent draws do; the batches, started apart, stay independent of each other.
    starts = [rnd() for _ in range(batches)]
    check = work // CHECKS
    most = work * GRACE if most is None else most
    while spent < most and (spent < work or not any(tally.totals)):
        b = drawn % batches
        if spent >= check and not b and any(tally.totals):
            found = _weighed(prob, tally, "stratified", seed, drawn, spent + CHECK_COST)
            if found.margin < STOP:
                return found
            check += work // CHECKS
            spent += CHECK_COST
        x = (starts[b] + (drawn // batches) * GOLDEN) % 1.0
        c = min(bisect.bisect_right(cumulative, x * whole), len(cores) - 1)
        placed, left, blk = cores[c]
        for k, i in placed:
            pos[k] = i
        weight, cost = _bit_free(
            bits, rnd, pos, list(blk), list(left), whole / priors[c], DRAW_COST
        )
        spent += cost
        drawn += 1
        if weight:
            spent += tally.add(b, pos, weight)
    if not any(tally.totals):
        raise _not_found(spent)
    return _weighed(prob, tally, "stratified", seed, drawn, spent + CHECK_COST)


def _weighed(
    prob: Problem, tally: _Tally, method: str, seed: int, drawn: int, work: int = 0
) -> Heat:
    """The heat of weighted draws kept in batches, and its margin: three standard errors of
    the worst square, from the spread between the batches."""
    board = prob.board
    size = board.columns * board.rows
    per_batch = tally.per_batch()
    totals = tally.totals
    total = sum(totals)
    weights = [sum(batch[i] for batch in per_batch) for i in range(size)]
    worst = 0.0
    used = [b for b in range(len(totals)) if totals[b] > 0]
    if len(used) > 1:
        for i in range(size):
            p = weights[i] / total
            spread = sum((per_batch[b][i] - p * totals[b]) ** 2 for b in used)
            worst = max(worst, spread * len(used) / (len(used) - 1))
    margin = 3 * math.sqrt(worst) / total if len(used) > 1 else 1.0
    return Heat(
        board,
        weights,
        total,
        "sampled",
        sampler={
            "method": method,
            "seed": seed,
            "chains": len(totals),
            "burn_in": 0,
            "samples": drawn,
        },
        margin=min(1.0, margin),
        work=work,
    )
