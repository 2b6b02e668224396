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

**Exact** when a search of the consistent placements finishes within ``EXACT_NODES``
candidate placements tried: the probabilities are ratios of whole counts.

**Sampled** otherwise (docs/computer.md, "The heat map"): ``CHAINS`` chains, each
started from a placement found by a search in a random order, run ``BURN_IN`` sweeps, then
up to ``SWEEPS`` counted ones. A sweep takes the ships afloat two by two in a random order:
two that must cover told squares between them are re-placed together, uniformly among all
their joint places that fit (counted out in full), the others one at a time, uniformly among
their places that fit; then Metropolis-Hastings pair moves and swap moves (two ships trade
the told squares they cover). The heat is the Rao-Blackwell average (each re-placement adds
every place, or pair of places, it could have taken, weighted equally). The random numbers are
``random.Random(seed).random()`` (MT19937, the one stream Python keeps the same across
versions), an index among n choices being ``floor(u * n)``; the seed comes from three d1000
rolled like any die, so the answer is replayable and signed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...engine.errors import RuleError
from ...engine.resolution import Resolution
from . import tables as t
from .fleet import Square, name, names, ship_name
from .results import SalvoGridHeatmapResult, SalvoGridHeatMethod, SalvoGridSampler

EXACT_NODES = 30_000
NODE_COST = 20  # a node of the covering search costs about as much as this many places
FIRST_FIT = 16_000  # the covering search's budget (places and nodes) for each chain
LEAF_COST = 10  # a leaf of the search costs about as much as this many places tried
MOVE_COST = 12  # a move of the sampler (or a first place of a block) costs this many places
AREA_COST = 6  # and this many more for each count to check
CHAINS = 2
BURN_IN = 5
SWEEPS = 50
WORK = 70_000  # places looked at by the moves, over all chains (about 20 ms)
PAIR_MOVES = 1  # per ship afloat, each sweep
SWAP_MOVES = 1  # per ship afloat, each sweep (when there are hits or contacts)
SEED_DICE = 3
SEED_SIDES = 1000


class SearchLimit(RuleError):
    """No fitting layout was found within the search's budget (none was proven impossible)."""


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
    through: list[dict[int, list[int]]] = field(default_factory=list)
    # share[bit]: the required squares one ship afloat could cover together with ``bit``.
    share: dict[int, int] = field(default_factory=dict)
    # by_counts[ship][how many squares of each area a place covers]: those places.
    by_counts: list[dict[tuple[int, ...], list[int]]] = field(default_factory=list)

    def __post_init__(self) -> None:
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

    @property
    def step(self) -> int:
        """What a step of the sampler costs besides the places it looks at."""
        return MOVE_COST + AREA_COST * len(self.areas)

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
    candidates = []
    for ship in afloat:
        places = [m for m in board.lines(sizes[ship]) if not m & blocked and m & ~hit_mask]
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
    prob = Problem(board, afloat, candidates, required, areas, sunk_mask, hit_mask)
    needed, apart = prob.ships_needed(required)
    if needed > len(afloat):
        raise _impossible(
            f"no ship could cover two of {', '.join(names(_squares_of(board, apart)))}, so "
            f"they take {needed} ships, and {len(afloat)} are afloat",
            "view",
        )
    return prob


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


# --- exact: every consistent placement ----------------------------------------------------


class _Budget(Exception):
    pass


def _order(prob: Problem) -> list[int]:
    """Ships with the fewest places first: the search fans out last."""
    return sorted(range(len(prob.ships)), key=lambda i: (len(prob.candidates[i]), i))


