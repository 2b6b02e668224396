"""The exact odds of a dice notation's total, foreseen before they are worked out.

Chances are counted as integers throughout: the ways of each total out of every equally
likely sequence of draws (``out_of``); fractions are made only for the answer. The odds
follow the roll's own order (service/engine/notation.py): a die's face once rerolled (its
reroll cap included), its value after min and max, its chain of explosions, then the
term's dice folded together, then the terms added up.

**Sums** (a term with no keep or drop, success counts included) are polynomials: the
coefficient of x^t is the ways of the total t, and independent parts add up as their
polynomials multiply. The multiplication is Python's own big-integer one (Kronecker
substitution: the coefficients packed side by side into one integer, each in a slot wide
enough that no sum can carry into the next), so 100d6 is a few multiplications done in C,
not 150,000 additions in Python. **Keeps and drops** fold the pool die by die, each state
the few highest or lowest values so far (and, for a drop, the sum of all).

**The work is foreseen first.** The same steps run twice: once on the shapes alone (each
distribution's range of totals, how many ways it counts, how many keep states it can
reach), which costs next to nothing and tells what the whole would cost; that is charged
to the request's budget at once (service/engine/budget.py), so a notation whose odds cost
more than a request may spend is refused before any of the work. Then the steps run with
the numbers, and the charges they make are the ones foreseen (a keep's are at most those).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, comb, floor
from typing import Any

from . import budget as work
from . import notation_math as nm
from .errors import LimitError
from .notation import Notation, Term, kept_slice
from .notation_math import Spans

WHAT = "working out the exact odds of this notation"
CHANGE = (
    "roll fewer dice, dice of fewer sides, or fewer rerolls, explosions or kept dice, "
    "or roll it with /v1/dice/roll"
)

# What each piece of the work costs, in budget units (about 0.1 us of CPU), measured with
# bench/worst_case.py, which prints the units each case spent beside its CPU
# (docs/performance.md, *Work budget*).
FACE_UNITS = 3  # a face of a die: its chance once rerolled, its value after min and max
SLOT_UNITS = 4  # a coefficient packed into, or read out of, a big integer
PAIR_UNITS = 3  # a (state, value) pair of a keep's fold: values merged, sorted, counted
BITS_PER_UNIT = 1200  # a pair's numbers: one unit more for each this many bits
OUTCOME_UNITS = 130  # an outcome of the answer: its fraction, order, JSON and signature
DIGITS_PER_UNIT = 1  # and its numbers' digits: written out, read back, signed
DIGITS_SQUARED_PER_UNIT = 4000  # writing a number's digits out costs their square
MULTIPLY_SCALE = 10  # a big multiplication: (digits of the larger x digits of the
# smaller ** 0.585) / MULTIPLY_SCALE units, in 30-bit digits (CPython's Karatsuba)


class _Plan:
    """The work so far: foreseen (``dry``: nothing is worked out) or being done."""

    def __init__(self, dry: bool) -> None:
        self.dry = dry
        self.units = 0
        self.budget = work.current()

    def spend(self, units: int) -> None:
        self.units += units
        if self.dry:
            # stop foreseeing once it is past what is left: the answer is known
            if self.units > self.budget.left:
                self.budget.afford(self.units, WHAT, CHANGE, field="notation")
        else:
            self.budget.charge(units, WHAT, CHANGE, field="notation")


@dataclass(frozen=True)
class _Ways:
    """Ways of each integer total in ``lo..hi``, out of ``out_of`` (``ways`` is None while
    the work is only foreseen)."""

    ways: dict[int, int] | None
    lo: int
    hi: int
    out_of: int

    @property
    def slots(self) -> int:
        return self.hi - self.lo + 1


def _slot_bytes(out_of: int) -> int:
    """No coefficient passes ``out_of`` (all of them add up to it): a slot holds it."""
    return out_of.bit_length() // 8 + 1


def _multiply_units(a_bits: int, b_bits: int) -> int:
    big, small = max(a_bits, b_bits) / 30 + 1, min(a_bits, b_bits) / 30 + 1
    return int(big * small**0.585 / MULTIPLY_SCALE) + 1


def _pack(p: _Ways, width: int) -> int:
    assert p.ways is not None
    buffer = bytearray(p.slots * width)
    for total, n in p.ways.items():
        at = (total - p.lo) * width
        buffer[at : at + width] = n.to_bytes(width, "little")
    return int.from_bytes(buffer, "little")


def _unpack(packed: int, lo: int, slots: int, width: int) -> dict[int, int]:
    data = packed.to_bytes(slots * width, "little")
    out: dict[int, int] = {}
    for i in range(slots):
        n = int.from_bytes(data[i * width : (i + 1) * width], "little")
        if n:
            out[lo + i] = n
    return out


def _multiply(a: _Ways, b: _Ways, plan: _Plan) -> _Ways:
    """The distribution of a total plus an independent one."""
    lo, hi, out_of = a.lo + b.lo, a.hi + b.hi, a.out_of * b.out_of
    width = _slot_bytes(out_of)
    slots = hi - lo + 1
    plan.spend(
        (a.slots + b.slots + slots) * SLOT_UNITS
        + _multiply_units(a.slots * width * 8, b.slots * width * 8)
    )
    if plan.dry:
        return _Ways(None, lo, hi, out_of)
    packed = _pack(a, width) * _pack(b, width)
    return _Ways(_unpack(packed, lo, slots, width), lo, hi, out_of)


def _power(p: _Ways, times: int, plan: _Plan) -> _Ways:
    """``times`` independent copies added up, by repeated squaring."""
    result: _Ways | None = None
    square = p
    while True:
        if times & 1:
            result = square if result is None else _multiply(result, square, plan)
        times >>= 1
        if not times:
            break
        square = _multiply(square, square, plan)
    assert result is not None
    return result


def _mix(stop: _Ways, go: _Ways, then: _Ways, plan: _Plan) -> _Ways:
    """A die that stops (``stop``) or goes on (``go``) to what follows (``then``): the
    ways of stopping counted over every way the rest could have gone."""
    chained = _multiply(go, then, plan)
    out_of = chained.out_of
    lo, hi = min(stop.lo, chained.lo), max(stop.hi, chained.hi)
    plan.spend((stop.slots + chained.slots) * SLOT_UNITS)
    if plan.dry:
        return _Ways(None, lo, hi, out_of)
    assert stop.ways is not None and chained.ways is not None
    ways = dict(chained.ways)
    for total, n in stop.ways.items():
        ways[total] = ways.get(total, 0) + n * then.out_of
    return _Ways(ways, lo, hi, out_of)


# --- one die and its chain ------------------------------------------------------------------


def _rerolled(term: Term) -> dict[int, int]:
    """The value a die stands on once a reroll has replaced it, with its ways out of
    ``sides ** cap``: a fresh face that does not meet the reroll stands after any of the
    rerolls (sum of M^i N^(cap-1-i) ways, with M of the N draws meeting it), one that meets it
    only as the last (M^(cap-1) ways). A replacement is drawn as it is: no min or max."""
    point, cap = term.reroll, term.reroll_cap
    faces = term.face_ways()
    n = term.sides
    if point is None or cap == 0:
        return dict(faces)
    m = sum(w for face, w in faces.items() if point(face))
    stays = sum(m**i * n ** (cap - 1 - i) for i in range(cap))
    last = m ** (cap - 1)
    return {face: w * (last if point(face) else stays) for face, w in faces.items()}


def _reroll_out_of(term: Term) -> int:
    """The draws of a die's rerolls: ``sides`` for each, to its cap."""
    out_of: int = term.sides ** (term.reroll_cap if term.reroll is not None else 0)
    return out_of


