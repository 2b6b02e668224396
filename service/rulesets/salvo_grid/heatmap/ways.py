"""The listing of the ways of meeting what was told, with bitsets: each way the ships it
places, the ships it leaves free and what it blocks; foreseen by probes before it is
begun, and counted exactly (``counted``) when every way leaves at most one ship free."""

from __future__ import annotations

import math
import random
from typing import Any

from .bits import _BYTE, FEW, _Bits, _pick, _room, _unpacked
from .board import Heat, Problem, _Budget, _impossible, _why_none
from .limits import EARLY, LATE, LIST_WORK, PROBE_COST, PROBES, PROJECTED, WORK

# A way: the ships it places (ship, line index), the ships it leaves free, and for each ship
# the lines the way blocks (its squares, the squares it knows open water).
BitCore = tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]]


def _bit_cores(
    prob: Problem, bits: _Bits, budget: float, rnd: Any = None, ceiling: float = math.inf
) -> tuple[list[BitCore], float]:
    """Every way to satisfy the hits, contacts and counts, down the search tree as
    ``_bit_draw`` walks it (each way a leaf where the ships left lie anywhere clear); raises
    _Budget (with the work done) past ``budget`` of work, or past ``EARLY`` of it once the
    work so far, over the share of the tree walked, foresees ``PROJECTED`` budgets (past
    ``LATE`` of it, once it foresees more than the budget).
    With ``rnd``, one path is walked instead, a branch drawn uniformly at each node, and
    the work answered is the listing's, estimated (each node's work times the product of
    the branch counts above it). ``ceiling`` stops it too, without changing when the
    listing is foreseen too long (the request's budget: see ``_Funds``)."""
    budget_or_ceiling = min(budget, ceiling)
    allowed, tabs, cross = bits.allowed, bits.tabs, bits.cross
    areas, required, sizes = prob.areas, prob.required, prob.sizes
    out: list[BitCore] = []
    spent = 0.0
    done = 0.0  # the share of the tree walked, each branch an equal share of its node's

    def walk(
        occ: int,
        empty: int,
        blk: list[int],
        left: tuple[int, ...],
        placed: tuple[tuple[int, int], ...],
        scale: float,
        part: float = 1.0,
    ) -> None:
        nonlocal spent, done
        if (
            spent > budget_or_ceiling
            or spent > EARLY * budget
            and spent > PROJECTED * budget * done
            or spent > LATE * budget
            and spent > budget * done
        ):
            raise _Budget(spent)
        if len(left) == 1:
            last(occ, blk, left[0], blk[left[0]], placed, scale, part)
            return
        spent += (16 + 2 * len(left) + 4 * len(areas)) * scale
        must = required & ~occ
        slack: tuple[int, int] | None = None
        wants = []
        newly = 0
        for area, need in areas:
            want = need - (occ & area).bit_count()
            undecided = area & ~occ & ~empty
            n = undecided.bit_count()
            if want < 0 or want > n:
                done += part
                return
            if want == 0:
                newly |= undecided
            elif want == n:
                must |= undecided
            elif slack is None or n - want < slack[0]:
                slack = (n - want, undecided)
            wants.append(want)
        if newly:
            empty |= newly
            blk = blk[:]
            for k in left:
                blk[k] |= bits.blocking(k, newly)
            spent += (len(left) * newly.bit_count()) * scale
        if must & empty:
            done += part
            return
        if not must and slack is None:
            out.append((placed, left, tuple(blk)))
            spent += bits.n * scale
            done += part
            return
        if not left or must.bit_count() > sum(sizes[k] for k in left):
            done += part
            return
        room = _room(bits, left, blk, wants)
        if must:
            best = -1
            fewest = 0
            rest = must
            while rest:
                low = rest & -rest
                rest ^= low
                s = low.bit_length() - 1
                total = sum(
                    (v & tabs[k].cover[s]).bit_count() for k, v in zip(left, room, strict=True)
                )
                spent += len(left) * scale
                if best < 0 or total < fewest:
                    best, fewest = s, total
                    if total <= 1:
                        break
            s = best
        else:
            assert slack is not None
            s = (slack[1] & -slack[1]).bit_length() - 1
        if rnd is not None:  # one branch, drawn uniformly
            counts = [(room[p] & tabs[k].cover[s]).bit_count() for p, k in enumerate(left)]
            r = int(rnd() * (sum(counts) + (0 if must else 1)))
            scale *= sum(counts) + (0 if must else 1)
            for p, c in enumerate(counts):
                if r < c:
                    i = _pick(room[p] & tabs[left[p]].cover[s], r)
                    branch(occ, empty, blk, left, placed, scale, p, i)
                    return
                r -= c
            branch(occ, empty, blk, left, placed, scale, -1, s)
            return
        options = [room[p] & tabs[k].cover[s] for p, k in enumerate(left)]
        branches = sum(v.bit_count() for v in options) + (0 if must else 1)
        if not branches:
            done += part
            return
        part /= branches
        for pick, ways in enumerate(options):
            while ways:
                low = ways & -ways
                ways ^= low
                branch(occ, empty, blk, left, placed, scale, pick, low.bit_length() - 1, part)
        if not must:
            branch(occ, empty, blk, left, placed, scale, -1, s, part)

    def branch(
        occ: int,
        empty: int,
        blk: list[int],
        left: tuple[int, ...],
        placed: tuple[tuple[int, int], ...],
        scale: float,
        pick: int,
        i: int,
        part: float = 1.0,
    ) -> None:
        """Ship ``left[pick]`` on its line ``i``; or (``pick`` -1) the square ``i`` open
        water."""
        nonlocal spent
        if pick < 0:
            nb = blk[:]
            for k in left:
                nb[k] |= tabs[k].cover[i]
            walk(occ, empty | 1 << i, nb, left, placed, scale, part)
            return
        k = left[pick]
        rest_left = left[:pick] + left[pick + 1 :]
        spent += len(rest_left) * scale
        if len(rest_left) == 1:  # as walk would, without copying what the ship blocks
            j = rest_left[0]
            if spent > budget_or_ceiling:
                raise _Budget(spent)
            last(
                occ | tabs[k].lines[i],
                blk,
                j,
                blk[j] | cross[j][k][i],
                (*placed, (k, i)),
                scale,
                part,
            )
            return
        nb = blk[:]
        for j in rest_left:
            nb[j] |= cross[j][k][i]
        walk(occ | tabs[k].lines[i], empty, nb, rest_left, (*placed, (k, i)), scale, part)

    def last(
        occ: int,
        blk: list[int],
        k: int,
        blocks: int,
        placed: tuple[tuple[int, int], ...],
        scale: float,
        part: float = 1.0,
    ) -> None:
        """The last ship ``k`` (its blocked lines ``blocks``): its places that cover all
        that is left and meet every count; any of them completes the way."""
        nonlocal spent, done
        done += part
        cover, exactly = tabs[k].cover, bits.exactly[k]
        v = allowed[k] & ~blocks
        must = required & ~occ
        while must and v:
            low = must & -must
            must ^= low
            v &= cover[low.bit_length() - 1]
        for a, (area, need) in enumerate(areas):
            want = need - (occ & area).bit_count()
            v &= exactly[a][want] if 0 <= want < len(exactly[a]) else 0
        spent += (10 + len(areas) + (bits.n if v else 0)) * scale
        if v:  # one way, its ship free among those places (the others blocked)
            ends = blk[:]
            ends[k] = allowed[k] & ~v
            out.append((placed, (k,), tuple(ends)))

    walk(0, prob.blocked, [0] * bits.n, tuple(range(bits.n)), (), 1.0)
    return out, spent