def _search(
    prob: Problem,
    order: list[int],
    candidates: list[list[int]],
    tail: int,
    on_leaf: Callable[[list[int], int], bool],
    budget: int,
) -> None:
    """Depth-first over the ships in ``order``; ``on_leaf(chosen, occupied)`` gets each
    placement of them that can still fit (``tail`` ship squares are to come after them) and
    returns True to stop. Raises _Budget past ``budget`` candidate places tried."""
    tried = 0
    chosen = [0] * len(prob.ships)
    n = len(order)
    sizes = dict(prob.board.fleet)
    left = [0] * (n + 1)
    left[n] = tail
    for i in range(n - 1, -1, -1):
        left[i] = left[i + 1] + sizes[prob.ships[order[i]]]
    required, areas = prob.required, prob.areas

    def walk(depth: int, occ: int) -> bool:
        nonlocal tried
        if (required & ~occ).bit_count() > left[depth]:
            return False
        for area, need in areas:
            have = (occ & area).bit_count()
            if have > need or need - have > left[depth]:
                return False
        if depth == n:
            return on_leaf(chosen, occ)
        ship = order[depth]
        places = candidates[ship]
        tried += len(places)
        if tried > budget:
            raise _Budget
        for m in places:
            if m & occ:
                continue
            chosen[ship] = m
            if walk(depth + 1, occ | m):
                return True
        return False

    walk(0, 0)


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


def _fitting(prob: Problem, ship: int, occ: int, candidates: list[int] | None = None) -> list[int]:
    """The places of ``ship`` that complete ``occ`` (every other ship) into a fit."""
    must = prob.required & ~occ
    places = _places(prob, ship, must) if candidates is None else candidates
    if not prob.areas:
        if not must:
            return [m for m in places if not m & occ]
        return [m for m in places if not m & occ and not must & ~m]
    if candidates is None:
        wants = tuple(need - (occ & a).bit_count() for a, need in prob.areas)
        places = prob.by_counts[ship].get(wants, [])
        return [m for m in places if not m & occ and not must & ~m]
    wanted = [(a, need - (occ & a).bit_count()) for a, need in prob.areas]
    return [
        m
        for m in places
        if not m & occ and not must & ~m and all((m & a).bit_count() == w for a, w in wanted)
    ]


def exact(prob: Problem, budget: int = EXACT_NODES) -> Heat | None:
    """Every consistent placement counted, or None when the search passes ``budget``."""
    board = prob.board
    per: list[dict[int, int]] = [{} for _ in prob.ships]
    total = 0
    order = _order(prob)
    head, last = order[:-1], order[-1]
    spent = 0
    leaves = 1
    for i in head:
        leaves *= len(prob.candidates[i])
    if leaves > budget // LEAF_COST:
        return None  # the search could not finish: sample instead

    # The last ship is counted in one pass over its places rather than one leaf each.
    def leaf(chosen: list[int], occ: int) -> bool:
        nonlocal total, spent
        spent += LEAF_COST + len(_places(prob, last, prob.required & ~occ))
        if spent > budget:
            raise _Budget
        fitting = _fitting(prob, last, occ)
        if fitting:
            k = len(fitting)
            total += k
            for i in head:
                d = per[i]
                d[chosen[i]] = d.get(chosen[i], 0) + k
            d = per[last]
            for m in fitting:
                d[m] = d.get(m, 0) + 1
        return False

    sizes = dict(board.fleet)
    try:
        _search(prob, head, prob.candidates, sizes[prob.ships[last]], leaf, budget)
    except _Budget:
        return None
    if not total:
        raise _impossible(_why_none(prob), "view")
    weights = [0.0] * (board.columns * board.rows)
    for d in per:
        for m, k in d.items():
            _spread(weights, m, float(k))
    return Heat(board, weights, float(total), "exact", placements=total)


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


# --- sampled: Gibbs chains ----------------------------------------------------------------


