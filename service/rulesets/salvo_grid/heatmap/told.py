"""Checking what was told: a view and its counts turned into the ``Problem`` the search
solves (the ships afloat, their candidate places, the squares to cover, the counts' areas),
or refused with where it went wrong."""

from __future__ import annotations

from collections.abc import Sequence

from ....engine.errors import RuleError
from ..fleet import Square, name, names
from .board import GAME, Board, Problem, Told, _impossible


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
