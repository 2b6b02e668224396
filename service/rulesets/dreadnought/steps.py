"""Every dreadnought resolution step, one function each: inputs in, result out, trail recorded."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ...engine.errors import RuleError
from ...engine.resolution import Modifier, Resolution
from . import tables as t
from .ships import Ship

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
    calibre: float
    target_class: str
    distance: float


def range_(inp: RangeInput, res: Resolution) -> dict[str, Any]:
    row, may_fire = weapon_row(inp.calibre, inp.target_class)
    band = row.band(inp.distance) if may_fire else None
    if not may_fire:
        reason = _refusal(row, inp.calibre, inp.target_class)
    elif band is None:
        reason = f'{inp.distance}" is beyond the {row.weapon} long range of {row.long[1]}"'
    else:
        reason = None
    return {
        "weapon": row.weapon,
        "targets": row.targets,
        "may_fire": may_fire and band is not None,
        "band": band,
        "score_needed_change": t.RANGE_TARGET_NUMBER[band] if band else None,
        "damage": row.damage,
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


def resolve_critical(target: Ship, throw: str, res: Resolution, label: str) -> dict[str, Any]:
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
    return {"throw": throw, "name": row["name"], "effect": effect}


def _turret_explodes(target: Ship, res: Resolution, label: str) -> str:
    left = target.main_turrets_left
    if left == 0:
        return "no effect"  # ruling two-turrets: no main turret is left to explode
    if left <= t.TWO_TURRETS_AT_MOST:
        roll = res.roll(f"{label}: two turrets", 1, 6).total
        outcome = t.two_turrets(roll)
        bands = t.d6_text(
            (
                (*t.TWO_TURRETS_NO_EFFECT, "no effect"),
                (*t.TWO_TURRETS_EXPLODES, "the turret explodes"),
            )
        )
        res.check(f"{label}: two turrets", roll, [], f"{left} main turret(s): {bands}", outcome)
        if outcome == "no effect":
            return "no effect"
    card = target.card
    chances = t.BLOW_UP_IN_D6.get((card.nationality, card.ship_class), 0)
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


def _hit_and_damage(
    *,
    label: str,
    dice: tuple[int, ...],
    to_hit_mods: list[Modifier],
    needed: int,
    needed_text: str,
    damage_kind: str,
    damage_bonus: Modifier,
    target: Ship,
    res: Resolution,
) -> dict[str, Any]:
    """The shared tail of a gun or torpedo throw: hit, damage, critical."""
    natural = sum(dice)
    hit = natural + sum(m.value for m in to_hit_mods) >= needed
    res.check(label, natural, to_hit_mods, needed_text, "hit" if hit else "miss")
    if not hit:
        return {"hit": False, "damage": 0, "critical": None}
    reduction = target.damage_reduction
    prefix = "" if label == "to hit" else f"{label} "
    total = res.check(
        f"{prefix}damage",
        damage_from_dice(damage_kind, dice),
        [damage_bonus, Modifier(f"{target.card.name} damage reduction", -reduction)],
        f"{damage_kind} damage of the three dice; never below 0",
        "points marked off",
    )
    critical = None
    throw = throw_of(dice)
    if target.heavy and throw is not None:
        critical = resolve_critical(target, throw, res, f"{prefix}critical")
    return {"hit": True, "damage": max(0, total), "critical": critical}


# --- fire -------------------------------------------------------------------------------


@dataclass(frozen=True)
class FireInput:
    firer: Ship
    battery: float
    target: Ship
    distance: float
    firer_turned: bool = False
    target_turned: bool = False
    first_time_at_target: bool = False
    more_than_one_ship_firing: bool = False
    not_under_fire: bool = False


def fire(inp: FireInput, res: Resolution) -> dict[str, Any]:
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
    shells = res.roll("to hit", *t.TO_HIT_DICE)
    layer = res.roll("to hit: gunner die", 1, gunner)
    dice = shells.values + layer.values

    flags = {
        "director down": inp.firer.state.director_destroyed,
        "firing ship turned this turn": inp.firer_turned,
        "target ship turned this turn": inp.target_turned,
        "first time firing at this target": inp.first_time_at_target,
        "more than one ship firing at the same target": inp.more_than_one_ship_firing,
        "not under fire this turn": inp.not_under_fire,
    }
    mods = [Modifier(name, t.TO_HIT_MODIFIERS[name]) for name, on in flags.items() if on]
    mods.append(
        Modifier(
            f"{barrels} barrels: +1/2 per barrel beyond the first, rounded up",
            t.barrels_bonus(t.BARRELS_TO_HIT, barrels),
        )
    )
    change = t.RANGE_TARGET_NUMBER[band]
    needed = inp.target.to_hit + change
    per = "+1" if row.barrels_damage == "full" else "+1/2"
    outcome = _hit_and_damage(
        label="to hit",
        dice=dice,
        to_hit_mods=mods,
        needed=needed,
        needed_text=f"{needed}+ hits: {inp.target.card.name} ({target_class}) needs "
        f"{inp.target.to_hit}, {band} range {change:+d}",
        damage_kind=row.damage,
        damage_bonus=Modifier(
            f"{barrels} barrels: {per} per barrel beyond the first"
            + (", rounded up" if per == "+1/2" else ""),
            t.barrels_bonus(row.barrels_damage, barrels),
        ),
        target=inp.target,
        res=res,
    )
    return {
        "weapon": row.weapon,
        "band": band,
        "gunner_die": f"d{gunner}",
        "score_needed": needed,
        **outcome,
    }


# --- critical ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CriticalInput:
    target: Ship
    throw: str


def critical(inp: CriticalInput, res: Resolution) -> dict[str, Any]:
    inp.target.require_afloat("target")
    if not inp.target.heavy:
        raise RuleError(
            f"{inp.target.card.name} is a {inp.target.card.ship_class}: critical hits apply "
            "only to Armoured Cruisers and heavier, not to lesser escort vessels",
            "target",
        )
    return resolve_critical(inp.target, inp.throw, res, "critical")


# --- torpedo ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TorpedoInput:
    firer: Ship
    target: Ship
    distance: float
    torpedoes: int = 1


def torpedo(inp: TorpedoInput, res: Resolution) -> dict[str, Any]:
    inp.firer.require_afloat("firer")
    inp.target.require_afloat("target")
    low, high = t.TORPEDO_RANGE
    if not low <= inp.distance <= high:
        # "If the current range is >10" then the torpedoes automatically miss": no dice.
        return {
            "in_range": False,
            "hit": False,
            "score_needed": inp.target.to_hit,
            "damage": 0,
            "critical": None,
        }
    gunner = inp.firer.gunner_die
    res_dice = res.roll("torpedo", *t.TORPEDO_DICE).values
    dice = res_dice + res.roll("torpedo: gunner die", 1, gunner).values
    bonus = t.barrels_bonus(t.TORPEDO_BONUS, inp.torpedoes)
    text = f"{inp.torpedoes} torpedoes: +1 per torpedo beyond the first"
    needed = inp.target.to_hit
    outcome = _hit_and_damage(
        label="torpedo",
        dice=dice,
        to_hit_mods=[Modifier(text, bonus)],
        needed=needed,
        needed_text=f"{needed}+ hits: {inp.target.card.name} ({inp.target.card.ship_class})",
        damage_kind=t.TORPEDO_DAMAGE,
        damage_bonus=Modifier(text, bonus),
        target=inp.target,
        res=res,
    )
    return {"in_range": True, "score_needed": needed, **outcome}


# --- damage and rudder -------------------------------------------------------------------


@dataclass(frozen=True)
class DamageInput:
    ship: Ship
    points: int
    critical_effect: str = "no effect"


def damage(inp: DamageInput, res: Resolution) -> dict[str, Any]:
    inp.ship.require_afloat("ship")
    after = inp.ship.apply(inp.points, inp.critical_effect)
    return {"ship": after.status(), "newly_sunk": after.sunk}


@dataclass(frozen=True)
class RudderInput:
    ship: Ship


def rudder(inp: RudderInput, res: Resolution) -> dict[str, Any]:
    inp.ship.require_afloat("ship")
    jammed = inp.ship.state.rudder_jammed
    if jammed is None:
        raise RuleError(
            f"{inp.ship.card.name}'s rudder is not jammed: there is nothing to repair",
            "ship.state.rudder_jammed",
        )
    roll = res.roll("rudder repair", 1, 6).total
    repaired = roll >= t.RUDDER_REPAIR_FROM
    res.check(
        "rudder repair",
        roll,
        [],
        f"{t.RUDDER_REPAIR_FROM}-6 fixes the rudder",
        "repaired" if repaired else f"still jammed {jammed}",
    )
    after = inp.ship.fix_rudder() if repaired else inp.ship
    return {"repaired": repaired, "ship": after.status()}
