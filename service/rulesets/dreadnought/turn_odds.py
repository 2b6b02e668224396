"""The odds of a dreadnought turn: each ship's chance of being sunk, its damage, its criticals.

The turn's plan (``turn.plan_turn``) is the same one the turn resolves. Every throw is
judged against the ships as they were when the turn began (ruling simultaneous-fire), so
the throws are independent: each has an exact distribution of (points marked, critical
effect), from its multisets of faces and the Critical Hits table's own rolls (``odds.py``,
the fire and torpedo odds' code). For each ship the throws aimed at it are then combined:

* exact: a convolution of (points, destroyed) pairs, points counted up to the boxes left
  (ruling boxes-marked); the chance of each lasting critical is one less the product of
  the chances that no throw makes it. The work is counted in branches, one per pair of
  outcomes combined; where it could pass ``BRANCH_LIMIT`` (``branches_at_most``, worked
  out before any is combined),
* seeded games instead: every throw drawn from its exact distribution
  (service/engine/sampling.py, algorithm ``ALGORITHM``), ``GAMES`` of them, each share
  with its 95% Wilson interval. The answer says which (``method.kind``).
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from typing import Final, cast

from ...engine import budget as work
from ...engine.dice import SeededDice
from ...engine.errors import RuleError
from ...engine.resolution import Resolution
from ...engine.sampling import Choices, StreamPicker, weighted, wilson
from .odds import critical_table_odds, throw_ways
from .results import (
    DreadnoughtChance,
    DreadnoughtCriticalChance,
    DreadnoughtCriticalEffect,
    DreadnoughtDamageChance,
    DreadnoughtShipOdds,
    DreadnoughtTurnOddsResult,
)
from .ships import Ship
from .tables import CRITICAL_EFFECTS
from .turn import ActionShip, Attack, TurnInput, plan_turn

# About 0.5 us a branch (integers over a growing denominator): 40,000 branches are some
# 20 ms of CPU, and 200 games some 15 ms, each inside the 50 ms budget with the rest of the
# request at the documented limits (docs/performance.md, bench/worst_case.py).
BRANCH_LIMIT: Final = 40_000
GAMES: Final = 200
# What the work costs the request's budget, in units (about 0.1 us): a branch of the exact
# odds (a state and a pair of points), a throw drawn in a seeded game.
BRANCH_UNITS: Final = 7
THROW_UNITS: Final = 30
WHAT: Final = "the odds of this turn"
CHANGE: Final = "declare fewer batteries or torpedo salvoes at once"
ALGORITHM: Final = "fc-dreadnought-turn-v1"
DESTROYED: Final = "ship destroyed"

Outcome = tuple[int, str]  # (points marked, critical effect or "no effect")


class Weights:
    """A throw's outcomes with integer weights over one denominator (integers add up many
    times faster than fractions)."""

    __slots__ = ("ways", "denominator")

    def __init__(self, ways: dict[Outcome, int], denominator: int) -> None:
        self.ways = ways
        self.denominator = denominator

    def chance_of(self, effect: str) -> Fraction:
        return Fraction(sum(n for (_, e), n in self.ways.items() if e == effect), self.denominator)


def throws_at(at: dict[str, list[Weights]], entry: ActionShip) -> list[Weights]:
    return at.get(entry.name, [])


Criticals = dict[tuple[str, str], tuple[dict[str, int], int]]


def _critical_table(target: Ship, throw: str) -> tuple[dict[str, int], int]:
    """The effects of one throw on the Critical Hits table, as integer weights."""
    odds = critical_table_odds(target, throw, "critical")
    common = lcm(*(p.denominator for _, p in odds))
    table: dict[str, int] = {}
    for result, p in odds:
        table[result["effect"]] = table.get(result["effect"], 0) + int(p * common)
    return table, common


def attack_outcomes(attack: Attack, target: Ship, criticals: Criticals) -> Weights:
    """One throw's exact (points, effect) weights; a miss is (0, "no effect")."""
    if attack.plan.throw is None:
        return Weights({(0, "no effect"): 1}, 1)
    judged = throw_ways(attack.plan, attack.dice)
    tables = {}
    for _, _, critical in judged:
        if critical is not None:
            found = (attack.target, critical)
            if found not in criticals:
                criticals[found] = _critical_table(target, critical)
            tables[critical] = criticals[found]
    common = lcm(1, *(d for _, d in tables.values()))
    ways: dict[Outcome, int] = {}
    for (_, points, critical), n in judged.items():
        if critical is None:
            key = (points, "no effect")
            ways[key] = ways.get(key, 0) + n * common
            continue
        table, denominator = tables[critical]
        for effect, m in table.items():
            key = (points, effect)
            ways[key] = ways.get(key, 0) + n * m * (common // denominator)
    count, sides = attack.dice
    return Weights(ways, sides**count * attack.plan.gunner * common)


def _exact_chance(p: Fraction) -> DreadnoughtChance:
    return {"probability": f"{p.numerator}/{p.denominator}", "p": float(p), "interval": None}


def _sampled_chance(count: int, games: int) -> DreadnoughtChance:
    return {"probability": f"{count}/{games}", "p": count / games, "interval": wilson(count, games)}


def _possible_effects(throws: list[Weights]) -> list[DreadnoughtCriticalEffect]:
    seen = {effect for w in throws for (_, effect), n in w.ways.items() if n}
    lasting = [e for e in CRITICAL_EFFECTS if e in seen and e != "no effect"]
    return [cast(DreadnoughtCriticalEffect, e) for e in lasting]


def _pairs(weights: Weights) -> dict[tuple[int, bool], int]:
    """A throw's weights by what sinking reads: (points, a critical that destroys)."""
    pairs: dict[tuple[int, bool], int] = {}
    for (points, effect), n in weights.ways.items():
        key = (points, effect == DESTROYED)
        pairs[key] = pairs.get(key, 0) + n
    return pairs


def branches_at_most(left: int, throws: list[Weights]) -> int:
    """The most branches the exact odds of one ship take: each throw's pairs times the
    states before it, which are at most one per total of points between the fewest and the
    most thrown so far (both counted up to the boxes left, ruling boxes-marked), twice
    over once a throw can destroy the ship."""
    spent, low, high, destroyed = 0, 0, 0, left == 0
    for weights in throws:
        pairs = _pairs(weights)
        states = (min(left, high) - min(left, low) + 1) * (2 if destroyed else 1)
        spent += states * len(pairs)
        low += min(points for points, _ in pairs)
        high += max(points for points, _ in pairs)
        destroyed = destroyed or any(dead for _, dead in pairs)
    return spent


def _exact_ship(
    left: int, throws: list[Weights], spent: int
) -> tuple[Fraction, dict[int, Fraction], dict[str, Fraction], int]:
    """(sunk, points marked, each effect at least once, branches so far) for one ship."""
    states: dict[tuple[int, bool], int] = {(0, left == 0): 1}
    denominator = 1
    for weights in throws:
        pairs = _pairs(weights)
        spent += len(states) * len(pairs)
        following: dict[tuple[int, bool], int] = {}
        for (marked, dead), n in states.items():
            for (points, destroyed), w in pairs.items():
                key = (min(left, marked + points), dead or destroyed)
                following[key] = following.get(key, 0) + n * w
        states = following
        denominator *= weights.denominator
    sunk = Fraction(
        sum(n for (marked, dead), n in states.items() if dead or marked >= left), denominator
    )
    marks: dict[int, int] = {}
    for (marked, _), n in states.items():
        marks[marked] = marks.get(marked, 0) + n
    damage = {marked: Fraction(n, denominator) for marked, n in marks.items()}
    effects: dict[str, Fraction] = {}
    for effect in _possible_effects(throws):
        none = Fraction(1)
        for weights in throws:
            none *= 1 - weights.chance_of(effect)
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
    afloat: list[ActionShip], at: dict[str, list[Weights]]
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
    at: dict[str, list[Weights]],
    seed: str,
    nonce: int,
) -> list[DreadnoughtShipOdds]:
    """``GAMES`` seeded turns, every throw drawn from its exact distribution."""
    draws: dict[str, list[Choices[Outcome]]] = {
        entry.name: [weighted(sorted(w.ways.items()), w.denominator) for w in throws_at(at, entry)]
        for entry in afloat
    }
    sunk = dict.fromkeys(draws, 0)
    damage: dict[str, dict[int, int]] = {name: {} for name in draws}
    effects: dict[str, dict[str, int]] = {name: {} for name in draws}
    lefts = {entry.name: entry.ship.boxes_left for entry in afloat}
    for game in range(GAMES):
        picker = StreamPicker(ALGORITHM, seed, nonce, game)
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
    criticals: Criticals = {}
    at: dict[str, list[Weights]] = {}
    for attack in plan.attacks:
        target = plan.ships[attack.target].ship
        at.setdefault(attack.target, []).append(attack_outcomes(attack, target, criticals))
    afloat = [entry for entry in plan.ships.values() if not entry.ship.sunk]
    most = sum(branches_at_most(e.ship.boxes_left, throws_at(at, e)) for e in afloat)
    budget = work.current()
    if most > BRANCH_LIMIT:
        throws = sum(len(throws_at(at, entry)) for entry in afloat)
        budget.charge(GAMES * throws * THROW_UNITS, WHAT, CHANGE)
        return {
            "turn": plan.state.turn,
            "ships": _sampled(afloat, at, dice.seed, dice.nonce),
            "method": {
                "kind": "seeded-games",
                "branches": most,
                "branch_limit": BRANCH_LIMIT,
                "games": GAMES,
                "algorithm": ALGORITHM,
            },
        }
    budget.charge(most * BRANCH_UNITS, WHAT, CHANGE)
    ships, spent = _exact(afloat, at)
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
