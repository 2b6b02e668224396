"""The SALVO heat map: where the rival's ships afloat may lie, from everything told.

For every square, the probability that it holds a ship not yet sunk, over the fleet
placements consistent with what a captain has been told of the rival's ocean:

* a miss is open water; a sunk ship lies exactly where it was shown;
* every hit on a ship afloat, and every contact, is a square of a ship afloat;
* a ship afloat is not hit on every one of its squares (it would have sunk);
* a recon or sonar count is the number of ship squares in its area not yet hit when it was
  counted: the ship squares in the area are that count plus the area's squares then known
  hit (``Count.hit``).

Every consistent placement is equally likely (the rules give the rival's layout no
preference). The engine takes the board size and the fleet as parameters, so a test can
check it against full enumeration on a small board.

The exact count and the samplers walk one search tree (docs/computer.md, "How it is worked
out"): cover the square that must hold a ship with the fewest ways, then the tightest
count, then place the free ships anywhere clear. **Exact** when the tree is walked within
``EXACT_WORK``, or else when every layout is counted down the product's states within the
request's budget (``_enumerated``: the ships placed largest first, only where the counts
and the clusters of squares to cover can still be met, the last ship's places counted at
once), or every way of meeting what was told (listed with bitsets, when probes foresee it
fits) leaves at most one ship free. **Sampled** otherwise: by exact draws from the same
product when enough of its trial draws are kept; else by strata of those
ways when they are few (a listing foreseen within ``SHORT`` of its budget); else by exact
draws (``_Product``: each ship's places grouped by what they add to the counts and the
squares to cover, the ways of completing each state counted, layouts drawn from that and
kept when no two ships overlap, each kept one exactly uniform over the layouts that fit);
else by strata of a longer listing; else down the tree, each draw weighted by one over its
chance and counted ship by ship over every place the ship could take given the others
(Rao-Blackwell). The draws go round-robin into batches (by strata and down the tree, each
batch's spread evenly from its own start); ``margin`` is three standard errors of the least
certain square, from the batches' spread, and the draws stop at half the budget once it is
under ``STOP``. The random numbers are ``random.Random(seed).random()``, an index among n
choices ``floor(u * n)`` (a ship's place among many free ones: a line ``floor(u * lines)``
tried until free); the seed comes from three d1000 rolled like any die, so the answer is
replayable and signed.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
import statistics
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...engine.budget import Budget, scope
from ...engine.errors import RuleError
from ...engine.resolution import Resolution
from . import tables as t
from .fleet import Square, name, names, ship_name
from .results import SalvoGridHeatmapResult, SalvoGridHeatMethod, SalvoGridSampler

EXACT_WORK = 20_000  # the exact count's budget: places looked at, and NODE_COST a node
NODE_COST = 12  # a node of the search costs about as much as looking at this many places
WORK = 220_000  # the sampler's: places looked at over all its draws (about 30 ms)
GRACE = 4  # with no fitting layout drawn at WORK, the sampler goes on to GRACE times it
BATCHES = 10  # the draws' batches, whose spread gives the margin
LIST_WORK = 220_000  # listing the ways of meeting what was told, before sampling by strata
FORESEEN = 1.0  # the share of the listing's budget a listing may be foreseen to take
# A listing stops early, past EARLY of its budget, once its work so far over the share of
# the tree it has walked (each branch an equal share of its node's) is PROJECTED budgets,
# and past LATE of it once that is past the budget itself.
EARLY = 0.25
PROJECTED = 1.2
LATE = 0.5
PROBES = 16  # paths down the tree that foresee the listing's work
PROBE_COST = 200  # a path's work
GOLDEN = (math.sqrt(5) - 1) / 2  # the step between a batch's points along the ways
STOP = 0.03  # the sampler stops at a checkpoint once its margin is under this
CHECKS = 2  # a checkpoint at half the sampler's work (the other is its end)
CHECK_COST = 15_000  # a checkpoint's work: the margin worked out from the batches
DRAW_COST = 4  # a stratified draw's own work, besides placing its ships and counting them
SEED_DICE = 3
SEED_SIDES = 1000


class SearchLimit(RuleError):
    """No fitting layout was found within the search's budget (none was proven impossible)."""

    work = 0  # the sampler's work before it gave up


def _not_found(work: int) -> SearchLimit:
    out = SearchLimit(
        "no placement of the rival's fleet that fits this view was found within the search's limit",
        "view",
    )
    out.work = work
    return out


