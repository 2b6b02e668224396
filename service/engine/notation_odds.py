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
from math import comb
from typing import Any

from . import budget as work
from .notation import Notation, Term

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


_NEVER = (1, 0)  # an interval nothing meets


def _face_ways(term: Term, plan: _Plan) -> tuple[dict[int, int], int]:
    """Each value a die of the term stands on (once rerolled, after min and max), with its
    ways out of ``faces ** (rerolls + 1)``: with m of the n faces meeting the reroll and k
    rerolls, a face that does not meet it stands in sum(m^i n^(k-i)) ways, one that meets
    it only as the last die (m^k ways). Compare points are intervals, so this reads each
    face once with no call."""
    faces = term.faces
    plan.spend(len(faces) * FACE_UNITS)
    n, k = len(faces), term.rerolls()
    lo, hi = term.reroll.bounds if term.reroll is not None and k else _NEVER
    m = max(0, min(hi, faces[-1]) - max(lo, faces[0]) + 1)
    stays = sum(m**i * n ** (k - i) for i in range(k + 1))
    last = m**k
    far = 1 << 30
    least = -far if term.minimum is None else term.minimum
    most = far if term.maximum is None else term.maximum
    values: dict[int, int] = {}
    for face in faces:
        ways = last if lo <= face <= hi else stays
        if ways:
            value = least if face < least else face  # min, then max, as a roll applies them
            if value > most:
                value = most
            values[value] = values.get(value, 0) + ways
    return values, _out_of(term)


def _out_of(term: Term) -> int:
    """Every sequence of draws a die of the term can stand on: its faces, once and again
    for each reroll."""
    out_of: int = len(term.faces) ** (term.rerolls() + 1)
    return out_of


def _scorer(term: Term) -> Callable[[int], int]:
    """``term.score`` with its compare points read as intervals."""
    if term.success is None:
        return lambda value: value
    s_lo, s_hi = term.success.bounds
    f_lo, f_hi = term.failure.bounds if term.failure is not None else _NEVER
    return lambda value: 1 if s_lo <= value <= s_hi else -1 if f_lo <= value <= f_hi else 0


def _split(
    term: Term, values: dict[int, int], out_of: int, key: Callable[[int], int]
) -> tuple[_Ways, _Ways, _Ways]:
    """The die's values keyed by ``key``: all of them, those that stop, those that
    explode."""
    lo, hi = term.explode.bounds if term.explode is not None else _NEVER
    every: dict[int, int] = {}
    stop: dict[int, int] = {}
    go: dict[int, int] = {}
    for value, n in values.items():
        keyed = key(value)
        every[keyed] = every.get(keyed, 0) + n
        part = go if lo <= value <= hi else stop
        part[keyed] = part.get(keyed, 0) + n

    def ways(keyed: dict[int, int]) -> _Ways:
        return _Ways(keyed, min(keyed), max(keyed), out_of) if keyed else _Ways({}, 0, 0, out_of)

    return ways(every), ways(stop), ways(go)


def _keyed_span(
    pieces: list[tuple[int, int]], key: Callable[[int], int], term: Term
) -> tuple[int, int] | None:
    """The least and most ``key`` over intervals of values: a score changes only at its
    compare points, so looking at each piece's ends and those points is enough."""
    edges: list[int] = []
    for point in (term.success, term.failure):
        if point is not None:
            lo, hi = point.bounds
            edges += [lo - 1, lo, hi, hi + 1]
    seen = [key(x) for a, b in pieces if a <= b for x in (a, b, *(e for e in edges if a <= e <= b))]
    return (min(seen), max(seen)) if seen else None


def _shapes(term: Term, out_of: int, key: Callable[[int], int]) -> tuple[_Ways, _Ways, _Ways]:
    """What ``_split`` gives, as shapes only: worked out from intervals, not face by face."""
    a, b = term.value_span
    lo, hi = term.explode.bounds if term.explode is not None else _NEVER
    go = [(max(a, lo), min(b, hi))]
    stop = [(a, min(b, lo - 1)), (max(a, hi + 1), b)] if lo <= hi else [(a, b)]

    def shape(pieces: list[tuple[int, int]]) -> _Ways:
        span = _keyed_span(pieces, key, term) or (0, 0)
        return _Ways(None, span[0], span[1], out_of)

    return shape([(a, b)]), shape(stop), shape(go)


def _die_values(term: Term, plan: _Plan) -> tuple[dict[int, int] | None, int]:
    """``_face_ways``, or while the work is only foreseen, its charge alone."""
    if plan.dry:
        plan.spend(len(term.faces) * FACE_UNITS)
        return None, _out_of(term)
    return _face_ways(term, plan)


def _chain(term: Term, plan: _Plan, key: Callable[[int], int]) -> _Ways:
    """One die with its explosions, each die of the chain keyed by ``key`` and summed."""
    values, out_of = _die_values(term, plan)
    if values is None:
        every, stop, go = _shapes(term, out_of, key)
    else:
        every, stop, go = _split(term, values, out_of, key)
    chain = every  # at the cap the last die stands, whatever it shows
    for _ in range(term.explodes()):
        chain = _mix(stop, go, chain, plan)
    return chain


