"""Exact odds of guns and torpedoes, small enough to answer at once.

Walking every die of a Battleship's fire one branch at a time would take up to 6**12
branches. But each attack die and its own save are independent of the other dice, so the
odds of one die (every face of it, and every face of its save, through the very
``attack_die``, ``save_die``, ``Shot`` and ``Tally`` the resolver uses) are worked out
once and then added up die by die (``repeat``, with integer counts over one denominator
while they are added). Six dice give at most 56 tallies (hits, saves and catastrophic or
not), all as exact fractions.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ...engine.distribution import repeat
from ...engine.resolution import in_force
from . import tables as t
from .steps import (
    FireInput,
    Shot,
    Tally,
    TorpedoInput,
    attack_die,
    attack_outcome,
    check_guns,
    check_torpedoes,
    fire_outcome,
    save_die,
    to_hit_number,
    torpedo_visibility,
)

FACES = range(1, t.DIE + 1)


def shot_odds(to_hit: int, armour: int | None) -> dict[Shot, Fraction]:
    """What one attack die does, with its save; ``armour`` None when armour is ignored."""
    odds: dict[Shot, Fraction] = {}
    face_chance = Fraction(1, t.DIE)
    for face in FACES:
        hit, six = attack_die(face, to_hit)
        if not hit or armour is None:
            shot = Shot(hit=hit, six=six)
            odds[shot] = odds.get(shot, Fraction(0)) + face_chance
            continue
        for save_face in FACES:
            shot = Shot(hit=True, six=six, saved=save_die(save_face, armour))
            odds[shot] = odds.get(shot, Fraction(0)) + face_chance * face_chance
    return odds


def tally_odds(shots: dict[Shot, Fraction], dice: int) -> dict[Tally, Fraction]:
    """The tallies of ``dice`` independent attack dice, each with the odds ``shots``."""
    return repeat(Tally(), shots, dice, Tally.add)


@lru_cache(maxsize=64)
def pool_tallies(to_hit: int, armour: int | None, dice: int) -> dict[Tally, Fraction]:
    """The tallies of a pool of ``dice`` against ``to_hit`` (and ``armour``, or none), kept:
    there are at most 4 numbers to hit x 5 armours x 6 pool sizes (a turn's odds ask for
    the same pools again and again)."""
    return tally_odds(shot_odds(to_hit, armour), dice)


def _to_hit(crew: str | None, visibility: str) -> int:
    assert crew is not None  # checked by check_guns / check_torpedoes
    return to_hit_number(crew, visibility)[0]


Odds = list[tuple[Mapping[str, Any], Fraction]]


def fire_tallies(inp: FireInput) -> dict[Tally, Fraction]:
    """Every tally of the guns with its chance; refused exactly as the step refuses."""
    check_guns(inp)
    to_hit = _to_hit(inp.firer.crew, inp.visibility)
    return dict(pool_tallies(to_hit, inp.target.ship_class.armour, inp.firer.ship_class.attack))


def torpedo_tallies(inp: TorpedoInput) -> dict[Tally, Fraction]:
    """Every tally of a torpedo attack with its chance (armour is ignored)."""
    check_torpedoes(inp)
    to_hit = _to_hit(inp.firer.crew, torpedo_visibility(inp.visibility, in_force()))
    return dict(pool_tallies(to_hit, None, t.TORPEDO_DICE))


def fire_odds(inp: FireInput) -> Odds:
    """Every outcome of the guns with its chance; refused exactly as the step refuses."""
    return [(fire_outcome(tally, inp.target), p) for tally, p in fire_tallies(inp).items()]


def torpedo_odds(inp: TorpedoInput) -> Odds:
    """Every outcome of a torpedo attack with its chance (armour is ignored)."""
    return [(attack_outcome(tally, inp.target), p) for tally, p in torpedo_tallies(inp).items()]