def _settled(
    term: Term, dice: list[tuple[bool, int, int]], rerolled: dict[int, int]
) -> list[tuple[bool, int, int]]:
    """Each die (whether it goes on, its value, its ways) as it stands once rerolled, out of
    ``_reroll_out_of``: the dice a reroll replaces are gathered first, so each kind of die
    reads the rerolled faces once, not once a value."""
    point, stays = term.reroll, _reroll_out_of(term)
    out: list[tuple[bool, int, int]] = []
    replaced: dict[bool, int] = {}
    for goes, value, ways in dice:
        if point is not None and point(value):
            replaced[goes] = replaced.get(goes, 0) + ways
        else:
            out.append((goes, value, ways * stays))
    for goes, ways in replaced.items():
        out += [(goes, after, ways * w) for after, w in rerolled.items()]
    return out


Entry = tuple[bool, int, int]  # goes on to the next die of the chain, its value, its ways


def _entries(term: Term, first: bool, settle: bool, plan: _Plan) -> list[Entry] | None:
    """Each way a die of a chain goes: one of the N dice (``first``: after min and max) or
    an explosion (its face, one less if penetrating); whether it explodes (on its value, or
    an explosion's face) and the value it stands on (once rerolled, where ``settle``)."""
    faces = term.face_ways()
    plan.spend(len(faces) * FACE_UNITS * (2 if settle else 1))
    if plan.dry:
        return None
    point = term.explode
    out: list[Entry] = []
    for face, w in faces.items():
        value = term.value(face) if first else face - (1 if term.penetrate else 0)
        goes = point is not None and point(value if first else face)
        out.append((goes, value, w))
    return _settled(term, out, _rerolled(term)) if settle else out


