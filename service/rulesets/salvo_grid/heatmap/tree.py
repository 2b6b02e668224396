"""The search tree and the exact count: cover the square that must hold a ship with the
fewest ways, then the tightest count, then place the free ships anywhere clear. ``exact``
walks the whole tree within its budget; the samplers walk the same tree (bits.py)."""

from __future__ import annotations

from .board import Heat, Problem, _Budget, _impossible, _spread, _why_none
from .limits import EXACT_WORK, NODE_COST

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
