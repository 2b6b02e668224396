"""The odds of a dreadnought turn: each ship's chance of being sunk, its damage, its criticals.

The turn's plan (``turn.plan_turn``) is the same one the turn resolves. Every throw is
judged against the ships as they were when the turn began (ruling simultaneous-fire), so
the throws are independent: each has an exact distribution of (points marked, critical
effect), from its multisets of faces and the Critical Hits table's own rolls (``odds.py``,
the fire and torpedo odds' code). For each ship the throws aimed at it are then combined:

* exact: a convolution of (points, destroyed) pairs, points counted up to the boxes left
  (ruling boxes-marked); the chance of each lasting critical is one less the product of
  the chances that no throw makes it. The work is counted in branches, one per pair of
  outcomes combined, and bounded by ``BRANCH_LIMIT``;
* past that limit, seeded games: every throw drawn from its exact distribution
  (service/engine/sampling.py, algorithm ``ALGORITHM``), ``GAMES`` of them, each share
  with its 95% Wilson interval. The answer says which (``method.kind``).
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from typing import Final, cast

from ...engine.dice import SeededDice
from ...engine.distribution import apply_to_multisets
from ...engine.errors import RuleError
from ...engine.resolution import Resolution
from ...engine.sampling import Choices, StreamPicker, choices, share
from .odds import critical_table_odds
from .results import (
    DreadnoughtChance,
    DreadnoughtCriticalChance,
    DreadnoughtCriticalEffect,
    DreadnoughtDamageChance,
    DreadnoughtShipOdds,
    DreadnoughtTurnOddsResult,
)
from .ships import Ship
from .steps import throw_effect
from .tables import CRITICAL_EFFECTS
from .turn import ActionShip, Attack, TurnInput, plan_turn

# About 0.25 us a branch: 100,000 branches are some 25 ms of CPU, inside the 50 ms budget
# with the rest of the request (docs/performance.md).
BRANCH_LIMIT: Final = 100_000
GAMES: Final = 400
ALGORITHM: Final = "fc-dreadnought-turn-v1"
DESTROYED: Final = "ship destroyed"

Outcome = tuple[int, str]  # (points marked, critical effect or "no effect")


class TooMany(Exception):
    """More branches to combine than the limit: play seeded games instead."""


def attack_outcomes(
    attack: Attack, target: Ship, criticals: dict[tuple[str, str], dict[str, Fraction]]
) -> dict[Outcome, Fraction]:
    """One throw's exact (points, effect) distribution; a miss is (0, "no effect")."""
    throw = attack.plan.throw
    if throw is None:
        return {(0, "no effect"): Fraction(1)}
    count, sides = attack.dice
    faces = (*([sides] * count), attack.plan.gunner)
    effects = apply_to_multisets(faces, lambda values: throw_effect(throw, values))
    out: dict[Outcome, Fraction] = {}
    for (_, points, critical), p in effects.items():
        if critical is None:
            out[(points, "no effect")] = out.get((points, "no effect"), Fraction(0)) + p
            continue
        key = (attack.target, critical)
        if key not in criticals:
            table: dict[str, Fraction] = {}
            for result, q in critical_table_odds(target, critical, "critical"):
                table[result["effect"]] = table.get(result["effect"], Fraction(0)) + q
            criticals[key] = table
        for effect, q in criticals[key].items():
            out[(points, effect)] = out.get((points, effect), Fraction(0)) + p * q
    return out


def _exact_chance(p: Fraction) -> DreadnoughtChance:
    return {"probability": f"{p.numerator}/{p.denominator}", "p": float(p), "interval": None}


def _sampled_chance(count: int, games: int) -> DreadnoughtChance:
    found = share(count, games)
    return {"probability": found["probability"], "p": found["p"], "interval": found["interval"]}


def _possible_effects(
    dists: list[dict[Outcome, Fraction]],
) -> list[DreadnoughtCriticalEffect]:
    seen = {effect for dist in dists for (_, effect), p in dist.items() if p}
    return [
        cast(DreadnoughtCriticalEffect, e)
        for e in CRITICAL_EFFECTS
        if e in seen and e != "no effect"
    ]


def _exact_ship(
    left: int, dists: list[dict[Outcome, Fraction]], spent: int
) -> tuple[Fraction, dict[int, Fraction], dict[str, Fraction], int]:
    """(sunk, points marked, each effect at least once, branches so far) for one ship."""
    # Integer weights over one denominator: an integer sum is many times a fraction's speed.
    states: dict[tuple[int, bool], int] = {(0, left == 0): 1}
    denominator = 1
    for dist in dists:
        pairs: dict[tuple[int, bool], Fraction] = {}
        for (points, effect), p in dist.items():
            key = (points, effect == DESTROYED)
            pairs[key] = pairs.get(key, Fraction(0)) + p
        common = lcm(*(p.denominator for p in pairs.values()))
        weights = [(key, int(p * common)) for key, p in pairs.items()]
        spent += len(states) * len(weights)
        if spent > BRANCH_LIMIT:
            raise TooMany
        following: dict[tuple[int, bool], int] = {}
        for (marked, dead), n in states.items():
            for (points, destroyed), w in weights:
                key = (min(left, marked + points), dead or destroyed)
                following[key] = following.get(key, 0) + n * w
        states = following
        denominator *= common
    sunk = Fraction(
        sum(n for (marked, dead), n in states.items() if dead or marked >= left), denominator
    )
    damage: dict[int, Fraction] = {}
    for (marked, _), n in states.items():
        damage[marked] = damage.get(marked, Fraction(0)) + Fraction(n, denominator)
    effects: dict[str, Fraction] = {}
    for effect in _possible_effects(dists):
        none = Fraction(1)
        for dist in dists:
            none *= 1 - sum((p for (_, e), p in dist.items() if e == effect), Fraction(0))
        effects[effect] = 1 - none
    return sunk, damage, effects, spent