def _span(term: Term, settle: bool) -> tuple[int, int]:
    """The least and most value any die of a chain may stand on (foreseen, from intervals)."""
    lows = [term.value(term.least), term.least - (1 if term.penetrate else 0)]
    highs = [term.value(term.most), term.most]
    if settle and term.reroll is not None:
        lows.append(term.least)
    return min(lows), max(highs)


def _keyed_span(lo: int, hi: int, key: Callable[[int], int], term: Term) -> tuple[int, int]:
    """The least and most ``key`` over ``lo..hi``: a score changes only at its compare
    points, so looking at the ends and those points is enough."""
    edges = [e for point in (term.success, term.failure) if point is not None for e in point.edges]
    seen = [key(x) for x in (lo, hi, *(e for e in edges if lo <= e <= hi))]
    return min(seen), max(seen)


def _split(
    entries: list[Entry] | None,
    out_of: int,
    key: Callable[[int], int],
    span: tuple[int, int],
) -> tuple[_Ways, _Ways, _Ways]:
    """A die's values keyed by ``key``: all of them, those that stop, those that explode
    (foreseen: each within ``span``)."""
    if entries is None:
        shape = _Ways(None, span[0], span[1], out_of)
        return shape, shape, shape
    every: dict[int, int] = {}
    stop: dict[int, int] = {}
    go: dict[int, int] = {}
    for goes, value, n in entries:
        keyed = key(value)
        every[keyed] = every.get(keyed, 0) + n
        part = go if goes else stop
        part[keyed] = part.get(keyed, 0) + n

    def ways(keyed: dict[int, int]) -> _Ways:
        return _Ways(keyed, min(keyed), max(keyed), out_of) if keyed else _Ways({}, 0, 0, out_of)

    return ways(every), ways(stop), ways(go)


def _chain(term: Term, plan: _Plan, key: Callable[[int], int], settle: bool) -> _Ways:
    """One of the N dice with its explosions, each die of the chain keyed by ``key`` and
    summed: the first die as min and max leave it, then explosions to the term's cap."""
    out_of = term.sides * (_reroll_out_of(term) if settle else 1)
    lo, hi = _span(term, settle)
    span = _keyed_span(lo, hi, key, term)
    every, stop, go = _split(_entries(term, True, settle, plan), out_of, key, span)
    if term.explode is None or term.explosion_cap == 0:
        return every
    later, later_stop, later_go = _split(_entries(term, False, settle, plan), out_of, key, span)
    chain = later  # at the cap the last die stands, whatever it shows
    for _ in range(term.explosion_cap - 1):
        chain = _mix(later_stop, later_go, chain, plan)
    return _mix(stop, go, chain, plan)


def _compounded(term: Term, plan: _Plan) -> _Ways:
    """A compounding die: its chain's summed value, then rerolled as one die."""
    chain = _chain(term, plan, lambda value: value, settle=False)
    if term.reroll is None:
        return chain
    plan.spend(chain.slots * SLOT_UNITS + len(term.face_ways()) * FACE_UNITS)
    out_of = chain.out_of * _reroll_out_of(term)
    lo, hi = min(chain.lo, term.least), max(chain.hi, term.most)
    if chain.ways is None:
        return _Ways(None, lo, hi, out_of)
    ways: dict[int, int] = {}
    chained = [(False, value, n) for value, n in chain.ways.items()]
    for _, value, n in _settled(term, chained, _rerolled(term)):
        ways[value] = ways.get(value, 0) + n
    return _Ways(ways, min(ways), max(ways), out_of)


def _die(term: Term, plan: _Plan) -> _Ways:
    """A die of a term that does not explode into the pool: its value as it stands."""
    if term.compound:
        return _compounded(term, plan)
    return _chain(term, plan, lambda value: value, settle=True)