def _score_range(term: Term) -> tuple[int, int]:
    return (-1 if term.failure is not None else 0), 1


def _sum_term(term: Term, plan: _Plan) -> _Ways:
    """A term with no keep or drop: its dice's scores added up."""
    if term.compound:
        # one die of the chain's summed value, scored once
        chain = _chain(term, plan, lambda value: value)
        if term.success is not None:
            lo, hi = _score_range(term)
            plan.spend(chain.slots * SLOT_UNITS)
            scored: dict[int, int] | None = None
            if chain.ways is not None:
                scored = {}
                for value, n in chain.ways.items():
                    s = term.score(value)
                    scored[s] = scored.get(s, 0) + n
            chain = _Ways(scored, lo, hi, chain.out_of)
        die = chain
    else:
        die = _chain(term, plan, _scorer(term))
    return _power(die, term.count, plan)


# --- keep and drop: the pool folded die by die ---------------------------------------------


def _multisets(kinds: int, size: int) -> int:
    """Sorted tuples of at most ``size`` values of ``kinds`` kinds."""
    return comb(kinds + size, size) if size < 64 else work.NO_LIMIT  # too many to matter


def _keep_term(term: Term, plan: _Plan) -> _Ways:
    """A term with a keep or drop: each state the kept (or dropped) values so far."""
    n = term.keep_count
    highest = term.keep in ("kh", "dh")
    dropping = term.keep in ("dh", "dl")
    score = term.score

    def pick(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(a + b, reverse=highest)[:n])

    if term.compound:
        chain = _chain(term, plan, lambda value: value)  # a die is its chain's sum
        values: dict[int, int] | None = chain.ways
        kinds, links, out_of = chain.slots, 1, chain.out_of
        v_lo, v_hi = chain.lo, chain.hi
    else:
        v_lo, v_hi = term.value_span
        kinds, links = v_hi - v_lo + 1, 1 + term.explodes()
        values, out_of = _die_values(term, plan)
    # a score's range: a value's, or a success count's
    s_lo, s_hi = (v_lo, v_hi) if term.success is None else _score_range(term)
    bits = 1 + (out_of.bit_length() * links * term.count) // BITS_PER_UNIT
    pair = PAIR_UNITS + bits + n // 4

    def foreseen_states(dice: int) -> int:
        """At most how many states ``dice`` dice make: the sorted tuples of the values
        picked, and for a drop each with the sum of every score."""
        picked = _multisets(kinds, min(n, dice))
        if not dropping:
            return picked
        return min(work.NO_LIMIT, picked * ((s_hi - s_lo) * dice + 1))

    # one die with its explosions, as states
    die: dict[tuple[int, tuple[int, ...]], int] | None = None
    if values is not None and not plan.dry:
        die = {}
        for value, ways in values.items():
            state: tuple[int, tuple[int, ...]] = (score(value) if dropping else 0, (value,))
            die[state] = die.get(state, 0) + ways
    die_out_of = out_of
    if not term.compound and term.explode is not None:
        point = term.explode
        for link in range(1, links):
            plan.spend(kinds * foreseen_states(link) * pair)
            if die is None or values is None:
                die_out_of *= out_of
                continue
            following: dict[tuple[int, tuple[int, ...]], int] = {}
            for value, ways in values.items():
                own: tuple[int, tuple[int, ...]] = (score(value) if dropping else 0, (value,))
                if not point(value):
                    following[own] = following.get(own, 0) + ways * die_out_of
                    continue
                for (s, kept), w in die.items():
                    state = (own[0] + s, pick(own[1], kept))
                    following[state] = following.get(state, 0) + ways * w
            die = following
            die_out_of *= out_of
    die_states = kinds if links == 1 else foreseen_states(links)  # a lone die: its values

    # the pool, die by die; the same few values meet again and again, so each pick is
    # made once
    states: dict[tuple[int, tuple[int, ...]], int] | None = None if die is None else {(0, ()): 1}
    joins: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
    for count in range(term.count):
        plan.spend(foreseen_states(count * links) * die_states * pair)
        if states is None or die is None:
            continue
        following = {}
        for (s, kept), w in states.items():
            for (t, more), v in die.items():
                joined = joins.get((kept, more))
                if joined is None:
                    joined = joins[kept, more] = pick(kept, more)
                state = (s + t, joined)
                following[state] = following.get(state, 0) + w * v
        states = following
    total_out_of = die_out_of**term.count

    # the term's total: every score less the dropped ones', or the kept ones' scores
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


# --- the whole notation ---------------------------------------------------------------------


def _run(notation: Notation, plan: _Plan) -> _Ways:
    total: _Ways | None = None
    for term in notation.terms:
        part = _sum_term(term, plan) if term.keep is None else _keep_term(term, plan)
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
