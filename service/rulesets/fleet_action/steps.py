"""Every fleet-action step, one function each: inputs in, result out, trail recorded.

Guns and torpedoes are decided die by die by two small rules functions, ``attack_die`` and
``save_die``; what one attack die did (with its save) is a ``Shot``, and the shots add up
to a ``Tally``. The resolvers below and the exact odds in ``odds.py`` both go through these
same functions, so a roll and its odds cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, cast

from ...engine.errors import LimitError, RuleError
from ...engine.resolution import Modifier, Readings, Resolution
from ...engine.ruleset import NoInput
from ...engine.typed import Doc, Limits
from . import tables as t
from .results import (
    FleetActionDamageResult,
    FleetActionFireResult,
    FleetActionInitiativeResult,
    FleetActionPlayer,
    FleetActionShipStatus,
    FleetActionSunkBy,
    FleetActionTorpedoResult,
    FleetActionVisibility,
)
from .ships import MAX_INCHES, Firer, Ship

# --- the per-die rules -------------------------------------------------------------------


def to_hit_number(crew: str, visibility: str) -> tuple[int, list[Modifier]]:
    """The crew's To Hit raised by visibility, never worse than 6+ (ruling never-worse-than-6)."""
    base = t.CREW_QUALITY[crew]
    raised = base + t.VISIBILITY[visibility]
    mods = [Modifier(f"{visibility} visibility", t.VISIBILITY[visibility])]
    if raised > t.WORST_TO_HIT:
        mods.append(Modifier(f"never worse than {t.WORST_TO_HIT}+", t.WORST_TO_HIT - raised))
    return min(raised, t.WORST_TO_HIT), mods


def attack_die(face: int, to_hit: int) -> tuple[bool, bool]:
    """(hit, unmodified six) for one gun or torpedo die.

    Nothing in these rules modifies a die (visibility raises the number needed), so every
    6 rolled is an unmodified 6 (ruling unmodified-six).
    """
    hit = face >= to_hit
    return hit, hit and face == t.CATASTROPHIC_FACE


def save_die(face: int, armour: int) -> bool:
    """An armour save: meets or beats the Armour number, whatever the hit it is against."""
    return face >= armour


@dataclass(frozen=True)
class Shot:
    """What one attack die did, with its armour save if it hit and armour counts."""

    hit: bool
    six: bool = False
    saved: bool = False

    @property
    def through(self) -> bool:
        """The die hit and its armour save, if any, failed."""
        return self.hit and not self.saved

    @property
    def catastrophic(self) -> bool:
        """A hit that went through on an unmodified six."""
        return self.through and self.six


@dataclass(frozen=True)
class Tally:
    """The shots of one fire or torpedo attack, added up."""

    hits: int = 0
    saves: int = 0
    hull_lost: int = 0
    catastrophic: bool = False

    def add(self, shot: Shot) -> Tally:
        return Tally(
            hits=self.hits + shot.hit,
            saves=self.saves + (shot.hit and shot.saved),
            hull_lost=self.hull_lost + shot.through * t.HULL_PER_UNSAVED_HIT,
            catastrophic=self.catastrophic or shot.catastrophic,
        )


def _status(ship: Ship) -> FleetActionShipStatus:
    """A ship's status as the typed result names it (``Ship.status`` builds a plain dict of
    exactly these keys; tests/test_typed_results.py holds the two to the same schema)."""
    return cast(FleetActionShipStatus, ship.status())


def attack_outcome(tally: Tally, target: Ship) -> FleetActionTorpedoResult:
    """The named outcome of an attack: what got through and the target afterwards."""
    return {
        "hits": tally.hits,
        "hull_lost": tally.hull_lost,
        "catastrophic": tally.catastrophic,
        "target": _status(target.apply(tally.hull_lost, tally.catastrophic)),
    }


def fire_outcome(tally: Tally, target: Ship) -> FleetActionFireResult:
    return {**attack_outcome(tally, target), "saves": tally.saves}


# --- initiative ------------------------------------------------------------------------


