"""The sampler's bitsets: each ship's places as bits of one integer (``_Bits``), a
layout drawn down the tree with them, and the tally of drawn layouts (``_Tally``).

A ship's places are numbered along ``Board.lines(size)``; a set of places is an int with
those bits. Overlap, coverage and the counts' areas are then single AND operations, and a
drawn layout's conditional places for each ship (Rao-Blackwell) are added up as whole
bitsets, each place a 64-bit field of one integer (``_spread``), not one at a time.
"""

from __future__ import annotations

import itertools
import random
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .board import Board, Problem

FIELD = 64  # bits a place's running weight takes in a ship's accumulator


SCALE = 1 << 30  # a draw's share of weight, as a multiple of the first draw's, in fixed point


FEW = 6  # a ship with at most this many places given the others is added place by place


M64 = (1 << 64) - 1


_BYTES = [
    b"".join(((b >> i) & 1).to_bytes(FIELD // 8, "little") for i in range(8)) for b in range(256)
]


_BYTE = _BYTES.__getitem__


@dataclass(frozen=True)
class _Places:
    """A board's lines of one size: their squares, and for each square the lines through it."""

    lines: tuple[int, ...]
    index: dict[int, int]
    cover: tuple[int, ...]  # per square (index in reading order): the lines through it
    squares: tuple[tuple[int, ...], ...]  # per line: its squares' indices
    width: int  # bytes of a bitset of these lines


_PLACES: dict[tuple[Board, int], _Places] = {}


_CROSS: dict[tuple[Board, int, int], tuple[int, ...]] = {}


def _places_of(board: Board, size: int) -> _Places:
    key = (board, size)
    found = _PLACES.get(key)
    if found is None:
        lines = tuple(board.lines(size))
        cover = [0] * (board.columns * board.rows)
        squares = []
        for i, m in enumerate(lines):
            own = []
            rest = m
            while rest:
                low = rest & -rest
                rest ^= low
                s = low.bit_length() - 1
                cover[s] |= 1 << i
                own.append(s)
            squares.append(tuple(own))
        found = _PLACES[key] = _Places(
            lines,
            {m: i for i, m in enumerate(lines)},
            tuple(cover),
            tuple(squares),
            (len(lines) + 7) // 8,
        )
    return found


def _crossing(board: Board, size: int, other: int) -> tuple[int, ...]:
    """For each line of ``other`` squares, the lines of ``size`` squares that cross it."""
    key = (board, size, other)
    found = _CROSS.get(key)
    if found is None:
        mine, theirs = _places_of(board, size), _places_of(board, other)
        out = []
        for own in theirs.squares:
            crossed = 0
            for s in own:
                crossed |= mine.cover[s]
            out.append(crossed)
        found = _CROSS[key] = tuple(out)
    return found


class _Bits:
    """A problem's ships as bitsets of places (worked out once per problem)."""

    def __init__(self, prob: Problem) -> None:
        board = prob.board
        self.n = n = len(prob.ships)
        self.tabs = [_places_of(board, size) for size in prob.sizes]
        self.allowed = []
        for k in range(n):
            index = self.tabs[k].index
            bits = 0
            for m in prob.candidates[k]:
                bits |= 1 << index[m]
            self.allowed.append(bits)
        self.cross = [
            [_crossing(board, prob.sizes[k], prob.sizes[j]) for j in range(n)] for k in range(n)
        ]
        # exactly[k][a][c], at_most[k][a][c]: the places of ship k covering exactly, at most,
        # c squares of area a.
        self.exactly: list[list[list[int]]] = []
        self.at_most: list[list[list[int]]] = []
        for k in range(n):
            tab = self.tabs[k]
            ex_k, le_k = [], []
            for area, _ in prob.areas:
                ex = [0] * (prob.sizes[k] + 1)
                rest = self.allowed[k]
                while rest:
                    low = rest & -rest
                    rest ^= low
                    i = low.bit_length() - 1
                    ex[(tab.lines[i] & area).bit_count()] |= low
                le = list(itertools.accumulate(ex, lambda a, b: a | b))
                ex_k.append(ex)
                le_k.append(le)
            self.exactly.append(ex_k)
            self.at_most.append(le_k)
        # The ships of one size share their lines, so their weights are added up together.
        self.group = [prob.sizes.index(size) for size in prob.sizes]
        self.order = [(-size, k) for k, size in enumerate(prob.sizes)]
        self.cost = sum(len(places) for places in prob.candidates) * (1 + len(prob.areas))

    def blocking(self, k: int, squares: int) -> int:
        cover = self.tabs[k].cover
        out = 0
        while squares:
            low = squares & -squares
            squares ^= low
            out |= cover[low.bit_length() - 1]
        return out


def _choose(bits: int, count: int, rnd: Any, lines: int = 0) -> int:
    """One of the ``count`` set bits of ``bits``, uniformly: when they are at least a quarter
    of ``lines``, a line ``floor(u * lines)`` tried until it is one; else the
    ``floor(u * count)``-th."""
    if 4 * count >= lines > 0:
        while True:
            i = int(rnd() * lines)
            if bits >> i & 1:
                return i
    return _pick(bits, int(rnd() * count))


def _pick(bits: int, r: int) -> int:
    """The index of the ``r``-th set bit of ``bits`` (from 0, lowest first)."""
    base = 0
    while True:
        c = (bits & M64).bit_count()
        if r < c:
            break
        r -= c
        bits >>= 64
        base += 64
    for w in (32, 16, 8, 4, 2, 1):
        low = bits & ((1 << w) - 1)
        c = low.bit_count()
        if r >= c:
            r -= c
            bits >>= w
            base += w
        else:
            bits = low
    return base


def _place(bits: _Bits, pos: list[int], blk: list[int], left: list[int], k: int, i: int) -> int:
    """Ship ``k`` put on its line ``i``: the others' places crossing it are blocked; its
    squares."""
    pos[k] = i
    left.remove(k)
    cross = bits.cross
    for j in left:
        blk[j] |= cross[j][k][i]
    return bits.tabs[k].lines[i]


def _room(bits: _Bits, left: Sequence[int], blk: Sequence[int], wants: Sequence[int]) -> list[int]:
    """Each ship left's places still open: allowed, clear of what is placed, and covering no
    more of each count's area than the count still wants."""
    room = []
    for k in left:
        v = bits.allowed[k] & ~blk[k]
        for a, want in enumerate(wants):
            le = bits.at_most[k][a]
            if want < len(le):
                v &= le[want]
        room.append(v)
    return room


def _bit_draw(
    prob: Problem, bits: _Bits, rng: random.Random, pos: list[int], first: float
) -> tuple[float, int]:
    """One layout drawn down the search tree (as ``_expand`` walks it), with bitsets: (its
    weight, one over the chance of drawing it, or 0 at a dead end; the work done). The
    draw's first random number is ``first``, the rest are the generator's."""
    allowed, tabs = bits.allowed, bits.tabs
    given = [first]

    def rnd() -> float:
        return given.pop() if given else rng.random()

    blk = [0] * bits.n
    left = list(range(bits.n))
    occ = 0
    empty = prob.blocked
    weight = 1.0
    work = 0
    while True:
        work += 12 + 6 * len(left) + 12 * len(prob.areas)
        must = prob.required & ~occ
        slack: tuple[int, int, float] | None = None
        wants = []
        newly = 0
        for area, need in prob.areas:
            want = need - (occ & area).bit_count()
            undecided = area & ~occ & ~empty
            n = undecided.bit_count()
            if want < 0 or want > n:
                return 0.0, work
            if want == 0:
                newly |= undecided
            elif want == n:
                must |= undecided
            elif slack is None or n - want < slack[0]:
                slack = (n - want, undecided, want / n)
            wants.append(want)
        if newly:
            empty |= newly
            for k in left:
                blk[k] |= bits.blocking(k, newly)
            work += len(left) * newly.bit_count()
        if must & empty:
            return 0.0, work
        if not must and slack is None:
            break
        if not left:
            return 0.0, work
        if not must:
            # A count square: open water, or a ship on it. Whether any ship could reach it
            # is asked of the places clear of the others (the count's limits are asked only
            # when the draw puts a ship there: a dead end then weighs 0).
            assert slack is not None
            _, undecided, share = slack
            low = undecided & -undecided
            s = low.bit_length() - 1
            work += len(left)
            reach = any(allowed[k] & ~blk[k] & tabs[k].cover[s] for k in left)
            if not reach or rnd() >= share:
                if reach:
                    weight /= 1.0 - share
                empty |= low
                for k in left:
                    blk[k] |= tabs[k].cover[s]
                continue
        room = _room(bits, left, blk, wants)
        if must:
            best = -1
            counts: list[int] = []
            rest = must
            while rest:
                low = rest & -rest
                rest ^= low
                s = low.bit_length() - 1
                here = [(v & tabs[k].cover[s]).bit_count() for k, v in zip(left, room, strict=True)]
                work += 3 * len(left)
                total = sum(here)
                if best < 0 or total < sum(counts):
                    best, counts = s, here
                    if total <= 1:
                        break
            s, share = best, 1.0
        else:
            counts = [(v & tabs[k].cover[s]).bit_count() for k, v in zip(left, room, strict=True)]
        if not sum(counts):
            return 0.0, work
        # A way that uses a ship leaves the others fewer to place: each is drawn with a
        # chance in proportion to one over the places its ship has left.
        odds = [c / v.bit_count() if c else 0.0 for c, v in zip(counts, room, strict=True)]
        whole = sum(odds)
        u = rnd() * whole
        pick = 0
        while pick < len(left) - 1 and (u >= odds[pick] or not counts[pick]):
            u -= odds[pick]
            pick += 1
        while not counts[pick]:  # rounding at the very end: the last ship with a way
            pick -= 1
        k = left[pick]
        weight *= whole * room[pick].bit_count() / share
        i = _choose(room[pick] & tabs[k].cover[s], counts[pick], rnd)
        occ |= _place(bits, pos, blk, left, k, i)
    return _bit_free(bits, rnd, pos, blk, left, weight, work)


def _bit_free(
    bits: _Bits,
    rnd: Any,
    pos: list[int],
    blk: list[int],
    left: list[int],
    weight: float,
    work: int,
) -> tuple[float, int]:
    """The ships left placed largest first, each uniformly among its places clear of the
    others (the weight times the number of those places)."""
    allowed = bits.allowed
    for k in sorted(left, key=bits.order.__getitem__):
        v = allowed[k] & ~blk[k]
        c = v.bit_count()
        work += 3 + len(left)
        if not c:
            return 0.0, work
        weight *= c
        _place(bits, pos, blk, left, k, _choose(v, c, rnd, len(bits.tabs[k].lines)))
    return weight, work


class _Tally:
    """Weighted draws kept in batches: for each batch and group of ships of one size, the
    weight of each place (as 64-bit fields of one integer, and place by place when few)."""

    def __init__(self, prob: Problem, bits: _Bits, batches: int) -> None:
        self.prob, self.bits = prob, bits
        groups = len(bits.tabs)
        self.fields = [[0] * groups for _ in range(batches)]
        self.few: list[list[dict[int, float]]] = [
            [{} for _ in range(groups)] for _ in range(batches)
        ]
        self.totals = [0.0] * batches
        self.ref = 0.0

    def add(self, b: int, pos: list[int], weight: float) -> int:
        """A drawn layout counted ship by ship over every place the ship could take given all
        the others (the Rao-Blackwell estimate); the work."""
        prob, bits = self.prob, self.bits
        if not self.ref:
            self.ref = weight
        self.totals[b] += weight
        n = bits.n
        tabs, cross, allowed, exactly = bits.tabs, bits.cross, bits.allowed, bits.exactly
        own = [tabs[k].lines[pos[k]] for k in range(n)]
        everyone = 0
        for m in own:
            everyone |= m
        fields, few = self.fields[b], self.few[b]
        work = 0
        for k in range(n):
            crossed = 0
            cross_k = cross[k]
            for j in range(n):
                if j != k:
                    crossed |= cross_k[j][pos[j]]
            v = allowed[k] & ~crossed
            others = everyone & ~own[k]
            must = prob.required & ~others
            cover = tabs[k].cover
            while must:
                low = must & -must
                must ^= low
                v &= cover[low.bit_length() - 1]
            for a, (area, need) in enumerate(prob.areas):
                ex = exactly[k][a]
                want = need - (others & area).bit_count()
                v &= ex[want] if 0 <= want < len(ex) else 0
            c = v.bit_count()
            share = weight / c
            g = bits.group[k]
            q = round(share / self.ref * SCALE)
            work += 4 + n
            if c <= FEW or q >= 1 << 40:
                d = few[g]
                while v:
                    low = v & -v
                    v ^= low
                    i = low.bit_length() - 1
                    d[i] = d.get(i, 0.0) + share
                work += c
            else:
                spread = b"".join(map(_BYTE, v.to_bytes(tabs[k].width, "little")))
                fields[g] += int.from_bytes(spread, "little") * q
                work += tabs[k].width
        return work

    def per_batch(self) -> list[list[float]]:
        """Each batch's weight on each square."""
        unit = self.ref / SCALE
        return [
            _unpacked(self.prob, self.bits, fields, few, unit)
            for fields, few in zip(self.fields, self.few, strict=True)
        ]


def _unpacked(
    prob: Problem, bits: _Bits, fields: list[int], few: list[dict[int, float]], unit: float
) -> list[float]:
    """The weight on each square of places kept as 64-bit fields (times ``unit``) and place
    by place, for each group of ships of one size."""
    board = prob.board
    weights = [0.0] * (board.columns * board.rows)
    for g, tab in enumerate(bits.tabs):
        if bits.group[g] != g:
            continue
        lines = len(tab.lines)
        values = struct.unpack(f"<{lines}Q", fields[g].to_bytes(lines * 8, "little"))
        extra = few[g]
        squares = tab.squares
        for i, value in enumerate(values):
            w = value * unit + extra.get(i, 0.0)
            if w:
                for s in squares[i]:
                    weights[s] += w
    return weights