def _first_fit(prob: Problem, rng: random.Random, budget: int) -> list[int] | None:
    """A consistent placement, found by covering the hits and contacts (each time the one
    with the fewest ways to cover it, the ship and its place tried in a random order), then
    placing the ships left the same way."""
    n = len(prob.ships)
    sizes = dict(prob.board.fleet)
    state = [0] * n
    tried = 0

    def shuffled(items: list[int]) -> list[int]:
        copy = list(items)
        for i in range(len(copy) - 1, 0, -1):  # Fisher-Yates with floor(u * n)
            j = int(rng.random() * (i + 1))
            copy[i], copy[j] = copy[j], copy[i]
        return copy

    def hopeless(left: list[int], occ: int) -> bool:
        room = sum(sizes[prob.ships[k]] for k in left)
        uncovered = prob.required & ~occ
        if uncovered.bit_count() > room or prob.ships_needed(uncovered)[0] > len(left):
            return True
        for area, need in prob.areas:
            have = (occ & area).bit_count()
            if have > need or need - have > room:
                return True
        return False

    def walk(left: list[int], occ: int) -> bool:
        nonlocal tried
        if hopeless(left, occ):
            return False
        if not left:
            return all((occ & a).bit_count() == need for a, need in prob.areas)
        uncovered = prob.required & ~occ
        if uncovered:
            # The square with the fewest ways to cover it first; none at all: a dead end.
            options: list[tuple[int, int]] = []
            rest = uncovered
            while rest:
                square = rest & -rest
                rest ^= square
                ways = [(k, m) for k in left for m in _through(prob, k, square) if not m & occ]
                tried += 1 + len(ways) // 4
                if not ways:
                    return False
                if not options or len(ways) < len(options):
                    options = ways
        else:
            k = left[0]
            options = [(k, m) for m in prob.candidates[k] if not m & occ]
        tried += len(options) + NODE_COST
        if tried > budget:
            raise _Budget
        tries = [options[i] for i in shuffled(list(range(len(options))))]
        if uncovered:
            # Those covering the most told squares first (a ship along a line of hits): the
            # likelier layouts, so the chain starts near them.
            tries.sort(key=lambda option: -(option[1] & uncovered).bit_count())
        for k, m in tries:
            state[k] = m
            if walk([x for x in left if x != k], occ | m):
                return True
        return False

    order = shuffled(list(range(n)))
    return state if walk(order, 0) else None


def sample(
    prob: Problem,
    seed: int,
    chains: int = CHAINS,
    burn_in: int = BURN_IN,
    sweeps: int = SWEEPS,
    work: int | None = None,
    first_fit: int = FIRST_FIT,
    pair_per_ship: int = PAIR_MOVES,
    swap_per_ship: int = SWAP_MOVES,
) -> Heat:
    """The Rao-Blackwellised Gibbs estimate (see the module's docstring): ``chains`` chains
    of ``burn_in`` sweeps and then up to ``sweeps`` counted ones, each chain stopping early
    before a sweep that, costing what the last one did, would pass its share of ``work``
    (the places its moves looked at, so the same inputs always stop at the same sweep)."""
    board = prob.board
    rng = random.Random(seed)
    n = len(prob.ships)
    # acc[i][k]: how often each place of ship i was among k equally likely options.
    acc: list[dict[int, Counter[int]]] = [{} for _ in range(n)]
    kept = 0
    # Pair moves let two ships trade what they cover (a hit, a contact, a count); with
    # nothing to cover, one ship at a time already reaches every placement.
    pair_moves = swap_moves = 0
    if n >= 2 and prob.required:
        pair_moves = pair_per_ship * n
        swap_moves = swap_per_ship * n
    elif n >= 2 and prob.areas:
        pair_moves = n
    counted = 0
    searched = False
    for _ in range(chains):
        try:
            state = _first_fit(prob, rng, first_fit)
        except _Budget:
            continue
        searched = True
        if state is None:
            raise _impossible(_why_none(prob), "view")
        spent = last = 0
        for sweep in range(burn_in + sweeps):
            # Stop before a counted sweep that, costing what the last one did, would pass
            # the chain's share of the work (the first counted sweep always runs).
            if work is not None and sweep > burn_in and spent + last > work // chains:
                break
            before = spent
            record = sweep >= burn_in
            counted += record
            # The ships in a random order, taken two by two (the last alone when odd).
            order = list(range(n))
            for a in range(n - 1, 0, -1):  # Fisher-Yates, as the covering search's
                b = int(rng.random() * (a + 1))
                order[a], order[b] = order[b], order[a]
            groups = [order[k : k + 2] for k in range(0, n, 2)]
            for group in groups:
                if len(group) == 2:
                    i, j = group
                    occ = 0
                    for k in range(n):
                        if k != i and k != j:
                            occ |= state[k]
                    if prob.required & ~occ:
                        spent += _block(prob, state, i, j, occ, rng, acc if record else None)
                        continue
                for i in group:
                    occ = 0
                    for j in range(n):
                        if j != i:
                            occ |= state[j]
                    options = _fitting(prob, i, occ)
                    spent += prob.step + len(options)
                    state[i] = options[int(rng.random() * len(options))]
                    if record:
                        k = len(options)
                        bag = acc[i].get(k)
                        if bag is None:
                            bag = acc[i][k] = Counter()
                        bag.update(options)
            for _ in range(pair_moves):
                spent += _pair_move(prob, state, rng)
            for _ in range(swap_moves):
                spent += _swap_move(prob, state, rng)
            last = spent - before
        kept += 1
    if not searched:
        raise SearchLimit(
            "no placement of the rival's fleet that fits this view was found within the "
            "search's limit: check the view (it asks more of the ships afloat than usual)",
            "view",
        )
    merged: dict[int, float] = {}
    for bags in acc:
        for k, bag in bags.items():
            for m, times in bag.items():
                merged[m] = merged.get(m, 0.0) + times / k
    weights = [0.0] * (board.columns * board.rows)
    for m, w in merged.items():
        _spread(weights, m, w)
    return Heat(
        board,
        weights,
        float(counted),
        "sampled",
        sampler={
            "method": "gibbs",
            "seed": seed,
            "chains": kept,
            "burn_in": burn_in,
            "samples": counted,
        },
    )


