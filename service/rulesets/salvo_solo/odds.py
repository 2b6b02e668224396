"""Exact odds of every Salvo! step that rolls, from the steps' own resolvers.

Every Salvo! table is read by a roll's total (plus modifiers), never by which die showed
what, so each roll is walked once per total (``by_total``: 16 runs for 3d6, not 216), the
follow-up rolls (plunging fire, torpedo damage) the same way, each total weighted by its
chance. The resolvers and tables are the very ones that resolve a roll; the tests compare
every step with the walk of every face.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import Any

from ...engine.distribution import walk_step
from ...engine.errors import RuleError
from ...engine.resolution import Resolution, in_force
from ...engine.ruleset import NoInput
from . import steps, tables
from .ships import Ship, ShipState

Odds = list[tuple[dict[str, Any], Fraction]]


def by_total(resolve: Callable[[Any, Resolution], Mapping[str, Any]]) -> Callable[[Any], Odds]:
    """The exact odds of a step whose rules read each roll by its total."""

    def odds(inputs: Any) -> Odds:
        return walk_step(resolve, inputs)

    odds.__name__ = f"{resolve.__name__}_odds"
    odds.__doc__ = f"The exact odds of ``steps.{resolve.__name__}``, one run per total."
    return odds


weather_odds = by_total(steps.weather)
initial_range_odds = by_total(steps.initial_range)
initiative_odds = by_total(steps.initiative)
enemy_action_odds = by_total(steps.enemy_action)
fire_odds = by_total(steps.fire)
straddle_odds = by_total(steps.straddle)
special_damage_odds = by_total(steps.special_damage)
critical_odds = by_total(steps.critical)
torpedo_odds = by_total(steps.torpedo)
end_of_turn_odds = by_total(steps.end_of_turn)


# --- a whole attack: the steps' own odds put together, shot by shot ---------------------------
#
# Walking ``steps.attack`` branch by branch would be every fire total times every straddle
# total times every follow-up, squared at Short and Medium range (two shots): about 10^5
# runs. Instead each shot is put together from the exact odds of the steps it is made of
# (fire, straddle, then special damage or critical hit as the straddle's ``roll_next``
# says), each walked by total and kept per worker, and the shots are folded one after the
# other over the target's state, the way ``steps.attack`` plays them: a straddle counts
# for the next fire, a shot's hits are applied before the next, no shot at a sunk ship.

STEP_ODDS_CACHE = 4096  # distinct (step, inputs) kept per worker; each a few kilobytes at most

Table = tuple[tuple[dict[str, Any], Fraction], ...]
# What one shot does to its target: F, T and S hits, fire control lost, and whether it
# straddled (which counts for every later fire at that target).
Shot = tuple[int, int, int, bool, bool]

FOLLOW_UP: dict[str, Callable[[Any, Resolution], Mapping[str, Any]]] = {
    "special-damage": steps.special_damage,
    "critical": steps.critical,
}


def rules_key() -> tuple[tuple[str, str], ...]:
    """The readings in force, as a cache key (the odds of a step depend on them)."""
    return tuple(sorted(in_force().chosen.items()))


@lru_cache(maxsize=STEP_ODDS_CACHE)
def _table(
    resolve: Callable[[Any, Resolution], Mapping[str, Any]],
    inputs: Any,
    _rules: tuple[tuple[str, str], ...],
) -> Table:
    return tuple(walk_step(resolve, inputs))


def table(resolve: Callable[[Any, Resolution], Mapping[str, Any]], inputs: Any) -> Table:
    """A step's exact odds for these inputs under the readings in force, kept per worker."""
    return _table(resolve, inputs, rules_key())


def _afloat_card(ship: Ship) -> Ship:
    """The straddle and critical-hit steps read an afloat target only through its card."""
    return Ship(ship.card)


def _count(hits: str) -> tuple[int, int, int]:
    return hits.count("F"), hits.count("T"), hits.count("S")


ShotKey = tuple[Ship, Ship, str, str, str, bool, tuple[tuple[str, str], ...]]


def _shot_key(
    firer: Ship, target: Ship, range_: str, weather: str, bearing: str, straddled: bool
) -> ShotKey:
    """What a shot's odds depend on, as a cache key: the firer's turrets (its other damage
    changes no shot), the target afloat, the conditions and the readings in force."""
    return (
        Ship(firer.card, ShipState(turret_hits=firer.state.turret_hits)),
        _afloat_card(target),
        range_,
        weather,
        bearing,
        straddled,
        rules_key(),
    )


def shot_outcomes(
    firer: Ship, target: Ship, range_: str, weather: str, bearing: str, straddled: bool
) -> dict[Shot, Fraction]:
    """The exact outcomes of one shot of ``firer`` at an afloat ``target``."""
    return _shot_outcomes(*_shot_key(firer, target, range_, weather, bearing, straddled))