@dataclass(frozen=True)
class Count:
    """A recon flight's or sonar sweep's count, as told, and the squares then known hit."""

    squares: tuple[Square, ...]
    count: int
    hit: tuple[Square, ...] = ()
    ship: str = ""


@dataclass(frozen=True)
class Told:
    """Everything a captain knows of the rival's ocean (the view, and any counts)."""

    misses: tuple[Square, ...] = ()
    hits: tuple[Square, ...] = ()
    contacts: tuple[Square, ...] = ()
    sunk: tuple[tuple[str, tuple[Square, ...]], ...] = ()
    counts: tuple[Count, ...] = ()
    dived: tuple[Square, ...] = ()  # squares a shot found the diving submarine on


@dataclass(frozen=True)
class Board:
    """A board and a fleet: the game's by default, smaller ones for tests."""

    columns: int = len(t.COLUMNS)
    rows: int = t.ROWS
    fleet: tuple[tuple[str, int], ...] = tuple((ship, size) for ship, _, size in t.FLEET)

    def bit(self, square: Square) -> int:
        return 1 << (square[1] * self.columns + square[0])

    def on(self, square: Square) -> bool:
        return 0 <= square[0] < self.columns and 0 <= square[1] < self.rows

    def mask(self, squares: Iterable[Square]) -> int:
        out = 0
        for square in squares:
            out |= self.bit(square)
        return out

    def squares(self) -> list[Square]:
        """Reading order: row 1 from A, then row 2, ..."""
        return [(c, r) for r in range(self.rows) for c in range(self.columns)]

    def lines(self, size: int) -> list[int]:
        """Every horizontal, then every vertical, line of ``size`` squares, as masks (worked
        out once per board and size: building them took 3-5 ms of every hard captain's call)."""
        key = (self, size)
        found = _LINES.get(key)
        if found is None:
            found = _LINES[key] = tuple(self._lines(size))
        return list(found)

    def _lines(self, size: int) -> list[int]:
        out = []
        for dc, dr in ((1, 0), (0, 1)):
            for c, r in self.squares():
                line = [(c + dc * i, r + dr * i) for i in range(size)]
                if all(self.on(sq) for sq in line):
                    out.append(self.mask(line))
        if size == 1:
            out = out[: len(out) // 2]
        return out


_LINES: dict[tuple[Board, int], tuple[int, ...]] = {}
GAME = Board()


@dataclass
class Problem:
    """The ships afloat, their candidate places, and what the placement must satisfy."""

    board: Board
    ships: list[str]
    candidates: list[list[int]]
    required: int
    areas: list[tuple[int, int]]  # (area mask, ship squares of ships afloat in it)
    sunk_mask: int
    hit_mask: int
    blocked: int = 0  # the misses and the sunk ships' squares
    sizes: list[int] = field(default_factory=list)
    through: list[dict[int, list[int]]] = field(default_factory=list)
    scanned: int = 0  # the search's work beyond the ways it hands back (see _expand)
    # share[bit]: the required squares one ship afloat could cover together with ``bit``.
    share: dict[int, int] = field(default_factory=dict)
    # by_counts[ship][how many squares of each area a place covers]: those places.
    by_counts: list[dict[tuple[int, ...], list[int]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        lengths = dict(self.board.fleet)
        self.sizes = [lengths[ship] for ship in self.ships]
        self.through = [{} for _ in self.ships]
        self.share = {}
        required = self.required
        while required:
            bit = required & -required
            required ^= bit
            together = 0
            for ship, places in enumerate(self.candidates):
                through = self.through[ship][bit] = [m for m in places if m & bit]
                for m in through:
                    together |= m
            self.share[bit] = together & self.required
        self.by_counts = []
        for places in self.candidates if self.areas else []:
            buckets: dict[tuple[int, ...], list[int]] = {}
            for m in places:
                key = tuple((m & a).bit_count() for a, _ in self.areas)
                buckets.setdefault(key, []).append(m)
            self.by_counts.append(buckets)

    def ships_needed(self, uncovered: int) -> tuple[int, int]:
        """A lower bound on the ships it takes to cover ``uncovered`` (required squares no
        two of which one ship could cover), and those squares."""
        picked = 0
        count = 0
        while uncovered:
            bit = uncovered & -uncovered
            uncovered ^= bit
            if not self.share.get(bit, 0) & picked:
                picked |= bit
                count += 1
        return count, picked

    def fits(self, masks: Sequence[int]) -> bool:
        occ = 0
        for m in masks:
            if occ & m:
                return False
            occ |= m
        if self.required & ~occ:
            return False
        return all((occ & area).bit_count() == need for area, need in self.areas)


@dataclass
class Heat:
    """Per square, the weight of the placements that put a ship afloat on it, over ``total``."""

    board: Board
    weights: list[float]
    total: float
    method: SalvoGridHeatMethod
    placements: int | None = None
    sampler: SalvoGridSampler | None = None
    margin: float = 0.0  # how far off a square's probability can be (0 when exact)
    work: int = 0  # a sampler's work (places looked at), the answer's weighing included

    def p(self, index: int) -> float:
        return self.weights[index] / self.total

    def probabilities(self) -> list[float]:
        return [w / self.total for w in self.weights]


# --- checking what was told ---------------------------------------------------------------


def _impossible(detail: str, where: str) -> RuleError:
    return RuleError(f"no placement of the rival's fleet fits this view: {detail}", where)


def problem(told: Told, board: Board = GAME) -> Problem:
    """The constraints of a view, checked for contradictions that need no search."""
    sizes = dict(board.fleet)
    seen: dict[Square, str] = {}
    for where, squares in (
        ("view.misses", told.misses),
        ("view.hits", told.hits),
        ("view.contacts", told.contacts),
    ):
        for square in squares:
            if not board.on(square):
                raise RuleError(f"{name(square)} is off the board", where)
            if square in seen:
                raise _impossible(
                    f"{name(square)} is listed under both {seen[square]} and {where.split('.')[1]}",
                    where,
                )
            seen[square] = where.split(".")[1]
    sunk_ships: dict[str, tuple[Square, ...]] = {}
    for index, (ship, squares) in enumerate(told.sunk):
        at = f"view.sunk[{index}]"
        if ship in sunk_ships:
            raise _impossible(f"the {ship} is listed as sunk twice", f"{at}.ship")
        if ship not in sizes:
            raise _impossible(f"there is no {ship} in this fleet", f"{at}.ship")
        cells = sorted(set(squares))
        straight = len({c for c, _ in cells}) == 1 or len({r for _, r in cells}) == 1
        span = (
            max(
                max(c for c, _ in cells) - min(c for c, _ in cells),
                max(r for _, r in cells) - min(r for _, r in cells),
            )
            if cells
            else -1
        )
        if len(cells) != sizes[ship] or not straight or span != len(cells) - 1:
            raise _impossible(
                f"the sunk {ship} is shown on {', '.join(names(squares))}, which is not a "
                f"straight line of {sizes[ship]} squares",
                f"{at}.squares",
            )
        for square in cells:
            if not board.on(square):
                raise RuleError(f"{name(square)} is off the board", f"{at}.squares")
            if square in seen:
                raise _impossible(
                    f"{name(square)} is under the sunk {ship} and listed under {seen[square]}",
                    f"{at}.squares",
                )
            seen[square] = f"the sunk {ship}"
        sunk_ships[ship] = tuple(cells)
    afloat = [ship for ship, _ in board.fleet if ship not in sunk_ships]
    if not afloat:
        raise RuleError("every ship of the rival's fleet is sunk: the battle is over", "view.sunk")
    sunk_mask = board.mask(sq for sqs in sunk_ships.values() for sq in sqs)
    hit_mask = board.mask(told.hits)
    blocked = board.mask(told.misses) | sunk_mask
    required = hit_mask | board.mask(told.contacts)
    areas = []
    counted: set[str] = set()
    for index, count in enumerate(told.counts):
        at = f"counts[{index}]"
        if count.ship and count.ship in counted:
            raise _impossible(
                f"the {count.ship} counts once a game, and two of its counts are listed",
                f"{at}.ship",
            )
        counted.add(count.ship)
        if len(set(count.squares)) != len(count.squares):
            raise RuleError(f"{at}.squares names a square twice", f"{at}.squares")
        if count.ship and set(count.squares) not in _areas(board, count.ship):
            raise RuleError(
                f"{at}.squares is not an area the {count.ship} counts: "
                + (
                    "a whole row or a whole column"
                    if count.ship == "cruiser"
                    else "the 3x3 squares around a square, the part on the board"
                ),
                f"{at}.squares",
            )
        area = board.mask(count.squares)
        hit_then = board.mask(count.hit)
        if hit_then & ~area:
            raise RuleError(f"{at}.hit names squares outside the counted area", f"{at}.hit")
        if hit_then & ~(hit_mask | sunk_mask):
            raise _impossible(
                f"{at}.hit names squares this view does not show hit or sunk", f"{at}.hit"
            )
        shift_by = hit_then.bit_count() - (area & sunk_mask).bit_count()
        need = count.count + shift_by
        least, most = (area & required).bit_count(), (area & ~blocked).bit_count()
        if not least <= need <= most:
            raise _impossible(
                f"the {count.ship or 'area'}'s count of {count.count} over "
                f"{_area(count.squares)} cannot be: what else was told leaves room for "
                f"{max(0, least - shift_by)} to {max(0, most - shift_by)}",
                f"{at}.count",
            )
        areas.append((area, need))
    dived = _dived(told, board, sunk_ships, afloat)
    candidates = []
    for ship in afloat:
        places = [m for m in board.lines(sizes[ship]) if not m & blocked and m & ~hit_mask]
        if dived:  # the submarine lies on every square it was found on; no other ship does
            places = [m for m in places if (m & dived == dived if ship == SUB else not m & dived)]
        if not places:
            raise _impossible(f"the {ship} has nowhere left to lie", "view")
        candidates.append(places)
    every = 0
    for places in candidates:
        for m in places:
            every |= m
    lost = required & ~every
    if lost:
        square = _squares_of(board, lost)[0]
        raise _impossible(f"no ship afloat can lie on {name(square)}", "view")
    prob = Problem(board, afloat, candidates, required, areas, sunk_mask, hit_mask, blocked)
    needed, apart = prob.ships_needed(required)
    if needed > len(afloat):
        raise _impossible(
            f"no ship could cover two of {', '.join(names(_squares_of(board, apart)))}, so "
            f"they take {needed} ships, and {len(afloat)} are afloat",
            "view",
        )
    return prob


SUB = "submarine"


def _dived(told: Told, board: Board, sunk: dict[str, tuple[Square, ...]], afloat: list[str]) -> int:
    """The squares a shot found the diving submarine on, checked against the view: each is a
    contact, a hit, or a square of the sunk submarine."""
    where = "view.dive_contacts"
    shown = set(told.contacts) | set(told.hits)
    for square in told.dived:
        if not board.on(square):
            raise RuleError(f"{name(square)} is off the board", where)
        if SUB in sunk:
            if square not in sunk[SUB]:
                raise _impossible(
                    f"{name(square)} came back as the diving submarine, which is shown sunk "
                    f"on {', '.join(names(sunk[SUB]))}",
                    where,
                )
        elif SUB not in afloat:
            raise _impossible("there is no submarine in this fleet", where)
        elif square not in shown:
            raise RuleError(
                f"{name(square)} came back as the diving submarine: list it under contacts "
                "(or hits, once it was hit)",
                where,
            )
    return board.mask(told.dived) if SUB in afloat else 0


def _areas(board: Board, ship: str) -> list[set[Square]]:
    """Every area the ship's count can cover: the cruiser's rows and columns, the carrier's
    3x3 blocks around a square (clipped to the board); any area for another ship."""
    if ship == "cruiser":
        rows = [{(c, r) for c in range(board.columns)} for r in range(board.rows)]
        return rows + [{(c, r) for r in range(board.rows)} for c in range(board.columns)]
    if ship == "carrier":
        return [
            {
                (c + dc, r + dr)
                for dc in (-1, 0, 1)
                for dr in (-1, 0, 1)
                if board.on((c + dc, r + dr))
            }
            for c, r in board.squares()
        ]
    return []


def _area(squares: Sequence[Square]) -> str:
    return f"{name(squares[0])}-{name(squares[-1])}" if squares else "an empty area"


def _squares_of(board: Board, mask: int) -> list[Square]:
    return [sq for sq in board.squares() if mask & board.bit(sq)]


# --- the search tree: both the exact count and the sampler walk it -------------------------


class _Budget(Exception):
    pass


DEAD, COVER, AREA, FREE = 0, 1, 2, 3


def _through(prob: Problem, ship: int, bit: int) -> list[int]:
    """The places of ``ship`` that cover the square ``bit`` (worked out once per problem)."""
    index = prob.through[ship]
    places = index.get(bit)
    if places is None:
        places = index[bit] = [m for m in prob.candidates[ship] if m & bit]
    return places


def _places(prob: Problem, ship: int, must: int) -> list[int]:
    """The places of ``ship`` worth trying when ``must`` is left to cover."""
    return _through(prob, ship, must & -must) if must else prob.candidates[ship]


def _fitting(prob: Problem, ship: int, occ: int) -> list[int]:
    """The places of ``ship`` that complete ``occ`` (every other ship) into a fit."""
    must = prob.required & ~occ
    if not prob.areas:
        places = _places(prob, ship, must)
        if not must:
            return [m for m in places if not m & occ]
        return [m for m in places if not m & occ and not must & ~m]
    wants = tuple(need - (occ & a).bit_count() for a, need in prob.areas)
    places = prob.by_counts[ship].get(wants, [])
    return [m for m in places if not m & occ and not must & ~m]


def _expand(
    prob: Problem, occ: int, empty: int, left: tuple[int, ...]
) -> tuple[int, int, int, list[tuple[int, int]], float]:
    """What the search does next from a partial layout: ``occ`` the squares of the ships
    placed, ``empty`` the squares known open water, ``left`` the ships still to place.

    Answers (kind, empty, square, options, share): DEAD when nothing can complete it; COVER,
    the square that must hold a ship with the fewest ways (ship, place) to cover it, and
    those ways; AREA, the lowest undecided square of the count with the least slack, the
    ways to cover it (it may also be open water) and the share of its undecided squares
    that must still hold a ship; FREE when every hit, contact and count is satisfied (the
    ships left lie anywhere clear). ``empty`` comes back with what the counts imply: a
    count already met leaves the rest of its area open water; one that needs every square
    left makes them squares to cover."""
    must = prob.required & ~occ
    rooms: list[tuple[int, int]] = []
    slack: tuple[int, int, float] | None = None
    for area, need in prob.areas:
        want = need - (occ & area).bit_count()
        if want < 0:
            return DEAD, empty, 0, [], 0.0
        undecided = area & ~occ & ~empty
        n = undecided.bit_count()
        if want > n:
            return DEAD, empty, 0, [], 0.0
        if want == 0:
            empty |= undecided
        elif want == n:
            must |= undecided
        elif slack is None or n - want < slack[0]:
            slack = (n - want, undecided, want / n)
        rooms.append((area, want))
    if must & empty or not left and (must or slack):
        return DEAD, empty, 0, [], 0.0
    taken = occ | empty
    if must:
        if must.bit_count() > sum(prob.sizes[k] for k in left):
            return DEAD, empty, 0, [], 0.0
        best: list[tuple[int, int]] | None = None
        best_bit = 0
        rest = must
        while rest:
            bit = rest & -rest
            rest ^= bit
            ways = [
                (k, m)
                for k in left
                for m in _through(prob, k, bit)
                if not m & taken and all((m & a).bit_count() <= w for a, w in rooms)
            ]
            prob.scanned += 4 + len(ways) + sum(len(_through(prob, k, bit)) for k in left)
            if best is None or len(ways) < len(best):
                best, best_bit = ways, bit
                if len(ways) <= 1:
                    break
        assert best is not None
        if not best:
            return DEAD, empty, 0, [], 0.0
        return COVER, empty, best_bit, best, 1.0
    if slack is not None:
        _, undecided, share = slack
        bit = undecided & -undecided
        ways = [
            (k, m)
            for k in left
            for m in _through(prob, k, bit)
            if not m & taken and all((m & a).bit_count() <= w for a, w in rooms)
        ]
        return AREA, empty, bit, ways, share
    return FREE, empty, 0, [], 0.0


def exact(prob: Problem, budget: int = EXACT_WORK) -> Heat | None:
    """Every consistent placement counted, or None when the search passes ``budget`` (places
    looked at, and ``NODE_COST`` a node)."""
    return _exact(prob, budget)[0]


def _exact(prob: Problem, budget: int) -> tuple[Heat | None, int]:
    """``exact``, and the work it did."""
    board = prob.board
    n = len(prob.ships)
    per: list[dict[int, int]] = [{} for _ in range(n)]
    chosen = [0] * n
    placed: list[int] = []
    spent = 0
    total = 0

    def charge(amount: int) -> None:
        nonlocal spent
        spent += amount
        if spent > budget:
            raise _Budget

    def leaf(times: int) -> None:
        nonlocal total
        total += times
        for k in placed:
            d = per[k]
            d[chosen[k]] = d.get(chosen[k], 0) + times

    def free(occ: int, left: list[int]) -> None:
        # The ships left lie anywhere clear of ``occ``: the one with most places last,
        # counted in one pass over its places.
        if not left:
            leaf(1)
            return
        k = left[0]
        places = prob.candidates[k]
        charge(NODE_COST + len(places))
        fits = [m for m in places if not m & occ]
        if len(left) == 1:
            if fits:
                leaf(len(fits))
                d = per[k]
                for m in fits:
                    d[m] = d.get(m, 0) + 1
            return
        placed.append(k)
        for m in fits:
            chosen[k] = m
            free(occ | m, left[1:])
        placed.pop()

    def walk(occ: int, empty: int, left: tuple[int, ...]) -> None:
        charge(NODE_COST)
        kind, empty, bit, ways, _ = _expand(prob, occ, empty, left)
        charge(len(ways) + prob.scanned)
        prob.scanned = 0
        if kind == DEAD:
            return
        if kind == FREE:
            taken = occ | empty
            order = sorted(left, key=lambda k: -len(prob.candidates[k]))
            free(taken, order)
            return
        for k, m in ways:
            chosen[k] = m
            placed.append(k)
            walk(occ | m, empty, tuple(x for x in left if x != k))
            placed.pop()
        if kind == AREA:
            walk(occ, empty | bit, left)

    try:
        walk(0, prob.blocked, tuple(range(n)))
    except _Budget:
        return None, spent
    if not total:
        raise _impossible(_why_none(prob), "view")
    weights = [0.0] * (board.columns * board.rows)
    for d in per:
        for m, k in d.items():
            _spread(weights, m, float(k))
    return Heat(board, weights, float(total), "exact", placements=total, margin=0.0), spent


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


def _why_none(prob: Problem) -> str:
    ships = ", ".join(prob.ships)
    told = ["the misses", "the sunk ships"]
    if prob.hit_mask:
        told.append("every hit")
    if prob.required & ~prob.hit_mask:
        told.append("every contact")
    if prob.areas:
        told.append("every count")
    return (
        f"the ships afloat ({ships}) cannot lie clear of each other and of "
        f"{', '.join(told[:-1])} and {told[-1]} at once"
    )


def _spread(weights: list[float], mask: int, weight: float) -> None:
    while mask:
        low = mask & -mask
        weights[low.bit_length() - 1] += weight
        mask ^= low


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


# --- the request's budget --------------------------------------------------------------------
#
# The search counts its own work (places looked at, ``NODE_COST`` a node); the request's
# budget (service/engine/budget.py) is in units of about 0.1 us of CPU. Each part of the
# search turns its work into units by its own factor, measured on the development machine
# (bench/heatmap_views.py; docs/performance.md): its CPU per piece of work at the upper end
# of what heavy views showed, so that the units charged are at least the CPU spent. The
# samplers' were timed again with the whole worst-case table on a quiet machine
# (bench/worst_case.py prints each case's units beside its CPU): the dearest views, drawn
# to the budget's end, ran to 50 ms now and then, so their factors are 1.15 times the first.

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


# --- the sampler's bitsets: each ship's places as bits of one integer ---------------------
#
# A ship's places are numbered along ``Board.lines(size)``; a set of places is an int with
# those bits. Overlap, coverage and the counts' areas are then single AND operations, and a
# drawn layout's conditional places for each ship (Rao-Blackwell) are added up as whole
# bitsets, each place a 64-bit field of one integer (``_spread``), not one at a time.

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


# --- the ways of meeting what was told, listed with bitsets ----------------------------------

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


SHORT = 0.2  # a listing foreseen within this share of its budget is listed first,
SHORT_CAP = 0.4  # given up past this share of it
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


# --- the step --------------------------------------------------------------------------------

BEST = t.MAX_SALVO
DECIMALS = 6


@dataclass(frozen=True)
class HeatmapInput:
    """The view a salvo answer hands back, and the recon and sonar counts told so far."""

    view: Any  # computer.View: misses, hits, contacts, sunk
    counts: tuple[Count, ...] = ()


def told_of(view: Any, counts: tuple[Count, ...] = ()) -> Told:
    return Told(view.misses, view.hits, view.contacts, view.sunk, counts, view.dive_contacts)


def answer(found: Heat, told: Told) -> SalvoGridHeatmapResult:
    """The heat as the step answers it: rows of probabilities and the best squares to fire."""
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
    }


def heatmap(inp: HeatmapInput, res: Resolution) -> SalvoGridHeatmapResult:
    """The heat map step: every square's chance of holding a ship afloat."""
    told = told_of(inp.view, inp.counts)
    return answer(heat(told, res), told)