def _two_ships(state: list[int], rng: random.Random) -> tuple[int, int, int]:
    """Two different ships drawn uniformly (i, then j among the others), and the squares
    the other ships take."""
    n = len(state)
    i = int(rng.random() * n)
    j = int(rng.random() * (n - 1))
    if j >= i:
        j += 1
    occ = 0
    for k in range(n):
        if k != i and k != j:
            occ |= state[k]
    return i, j, occ


def _pair_move(prob: Problem, state: list[int], rng: random.Random) -> int:
    """Metropolis-Hastings on two ships at once. The first goes, half the time, to any place
    clear of the other ships, half the time to one of those that cover squares the two must
    cover (a hit, a contact): which of those squares, as a set, drawn first among the sets
    its places can cover, then the place among those covering exactly that set; the second
    goes uniformly among the places that then fit. Accepted with probability
    min(1, q(old) fits(new) / (q(new) fits(old))), q being the chance of proposing a first
    place: every placement stays equally likely."""
    i, j, occ = _two_ships(state, rng)
    must = prob.required & ~occ
    if not must and not prob.areas:
        return prob.step  # nothing for the two to trade: moves of one ship at a time do as well
    anywhere = [m for m in prob.candidates[i] if not m & occ]
    # The places covering told squares, grouped by which of them they cover.
    groups: dict[int, list[int]] = {}
    if must:
        rest = must
        seen = 0
        while rest:
            bit = rest & -rest
            rest ^= bit
            for m in _through(prob, i, bit):
                if not m & occ and not m & seen:
                    groups.setdefault(m & must, []).append(m)
            seen |= bit
    if groups and rng.random() < 0.5:
        keys = list(groups)
        group = groups[keys[int(rng.random() * len(keys))]]
        a = group[int(rng.random() * len(group))]
    else:
        a = anywhere[int(rng.random() * len(anywhere))]
    new = _fitting(prob, j, occ | a)
    if not new:
        return prob.step + len(anywhere)
    old = _fitting(prob, j, occ | state[i])

    def q(m: int) -> float:
        if not groups:
            return 1.0 / len(anywhere)
        told = m & must
        return 0.5 / len(anywhere) + (0.5 / len(groups) / len(groups[told]) if told else 0.0)

    if rng.random() * q(a) * len(old) < q(state[i]) * len(new):
        state[i] = a
        state[j] = new[int(rng.random() * len(new))]
    return prob.step + len(anywhere) + len(new) + len(old)