def initiative(_: NoInput, res: Resolution) -> FleetActionInitiativeResult:
    """Both players roll 1d6, A's die first; ties roll again; the winner goes second."""
    sides: tuple[FleetActionPlayer, FleetActionPlayer] = t.INITIATIVE_SIDES
    a, b = sides
    for round_number in range(1, t.MAX_INITIATIVE_ROUNDS + 1):
        label = f"initiative round {round_number}"
        a_die = res.roll(f"{label}: player {a}", 1, t.DIE).total
        b_die = res.roll(f"{label}: player {b}", 1, t.DIE).total
        if a_die == b_die:
            res.check(f"{label}: player {a}", a_die, [], f"player {b}'s {b_die}", "tie: roll again")
            continue
        winner, loser = (a, b) if a_die > b_die else (b, a)
        res.check(
            f"{label}: player {a}",
            a_die,
            [],
            f"player {b}'s {b_die}",
            f"player {winner} wins and goes second; player {loser} goes first",
        )
        return {"winner": winner, "first": loser, "second": winner, "ties": round_number - 1}
    raise LimitError(
        f"initiative tied {t.MAX_INITIATIVE_ROUNDS} rounds in a row, the most one request "
        "rolls: roll initiative again (with seeded dice, count the nonce up)"
    )


# --- guns ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackInput:
    """What an attack step reads: who fires at whom, at what range, in what visibility."""

    firer: Firer
    target: Ship
    range: Annotated[
        float,
        Limits(minimum=0, maximum=MAX_INCHES),
        Doc("Distance to the target in inches, measured by the players"),
    ]
    line_of_sight: Annotated[bool, Doc("Can the firer see the target?")]
    visibility: FleetActionVisibility = "Clear"


@dataclass(frozen=True)
class FireInput(AttackInput):
    """The guns' attack."""


def _inches(distance: float) -> str:
    return f'{distance:g}"'


def _check_shooters(firer: Ship, target: Ship, line_of_sight: bool) -> None:
    firer.require_crew("firer")
    firer.require_afloat("firer")
    target.require_afloat("target")
    if not line_of_sight:
        raise RuleError(
            f"{firer.label} has no line of sight to {target.label}: pick a target it can see",
            "line_of_sight",
        )


def check_guns(inp: FireInput) -> None:
    """Why these guns may not fire at this target, as a RuleError; nothing if they may."""
    _check_shooters(inp.firer, inp.target, inp.line_of_sight)
    gun_range = inp.firer.ship_class.range
    if inp.range > gun_range:
        raise RuleError(
            f"{inp.target.label} is {_inches(inp.range)} away, beyond the "
            f"{inp.firer.ship_class.name}'s gun range of {gun_range}\"",
            "range",
        )


def _record_to_hit(firer: Ship, visibility: str, res: Resolution, *, torpedo: bool = False) -> int:
    assert firer.crew is not None
    if torpedo and torpedo_visibility(visibility, res.readings) != visibility:
        res.check(
            "To Hit number",
            firer.to_hit,
            [],
            f"{firer.crew} crew {firer.to_hit}+; visibility does not touch torpedoes "
            "(ruling visibility-torpedoes, reading guns-only)",
            f"{firer.to_hit}+",
        )
        return firer.to_hit
    to_hit, mods = to_hit_number(firer.crew, visibility)
    res.check(
        "To Hit number",
        firer.to_hit,
        mods,
        f"{firer.crew} crew {firer.to_hit}+, raised by visibility, never worse than "
        f"{t.WORST_TO_HIT}+",
        f"{to_hit}+",
    )
    return to_hit


def torpedo_visibility(visibility: str, readings: Readings) -> str:
    """The visibility a torpedo throw is raised by (ruling visibility-torpedoes)."""
    if readings.reading("visibility-torpedoes") == "guns-only":
        return "Clear"
    return visibility


