"""Every dreadnought resolution step, one function each: inputs in, result out, trail recorded."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Annotated, Any, Generic, NotRequired, TypedDict, TypeVar, cast

from ...engine.errors import LimitError, RuleError
from ...engine.resolution import Modifier, Readings, Resolution
from ...engine.typed import Doc, Limits
from . import tables as t
from .results import (
    DreadnoughtCriticalEffect,
    DreadnoughtCriticalResult,
    DreadnoughtDamageColumn,
    DreadnoughtDamageResult,
    DreadnoughtFireResult,
    DreadnoughtGunnerDie,
    DreadnoughtRangeBand,
    DreadnoughtRangeResult,
    DreadnoughtRudderResult,
    DreadnoughtShipStatus,
    DreadnoughtTargetWeight,
    DreadnoughtThrow,
    DreadnoughtTorpedoResult,
    DreadnoughtWeapon,
)
from .ships import MAX_DAMAGE, Calibre, Ship, ShipClassName, ShipRef

MAX_INCHES = 1000  # a distance the players measure, in inches
Distance = Annotated[float, Limits(minimum=0, maximum=MAX_INCHES), Doc("Inches on the table")]
BatteryCalibre = Annotated[Calibre, Doc("Calibre of the firing battery, inches")]

# The Weapons Effect table's rows and a ship's status are plain strings and dicts; these name
# them as the typed results do (the values are the table's own, the document's enums are made
# from the same tables, and tests/test_typed_results.py holds the keys to the schemas).


def _weapon(row: t.WeaponRow) -> DreadnoughtWeapon:
    return cast(DreadnoughtWeapon, row.weapon)


def _band(band: str | None) -> DreadnoughtRangeBand | None:
    return cast("DreadnoughtRangeBand | None", band)


def _status(ship: Ship) -> DreadnoughtShipStatus:
    return cast(DreadnoughtShipStatus, ship.status())


# --- the Weapons Effect table -------------------------------------------------------------


def weapon_rows(calibre: float) -> list[t.WeaponRow]:
    """The rows that serve a calibre: two for 7"-9" guns, one for every other."""
    return [row for row in t.WEAPONS if row.covers(calibre)]


def weapon_row(calibre: float, target_class: str) -> tuple[t.WeaponRow, bool]:
    """The row this calibre uses against this class, and whether it may fire at all."""
    weight = t.CLASSES[target_class].weight
    rows = weapon_rows(calibre)
    for row in rows:
        if row.targets == weight:
            return row, True
    return rows[0], False


def _refusal(row: t.WeaponRow, calibre: float, target_class: str) -> str:
    if row.targets == "light":
        return (
            f'{row.weapon} guns ({calibre}") are light weapons: they fire only at Destroyers '
            f"and Protected Cruisers, not at a {target_class}"
        )
    return (
        f'{row.weapon} guns ({calibre}") are heavy weapons: they fire only at Armoured '
        f"Cruisers and heavier, not at a {target_class}"
    )


@dataclass(frozen=True)
class RangeInput:
    calibre: Annotated[Calibre, Doc("Bore, inches")]
    target_class: ShipClassName
    distance: Distance


def range_(inp: RangeInput, res: Resolution) -> DreadnoughtRangeResult:
    row, may_fire = weapon_row(inp.calibre, inp.target_class)
    band = row.band(inp.distance) if may_fire else None
    if not may_fire:
        reason = _refusal(row, inp.calibre, inp.target_class)
    elif band is None:
        reason = f'{inp.distance}" is beyond the {row.weapon} long range of {row.long[1]}"'
    else:
        reason = None
    return {
        "weapon": _weapon(row),
        "targets": cast(DreadnoughtTargetWeight, row.targets),
        "may_fire": may_fire and band is not None,
        "band": _band(band),
        "score_needed_change": t.RANGE_TARGET_NUMBER[band] if band else None,
        "damage": cast(DreadnoughtDamageColumn, row.damage),
        "reason": reason,
    }


# --- three dice: damage and criticals --------------------------------------------------------


def damage_from_dice(kind: str, dice: tuple[int, ...]) -> int:
    """Low, Medium or High: the chosen die and every die equal to it; All: the three."""
    if kind == "All":
        return sum(dice)
    ordered = sorted(dice)
    chosen = {"Low": ordered[0], "Medium": ordered[1], "High": ordered[-1]}[kind]
    return chosen * dice.count(chosen)


def throw_of(dice: tuple[int, ...]) -> str | None:
    """'triples', 'double N' or None: any two dice alike, whatever their kind."""
    value, count = Counter(dice).most_common(1)[0]
    if count >= 3:
        return "triples"
    if count == 2:
        return f"double {value}"
    return None


def resolve_critical(
    target: Ship, throw: str, res: Resolution, label: str
) -> DreadnoughtCriticalResult:
    """The Critical Hits table for this throw against this ship, with its own rolls."""
    row = t.CRITICAL_HITS.get(throw, t.NO_CRITICAL)
    effect: str = row["effect"]
    if effect == "turret destroyed":
        effect = _turret_explodes(target, res, label)
    elif effect == "rudder jammed":
        roll = res.roll(f"{label}: rudder jammed which way", 1, 6).total
        way = t.rudder_jam(roll)
        res.check(
            f"{label}: rudder jammed which way",
            roll,
            [],
            t.d6_text(t.RUDDER_JAM),
            way,
        )
        effect = f"rudder jammed {way}"
    return {
        "throw": cast(DreadnoughtThrow, throw),
        "name": row["name"],
        "effect": cast(DreadnoughtCriticalEffect, effect),
    }


def _turret_explodes(target: Ship, res: Resolution, label: str) -> str:
    left = target.main_turrets_left
    if left == 0:
        return "no effect"  # ruling two-turrets: no main turret is left to explode
    # Ruling two-turrets: the turrets left (default) or the turrets the card was built with.
    built = target.main_battery.turret_count
    as_built = res.reading("two-turrets") == "as-built"
    counted = built if as_built else left
    if counted <= t.TWO_TURRETS_AT_MOST:
        roll = res.roll(f"{label}: two turrets", 1, 6).total
        outcome = t.two_turrets(roll)
        bands = t.d6_text(
            (
                (*t.TWO_TURRETS_NO_EFFECT, "no effect"),
                (*t.TWO_TURRETS_EXPLODES, "the turret explodes"),
            )
        )
        which = f"built with {built} main turret(s)" if as_built else f"{left} main turret(s)"
        res.check(f"{label}: two turrets", roll, [], f"{which}: {bands}", outcome)
        if outcome == "no effect":
            return "no effect"
    card = target.card
    blow_up = t.blow_up_in_d6(res.reading("blow-up-who"))
    chances = blow_up.get((card.nationality, card.ship_class), 0)
    if not chances:
        return "turret destroyed"
    roll = res.roll(f"{label}: blow up", 1, 6).total
    blown = roll >= 7 - chances
    res.check(
        f"{label}: blow up",
        roll,
        [],
        f"{card.nationality} {card.ship_class}: {chances} in D6, "
        f"{7 - chances}{'' if chances == 1 else '-6'} blows up",
        "ship blows up" if blown else "turret lost, ship survives",
    )
    return "ship destroyed" if blown else "turret destroyed"


@dataclass(frozen=True)
class Throw:
    """Everything a throw of three dice is judged by, known before the dice are rolled.

    ``throw_effect`` turns three faces into what they do; the step records it as a trail
    and the odds (``odds.py``) push the distribution of the faces through the very same
    function.
    """

    label: str
    to_hit_mods: tuple[Modifier, ...]
    needed: int
    needed_text: str
    damage_kind: str
    damage_bonus: Modifier
    target: Ship

    @property
    def prefix(self) -> str:
        return "" if self.label == "to hit" else f"{self.label} "

    @cached_property
    def reduction(self) -> Modifier:
        target = self.target
        return Modifier(f"{target.card.name} damage reduction", -target.damage_reduction)

    @cached_property
    def to_hit_change(self) -> int:
        return sum(m.value for m in self.to_hit_mods)

    @cached_property
    def damage_change(self) -> int:
        return self.damage_bonus.value + self.reduction.value


# What a throw of three dice is judged by, whatever its modifiers: the total, the damage of
# its kind before any bonus, and the throw for the Critical Hits table ('double 6' or None).
FaceSummary = tuple[int, int, str | None]


def faces_of(kind: str, dice: tuple[int, ...]) -> FaceSummary:
    """The summary of three faces a throw of damage ``kind`` is judged by."""
    return sum(dice), damage_from_dice(kind, dice), throw_of(dice)


def judge(throw: Throw, summary: FaceSummary) -> tuple[bool, int, str | None]:
    """(hit, points marked off, the throw that goes to the Critical Hits table or None)."""
    total, damage, pair = summary
    if total + throw.to_hit_change < throw.needed:
        return False, 0, None
    return True, max(0, damage + throw.damage_change), pair if throw.target.heavy else None


def throw_effect(throw: Throw, dice: tuple[int, ...]) -> tuple[bool, int, str | None]:
    """``judge`` of the faces: only the faces count, not which die showed which (the odds
    rely on that, and judge whole classes of faces at once, ``odds.face_classes``)."""
    return judge(throw, faces_of(throw.damage_kind, dice))


class ThrowOutcome(TypedDict):
    """The members a gun or torpedo throw adds to its result."""

    hit: bool
    damage: int
    critical: DreadnoughtCriticalResult | None


def throw_outcome(
    hit: bool, points: int, critical: DreadnoughtCriticalResult | dict[str, Any] | None
) -> ThrowOutcome:
    """The result members a throw adds, in the order the answer lists them (the odds pass
    the critical step's own result, walked as a plain dict)."""
    return {
        "hit": hit,
        "damage": points,
        "critical": cast("DreadnoughtCriticalResult | None", critical),
    }


def _hit_and_damage(throw: Throw, dice: tuple[int, ...], res: Resolution) -> ThrowOutcome:
    """The shared tail of a gun or torpedo throw: hit, damage, critical, with the trail."""
    hit, points, critical_throw = throw_effect(throw, dice)
    res.check(
        throw.label, sum(dice), throw.to_hit_mods, throw.needed_text, "hit" if hit else "miss"
    )
    if not hit:
        return throw_outcome(False, 0, None)
    res.check(
        f"{throw.prefix}damage",
        damage_from_dice(throw.damage_kind, dice),
        [throw.damage_bonus, throw.reduction],
        f"{throw.damage_kind} damage of the three dice; never below 0",
        "points marked off",
    )
    critical = None
    if critical_throw is not None:
        critical = resolve_critical(throw.target, critical_throw, res, f"{throw.prefix}critical")
    return throw_outcome(True, points, critical)


# --- fire -------------------------------------------------------------------------------


@dataclass(frozen=True)
class FireInput:
    firer: ShipRef
    battery: BatteryCalibre
    target: ShipRef
    distance: Distance
    firer_turned: bool = False
    target_turned: bool = False
    first_time_at_target: bool = False
    more_than_one_ship_firing: bool = False
    not_under_fire: bool = False


class FireHead(TypedDict):
    """The members of a gun's result that the dice do not decide."""

    weapon: DreadnoughtWeapon
    band: DreadnoughtRangeBand
    gunner_die: DreadnoughtGunnerDie
    score_needed: int


class TorpedoHead(TypedDict):
    """The members of a torpedo's result that the dice do not decide (all of them when the
    torpedoes miss automatically)."""

    in_range: bool
    hit: NotRequired[bool]
    score_needed: int
    damage: NotRequired[int]
    critical: NotRequired[DreadnoughtCriticalResult | None]


Head = TypeVar("Head", FireHead, TorpedoHead)


@dataclass(frozen=True)
class Plan(Generic[Head]):
    """A gun or torpedo attack worked out up to the dice: the result's fixed members, the
    dice to roll (``None``: none, ``head`` is the whole result) and how a throw is judged."""

    head: Head
    gunner: int = 0
    throw: Throw | None = None


# Why a to-hit modifier applies, by its name on the To Hit Modifiers table: a whole turn
# says where each comes from (``turn.py``); a single step's flags need no words.
Reasons = Mapping[str, str]


def _to_hit_flags(inp: FireInput | TorpedoInput, reasons: Reasons | None = None) -> list[Modifier]:
    """The To Hit Modifiers table, as the firer's state and the request's flags call them."""
    flags = {
        "director down": inp.firer.state.director_destroyed,
        "firing ship turned this turn": inp.firer_turned,
        "target ship turned this turn": inp.target_turned,
        "first time firing at this target": inp.first_time_at_target,
        "more than one ship firing at the same target": inp.more_than_one_ship_firing,
        "not under fire this turn": inp.not_under_fire,
    }
    why = reasons or {}
    return [
        Modifier(f"{name}: {why[name]}" if name in why else name, t.TO_HIT_MODIFIERS[name])
        for name, on in flags.items()
        if on
    ]


def fire_plan(
    inp: FireInput, readings: Readings, label: str = "to hit", reasons: Reasons | None = None
) -> Plan[FireHead]:
    """Everything about a gun attack that the dice do not decide; refusals as RuleError."""
    inp.firer.require_afloat("firer")
    inp.target.require_afloat("target")
    battery = inp.firer.battery(inp.battery, "battery")
    barrels = inp.firer.barrels(battery)
    if barrels == 0:
        raise RuleError(
            f"{inp.firer.card.name}'s {battery.calibre}\" battery has no barrels left to fire",
            "battery",
        )
    target_class = inp.target.card.ship_class
    row, may_fire = weapon_row(battery.calibre, target_class)
    if not may_fire:
        raise RuleError(_refusal(row, battery.calibre, target_class), "target")
    band = row.band(inp.distance)
    if band is None:
        raise RuleError(
            f'{inp.target.card.name} at {inp.distance}" is beyond the {row.weapon} long range '
            f'of {row.long[1]}"',
            "distance",
        )

    gunner = inp.firer.gunner_die
    mods = _to_hit_flags(inp, reasons)
    mods.append(
        Modifier(
            f"{barrels} barrels: +1/2 per barrel beyond the first, rounded up",
            t.barrels_bonus(t.BARRELS_TO_HIT, barrels),
        )
    )
    change = t.RANGE_TARGET_NUMBER[band]
    needed = inp.target.to_hit + change
    per = "+1" if row.barrels_damage == "full" else "+1/2"
    every = readings.reading("barrels-bonus") == "damage-every-barrel"
    throw = Throw(
        label=label,
        to_hit_mods=tuple(mods),
        needed=needed,
        needed_text=f"{needed}+ hits: {inp.target.card.name} ({target_class}) needs "
        f"{inp.target.to_hit}, {band} range {change:+d}",
        damage_kind=row.damage,
        damage_bonus=Modifier(
            f"{barrels} barrels: {per} per barrel"
            + (" (every barrel)" if every else " beyond the first")
            + (", rounded up" if per == "+1/2" else ""),
            t.barrels_bonus(row.barrels_damage, barrels, count_first=every),
        ),
        target=inp.target,
    )
    head: FireHead = {
        "weapon": _weapon(row),
        "band": cast(DreadnoughtRangeBand, band),
        "gunner_die": cast(DreadnoughtGunnerDie, f"d{gunner}"),
        "score_needed": needed,
    }
    return Plan(head, gunner, throw)


def roll_throw(plan: Plan[Any], dice: tuple[int, int], res: Resolution) -> ThrowOutcome:
    """Roll a planned throw of ``dice`` (count, sides) and its gunner die, named by the
    throw's label, and judge it with the trail (a plan with no throw misses unrolled)."""
    throw = plan.throw
    if throw is None:
        return throw_outcome(False, 0, None)
    faces = res.roll(throw.label, *dice).values
    gunner = res.roll(f"{throw.label}: gunner die", 1, plan.gunner).values
    return _hit_and_damage(throw, faces + gunner, res)


def fire(inp: FireInput, res: Resolution) -> DreadnoughtFireResult:
    plan = fire_plan(inp, res.readings)
    return {**plan.head, **roll_throw(plan, t.TO_HIT_DICE, res)}


# --- critical ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CriticalInput:
    target: ShipRef
    throw: DreadnoughtThrow


def critical(inp: CriticalInput, res: Resolution) -> DreadnoughtCriticalResult:
    inp.target.require_afloat("target")
    if not inp.target.heavy:
        raise RuleError(
            f"{inp.target.card.name} is a {inp.target.card.ship_class}: critical hits apply "
            "only to Armoured Cruisers and heavier, not to lesser escort vessels",
            "target",
        )
    return resolve_critical(inp.target, inp.throw, res, "critical")


# --- torpedo ----------------------------------------------------------------------------


# The gunnery to-hit flags: played under rules.torpedo-throws "gunnery-modifiers", the
# default (a flag set under "torpedo-bonus-only" is refused, never silently ignored).
TorpedoFlag = Annotated[
    bool,
    Doc(
        'Under rules {"torpedo-throws": "gunnery-modifiers"}, the default: the gun to-hit '
        "modifier of the same name applies to the torpedo throw (true under "
        '"torpedo-bonus-only" is a 422)'
    ),
]
Torpedoes = Annotated[int, Limits(minimum=1, maximum=20)]


@dataclass(frozen=True)
class TorpedoInput:
    firer: ShipRef
    target: ShipRef
    distance: Annotated[
        float,
        Limits(minimum=0, maximum=MAX_INCHES),
        Doc("From the torpedoes' firing point to the target now, inches"),
    ]
    torpedoes: Torpedoes = 1
    firer_turned: TorpedoFlag = False
    target_turned: TorpedoFlag = False
    first_time_at_target: TorpedoFlag = False
    more_than_one_ship_firing: TorpedoFlag = False
    not_under_fire: TorpedoFlag = False


GUNNERY_FLAGS = (
    "firer_turned",
    "target_turned",
    "first_time_at_target",
    "more_than_one_ship_firing",
    "not_under_fire",
)


def _torpedo_modifiers(
    inp: TorpedoInput, readings: Readings, reasons: Reasons | None = None
) -> list[Modifier]:
    """The gunnery to-hit modifiers a torpedo throw takes (ruling torpedo-throws)."""
    if readings.reading("torpedo-throws") == "gunnery-modifiers":
        return _to_hit_flags(inp, reasons)
    given = [name for name in GUNNERY_FLAGS if getattr(inp, name)]
    if given:
        raise RuleError(
            f"{given[0]}: the gunnery to-hit modifiers do not apply to torpedoes under the "
            "torpedo-bonus-only reading of ruling torpedo-throws; send rules.torpedo-throws "
            '"gunnery-modifiers" (the default) to play them, or leave the flag out',
            given[0],
        )
    return []


def torpedo_plan(
    inp: TorpedoInput, readings: Readings, label: str = "torpedo", reasons: Reasons | None = None
) -> Plan[TorpedoHead]:
    """Everything about a torpedo attack that the dice do not decide."""
    inp.firer.require_afloat("firer")
    inp.target.require_afloat("target")
    gunnery = _torpedo_modifiers(inp, readings, reasons)
    needed = inp.target.to_hit
    low, high = t.TORPEDO_RANGE
    if not low <= inp.distance <= high:
        # "If the current range is >10" then the torpedoes automatically miss": no dice.
        return Plan(
            {
                "in_range": False,
                "hit": False,
                "score_needed": needed,
                "damage": 0,
                "critical": None,
            }
        )
    every = readings.reading("torpedo-count") == "every-torpedo"
    bonus = t.barrels_bonus(t.TORPEDO_BONUS, inp.torpedoes, count_first=every)
    counted = "(every torpedo)" if every else "beyond the first"
    text = f"{inp.torpedoes} torpedoes: +1 per torpedo {counted}"
    throw = Throw(
        label=label,
        to_hit_mods=(*gunnery, Modifier(text, bonus)),
        needed=needed,
        needed_text=f"{needed}+ hits: {inp.target.card.name} ({inp.target.card.ship_class})",
        damage_kind=t.TORPEDO_DAMAGE,
        damage_bonus=Modifier(text, bonus),
        target=inp.target,
    )
    return Plan({"in_range": True, "score_needed": needed}, inp.firer.gunner_die, throw)


def torpedo(inp: TorpedoInput, res: Resolution) -> DreadnoughtTorpedoResult:
    plan = torpedo_plan(inp, res.readings)
    # Out of range the head is the whole result; roll_throw adds the same members unrolled.
    return {**plan.head, **roll_throw(plan, t.TORPEDO_DICE, res)}


# --- damage and rudder -------------------------------------------------------------------


@dataclass(frozen=True)
class DamageInput:
    ship: ShipRef
    points: Annotated[int, Limits(minimum=0, maximum=10_000), Doc("After damage reduction")]
    critical_effect: DreadnoughtCriticalEffect = "no effect"

    def __post_init__(self) -> None:
        taken = self.ship.state.damage_taken
        if taken + self.points > MAX_DAMAGE:
            raise LimitError(
                f"damage_taken {taken} + points {self.points} passes {MAX_DAMAGE}, the most a "
                "ship's state records (a ship breaks up long before)",
                field="points",
            )


def damage(inp: DamageInput, res: Resolution) -> DreadnoughtDamageResult:
    inp.ship.require_afloat("ship")
    after = inp.ship.apply(inp.points, inp.critical_effect)
    return {"ship": _status(after), "newly_sunk": after.sunk}


@dataclass(frozen=True)
class RudderInput:
    ship: ShipRef


def rudder(inp: RudderInput, res: Resolution) -> DreadnoughtRudderResult:
    inp.ship.require_afloat("ship")
    jammed = inp.ship.state.rudder_jammed
    if jammed is None:
        raise RuleError(
            f"{inp.ship.card.name}'s rudder is not jammed: there is nothing to repair",
            "ship.state.rudder_jammed",
        )
    repaired, after = repair_rudder(inp.ship, res, "rudder repair")
    return {"repaired": repaired, "ship": _status(after)}


def repair_rudder(ship: Ship, res: Resolution, label: str) -> tuple[bool, Ship]:
    """The turn's D6 for a jammed rudder: whether it is freed, and the ship after."""
    roll = res.roll(label, 1, 6).total
    repaired = roll >= t.RUDDER_REPAIR_FROM
    res.check(
        label,
        roll,
        [],
        f"{t.RUDDER_REPAIR_FROM}-6 fixes the rudder",
        "repaired" if repaired else f"still jammed {ship.state.rudder_jammed}",
    )
    return repaired, ship.fix_rudder() if repaired else ship
