"""The hard computer captain: it fires where the heat map says the rival's ships most likely lie.

``level: hard`` of the computer step (docs/computer.md). From the same inputs as the
standard captain (its own ocean and its view of the rival's), it works out the heat map
(service/rulesets/salvo_grid/heatmap/) with a smaller budget than the heat map step, then:

* depth charges: the line of 3 whose squares not yet fired at hold the most expected ship
  squares, fired once that is at least ``CHARGES_AT`` (or at once if the destroyer is hit,
  before it can sink with its charges unused);
* heavy shell: the same with the 2x2 blocks (after the charges' squares), at ``SHELL_AT``;
* dive: once its submarine has been hit, as the standard captain does;
* shots: the squares not yet fired at (contacts included) with the highest probability, in
  that order; a tie at the last place is settled by a die, like the standard captain's;
* like the standard captain, it never uses recon or sonar: the computer step is stateless
  and a count pays only in the rounds after it, through a view that would have to carry it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ...engine.resolution import Resolution
from ...engine.shape import to_json
from ...engine.typed import table_of
from . import heatmap as hm
from . import tables as t
from .computer import ComputerInput, battle_on, computer
from .fleet import BOARD, Square, choose, lines_on_board, name, on_board, shift
from .results import (
    SalvoGridAimReason,
    SalvoGridComputerLevel,
    SalvoGridComputerPick,
    SalvoGridComputerResult,
    SalvoGridOrientation,
)
from .salvo import Salvo, Special, salvo_size, within_salvo

LEVELS = table_of(SalvoGridComputerLevel, ("standard", "hard"))
AIMS: Final = ("most likely",)
# The standard captain's aims, then the hard captain's: every reason an aim gives.
table_of(SalvoGridAimReason, (*t.COMPUTER_AIMS, *AIMS))
CHARGES_AT = 1.0
SHELL_AT = 1.2
EXACT_WORK = 10_000
WORK = 150_000  # about a third of the heat map step's sampling: about 10 ms a call


@dataclass(frozen=True)
class LevelledInput(ComputerInput):
    """The computer step's inputs and the level it plays at."""

    level: SalvoGridComputerLevel = "standard"


def captain(inp: LevelledInput, res: Resolution) -> SalvoGridComputerResult:
    """The computer step: the standard captain, or the hard one."""
    if inp.level == "hard":
        try:
            return {**hard(inp, res), "level": "hard"}
        except hm.SearchLimit:
            pass  # a view whose layouts the budget cannot reach: the standard captain aims
    return {**computer(inp, res), "level": "standard"}


def heat_for(told: hm.Told, res: Resolution) -> list[float]:
    """The heat map with the hard captain's budget (about 10 ms a call)."""
    found = hm.heat(told, res, hm.GAME, EXACT_WORK, WORK, "hard captain's heat map seed")
    return found.probabilities()


def _index(square: Square) -> int:
    return square[1] * len(t.COLUMNS) + square[0]


def _best_area(
    areas: list[tuple[Square, ...]], fresh: set[Square], p: list[float]
) -> tuple[float, tuple[Square, ...] | None]:
    best: tuple[float, tuple[Square, ...] | None] = (0.0, None)
    for area in areas:
        score = sum(p[_index(sq)] for sq in area if sq in fresh)
        if score > best[0] + 1e-12:
            best = (score, area)
    return best


def _blocks() -> list[tuple[Square, ...]]:
    offsets = t.SPECIALS["battleship"]["area"]
    return [
        tuple(shift(start, o) for o in offsets)
        for start in BOARD
        if all(on_board(shift(start, o)) for o in offsets)
    ]


BLOCKS = _blocks()


def hard(inp: ComputerInput, res: Resolution) -> SalvoGridComputerPick:
    """The hard captain's salvo, from its own ocean and its view of the enemy's."""
    ocean, view = inp.ocean, inp.view
    afloat, fresh = battle_on(inp)
    p = heat_for(hm.told_of(view), res)
    hit_on_me = set(ocean.shots_received)

    def ready(ship: str) -> bool:
        return ship in afloat and ship not in ocean.specials_used

    specials: list[Special] = []
    if ready("destroyer"):
        score, line = _best_area(list(lines_on_board(3)), fresh, p)
        wounded = any(sq in hit_on_me for sq in ocean.squares_of("destroyer"))
        if line is not None and (score >= CHARGES_AT or wounded):
            orientation: SalvoGridOrientation = (
                "horizontal" if line[1][1] == line[0][1] else "vertical"
            )
            specials.append(Special("destroyer", line[0], orientation))
            fresh -= set(line)
    if ready("battleship"):
        score, block = _best_area(BLOCKS, fresh, p)
        wounded = any(sq in hit_on_me for sq in ocean.squares_of("battleship"))
        if block is not None and (score >= SHELL_AT or wounded):
            specials.append(Special("battleship", block[0]))
            fresh -= set(block)
    if ready("submarine") and any(sq in hit_on_me for sq in ocean.squares_of("submarine")):
        specials.append(Special("submarine"))

    full = salvo_size(ocean, res)  # the readings in force (fewer-shots, specials' cost)
    specials, size = within_salvo(specials, full, res)
    ranked = sorted((sq for sq in BOARD if sq in fresh), key=lambda sq: -p[_index(sq)])
    picks = ranked[:size]
    if len(ranked) > size and picks:
        cut = p[_index(picks[-1])]
        above = [sq for sq in picks if p[_index(sq)] > cut]
        tied = [sq for sq in ranked if p[_index(sq)] == cut]
        picks = above
        while len(picks) < size and tied:
            pick = tied[0] if len(tied) == 1 else choose(res, "hard captain's tie", tied, name)
            tied.remove(pick)
            picks.append(pick)
    contacts = set(view.contacts)
    return {
        "salvo": to_json(Salvo(tuple(picks), tuple(specials))),
        "aims": [
            {"square": name(sq), "reason": "contact" if sq in contacts else AIMS[0]} for sq in picks
        ],
        "salvo_size": full,
    }