def _score_range(term: Term) -> tuple[int, int]:
    return (-1 if term.failure is not None else 0), 1


def _scored(term: Term, die: _Ways, plan: _Plan) -> _Ways:
    """A die's values as the scores they add."""
    if term.success is None:
        return die
    lo, hi = _score_range(term)
    plan.spend(die.slots * SLOT_UNITS)
    if die.ways is None:
        return _Ways(None, lo, hi, die.out_of)
    scored: dict[int, int] = {}
    for value, n in die.ways.items():
        s = term.score(value)
        scored[s] = scored.get(s, 0) + n
    return _Ways(scored, min(scored), max(scored), die.out_of)


def _sum_term(term: Term, plan: _Plan) -> _Ways:
    """A term with no keep or drop: its dice's scores added up."""
    if term.compound:
        die = _scored(term, _compounded(term, plan), plan)
    else:
        die = _chain(term, plan, term.score, settle=True)
    return _power(die, term.count, plan)


# --- keep and drop: order statistics of a pool of like dice ---------------------------------

# a step of the sorted fold: a polynomial scaled, shifted and added (about 1.5 us), and one
# unit more for each ``STEP_BYTES`` bytes of the polynomial (2d1000kh1: 3,000 steps of 3 KB)
STEP_UNITS = 15
STEP_BYTES = 200


