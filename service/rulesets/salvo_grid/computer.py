"""The computer step: the computer captain aims its salvo from what it knows."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.errors import RuleError
from ...engine.resolution import Resolution
from ...engine.shape import to_json
from . import tables as t
from .fleet import (
    BOARD,
    Ocean,
    Square,
    choose,
    lines_on_board,
    name,
    on_board,
    require_legal_ocean,
    shift,
    span_name,
)
from .results import SalvoGridAimReason, SalvoGridComputerPick, SalvoGridOrientation
from .salvo import Salvo, Special, View, open_squares, salvo_size


@dataclass(frozen=True)
class ComputerInput:
    ocean: Ocean
    view: View


def _best(
    res: Resolution, label: str, areas: list[tuple[Square, ...]], fresh: set[Square]
) -> tuple[Square, ...] | None:
    """The area with the most fresh squares (ties rolled), or None when none has any."""
    scored = [(sum(1 for sq in area if sq in fresh), area) for area in areas]
    top = max((score for score, _ in scored), default=0)
    if top == 0:
        return None
    return choose(res, label, [area for score, area in scored if score == top], span_name)


def battle_on(inp: ComputerInput) -> tuple[list[str], set[Square]]:
    """What every computer captain checks first: its ocean is legal and the battle is not
    over. Its ships afloat, and the squares not yet fired at (a contact may be again)."""
    ocean, view = inp.ocean, inp.view
    require_legal_ocean(ocean, "ocean", "the computer's")
    afloat = ocean.afloat()
    if not afloat:
        raise RuleError("the computer has no ship afloat: the battle is over", "ocean")
    if len({sunk.ship for sunk in view.sunk}) == len(t.FLEET):
        raise RuleError("every enemy ship is sunk: the battle is over", "view.sunk")
    return afloat, set(open_squares(view.fired_on))


def computer(inp: ComputerInput, res: Resolution) -> SalvoGridComputerPick:
    """The computer captain's salvo, from its own ocean and its view of the enemy's."""
    ocean, view = inp.ocean, inp.view
    afloat, fresh = battle_on(inp)  # a contact may be fired at again
    wounded_set = set(view.hits)
    wounded = [sq for sq in BOARD if sq in wounded_set]

    size = salvo_size(ocean, res)
    # Ruling special-needs-its-ship-afloat, reading costs-a-shot: a special takes one of the
    # salvo's shots, so it brings down only as many specials as it has shots.
    costs = res.reading("special-needs-its-ship-afloat") == "costs-a-shot"
    specials: list[Special] = []

    def ready(ship: str) -> bool:
        affordable = not costs or len(specials) < size
        return (
            affordable
            and ship in t.COMPUTER_SPECIALS
            and ship in afloat
            and ship not in ocean.specials_used
        )

    if wounded and ready("destroyer"):
        through_a_hit = [sq for sq in lines_on_board(3) if not wounded_set.isdisjoint(sq)]
        chosen = _best(res, "computer depth charges", through_a_hit, fresh)
        if chosen is not None:
            orientation: SalvoGridOrientation = (
                "horizontal" if chosen[1][1] == chosen[0][1] else "vertical"
            )
            specials.append(Special("destroyer", chosen[0], orientation))
            fresh -= set(chosen)
    if wounded and ready("battleship"):
        offsets = t.SPECIALS["battleship"]["area"]
        blocks = [
            tuple(shift(start, o) for o in offsets)
            for start in BOARD
            if all(on_board(shift(start, o)) for o in offsets)
            and any(shift(start, o) in wounded_set for o in offsets)
        ]
        chosen = _best(res, "computer heavy shell", blocks, fresh)
        if chosen is not None:
            specials.append(Special("battleship", chosen[0]))
            fresh -= set(chosen)
    if ready("submarine") and any(
        sq in ocean.shots_received for sq in ocean.squares_of("submarine")
    ):
        specials.append(Special("submarine"))

    # Ruling computer-captain: contacts first, or (reading as-listed) no tier of their own,
    # so a contact is aimed at as next to a hit or at random, as it lies.
    contacts = set(view.contacts) if res.reading("computer-captain") == "contacts-first" else set()
    near = {shift(sq, step) for sq in wounded for step in t.NEIGHBOURS}
    tiers = {
        "contact": [sq for sq in BOARD if sq in fresh and sq in contacts],
        "next to a hit": [sq for sq in BOARD if sq in fresh and sq in near - contacts],
        "at random": [sq for sq in BOARD if sq in fresh and sq not in near | contacts],
    }
    shots = size - len(specials) if costs else size
    picks: list[tuple[Square, SalvoGridAimReason]] = []
    aims: tuple[SalvoGridAimReason, ...] = t.COMPUTER_AIMS
    for reason in aims:
        tier = tiers[reason]
        while tier and len(picks) < shots:
            if len(tier) <= shots - len(picks):
                picked = tier.pop(0)
            else:
                picked = choose(res, f"computer aims {reason}", tier, name)
                tier.remove(picked)
            picks.append((picked, reason))
    return {
        "salvo": to_json(Salvo(tuple(shot for shot, _ in picks), tuple(specials))),
        "aims": [{"square": name(shot), "reason": reason} for shot, reason in picks],
        "salvo_size": size,
    }
