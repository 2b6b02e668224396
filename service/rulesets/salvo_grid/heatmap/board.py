"""The heat map's problem and board: what was told (``Told``, ``Count``), the board and
fleet (``Board``, ``GAME``), the problem the search solves (``Problem``), the heat it hands
back (``Heat``), and the errors and small helpers every part of the search shares."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, ClassVar, Final

from ....engine.errors import RuleError
from ....engine.typed import Limits
from .. import tables as t
from ..fleet import BoardSquare, Square
from ..results import SalvoGridCountingShip, SalvoGridHeatMethod, SalvoGridSampler


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


# The most squares a count covers: a whole row or column.
MAX_COUNT_SQUARES: Final = max(len(t.COLUMNS), t.ROWS)
CountSquares = Annotated[tuple[BoardSquare, ...], Limits(most=MAX_COUNT_SQUARES)]


@dataclass(frozen=True)
class Count:
    """A recon flight's or sonar sweep's count, as told, and the squares then known hit
    (``ship`` may be left empty here: an area counted by no ship in particular)."""

    squares: CountSquares
    count: Annotated[int, Limits(minimum=0, maximum=t.FLEET_SQUARES)]
    hit: CountSquares = ()
    ship: str = ""


@dataclass(frozen=True, kw_only=True)
class ToldCount(Count):
    """A recon flight's or sonar sweep's count as a request sends it: `ship`, `squares`
    and `count` as `told` reported them, and `hit`, the squares of that area the view
    showed hit or sunk when it counted (the view handed back with that count)."""

    component: ClassVar[str] = "SalvoGridCount"

    # Redeclared with field(): a bare annotation would inherit the parent's default.
    ship: SalvoGridCountingShip = field()


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


def _impossible(detail: str, where: str) -> RuleError:
    return RuleError(f"no placement of the rival's fleet fits this view: {detail}", where)


class _Budget(Exception):
    pass


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