def _sorted_fold(term: Term, plan: _Plan) -> _Ways:
    """The kept dice of N like dice, sorted: the values are taken from one end, a value at
    a time, and for each, how many of the dice show it (in C(left, j) w^j ways); a state is
    how many dice have been placed, with a polynomial of the kept scores so far (packed
    side by side in one integer). Once every kept place is filled, the rest of the dice take
    any of the values not yet reached at once."""
    die = _die(term, plan)
    n = term.count
    lo, hi = kept_slice(term, n)
    # from the end nearer the kept places
    descending = n - lo < hi
    first, last = (n - hi, n - lo) if descending else (lo, hi)
    s_lo, s_hi = (die.lo, die.hi) if term.success is None else _score_range(term)
    s_lo, s_hi = min(s_lo, 0), max(s_hi, 0)
    kept = last - first
    slots = kept * (s_hi - s_lo) + 1
    out_of = die.out_of**n
    width = _slot_bytes(out_of)
    values = die.slots
    # per value, per state (dice placed so far), per count of dice showing it
    plan.spend(values * max(last, 1) * (n + 1) * (STEP_UNITS + slots * width // STEP_BYTES))
    plan.spend(slots * SLOT_UNITS * 2)
    if die.ways is None:
        return _Ways(None, kept * s_lo, kept * s_hi, out_of)
    if kept == 0:
        return _Ways({0: out_of}, 0, 0, out_of)
    order = sorted(die.ways, reverse=descending)
    left_ways = sum(die.ways.values())
    states: dict[int, int] = {0: 1}  # placed -> packed polynomial of kept score - kept*s_lo
    done = 0  # packed: the states whose kept places are all filled, completed
    for value in order:
        w = die.ways[value]
        left_ways -= w
        shift = (term.score(value) - s_lo) * width * 8
        following: dict[int, int] = {}
        for placed, poly in states.items():
            for j in range(n - placed + 1):
                ways = comb(n - placed, j) * w**j
                now = placed + j
                taken = max(0, min(now, last) - max(placed, first))
                moved = (poly * ways) << (shift * taken)
                if now >= last:
                    # every kept place filled: the rest show values not yet reached
                    done += moved * left_ways ** (n - now)
                else:
                    following[now] = following.get(now, 0) + moved
        states = following
    totals = _unpack(done, kept * s_lo, slots, width)
    return _Ways(totals, min(totals), max(totals), out_of)


def _multisets(kinds: int, size: int) -> int:
    """Sorted tuples of at most ``size`` values of ``kinds`` kinds."""
    return comb(kinds + size, size) if size < 64 else work.NO_LIMIT  # too many to matter


def _exploding_keep(term: Term, plan: _Plan) -> _Ways:
    """A keep or a drop of a pool its explosions grow: folded die by die, each state the few
    values kept (or dropped) so far and, for a drop, the sum of every score."""
    picks = term.picks
    if sum(1 for n in picks.counts() if n) > 1:
        raise LimitError(
            f"the exact odds of {term}, an exploding pool with more than one keep or drop, "
            "are not worked out; roll it with /v1/dice/roll",
            field="notation",
        )
    dropping = bool(picks.drop_high or picks.drop_low)
    n = max(picks.counts())
    highest = bool(picks.keep_high or picks.drop_high)
    score = term.score

    def pick(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(a + b, reverse=highest)[:n])

    v_lo, v_hi = _span(term, True)
    kinds, links = v_hi - v_lo + 1, 1 + term.explosion_cap
    s_lo, s_hi = (v_lo, v_hi) if term.success is None else _score_range(term)
    out_of = term.sides * _reroll_out_of(term)
    bits = 1 + (out_of.bit_length() * links * term.count) // BITS_PER_UNIT
    pair = PAIR_UNITS + bits + n // 4

    def foreseen_states(dice: int) -> int:
        picked = _multisets(kinds, min(n, dice))
        if not dropping:
            return picked
        return min(work.NO_LIMIT, picked * ((s_hi - s_lo) * dice + 1))

    first = _entries(term, True, True, plan)
    later = _entries(term, False, True, plan)
    State = tuple[int, tuple[int, ...]]

    def own(value: int) -> State:
        return (score(value) if dropping else 0, (value,))

    # the chain from its end: the last die stands whatever it shows
    chain: dict[State, int] | None = None
    if later is not None:
        chain = {}
        for _, value, w in later:
            chain[own(value)] = chain.get(own(value), 0) + w
    chain_out_of = out_of
    for link in range(1, links):
        plan.spend(kinds * foreseen_states(link) * pair)
        entries = first if link == links - 1 else later
        if chain is None or entries is None:
            chain_out_of *= out_of
            continue
        following: dict[State, int] = {}
        for goes, value, w in entries:
            mine = own(value)
            if not goes:
                following[mine] = following.get(mine, 0) + w * chain_out_of
                continue
            for (s, kept), v in chain.items():
                state = (mine[0] + s, pick(mine[1], kept))
                following[state] = following.get(state, 0) + w * v
        chain = following
        chain_out_of *= out_of
    die_states = foreseen_states(links)

    states: dict[State, int] | None = None if chain is None else {(0, ()): 1}
    joins: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
    for count in range(term.count):
        plan.spend(foreseen_states(count * links) * die_states * pair)
        if states is None or chain is None:
            continue
        grown: dict[State, int] = {}
        for (s, kept), w in states.items():
            for (t, more), v in chain.items():
                joined = joins.get((kept, more))
                if joined is None:
                    joined = joins[kept, more] = pick(kept, more)
                state = (s + t, joined)
                grown[state] = grown.get(state, 0) + w * v
        states = grown
    total_out_of = chain_out_of**term.count
    dice = term.count * links
    lo, hi = min(s_lo, 0) * dice, max(s_hi, 0) * dice
    plan.spend(foreseen_states(term.count * links) * SLOT_UNITS)
    if states is None:
        return _Ways(None, lo, hi, total_out_of)
    totals: dict[int, int] = {}
    for (s, kept), w in states.items():
        picked = sum(map(score, kept))
        total = s - picked if dropping else picked
        totals[total] = totals.get(total, 0) + w
    return _Ways(totals, min(totals), max(totals), total_out_of)


def _term(term: Term, plan: _Plan) -> _Ways:
    if term.unique:
        raise LimitError(
            f"the exact odds of {term} are not worked out: unique dice depend on each "
            "other's order; roll it with /v1/dice/roll",
            field="notation",
        )
    if not term.picks:
        return _sum_term(term, plan)
    if term.explode is not None and term.explosion_cap and not term.compound:
        return _exploding_keep(term, plan)
    return _sorted_fold(term, plan)


# --- the whole notation ---------------------------------------------------------------------


# --- arithmetic over the terms: each node's distribution from its children's -------------


@dataclass(frozen=True)
class _Values:
    """Ways of each value (a fraction, in general) out of ``out_of``; while the work is only
    foreseen, ``ways`` is None and ``size`` bounds how many values there are."""

    ways: dict[nm.Number, int] | None
    size: int
    lo: nm.Number
    hi: nm.Number
    out_of: int


def _values(part: _Ways) -> _Values:
    ways: dict[nm.Number, int] | None = None
    if part.ways is not None:
        ways = {t: n for t, n in part.ways.items()}
    return _Values(ways, part.slots, part.lo, part.hi, part.out_of)


def _whole_ways(part: _Values, bound: nm.Span) -> _Ways:
    """A whole-numbered part as a polynomial's ways (foreseen: over its bound)."""
    if part.ways is None:
        return _Ways(None, floor(bound.lo), ceil(bound.hi), part.out_of)
    ways = {int(v): n for v, n in part.ways.items()}
    return _Ways(ways, min(ways), max(ways), part.out_of)


def _node(node: nm.Expr, notation: Notation, spans: Spans, plan: _Plan) -> _Values:
    match node:
        case nm.Num(value):
            return _Values({value: 1}, 1, value, value, 1)
        case nm.Dice(index):
            return _values(_term(notation.terms[index], plan))
        case nm.Neg(arg):
            return _unary(nm.UNARY["-"], _node(arg, notation, spans, plan), plan)
        case nm.Op(op, left, right, _):
            a, b = _node(left, notation, spans, plan), _node(right, notation, spans, plan)
            left_span, right_span = spans[id(left)], spans[id(right)]
            if op in ("+", "-") and left_span.whole and right_span.whole:
                # whole numbers: a sum multiplies polynomials, as the terms of a sum do
                x, y = _whole_ways(a, left_span), _whole_ways(b, right_span)
                if op == "-":
                    flipped = None if y.ways is None else {-t: n for t, n in y.ways.items()}
                    y = _Ways(flipped, -y.hi, -y.lo, y.out_of)
                return _values(_multiply(x, y, plan))
            return _pairs(nm.BINARY[op], a, b, plan)
        case nm.Call(name, args, _):
            parts = [_node(arg, notation, spans, plan) for arg in args]
            if len(parts) == 1:
                return _unary(nm.UNARY[name], parts[0], plan)
            return _pairs(nm.BINARY[name], parts[0], parts[1], plan)
        case nm.Group(items):
            parts = [_node(item, notation, spans, plan) for item in items]
            return _group(node, parts, [spans[id(item)] for item in items], plan)
    raise AssertionError(node)


def _group(group: nm.Group, parts: list[_Values], bounds: list[nm.Span], plan: _Plan) -> _Values:
    """A roll group: its sub-rolls' totals (whole numbers) added up, scored, or kept and
    dropped: folded sub-roll by sub-roll, each state the highest totals that can still be
    kept, sorted, and the ways of it."""
    m = len(parts)
    lo, hi = group.picks.kept(m)
    scored = [p if group.success is None else _unary(group.score, p, plan) for p in parts]
    if (lo, hi) == (0, m):  # everything kept: a sum
        total = _Ways({0: 1}, 0, 0, 1)
        for part, bound in zip(scored, bounds, strict=True):
            shape = bound if group.success is None else nm.Span(-1, 1, True)
            total = _multiply(total, _whole_ways(part, shape), plan)
        return _values(total)
    top = m - lo  # the highest ``top`` totals hold every kept one
    # the totals are whole numbers within the sub-rolls' bounds
    kinds = int(max(b.hi for b in bounds) - min(b.lo for b in bounds)) + 1
    out_of = 1
    for part in parts:
        out_of *= part.out_of
    states: dict[tuple[nm.Number, ...], int] | None = {(): 1}
    for index, part in enumerate(parts):
        # a pair: its totals sorted and cut, a little dearer than a keep's pair (measured:
        # six 4d6kh3 keeping 3, about 28 ms)
        plan.spend(_multisets(kinds, min(top, index)) * part.size * (PAIR_UNITS + 1))
        if states is None or part.ways is None:
            states = None
            continue
        grown: dict[tuple[nm.Number, ...], int] = {}
        for state, w in states.items():
            for value, n in part.ways.items():
                key = tuple(sorted((*state, value), reverse=True)[:top])
                grown[key] = grown.get(key, 0) + w * n
        states = grown
    kept = hi - lo
    scores = 3 if group.success is not None else kinds  # what one kept total may add
    size = min(_multisets(kinds, top), kept * (scores - 1) + 1)  # the sums of ``kept``
    plan.spend(_multisets(kinds, top) * SLOT_UNITS)
    if states is None:
        return _Values(None, size, 0, 0, out_of)
    ways: dict[nm.Number, int] = {}
    for state, w in states.items():
        value = sum((group.score(v) for v in state[m - hi : m - lo]), 0)
        ways[value] = ways.get(value, 0) + w
    return _Values(ways, len(ways), min(ways), max(ways), out_of)


def _unary(f: Callable[[nm.Number], nm.Number], a: _Values, plan: _Plan) -> _Values:
    plan.spend(a.size * PAIR_UNITS)
    corners = (f(a.lo), f(a.hi))
    if a.ways is None:
        return _Values(None, a.size, min(corners), max(corners), a.out_of)
    ways: dict[nm.Number, int] = {}
    for v, n in a.ways.items():
        w = f(v)
        ways[w] = ways.get(w, 0) + n
    return _Values(ways, len(ways), min(ways), max(ways), a.out_of)


def _pairs(
    f: Callable[[nm.Number, nm.Number], nm.Number], a: _Values, b: _Values, plan: _Plan
) -> _Values:
    """Every value of ``a`` with every value of ``b``: charged pair by pair."""
    bits = 1 + (a.out_of.bit_length() + b.out_of.bit_length()) // BITS_PER_UNIT
    plan.spend(a.size * b.size * (PAIR_UNITS + bits))
    out_of = a.out_of * b.out_of
    if a.ways is None or b.ways is None:
        return _Values(None, a.size * b.size, a.lo, a.hi, out_of)
    ways: dict[nm.Number, int] = {}
    for x, n in a.ways.items():
        for y, m in b.ways.items():
            v = f(x, y)
            ways[v] = ways.get(v, 0) + n * m
    return _Values(ways, len(ways), min(ways), max(ways), out_of)


def _expression(notation: Notation, plan: _Plan) -> _Ways:
    """The distribution of a notation's expression: whole numbers (it was read so)."""
    assert notation.expression is not None
    spans: Spans = {}
    nm.span(notation.expression, [term.total_span() for term in notation.terms], spans)
    found = _node(notation.expression, notation, spans, plan)
    digits = found.out_of.bit_length() * 3 // 10 + 1
    plan.spend(found.size * (OUTCOME_UNITS + digits // DIGITS_PER_UNIT))
    if found.ways is None:
        return _Ways(None, 0, found.size - 1, found.out_of)  # its size is what counts
    ways = {int(v): n for v, n in found.ways.items()}
    return _Ways(ways, min(ways), max(ways), found.out_of)


def _run(notation: Notation, plan: _Plan) -> _Ways:
    if notation.expression is not None:
        return _expression(notation, plan)
    total: _Ways | None = None if notation.terms else _Ways({0: 1}, 0, 0, 1)
    for term in notation.terms:
        part = _term(term, plan)
        if term.sign < 0:
            flipped = None if part.ways is None else {-t: n for t, n in part.ways.items()}
            part = _Ways(flipped, -part.hi, -part.lo, part.out_of)
        total = part if total is None else _multiply(total, part, plan)
    assert total is not None
    digits = total.out_of.bit_length() * 3 // 10 + 1
    plan.spend(
        total.slots
        * (
            OUTCOME_UNITS
            + digits // DIGITS_PER_UNIT
            + 2 * digits * digits // DIGITS_SQUARED_PER_UNIT
        )
    )
    return total


def odds(notation: Notation) -> dict[int, Fraction]:
    """The exact distribution of the notation's total, or a ``limit`` refusal before any of
    the work when it would cost more than the request's budget."""
    foreseen = _Plan(dry=True)
    _run(notation, foreseen)
    plan = _Plan(dry=False)
    plan.budget.afford(foreseen.units, WHAT, CHANGE, field="notation")
    result = _run(notation, plan)
    assert result.ways is not None
    c = notation.constant
    return {t + c: Fraction(n, result.out_of) for t, n in sorted(result.ways.items())}


def foresee(notation: Notation) -> tuple[int, int]:
    """What the odds of ``notation`` are foreseen to cost, in budget units, and how many
    totals they may have (a ``limit`` refusal first if the cost passes what is left)."""
    plan = _Plan(dry=True)
    total = _run(notation, plan)
    return plan.units, total.slots


def foreseen_units(notation: Notation) -> int:
    """What the odds of ``notation`` are foreseen to cost, in budget units, whatever the
    budget (the tests hold the work done to it)."""
    with work.scope(work.NO_LIMIT):
        return foresee(notation)[0]


def outcomes(notation: Notation) -> list[tuple[Mapping[str, Any], Fraction]]:
    """The odds as (result, chance) pairs, in the form every ``/odds`` answers."""
    return [({"total": total}, p) for total, p in odds(notation).items()]
