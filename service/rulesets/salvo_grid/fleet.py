"""Squares, fleets and oceans: what a captain hides, and what the rival has done to it.

A placement, a piece of loot and an ocean are shapes (service/engine/shape.py): the one
definition of what a request sends of them and an answer hands back (``to_json``). A square
is held as (column, row) and sent and answered by its name (``Via``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Annotated, Any, ClassVar, Final, Protocol, TypeVar, cast

from ...engine.errors import RuleError
from ...engine.resolution import Resolution
from ...engine.shape import to_json
from ...engine.typed import Doc, Limits, Omitted, Via
from . import tables as t
from .results import (
    SalvoGridAnySquare,
    SalvoGridFault,
    SalvoGridFaultKind,
    SalvoGridLayoutResult,
    SalvoGridLootKind,
    SalvoGridLootResult,
    SalvoGridShip,
    SalvoGridSquare,
)

Square = tuple[int, int]
"""(column, row), both counted from 0: A1 is (0, 0), J10 is (9, 9)."""


def parse(text: str) -> Square:
    """``C5`` -> (2, 4). The letter and number may lie off the board (``K3``, ``A11``)."""
    return ord(text[0]) - ord("A"), int(text[1:]) - 1


def _spelled(square: Square) -> str:
    column, row = square
    return f"{chr(ord('A') + column)}{row + 1}"


def board_order(square: Square) -> tuple[int, int]:
    """Reading order: row 1 from A to J, then row 2, ...; every candidate list uses it."""
    column, row = square
    return row, column


BOARD: Final = tuple(
    sorted(((c, r) for c in range(len(t.COLUMNS)) for r in range(t.ROWS)), key=board_order)
)
# Every square of the board and its name, spelled once: an answer names some 250 squares.
_NAMES: Final = {square: _spelled(square) for square in BOARD}


def name(square: Square) -> str:
    known = _NAMES.get(square)
    return _spelled(square) if known is None else known


def names(squares: Iterable[Square]) -> list[str]:
    return [_NAMES.get(square) or _spelled(square) for square in squares]


def on_board(square: Square) -> bool:
    return square in _NAMES


def shift(square: Square, offset: tuple[int, int]) -> Square:
    return square[0] + offset[0], square[1] + offset[1]


def line(start: Square, orientation: str, length: int) -> tuple[Square, ...]:
    step = t.STEP[orientation]
    return tuple(shift(start, (step[0] * i, step[1] * i)) for i in range(length))


SQUARES_ON_BOARD: Final = len(t.COLUMNS) * t.ROWS
MAX_FLEET = 10  # placements a fleet sent for checking may list
MAX_SHIP_SQUARES = 10  # squares a placement sent for checking may list

# A square of the board, sent and answered by its name.
BoardSquare = Annotated[Square, Via(SalvoGridSquare, parse, name)]


def _parsed(texts: list[str]) -> tuple[Square, ...]:
    return tuple(map(parse, texts))


def _in_reading_order(squares: tuple[Square, ...]) -> list[str]:
    return names(sorted(squares, key=board_order))


def ship_name(ship: str) -> SalvoGridShip:
    """A ship's name as the typed results name it: the fleet's ships are the request schema's
    enum (the table's five), held here as plain strings."""
    return cast(SalvoGridShip, ship)


# --- a fleet and its faults ------------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    """One ship and the squares it covers: sent in any order (a fleet sent for checking may
    name squares off the board), answered in reading order, ready to send back as a fleet."""

    component: ClassVar[str] = "SalvoGridPlacement"

    ship: SalvoGridShip
    squares: Annotated[
        tuple[Square, ...],
        Via(list[SalvoGridAnySquare], _parsed, _in_reading_order),
        Limits(least=1, most=MAX_SHIP_SQUARES),
    ]


Fleet = Annotated[
    tuple[Placement, ...],
    Limits(least=1, most=MAX_FLEET),
    Doc("The five ships, each with its squares"),
]


@dataclass(frozen=True)
class Fault:
    """One thing wrong with a layout, named so an app can point at it."""

    fault: str
    detail: str
    field: str
    ship: str | None = None
    squares: tuple[Square, ...] = ()

    def as_dict(self) -> SalvoGridFault:
        return {
            "fault": cast(SalvoGridFaultKind, self.fault),
            "detail": self.detail,
            "field": self.field,
            "ship": None if self.ship is None else ship_name(self.ship),
            "squares": names(self.squares),
        }


def _shape_fault(placement: Placement, where: str) -> Fault | None:
    """Straight, end to end: diagonal, bent and gapped ships each get their own name."""
    squares = sorted(set(placement.squares))
    if len(squares) < 2:
        return None
    ship = t.SHIP_NAMES[placement.ship]
    first, last = squares[0], squares[-1]
    span = None  # from end to end, where the squares are in one column or one row
    if first[0] == last[0]:  # sorted by column first: one column
        span = last[1] - first[1]
    elif all(row == first[1] for _, row in squares):
        span = last[0] - first[0]
    if span is not None:
        if span != len(squares) - 1:
            return Fault(
                "gap",
                f"the {ship}'s squares {', '.join(names(squares))} are in one line but not "
                "end to end: a ship has no gaps",
                f"{where}.squares",
                placement.ship,
                tuple(squares),
            )
        return None
    steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(squares, squares[1:], strict=False)}
    if len(steps) == 1 and next(iter(steps)) in ((1, 1), (1, -1)):
        return Fault(
            "diagonal",
            f"the {ship} lies diagonally ({', '.join(names(squares))}): ships lie "
            "horizontally or vertically, never diagonally",
            f"{where}.squares",
            placement.ship,
            tuple(squares),
        )
    return Fault(
        "not-in-line",
        f"the {ship}'s squares {', '.join(names(squares))} are not in one row or column",
        f"{where}.squares",
        placement.ship,
        tuple(squares),
    )


@cache
def _places_of_size(size: int) -> frozenset[frozenset[Square]]:
    """Every place on the board of a ship of ``size`` squares, as a set of its squares."""
    return frozenset(frozenset(squares) for squares in lines_on_board(size))


def _plainly_legal(fleet: Sequence[Placement]) -> bool:
    """True when the fleet is one of each ship, each on a line of the board of its own
    length, none on another's square: a fleet ``fleet_faults`` finds nothing wrong with
    (what every round sends back), told without the checks one by one."""
    if len(fleet) != len(t.SHIP_IDS):
        return False
    seen: set[str] = set()
    covered: set[Square] = set()
    for placement in fleet:
        size = t.SHIP_SIZES.get(placement.ship)
        if (
            size is None
            or placement.ship in seen
            or len(placement.squares) != size
            or frozenset(placement.squares) not in _places_of_size(size)
        ):
            return False
        seen.add(placement.ship)
        covered.update(placement.squares)
    return len(covered) == t.FLEET_SQUARES


def fleet_faults(fleet: Sequence[Placement], where: str = "fleet") -> list[Fault]:
    """Every fault of a fleet: wrong ships, wrong sizes, off the board, shape, overlaps."""
    return [] if _plainly_legal(fleet) else faults_one_by_one(fleet, where)


def faults_one_by_one(fleet: Sequence[Placement], where: str = "fleet") -> list[Fault]:
    """``fleet_faults`` with every check made, for any fleet (a legal one has none)."""
    faults: list[Fault] = []
    present = {p.ship for p in fleet}
    for ship in t.SHIP_IDS:
        if ship not in present:
            faults.append(
                Fault(
                    "missing-ship",
                    f"the fleet has no {t.SHIP_NAMES[ship]}: it is the Carrier, Battleship, "
                    "Cruiser, Submarine and Destroyer, one of each",
                    where,
                    ship,
                )
            )
    seen: set[str] = set()
    claimed: dict[Square, int] = {}
    for index, placement in enumerate(fleet):
        at = f"{where}[{index}]"
        ship = t.SHIP_NAMES[placement.ship]
        if placement.ship in seen:
            faults.append(
                Fault(
                    "extra-ship",
                    f"a second {ship}: the fleet has one of each ship",
                    f"{at}.ship",
                    placement.ship,
                    placement.squares,
                )
            )
        seen.add(placement.ship)
        distinct = dict.fromkeys(placement.squares)
        size = len(distinct)
        if size != len(placement.squares):
            repeated = [sq for sq, n in Counter(placement.squares).items() if n > 1]
            faults.append(
                Fault(
                    "repeated-square",
                    f"the {ship} names {', '.join(names(repeated))} more than once",
                    f"{at}.squares",
                    placement.ship,
                    tuple(repeated),
                )
            )
        wanted = t.SHIP_SIZES[placement.ship]
        if size != wanted:
            faults.append(
                Fault(
                    "wrong-size",
                    f"the {ship} covers {size} squares; it is {wanted} long",
                    f"{at}.squares",
                    placement.ship,
                    placement.squares,
                )
            )
        off = [sq for sq in distinct if not on_board(sq)]
        if off:
            faults.append(
                Fault(
                    "off-board",
                    f"the {ship} runs off the board at {', '.join(names(off))}: the ocean is "
                    f"columns A to J, rows 1 to {t.ROWS}",
                    f"{at}.squares",
                    placement.ship,
                    tuple(off),
                )
            )
        shape = _shape_fault(placement, at)
        if shape is not None:
            faults.append(shape)
        for square in distinct:
            other = claimed.get(square)
            if other is not None and other != index:
                faults.append(
                    Fault(
                        "overlap",
                        f"the {ship} and the {t.SHIP_NAMES[fleet[other].ship]} both lie on "
                        f"{name(square)}: ships may touch but never overlap",
                        f"{at}.squares",
                        placement.ship,
                        (square,),
                    )
                )
            else:
                claimed[square] = index
    return faults


def require_legal_fleet(fleet: Sequence[Placement], where: str, whose: str) -> None:
    faults = fleet_faults(fleet, where)
    if faults:
        raise RuleError(
            f"{whose} fleet is not a legal layout: " + "; ".join(f.detail for f in faults),
            field=faults[0].field,
        )


# --- an ocean: a fleet, its loot, and what the rival has done to it ---------------------------


@dataclass(frozen=True)
class LootPiece:
    component: ClassVar[str] = "SalvoGridLootPiece"

    square: BoardSquare
    kind: SalvoGridLootKind


@dataclass(frozen=True)
class Ocean:
    """One captain's ocean and ships, as the game app holds it between rounds.

    ``shots_received`` is every square the rival has fired on to effect (hit or miss), each
    once. A shot that came back as contact is not in it: that square is in ``contacts``,
    with the squares the rival's radar buoys revealed, and may be fired at again.
    ``diving``: this captain's submarine dives during the rival's salvo this round.
    ``loot_bonus``: what this captain's last salvo found, for this round's salvo only.
    """

    component: ClassVar[str] = "SalvoGridOcean"

    fleet: Fleet
    loot: Annotated[
        tuple[LootPiece, ...],
        Limits(length=t.LOOT_PER_OCEAN),
        Doc("The seven pieces hidden in this ocean, found or not"),
    ]
    shots_received: Annotated[
        tuple[BoardSquare, ...],
        Limits(most=SQUARES_ON_BOARD),
        Doc("Squares the rival has fired on to effect, each once"),
    ] = ()
    contacts: Annotated[
        tuple[BoardSquare, ...],
        Limits(most=t.FLEET_SQUARES),
        Doc("Ship squares the rival knows as contacts and may fire at"),
    ] = ()
    specials_used: Annotated[
        tuple[SalvoGridShip, ...],
        Limits(most=len(t.FLEET)),
        Doc("Ships whose special this captain has used"),
    ] = ()
    diving: Annotated[bool, Doc("This captain's submarine dives during the rival's salvo")] = False
    loot_bonus: Annotated[
        int,
        Limits(minimum=t.LOOT_BONUS_RANGE[0], maximum=t.LOOT_BONUS_RANGE[1]),
        Doc("Shots this captain's last salvo found, for this salvo only"),
    ] = 0

    @cached_property
    def owners(self) -> dict[Square, str]:
        """The ship on each square of the fleet (the first placement listed, on an overlap)."""
        found: dict[Square, str] = {}
        for placement in self.fleet:
            for square in placement.squares:
                found.setdefault(square, placement.ship)
        return found

    def squares_of(self, ship: str) -> tuple[Square, ...]:
        for placement in self.fleet:
            if placement.ship == ship:
                return placement.squares
        return ()

    @cached_property
    def fired_on(self) -> frozenset[Square]:
        """The squares of ``shots_received``, as a set."""
        return frozenset(self.shots_received)

    @cached_property
    def _afloat(self) -> tuple[str, ...]:
        fired = self.fired_on
        return tuple(p.ship for p in self.fleet if not self.sunk(p.ship, fired))

    def sunk(self, ship: str, fired: Set[Square] | None = None) -> bool:
        """Every square of ``ship`` fired on: by ``shots_received``, or by ``fired``."""
        fired = self.fired_on if fired is None else fired
        return all(square in fired for square in self.squares_of(ship))

    def afloat(self) -> list[str]:
        # Worked out once per ocean (it is frozen): a round asks it a dozen times.
        return list(self._afloat)

    def salvo_size(self, floor: bool = True) -> int:
        """One shot per ship afloat plus the last salvo's loot, never below 0; with ``floor``
        (ruling fewer-shots, reading floor-of-one) never below 1 while a ship floats."""
        afloat = len(self.afloat())
        if afloat == 0:
            return 0
        return max(t.MIN_SALVO if floor else 0, afloat * t.SHOTS_PER_SHIP_AFLOAT + self.loot_bonus)

    @cached_property
    def _loot_by_square(self) -> dict[Square, str]:
        found: dict[Square, str] = {}
        for piece in self.loot:
            found.setdefault(piece.square, piece.kind)
        return found

    def loot_at(self, square: Square) -> str | None:
        """The kind of the (first) piece of loot on ``square``, if any."""
        return self._loot_by_square.get(square)


def loot_faults(fleet: Sequence[Placement], loot: Sequence[LootPiece], where: str) -> list[str]:
    problems = []
    counts: Counter[str] = Counter(piece.kind for piece in loot)
    for kind in t.LOOT_KINDS:
        if counts[kind] != t.LOOT_COUNTS[kind]:
            problems.append(
                f"{counts[kind]} {kind} pieces where an ocean has {t.LOOT_COUNTS[kind]}"
            )
    ship_squares = {sq for p in fleet for sq in p.squares}
    seen: set[Square] = set()
    for piece in loot:
        if piece.square in ship_squares:
            problems.append(f"loot on {name(piece.square)}, under a ship: loot lies on open water")
        if piece.square in seen:
            problems.append(f"two pieces of loot on {name(piece.square)}")
        seen.add(piece.square)
    return problems


def require_legal_ocean(ocean: Ocean, where: str, whose: str) -> None:
    """An ocean sent back by the app must be one the rules could have produced."""
    require_legal_fleet(ocean.fleet, f"{where}.fleet", whose)
    problems = loot_faults(ocean.fleet, ocean.loot, where)
    if problems:
        raise RuleError(f"{whose} loot is not legal: " + "; ".join(problems), f"{where}.loot")
    if len(ocean.fired_on) != len(ocean.shots_received):
        repeated = [sq for sq, n in Counter(ocean.shots_received).items() if n > 1]
        raise RuleError(
            f"{whose} shots_received lists {', '.join(names(repeated))} more than once: a square "
            "is fired on to effect only once",
            f"{where}.shots_received",
        )
    for square in dict.fromkeys(ocean.contacts):
        if square not in ocean.owners:
            raise RuleError(
                f"{whose} contacts include {name(square)}, which is open water: a contact is "
                "always on a ship",
                f"{where}.contacts",
            )
        if square in ocean.shots_received:
            raise RuleError(
                f"{whose} contacts include {name(square)}, which is already in shots_received",
                f"{where}.contacts",
            )
    if len(set(ocean.contacts)) != len(ocean.contacts):
        raise RuleError(f"{whose} contacts list a square twice", f"{where}.contacts")
    if len(set(ocean.specials_used)) != len(ocean.specials_used):
        raise RuleError(f"{whose} specials_used list a ship twice", f"{where}.specials_used")
    if ocean.diving and "submarine" not in ocean.specials_used:
        raise RuleError(
            f"{whose} submarine is diving but its dive is not in specials_used",
            f"{where}.diving",
        )
    if ocean.diving and ocean.sunk("submarine"):
        raise RuleError(f"{whose} submarine is diving but it is sunk", f"{where}.diving")


# --- the layout and loot steps: hiding a fleet and its loot, by the dice ---------------------


T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Candidates(Protocol[T_co]):
    """What ``choose`` picks from: a list, or anything else counted and indexed alike."""

    def __len__(self) -> int: ...

    def __getitem__(self, position: int, /) -> T_co: ...


def choose(res: Resolution, label: str, candidates: Candidates[T], describe: Any = str) -> T:
    """One of ``candidates``, by one die with exactly that many sides (no die for one).

    Every face is equally likely (the dice source has no modulo bias), so every candidate
    is; the trail shows which face picked which candidate.
    """
    if not candidates:
        raise ValueError(f"{label}: nothing to choose from")
    if len(candidates) == 1:
        return candidates[0]
    roll = res.roll(label, 1, len(candidates))
    picked = candidates[roll.total - 1]
    res.check(label, roll.total, [], f"{len(candidates)} candidates in order", describe(picked))
    return picked


def span_name(squares: Sequence[Square]) -> str:
    return "-".join(names([squares[0], squares[-1]])) if len(squares) > 1 else name(squares[0])


@dataclass(frozen=True)
class LayoutInput:
    fleet: Annotated[
        Fleet | None, Omitted(), Doc("Leave out for a random fleet; send to check it")
    ] = None


@cache
def lines_on_board(size: int) -> tuple[tuple[Square, ...], ...]:
    """Every line of ``size`` squares on the board: horizontal ones by bow in reading order,
    then vertical ones (worked out once per size)."""
    every = (line(start, orientation, size) for orientation in t.ORIENTATIONS for start in BOARD)
    return tuple(squares for squares in every if all(on_board(sq) for sq in squares))


def placements(ship: str, occupied: set[Square]) -> list[tuple[Square, ...]]:
    """Every legal place for ``ship``: horizontal ones by bow in reading order, then vertical."""
    return [sq for sq in lines_on_board(t.SHIP_SIZES[ship]) if occupied.isdisjoint(sq)]


_WORD: Final = (1 << 64) - 1


@cache
def _lines_through(size: int) -> dict[Square, int]:
    """For each square, the lines of ``lines_on_board(size)`` through it, as a bit mask of
    their positions in that tuple (worked out once per size)."""
    through: dict[Square, int] = {}
    for index, squares in enumerate(lines_on_board(size)):
        for square in squares:
            through[square] = through.get(square, 0) | 1 << index
    return through


class FreeLines:
    """``placements(ship, occupied)`` without building the list: the lines clear of
    ``occupied`` as a bit mask of their positions, the n-th of them found when it is asked
    for (a layout asks for one of each ship's hundred or so)."""

    __slots__ = ("_lines", "_free", "_count")

    def __init__(self, ship: str, occupied: Iterable[Square]) -> None:
        size = t.SHIP_SIZES[ship]
        self._lines = lines_on_board(size)
        through = _lines_through(size)
        blocked = 0
        for square in occupied:
            blocked |= through.get(square, 0)
        self._free = ((1 << len(self._lines)) - 1) & ~blocked
        self._count = self._free.bit_count()

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, position: int) -> tuple[Square, ...]:
        if not 0 <= position < self._count:
            raise IndexError(position)
        free, base = self._free, 0
        while True:  # to the 64 lines that hold it, then line by line
            word = free & _WORD
            count = word.bit_count()
            if position < count:
                break
            position -= count
            free >>= 64
            base += 64
        for _ in range(position):
            word &= word - 1  # the lowest line left is not the one: drop it
        return self._lines[base + (word & -word).bit_length() - 1]