def listing(work: int = WORK) -> int:
    """The work the ways of meeting what was told may take to list: ``LIST_WORK``, or at
    most ``work``."""
    return min(LIST_WORK, work)


def foresee(prob: Problem, bits: _Bits) -> tuple[float, int]:
    """The work listing the ways of meeting what was told is foreseen to take, from
    ``PROBES`` paths down the tree drawn with a fixed seed (the same view decides alike);
    and the work the paths took."""
    rng = random.Random(0)
    guess = 0.0
    for _ in range(PROBES):
        guess += _bit_cores(prob, bits, math.inf, rng.random)[1] / PROBES
    return guess, PROBE_COST * PROBES


def ways_told(
    prob: Problem, bits: _Bits, budget: int, ceiling: float = math.inf
) -> tuple[list[BitCore] | None, int]:
    """Every way of meeting what was told, or None when its listing passes ``budget`` (or
    is foreseen to, as it goes: see ``_bit_cores``) or ``ceiling``; and the work it took."""
    try:
        cores, took = _bit_cores(prob, bits, budget, ceiling=ceiling)
    except _Budget as over:
        return None, int(over.args[0])
    return cores, int(took)


def counted(prob: Problem, bits: _Bits, cores: list[BitCore]) -> Heat | None:
    """The exact heat when every way of meeting what was told leaves at most one ship free
    (its places are then counted), else None."""
    if any(len(left) > 1 for _, left, _ in cores):
        return None
    tabs, allowed, group = bits.tabs, bits.allowed, bits.group
    fields = [0] * len(tabs)  # places counted as whole bitsets, when many
    few: list[dict[int, float]] = [{} for _ in tabs]  # and one by one
    total = 0
    for placed, left, blk in cores:
        times = 1
        if left:
            k = left[0]
            v = allowed[k] & ~blk[k]
            times = v.bit_count()
            if not times:
                continue
            if times <= FEW:
                d = few[group[k]]
                while v:
                    low = v & -v
                    v ^= low
                    i = low.bit_length() - 1
                    d[i] = d.get(i, 0) + 1
            else:
                spread = b"".join(map(_BYTE, v.to_bytes(tabs[k].width, "little")))
                fields[group[k]] += int.from_bytes(spread, "little")
        total += times
        for k, i in placed:
            d = few[group[k]]
            d[i] = d.get(i, 0) + times
    if not total:
        raise _impossible(_why_none(prob), "view")
    weights = _unpacked(prob, bits, fields, few, 1.0)
    return Heat(prob.board, weights, float(total), "exact", placements=total, margin=0.0)
