"""The product and its exact draws: each ship's places grouped by what they add to the
counts and the squares to cover, the ways of completing each state counted (``_Product``);
every layout counted down its states when few enough (``_enumerated``), or layouts drawn
from it, each kept one exactly uniform over the layouts that fit (``_product_sample``)."""

from __future__ import annotations

import bisect
import functools
import math
import random
import statistics
from typing import Any

from .bits import _Bits, _unpacked
from .board import GAME, Heat, Problem, _Budget, _impossible, _not_found, _spread, _why_none
from .funds import PRODUCT_UNITS
from .limits import CHECK_COST, CHECKS, GRACE, NODE_COST, STOP


class _Product:
    """Every ship drawn as if the others were not there, but under what was told taken
    together: each ship's places sorted by what they add to each count and to each cluster
    of squares to cover, and the number of ways of completing each state counted once. A
    layout drawn from it and kept only when no two ships overlap is exactly uniform over the
    layouts that fit: each of them is one tuple of places, as likely as any other.

    A cluster is a set of squares to cover that ships could cover together (the hits and
    contacts one ship could reach at once, joined): it is counted as an area whose count is
    all its squares. Ships that do not overlap and cover all of a cluster's count between
    them cover every square of it, so the clusters' counts say all the squares to cover say,
    in far fewer states than the squares covered one by one would take.

    A state: how many ships are placed (largest first) and what they count in each area and
    cluster (a field of ``width`` bits each, starting at ``full`` less the count, so that a
    field with its top bit set means too many and a count met reads ``full``)."""

    def __init__(self, prob: Problem, bits: _Bits, budget: int) -> None:
        self.n = n = bits.n
        self.required = 0
        areas = [area for area, _ in prob.areas]
        needs = [need for _, need in prob.areas]
        for cluster in _clusters(prob):
            areas.append(cluster)
            needs.append(cluster.bit_count())
        # A field holds up to its ``top`` less one, and that plus a ship's squares.
        field_bits = max([*prob.sizes, *needs]).bit_length() + 1
        top = 1 << field_bits - 1
        width = field_bits * len(areas)
        self.guard = sum(top << field_bits * a for a in range(len(areas)))
        self.full = sum(top - 1 << field_bits * a for a in range(len(areas)))
        start = sum(top - 1 - need << field_bits * a for a, need in enumerate(needs))
        self.order = sorted(range(n), key=bits.order.__getitem__)
        # groups[depth]: (what a place adds to the counts, its places), for the ship placed
        # at that depth
        self.groups: list[list[tuple[int, int, list[int]]]] = []
        self.work = 0
        for k in self.order:
            tab = bits.tabs[k]
            by: dict[int, list[int]] = {}
            v = bits.allowed[k]
            while v:
                low = v & -v
                v ^= low
                i = low.bit_length() - 1
                m = tab.lines[i]
                adds = sum((m & a).bit_count() << field_bits * j for j, a in enumerate(areas))
                by.setdefault(adds, []).append(i)
            self.groups.append([(adds, 0, idx) for adds, idx in by.items()])
            self.work += len(tab.lines) * (1 + len(areas))
        self.last = {(adds, 0): idx for adds, _, idx in self.groups[-1]}
        self.budget = budget
        self.shift = width  # a state's key: (depth, counts)
        # memo[key]: (ways, cumulative ways of its branches, their keys, their places)
        self.memo: dict[tuple[int, int], Any] = {}
        self.start = (0, start)
        self.ways = self._count(0, start)

    def _count(self, depth: int, key: int) -> int:
        if depth == self.n - 1:  # the last ship: the one kind of place that completes it
            idx = self.last.get((self.full - key, 0), [])
            self.work += 4
            self.memo[depth, key] = (len(idx), [float(len(idx))], [(self.n, 0)], [idx])
            return len(idx)
        groups = self.groups[depth]
        self.work += NODE_COST + len(groups)
        if self.work > self.budget:
            raise _Budget(self.work)
        memo, guard, below = self.memo, self.guard, depth + 1
        total = 0
        cums: list[float] = []
        nexts: list[tuple[int, int]] = []
        places: list[list[int]] = []
        for adds, _, idx in groups:
            now = key + adds
            if now & guard:
                continue
            found = memo.get((below, now))
            ways = found[0] if found is not None else self._count(below, now)
            if ways:
                total += len(idx) * ways
                cums.append(float(total))
                nexts.append((below, now))
                places.append(idx)
        memo[depth, key] = (total, cums, nexts, places)
        return total

    def draw(self, bits: _Bits, rnd: Any, pos: list[int]) -> int:
        """One tuple of places from the product, into ``pos``: how many ships were placed
        before two overlapped (all of them when none did)."""
        memo, order, tabs = self.memo, self.order, bits.tabs
        state = self.start
        occ = 0
        for depth in range(self.n):
            total, cums, nexts, places = memo[state]
            j = bisect.bisect_right(cums, rnd() * total)
            if j >= len(cums):
                j = len(cums) - 1
            idx = places[j]
            i = idx[int(rnd() * len(idx))]
            k = order[depth]
            m = tabs[k].lines[i]
            if occ & m:
                return depth
            occ |= m
            pos[k] = i
            state = nexts[j]
        return self.n