def _ship_odds(
    entry: ActionShip,
    attacks: int,
    sunk: DreadnoughtChance,
    damage: list[DreadnoughtDamageChance],
    criticals: list[DreadnoughtCriticalChance],
) -> DreadnoughtShipOdds:
    return {
        "ship": entry.name,
        "side": entry.side,
        "boxes_left": entry.ship.boxes_left,
        "attacks": attacks,
        "sunk": sunk,
        "damage": damage,
        "criticals": criticals,
    }


def _exact(
    afloat: list[ActionShip], at: dict[str, list[dict[Outcome, Fraction]]]
) -> tuple[list[DreadnoughtShipOdds], int]:
    spent = 0
    ships = []
    for entry in afloat:
        dists = at.get(entry.name, [])
        sunk, damage, effects, spent = _exact_ship(entry.ship.boxes_left, dists, spent)
        ships.append(
            _ship_odds(
                entry,
                len(dists),
                _exact_chance(sunk),
                [{"points": n, "chance": _exact_chance(p)} for n, p in sorted(damage.items())],
                [
                    {"effect": cast(DreadnoughtCriticalEffect, e), "chance": _exact_chance(p)}
                    for e, p in effects.items()
                ],
            )
        )
    return ships, spent


def _sampled(
    afloat: list[ActionShip],
    at: dict[str, list[dict[Outcome, Fraction]]],
    seed: str,
    nonce: int,
) -> list[DreadnoughtShipOdds]:
    """``GAMES`` seeded turns, every throw drawn from its exact distribution."""
    draws: dict[str, list[Choices[Outcome]]] = {
        entry.name: [choices(sorted(dist.items())) for dist in at.get(entry.name, [])]
        for entry in afloat
    }
    sunk = dict.fromkeys(draws, 0)
    damage: dict[str, dict[int, int]] = {name: {} for name in draws}
    effects: dict[str, dict[str, int]] = {name: {} for name in draws}
    lefts = {entry.name: entry.ship.boxes_left for entry in afloat}
    for game in range(GAMES):
        picker = StreamPicker(seed, nonce, game, ALGORITHM)
        for name, throws in draws.items():
            marked, dead, seen = 0, lefts[name] == 0, set()
            for options in throws:
                points, effect = picker.pick(options)
                marked += points
                dead = dead or effect == DESTROYED
                seen.add(effect)
            marked = min(lefts[name], marked)
            sunk[name] += dead or marked >= lefts[name]
            damage[name][marked] = damage[name].get(marked, 0) + 1
            for effect in seen:
                effects[name][effect] = effects[name].get(effect, 0) + 1
    return [
        _ship_odds(
            entry,
            len(draws[entry.name]),
            _sampled_chance(sunk[entry.name], GAMES),
            [
                {"points": n, "chance": _sampled_chance(count, GAMES)}
                for n, count in sorted(damage[entry.name].items())
            ],
            [
                {"effect": e, "chance": _sampled_chance(effects[entry.name].get(e, 0), GAMES)}
                for e in _possible_effects(at.get(entry.name, []))
            ],
        )
        for entry in afloat
    ]


def turn_odds(inp: TurnInput, res: Resolution) -> DreadnoughtTurnOddsResult:
    """Each ship's chance of being sunk, its damage and its criticals, for the declared turn."""
    plan = plan_turn(inp, res.readings)
    dice = res.dice
    if not isinstance(dice, SeededDice):
        raise RuleError(
            "the odds of a turn roll no dice of the game: send dice as {seed, nonce} (the "
            f"seed of the games played past {BRANCH_LIMIT:,} branches), or leave dice out for a "
            "fresh seed (supplied and sealed dice are for rolls a player makes)",
            "dice",
        )
    criticals: dict[tuple[str, str], dict[str, Fraction]] = {}
    at: dict[str, list[dict[Outcome, Fraction]]] = {}
    for attack in plan.attacks:
        target = plan.ships[attack.target].ship
        at.setdefault(attack.target, []).append(attack_outcomes(attack, target, criticals))
    afloat = [entry for entry in plan.ships.values() if not entry.ship.sunk]
    try:
        ships, spent = _exact(afloat, at)
    except TooMany:
        return {
            "turn": plan.state.turn,
            "ships": _sampled(afloat, at, dice.seed, dice.nonce),
            "method": {
                "kind": "seeded-games",
                "branches": BRANCH_LIMIT,
                "branch_limit": BRANCH_LIMIT,
                "games": GAMES,
                "algorithm": ALGORITHM,
            },
        }
    return {
        "turn": plan.state.turn,
        "ships": ships,
        "method": {
            "kind": "exact",
            "branches": spent,
            "branch_limit": BRANCH_LIMIT,
            "games": None,
            "algorithm": None,
        },
    }