@lru_cache(maxsize=STEP_ODDS_CACHE)
def _shot_outcomes(
    firer: Ship,
    target: Ship,
    range_: str,
    weather: str,
    bearing: str,
    straddled: bool,
    _rules: tuple[tuple[str, str], ...],
) -> dict[Shot, Fraction]:
    # Each table is first summed up by what the next part reads (fire: straddle or not; a
    # straddle: its hits, or which follow-up roll it calls for), then the parts multiplied.
    zero = Fraction(0)
    straddles = zero
    for fired, p in table(steps.fire, steps.FireInput(range_, weather, straddled)):
        if fired["straddle"]:
            straddles += p
    after_straddle: dict[tuple[int, int, int, bool], Fraction] = {}
    follow_ups: dict[str, Fraction] = {}
    for chain, q in table(steps.straddle, steps.StraddleInput(firer, target, range_, bearing)):
        follow = chain["roll_next"]
        if follow is None:
            key = (*_count(chain["hits"]), False)
            after_straddle[key] = after_straddle.get(key, zero) + q
        else:
            follow_ups[follow] = follow_ups.get(follow, zero) + q
    for follow, q in follow_ups.items():
        follow_inputs: Any = (
            NoInput() if follow == "special-damage" else steps.CriticalInput(target, range_)
        )
        for after, r in table(FOLLOW_UP[follow], follow_inputs):
            key = (*_count(after["hits"]), bool(after.get("fire_control_lost", False)))
            after_straddle[key] = after_straddle.get(key, zero) + q * r
    out: dict[Shot, Fraction] = {}
    if straddles != 1:
        out[(0, 0, 0, False, False)] = 1 - straddles
    if straddles:
        for (f, t, s, lost), q in after_straddle.items():
            out[(f, t, s, lost, True)] = straddles * q
    return out


def hits_text(shot: Shot) -> str:
    flotation, turret, speed, _, _ = shot
    return "F" * flotation + "T" * turret + "S" * speed


def shot_weights(
    firer: Ship, target: Ship, range_: str, weather: str, bearing: str, straddled: bool
) -> tuple[int, tuple[tuple[Shot, int], ...]]:
    """``shot_outcomes`` as integer weights over one denominator (cheap to fold)."""
    return _shot_weights(*_shot_key(firer, target, range_, weather, bearing, straddled))


@lru_cache(maxsize=STEP_ODDS_CACHE)
def _shot_weights(
    firer: Ship,
    target: Ship,
    range_: str,
    weather: str,
    bearing: str,
    straddled: bool,
    rules: tuple[tuple[str, str], ...],
) -> tuple[int, tuple[tuple[Shot, int], ...]]:
    outcomes = _shot_outcomes(firer, target, range_, weather, bearing, straddled, rules)
    denominator = lcm(*(p.denominator for p in outcomes.values()))
    return denominator, tuple(
        (shot, p.numerator * (denominator // p.denominator)) for shot, p in outcomes.items()
    )


Damage = tuple[int, int, int, bool]  # F, T and S hits so far this attack, fire control lost


def attack_states(inp: steps.AttackInput) -> dict[tuple[Ship, bool], Fraction]:
    """The exact (target after the attack, firer has straddled) pairs of a whole attack."""
    reason = inp.firer.why_cannot_fire()
    if reason:
        raise RuleError(reason, "firer")
    inp.target.require_afloat("target")
    after: dict[Damage, Ship] = {}

    def target_after(damage: Damage) -> Ship:
        ship = after.get(damage)
        if ship is None:
            flotation, turret, speed, lost = damage
            hits = "F" * flotation + "T" * turret + "S" * speed
            ship = after[damage] = inp.target.apply(hits, lost)
        return ship

    # The hits of the shots are added up (Ship.apply counts them, so applying the sum once
    # is applying them one by one); chances are integers over a common denominator while
    # they are folded, fractions at the end.
    states: dict[tuple[Damage, bool], int] = {((0, 0, 0, False), inp.previously_straddled): 1}
    denominator = 1
    for _ in range(tables.SHOTS_PER_TURN[inp.range]):
        folds: list[tuple[Damage, bool, int, int, tuple[tuple[Shot, int], ...] | None]] = []
        step_denominator = 1
        for (damage, straddled), n in states.items():
            target = target_after(damage)
            if target.sunk:  # ruling sunk-is-final: no shot is fired at a sunk ship
                folds.append((damage, straddled, n, 1, None))
                continue
            d, weights = shot_weights(
                inp.firer, target, inp.range, inp.weather, inp.guns_bearing, straddled
            )
            step_denominator = lcm(step_denominator, d)
            folds.append((damage, straddled, n, d, weights))
        following: dict[tuple[Damage, bool], int] = {}
        for damage, straddled, n, d, shots in folds:
            scale = n * (step_denominator // d)
            if shots is None:
                following[(damage, straddled)] = following.get((damage, straddled), 0) + scale
                continue
            flotation, turret, speed, lost = damage
            for (f, t, s, fc, hit), w in shots:
                folded = ((flotation + f, turret + t, speed + s, lost or fc), straddled or hit)
                following[folded] = following.get(folded, 0) + scale * w
        states = following
        denominator *= step_denominator
    out: dict[tuple[Ship, bool], Fraction] = {}
    for (damage, straddled), n in states.items():
        ended = (target_after(damage), straddled)
        out[ended] = out.get(ended, Fraction(0)) + Fraction(n, denominator)
    return out


def attack_summary(before: Ship, after: Ship, straddled: bool) -> dict[str, Any]:
    """What an attack did to its target, by kind, and what the target is left with."""
    return {
        "flotation_hits": after.state.flotation_hits - before.state.flotation_hits,
        "turret_hits": after.state.turret_hits - before.state.turret_hits,
        "speed_hits": after.state.speed_hits - before.state.speed_hits,
        "fire_control_lost": after.state.fire_control != before.state.fire_control,
        "speed_lost": before.speed - after.speed,
        "silenced": after.guns_silenced,
        "sunk": after.sunk,
        "straddled": straddled,
    }


def attack_odds(inp: steps.AttackInput) -> Odds:
    """The exact distribution of what a whole attack does (``steps.attack``'s outcomes
    summed up by what they do to the target)."""
    return [
        (attack_summary(inp.target, after, straddled), p)
        for (after, straddled), p in attack_states(inp).items()
    ]