def _clusters(prob: Problem) -> list[int]:
    """The squares to cover, in clusters: two squares one ship could cover together are in
    one cluster, and so, in turn, are theirs."""
    out = []
    rest = prob.required
    while rest:
        cluster = frontier = rest & -rest
        while frontier:
            bit = frontier & -frontier
            frontier ^= bit
            joined = prob.share.get(bit, bit) & ~cluster
            cluster |= joined
            frontier |= joined
        rest &= ~cluster
        out.append(cluster)
    return out


def _enumerated(
    prob: Problem, bits: _Bits, product: _Product, budget: int
) -> tuple[Heat | None, int]:
    """Every layout that fits counted, down the product's states (``_Product``): the ships
    placed largest first, each only on the places whose state can still be completed and
    clear of the ships placed; the last ship's places counted at once, as a bitset, for
    each place of the one before it. None when its work (places looked at, ``NODE_COST``
    a node) passes ``budget``; and the work."""
    n = bits.n
    order, memo = product.order, product.memo
    cross, tabs = bits.cross, bits.tabs
    per: list[dict[int, int]] = [{} for _ in range(n)]  # [k][i]: layouts with ship k on i
    ends: dict[int, int] = {}  # the last ship's places (a bitset), and how often they came
    sets: dict[int, int] = {}  # a group's places as a bitset, by the list's id
    spent = 0

    def as_bits(idx: list[int]) -> int:
        found = sets.get(id(idx))
        if found is None:
            found = 0
            for i in idx:
                found |= 1 << i
            sets[id(idx)] = found
        return found

    def walk(depth: int, state: tuple[int, int], blk: list[int]) -> int:
        nonlocal spent
        _, _, nexts, places = memo[state]
        spent += NODE_COST + len(places)
        if spent > budget:
            raise _Budget(spent)
        k = order[depth]
        own = blk[k]
        sub = 0
        mine = per[k]
        if depth == n - 1:  # the only ship
            v = as_bits(places[0]) & ~own if places else 0
            if v:
                ends[v] = 1
            return v.bit_count()
        if depth == n - 2:
            # The last ship's places clear of this one's, counted at once: each of its
            # places open, less those crossing this ship's place (few, one by one).
            final = order[-1]
            clear, crossing = blk[final], cross[final][k]
            missed = per[final]
            for nxt, idx in zip(nexts, places, strict=True):
                ends_of = memo[nxt][3]
                room = as_bits(ends_of[0]) & ~clear if ends_of else 0
                if not room:
                    continue
                v = as_bits(idx) & ~own
                if not v:
                    continue
                size = room.bit_count()
                times = v.bit_count()
                if room not in ends:
                    spent += size
                ends[room] = ends.get(room, 0) + times
                spent += 2 * times
                while v:
                    low = v & -v
                    v ^= low
                    i = low.bit_length() - 1
                    x = room & crossing[i]
                    c = size
                    while x:
                        bit = x & -x
                        x ^= bit
                        j = bit.bit_length() - 1
                        missed[j] = missed.get(j, 0) - 1
                        c -= 1
                        spent += 1
                    if c:
                        mine[i] = mine.get(i, 0) + c
                        sub += c
            if spent > budget:
                raise _Budget(spent)
            return sub
        rest = order[depth + 1 :]
        for nxt, idx in zip(nexts, places, strict=True):
            v = as_bits(idx) & ~own
            while v:
                low = v & -v
                v ^= low
                i = low.bit_length() - 1
                below = blk[:]
                for j in rest:
                    below[j] |= cross[j][k][i]
                c = walk(depth + 1, nxt, below)
                if c:
                    mine[i] = mine.get(i, 0) + c
                    sub += c
        return sub

    try:
        total = walk(0, product.start, [0] * n) if product.ways else 0
    except _Budget:
        return None, spent
    if not total:
        raise _impossible(_why_none(prob), "view")
    last = per[order[-1]]
    for v, times in ends.items():
        while v:
            low = v & -v
            v ^= low
            i = low.bit_length() - 1
            last[i] = last.get(i, 0) + times
    weights = [0.0] * (prob.board.columns * prob.board.rows)
    for k, counted_k in enumerate(per):
        lines = tabs[k].lines
        for i, times in counted_k.items():
            _spread(weights, lines[i], float(times))
    found = Heat(prob.board, weights, float(total), "exact", placements=total, margin=0.0)
    return found, spent