def layout(inp: LayoutInput, res: Resolution) -> SalvoGridLayoutResult:
    """A random legal fleet from the dice, or the check of the fleet given."""
    if inp.fleet is not None:
        faults = fleet_faults(inp.fleet)
        return {
            "legal": not faults,
            "faults": [fault.as_dict() for fault in faults],
            "fleet": [to_json(p) for p in inp.fleet] if not faults else None,
        }
    occupied: set[Square] = set()
    fleet = []
    for ship in t.SHIP_IDS:
        squares = choose(
            res, f"place the {t.SHIP_NAMES[ship]}", FreeLines(ship, occupied), span_name
        )
        occupied.update(squares)
        fleet.append(Placement(ship_name(ship), squares))
    return {"legal": True, "faults": [], "fleet": [to_json(p) for p in fleet]}


@dataclass(frozen=True)
class LootInput:
    fleet: Fleet


def loot(inp: LootInput, res: Resolution) -> SalvoGridLootResult:
    """Seven pieces on the open water of a legal fleet: crates, then mines, then buoys."""
    require_legal_fleet(inp.fleet, "fleet", "this")
    ships = {sq for p in inp.fleet for sq in p.squares}
    open_water = [sq for sq in BOARD if sq not in ships]
    pieces = []
    for kind, count, _, _ in t.LOOT:
        for number in range(1, count + 1):
            square = choose(res, f"hide {kind} {number}", open_water, name)
            open_water.remove(square)
            pieces.append(LootPiece(square, cast(SalvoGridLootKind, kind)))
    return {"loot": [to_json(piece) for piece in pieces]}