def _block(
    prob: Problem,
    state: list[int],
    i: int,
    j: int,
    occ: int,
    rng: random.Random,
    acc: list[dict[int, Counter[int]]] | None,
) -> int:
    """Ships i and j re-placed together, uniformly among every pair of their places that fits
    with ``occ`` (the other ships) and everything told; the two must cover at least one told
    square between them. Counted out in full: the told square of lowest index that the two
    must cover is covered by one of them, so the pairs are i's places through it, each with
    j's places that then fit, and then j's places through it, each with i's that then fit.
    With ``acc``, every pair is counted (the Rao-Blackwell estimate of both ships)."""
    must = prob.required & ~occ
    low = must & -must
    options: list[tuple[int, int, int, list[int]]] = []
    work = prob.step
    total = 0
    for first, second in ((i, j), (j, i)):
        for a in _through(prob, first, low):
            if a & occ:
                continue
            fits = _fitting(prob, second, occ | a)
            work += prob.step + len(fits)
            if fits:
                options.append((first, a, second, fits))
                total += len(fits)
    pick = int(rng.random() * total)
    for first, a, second, fits in options:
        if pick < len(fits):
            state[first] = a
            state[second] = fits[pick]
            break
        pick -= len(fits)
    if acc is not None:
        for first, a, second, fits in options:
            bag = acc[first].get(total)
            if bag is None:
                bag = acc[first][total] = Counter()
            bag[a] += len(fits)
            bag = acc[second].get(total)
            if bag is None:
                bag = acc[second][total] = Counter()
            bag.update(fits)
    return work


def _swap_move(prob: Problem, state: list[int], rng: random.Random) -> int:
    """Metropolis-Hastings: two ships trade the told squares (hits, contacts) they cover.

    Ships i and j are drawn as for a pair move; ``told`` is what i covers of the squares the
    two must cover between them (none: nothing is done). j goes uniformly to one of its
    places clear of the other ships that covers exactly ``told`` of those squares, then i
    uniformly among the places that then fit (it takes over what j covered). The way back is
    the same move with i and j the other way round, so the move is accepted with probability
    min(1, A_j F_i(new) / (A_i F_j(old))): A_k the places of ship k covering exactly
    ``told``, F_k the places of k that fit around the other one. So a ship running on from a
    line of hits hands the line to a ship of another length in one move, and every fitting
    layout stays equally likely."""
    i, j, occ = _two_ships(state, rng)
    must = prob.required & ~occ
    told = state[i] & must
    if not told:
        return prob.step
    low = told & -told
    ahead = [m for m in _through(prob, j, low) if not m & occ and m & must == told]
    if not ahead:
        return prob.step
    a = ahead[int(rng.random() * len(ahead))]
    new = _fitting(prob, i, occ | a)
    if not new:
        return prob.step + len(ahead)
    back = [m for m in _through(prob, i, low) if not m & occ and m & must == told]
    old = _fitting(prob, j, occ | state[i])
    if rng.random() * len(back) * len(old) < len(ahead) * len(new):
        state[j] = a
        state[i] = new[int(rng.random() * len(new))]
    return prob.step + len(ahead) + len(back) + len(new) + len(old)


def heat(told: Told, res: Resolution | None, board: Board = GAME) -> Heat:
    """Exact if the search fits its budget; otherwise sampled with a seed from the dice."""
    prob = problem(told, board)
    found = exact(prob)
    if found is not None:
        return found
    seed = 0
    if res is not None:
        roll = res.roll("heat map sampler seed", SEED_DICE, SEED_SIDES)
        for value in roll.values:
            seed = seed * SEED_SIDES + (value - 1)
    return sample(prob, seed, work=WORK)


# --- the step --------------------------------------------------------------------------------

BEST = t.MAX_SALVO
DECIMALS = 6


@dataclass(frozen=True)
class HeatmapInput:
    """The view a salvo answer hands back, and the recon and sonar counts told so far."""

    view: Any  # computer.View: misses, hits, contacts, sunk
    counts: tuple[Count, ...] = ()


def told_of(view: Any, counts: tuple[Count, ...] = ()) -> Told:
    return Told(view.misses, view.hits, view.contacts, view.sunk, counts)


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