TRIALS = 200  # the draws that try the exact draws out (with a fixed seed)


KEPT_LEAST = 0.02  # exact draws are used when at least this share of those is kept


DRAWN_COST = 4  # an exact draw's work, besides 4 a ship placed


KEPT_COST = 4  # and a kept one's, besides 1 a ship


# Every layout is counted when the trial draws foresee at most this many (the product's
# ways times the share of the trials kept, one more of each).
COUNTABLE = 200_000


TRIED = TRIALS * (DRAWN_COST + 4 * len(GAME.fleet))  # the exact draws' trials, at most


TRIED_UNITS = math.ceil(TRIED * PRODUCT_UNITS)  # and in the request's units


def _product(
    prob: Problem, bits: _Bits, work: int, count: int | None = None
) -> tuple[_Product | None, int]:
    """The product of the ships' places under what was told (``_Product``), or None when it
    cannot be counted within ``count`` (by default a fifth of ``work``) or keeps under
    ``KEPT_LEAST`` of ``TRIALS`` draws (with a fixed seed: the same view decides alike); and
    the work."""
    try:
        product = _Product(prob, bits, work // 5 if count is None else count)
    except _Budget as over:
        return None, int(over.args[0])
    if not product.ways:
        raise _impossible(_why_none(prob), "view")
    tried, _, spent = _tried(bits, product)
    return tried, product.work + spent


def _tried(bits: _Bits, product: _Product) -> tuple[_Product | None, int, int]:
    """The product, or None when it keeps under ``KEPT_LEAST`` of ``TRIALS`` draws (with a
    fixed seed: the same view decides alike); how many it kept; and the trials' work."""
    rnd = random.Random(0).random
    pos = [0] * bits.n
    placed = [product.draw(bits, rnd, pos) for _ in range(TRIALS)]
    spent = DRAWN_COST * TRIALS + 4 * sum(placed)
    kept = placed.count(bits.n)
    return (None if kept < KEPT_LEAST * TRIALS else product), kept, spent


def _product_sample(
    prob: Problem, bits: _Bits, product: _Product, seed: int, work: int, most: int | None = None
) -> Heat:
    """Layouts drawn exactly uniformly (``_Product``) and counted as they lie, until
    ``work`` is spent (or half of it, once the margin is under ``STOP``)."""
    rng = random.Random(seed)
    rnd = rng.random
    n = bits.n
    seen = [[0] * len(bits.tabs[k].lines) for k in range(n)]  # [k][i]: ship k on line i
    spent = bits.cost
    kept = 0
    pos = [0] * n
    check = work // CHECKS
    draw = product.draw
    most = work * GRACE if most is None else most
    while spent < most and (spent < work or not kept):
        if spent >= check and kept:
            found = _counted_draws(prob, bits, seen, kept, seed, spent + CHECK_COST)
            if found.margin < STOP:
                return found
            check += work // CHECKS
            spent += CHECK_COST
        placed = draw(bits, rnd, pos)
        spent += DRAWN_COST + 4 * placed
        if placed == n:
            kept += 1
            for k in range(n):
                seen[k][pos[k]] += 1
            spent += KEPT_COST + n
    if not kept:
        raise _not_found(spent)
    return _counted_draws(prob, bits, seen, kept, seed, spent + CHECK_COST)


def _counted_draws(
    prob: Problem, bits: _Bits, seen: list[list[int]], kept: int, seed: int, work: int = 0
) -> Heat:
    """The heat of ``kept`` exact draws (``seen``: how often each ship lay on each of its
    lines), and its margin: the draws are independent and each exactly uniform, so a
    square's share of them is off by a standard error of sqrt(p (1 - p) / kept); the
    least certain square's, times the normal quantile that leaves a chance of ``MISS``
    shared among all the squares (3.48 on the 10 x 10 board): every square is within it at
    once at least 95% of the time."""
    few: list[dict[int, float]] = [{} for _ in bits.tabs]
    for k, lines in enumerate(seen):
        d = few[bits.group[k]]
        for i, times in enumerate(lines):
            if times:
                d[i] = d.get(i, 0.0) + times
    weights = _unpacked(prob, bits, [0] * len(bits.tabs), few, 1.0)
    worst = max(w / kept * (1 - w / kept) for w in weights)
    return Heat(
        prob.board,
        weights,
        float(kept),
        "sampled",
        sampler={
            "method": "exact draws",
            "seed": seed,
            "chains": 1,
            "burn_in": 0,
            "samples": kept,
        },
        margin=min(1.0, _quantile(len(weights)) * math.sqrt(max(worst, 0.0) / kept)),
        work=work,
    )


MISS = 0.05  # the chance exact draws' margin leaves that some square is past it


@functools.cache
def _quantile(squares: int) -> float:
    return statistics.NormalDist().inv_cdf(1 - MISS / (2 * squares))