def _attack_dice(
    label: str, count: int, to_hit: int, res: Resolution
) -> list[tuple[int, bool, bool]]:
    """Roll the attack dice; (die number, hit, unmodified six) for each, in roll order."""
    roll = res.roll(label, count, t.DIE)
    dice = []
    for number, face in enumerate(roll.values, 1):
        hit, six = attack_die(face, to_hit)
        outcome = ("hit: unmodified 6" if six else "hit") if hit else "miss"
        res.check(f"{label} die {number}", face, [], f"To Hit {to_hit}+", outcome)
        dice.append((number, hit, six))
    return dice


def fire(inp: FireInput, res: Resolution) -> FleetActionFireResult:
    """Guns: Attack dice against To Hit, then one armour save per hit, in the hits' order."""
    check_guns(inp)
    to_hit = _record_to_hit(inp.firer, inp.visibility, res)
    armour = inp.target.ship_class.armour
    dice = _attack_dice("attack", inp.firer.ship_class.attack, to_hit, res)
    tally = Tally()
    hits = [(number, six) for number, hit, six in dice if hit]
    if hits:
        # Ruling save-order: save die k belongs to the k-th hit, in the order rolled.
        saves = res.roll("armour save", len(hits), t.DIE)
        for (number, six), face in zip(hits, saves.values, strict=True):
            shot = Shot(hit=True, six=six, saved=save_die(face, armour))
            if shot.saved:
                outcome = "saved"
            elif shot.catastrophic:
                outcome = "failed against an unmodified 6: catastrophic hit"
            else:
                outcome = "failed: 1 Hull lost"
            res.check(
                f"armour save for attack die {number}", face, [], f"Armour {armour}+", outcome
            )
            tally = tally.add(shot)
    return fire_outcome(tally, inp.target)


# --- torpedoes -------------------------------------------------------------------------


@dataclass(frozen=True)
class TorpedoInput(AttackInput):
    """A torpedo attack."""


def check_torpedoes(inp: TorpedoInput) -> None:
    """Why this ship may not launch torpedoes at this target, as a RuleError."""
    if not inp.firer.ship_class.torpedoes:
        carriers = ", ".join(c.name for c in t.SHIP_CLASSES.values() if c.torpedoes)
        raise RuleError(
            f"a {inp.firer.ship_class.name} carries no torpedoes (only: {carriers})",
            "firer.class",
        )
    _check_shooters(inp.firer, inp.target, inp.line_of_sight)
    if inp.range > t.TORPEDO_RANGE:
        raise RuleError(
            f"{inp.target.label} is {_inches(inp.range)} away, beyond torpedo range of "
            f'{t.TORPEDO_RANGE}"',
            "range",
        )


def torpedo(inp: TorpedoInput, res: Resolution) -> FleetActionTorpedoResult:
    """Three dice against To Hit; armour is ignored, an unmodified 6 sinks the target."""
    check_torpedoes(inp)
    to_hit = _record_to_hit(inp.firer, inp.visibility, res, torpedo=True)
    tally = Tally()
    for _, hit, six in _attack_dice("torpedo", t.TORPEDO_DICE, to_hit, res):
        tally = tally.add(Shot(hit=hit, six=six))
    return attack_outcome(tally, inp.target)


# --- damage ----------------------------------------------------------------------------


@dataclass(frozen=True)
class DamageInput:
    ship: Ship
    hull_lost: Annotated[int, Limits(minimum=0, maximum=100), Doc("Hull points lost now")]
    catastrophic: Annotated[bool, Doc("A catastrophic hit: sunk outright")] = False


def damage(inp: DamageInput, res: Resolution) -> FleetActionDamageResult:
    """Hull lost (and perhaps a catastrophic hit) applied to a ship. No dice."""
    inp.ship.require_afloat("ship")
    after = inp.ship.apply(inp.hull_lost, inp.catastrophic)
    sunk_by: FleetActionSunkBy | None = None
    if after.sunk:
        sunk_by = "catastrophic hit" if inp.catastrophic else "hull"
    return {"ship": _status(after), "sunk": after.sunk, "sunk_by": sunk_by}
