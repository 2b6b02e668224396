"""The odds of a fleet-action turn: for the fire the players declare, each ship's chance of
being sunk (and sunk outright by a catastrophic hit), the distribution of the Hull it loses,
and each firer's chance of getting its shot off.

The declared attacks are played in the order listed (ruling declared-fire): a ship sunk
before its place does not fire, nor does one whose target is already sunk. What one attack
does to its target comes from the exact tallies of the single steps (``odds.fire_tallies``,
``odds.torpedo_tallies``), reduced to the Hull that gets through (capped at the target's
Hull) or a sinking outright.

Exact: the walk carries the joint Hull of the ships that later attacks still depend on, as
integer weights over one denominator. A ship no later attack targets has its final Hull
then and there (its distribution is taken), and is kept only as afloat or sunk while it
still has to fire, then dropped; so the walk holds few states for most turns. Its work,
states times outcomes of each attack, is bounded by ``TURN_ODDS_BRANCHES``; past it the
odds come from ``TURN_ODDS_SAMPLES`` seeded games (service/engine/sampling.py, stream
``fc-fleet-turn-odds-v1``), each attack drawn from the same reduced odds, with a 95% Wilson
interval for every share. The answer says which.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm
from typing import Annotated, Final, cast

from ...engine import budget as work_budget
from ...engine.dice import SeededDice
from ...engine.errors import LimitError, RuleError
from ...engine.resolution import Resolution
from ...engine.sampling import StreamPicker, weighted, wilson
from ...engine.typed import Doc, Limits
from . import tables as t
from .odds import fire_tallies, torpedo_tallies
from .results import (
    FleetActionHullLostChance,
    FleetActionShipClass,
    FleetActionShipOdds,
    FleetActionTurnChance,
    FleetActionTurnOddsMethodChoice,
    FleetActionTurnOddsResult,
)
from .steps import FireInput
from .turn import MAX_SHIPS, Activation, TurnState, attack_of, check_move, check_state, other

ALGORITHM: Final = "fc-fleet-turn-odds-v1"
SINK: Final = -1  # an attack's outcome: a catastrophic hit got through
# What the work costs the request's budget, in units (about 0.1 us): a (state, outcome)
# pair of the exact walk, an attack drawn in a seeded game.
PAIR_UNITS: Final = 10
DRAW_UNITS: Final = 30
WHAT: Final = "the odds of this turn's fire"
CHANGE: Final = "declare fewer attacks at once"


@dataclass(frozen=True)
class TurnOddsInput:
    state: Annotated[TurnState, Doc("The action as a turn call hands it back (`result.state`)")]
    fire: Annotated[
        tuple[Activation, ...],
        Limits(least=1, most=MAX_SHIPS),
        Doc(
            "The attacks declared for the rest of the turn, in the order the ships will go, "
            "each ship once"
        ),
    ]
    method: FleetActionTurnOddsMethodChoice = "auto"


@dataclass(frozen=True)
class Declared:
    """One declared attack: firer and target (indices into the state's ships) and what it
    does to the target: Hull through (capped at the target's Hull) or SINK, with integer
    weights over ``denominator``."""

    firer: int
    target: int
    outcomes: tuple[tuple[int, int], ...]
    denominator: int


def declared(state: TurnState, fire: tuple[Activation, ...]) -> list[Declared]:
    """The declared attacks, each checked as a turn call would check it."""
    check_state(state)
    winner = state.winner()
    if winner is not None:
        raise RuleError(
            f"the game is over: player {other(winner)} has no ship afloat", "state.ships"
        )
    found: list[Declared] = []
    seen: set[str] = set()
    for number, activation in enumerate(fire):
        field = f"fire.{number}"
        index, ship = state.ship(activation.ship, f"{field}.ship")
        if ship.sunk:
            raise RuleError(f"{ship.name} is sunk: it fires no more", f"{field}.ship")
        if ship.name in state.gone:
            raise RuleError(f"{ship.name} has already gone this turn", f"{field}.ship")
        if ship.name in seen:
            raise RuleError(f"{ship.name} is declared twice: a ship goes once a turn", field)
        seen.add(ship.name)
        check_move(ship, activation, field)
        attack = attack_of(state, ship, activation, field)
        if attack is None:
            continue  # weapon none: it goes and fires nothing, as a turn call allows
        target, inputs = attack
        tallies = fire_tallies(inputs) if isinstance(inputs, FireInput) else torpedo_tallies(inputs)
        hull = inputs.target.ship_class.hull
        through: dict[int, Fraction] = {}
        for tally, p in tallies.items():
            key = SINK if tally.catastrophic else min(tally.hull_lost, hull)
            through[key] = through.get(key, Fraction(0)) + p
        denominator = lcm(*(p.denominator for p in through.values()))
        weights = [
            (key, p.numerator * (denominator // p.denominator)) for key, p in through.items()
        ]
        common = gcd(denominator, *(w for _, w in weights))
        found.append(
            Declared(
                index,
                target,
                tuple(sorted((key, w // common) for key, w in weights)),
                denominator // common,
            )
        )
    return found


Marginal = dict[int, Fraction]


@dataclass
class Walked:
    marginals: list[Marginal]
    fires: list[Fraction]
    branches: int


def exact(hull: list[int], start: list[int], attacks: list[Declared], limit: int) -> Walked | None:
    """The exact distribution of each ship's final value (its Hull lost, or hull + 1 when a
    catastrophic hit sank it), and each attack's chance of being fired; None past ``limit``
    branches."""
    count = len(start)
    last_targeted = {a.target: k for k, a in enumerate(attacks)}
    last_firing = {a.firer: k for k, a in enumerate(attacks)}
    states: dict[tuple[int, ...], int] = {tuple(start): 1}
    denominator = 1
    marginals: list[Marginal] = [{} for _ in range(count)]

    def settle(ship: int) -> None:
        ways: dict[int, int] = {}
        for state, w in states.items():
            ways[state[ship]] = ways.get(state[ship], 0) + w
        marginals[ship] = {value: Fraction(w, denominator) for value, w in ways.items()}

    # What the attacks still to come read of each ship: its Hull ("full"), whether it is
    # afloat ("flag") or nothing ("drop"); a ship is projected only when that changes.
    kept_as = ["full"] * count
    work = 0

    def project(ship: int, after: int) -> None:
        """Keep only what the attacks after ``after`` read of ``ship``."""
        nonlocal states, work
        if last_targeted.get(ship, -1) > after:
            return
        fires = last_firing.get(ship, -1) > after
        mode = "flag" if fires else "drop"
        if kept_as[ship] == mode:
            return
        kept_as[ship] = mode
        work += len(states)
        kept: dict[tuple[int, ...], int] = {}
        for state, w in states.items():
            value = hull[ship] if fires and state[ship] >= hull[ship] else 0
            key = (*state[:ship], value, *state[ship + 1 :])
            kept[key] = kept.get(key, 0) + w
        states = kept

    for ship in range(count):
        if ship not in last_targeted:
            settle(ship)
        project(ship, -1)
    fires: list[Fraction] = []
    budget = work_budget.current()
    for k, attack in enumerate(attacks):
        pairs = len(states) * len(attack.outcomes)
        work += pairs
        if work > limit:
            return None
        budget.charge(pairs * PAIR_UNITS, WHAT, CHANGE)
        f, g, most = attack.firer, attack.target, hull[attack.target]
        following: dict[tuple[int, ...], int] = {}
        fired = 0
        for state, w in states.items():
            if state[f] >= hull[f] or state[g] >= most:
                following[state] = following.get(state, 0) + w * attack.denominator
                continue
            fired += w
            for through, dw in attack.outcomes:
                value = most + 1 if through == SINK else min(most, state[g] + through)
                key = (*state[:g], value, *state[g + 1 :])
                following[key] = following.get(key, 0) + w * dw
        fires.append(Fraction(fired, denominator))
        denominator *= attack.denominator
        states = following
        for ship in {f, g}:
            if last_targeted.get(ship) == k:
                settle(ship)
            project(ship, k)
    return Walked(marginals, fires, work)


@dataclass
class Sampled:
    counts: list[dict[int, int]]
    fired: list[int]
    samples: int


def sampled(
    hull: list[int], start: list[int], attacks: list[Declared], seed: str, nonce: int
) -> Sampled:
    """``TURN_ODDS_SAMPLES`` seeded games of the declared fire."""
    work_budget.current().charge(t.TURN_ODDS_SAMPLES * len(attacks) * DRAW_UNITS, WHAT, CHANGE)
    picks = [weighted(a.outcomes, a.denominator) for a in attacks]
    counts: list[dict[int, int]] = [{} for _ in start]
    fired = [0] * len(attacks)
    for sample in range(t.TURN_ODDS_SAMPLES):
        picker = StreamPicker(ALGORITHM, seed, nonce, sample)
        values = list(start)
        for k, attack in enumerate(attacks):
            f, g, most = attack.firer, attack.target, hull[attack.target]
            if values[f] >= hull[f] or values[g] >= most:
                continue
            fired[k] += 1
            through = picker.pick(picks[k])
            values[g] = most + 1 if through == SINK else min(most, values[g] + through)
        for ship, value in enumerate(values):
            counts[ship][value] = counts[ship].get(value, 0) + 1
    return Sampled(counts, fired, t.TURN_ODDS_SAMPLES)


def _exact_chance(p: Fraction) -> FleetActionTurnChance:
    return {"probability": f"{p.numerator}/{p.denominator}", "p": float(p)}


def _seen_chance(count: int, samples: int) -> FleetActionTurnChance:
    return {
        "probability": f"{count}/{samples}",
        "p": count / samples,
        "interval": wilson(count, samples),
    }


@dataclass(frozen=True)
class Fate:
    """One ship's odds: the chance of each Hull lost this turn, of a sinking, of a sinking
    outright, and the Hull it is expected to lose."""

    lost: dict[int, FleetActionTurnChance]
    sunk: FleetActionTurnChance
    catastrophic: FleetActionTurnChance
    expected: float


def exact_fate(marginal: Marginal, most: int, first: int) -> Fate:
    lost = dict.fromkeys(range(most - first + 1), Fraction(0))
    for value, p in marginal.items():
        lost[min(value, most) - first] += p
    sunk = sum((p for value, p in marginal.items() if value >= most), Fraction(0))
    return Fate(
        {k: _exact_chance(p) for k, p in lost.items()},
        _exact_chance(sunk),
        _exact_chance(marginal.get(most + 1, Fraction(0))),
        float(sum((k * p for k, p in lost.items()), Fraction(0))),
    )


def seen_fate(counts: dict[int, int], samples: int, most: int, first: int) -> Fate:
    lost = dict.fromkeys(range(most - first + 1), 0)
    for value, c in counts.items():
        lost[min(value, most) - first] += c
    sunk = sum(c for value, c in counts.items() if value >= most)
    return Fate(
        {k: _seen_chance(c, samples) for k, c in lost.items()},
        _seen_chance(sunk, samples),
        _seen_chance(counts.get(most + 1, 0), samples),
        sum(k * c for k, c in lost.items()) / samples,
    )


def _ship_odds(
    state: TurnState, fates: list[Fate], fires: dict[int, FleetActionTurnChance]
) -> list[FleetActionShipOdds]:
    ships: list[FleetActionShipOdds] = []
    for index, (ship, fate) in enumerate(zip(state.ships, fates, strict=True)):
        lost: list[FleetActionHullLostChance] = [
            {"hull_lost": k, "chance": c} for k, c in fate.lost.items()
        ]
        ships.append(
            {
                "name": ship.name,
                "player": ship.player,
                "class": cast(FleetActionShipClass, ship.ship_class.name),
                "hull_left": ship.hull_left,
                "fires": fires.get(index),
                "sunk": fate.sunk,
                "catastrophic": fate.catastrophic,
                "hull_lost": lost,
                "expected_hull_lost": fate.expected,
            }
        )
    return ships


def turn_odds(inp: TurnOddsInput, res: Resolution) -> FleetActionTurnOddsResult:
    """The odds of the declared fire, exact within the branch limit, else seeded games."""
    dice = res.dice
    if not isinstance(dice, SeededDice):
        raise RuleError(
            "the odds of a turn play seeded games where they cannot be exact: send dice as "
            "{seed, nonce}, or leave dice out for a fresh seed (supplied and sealed dice are "
            "for rolls a player makes)",
            "dice",
        )
    attacks = declared(inp.state, inp.fire)
    hull = [ship.ship_class.hull for ship in inp.state.ships]
    start = [ship.hull_lost for ship in inp.state.ships]
    firers = [attack.firer for attack in attacks]
    limit = t.TURN_ODDS_BRANCHES
    walked = None if inp.method == "monte-carlo" else exact(hull, start, attacks, limit)
    if walked is not None:
        fates = [
            exact_fate(m, most, first)
            for m, most, first in zip(walked.marginals, hull, start, strict=True)
        ]
        fires = {f: _exact_chance(p) for f, p in zip(firers, walked.fires, strict=True)}
        return {
            "method": {
                "kind": "exact",
                "branch_limit": limit,
                "branches": walked.branches,
                "algorithm": None,
                "samples": None,
                "detail": f"every outcome of every declared attack: {walked.branches} branches "
                f"walked, within the limit of {limit}",
            },
            "ships": _ship_odds(inp.state, fates, fires),
        }
    if inp.method == "exact":
        raise LimitError(
            f"the declared fire has more than {limit} branches to walk for exact odds: ask "
            "for method auto or monte-carlo (seeded games)",
            "method",
        )
    games = sampled(hull, start, attacks, dice.seed, dice.nonce)
    n = games.samples
    fates = [
        seen_fate(c, n, most, first)
        for c, most, first in zip(games.counts, hull, start, strict=True)
    ]
    why = (
        "as asked"
        if inp.method == "monte-carlo"
        else f"exact odds would walk more than {limit} branches"
    )
    return {
        "method": {
            "kind": "monte-carlo",
            "branch_limit": limit,
            "branches": None,
            "algorithm": ALGORITHM,
            "samples": n,
            "detail": f"{n} seeded games of the declared fire ({why}), each attack drawn from "
            "its exact odds; every share with its 95% interval",
        },
        "ships": _ship_odds(
            inp.state,
            fates,
            {f: _seen_chance(c, n) for f, c in zip(firers, games.fired, strict=True)},
        ),
    }
