"""Exact odds of every Salvo! step that rolls, from the steps' own resolvers.

Every Salvo! table is read by a roll's total (plus modifiers), never by which die showed
what, so each roll is walked once per total (``by_total``: 16 runs for 3d6, not 216), the
follow-up rolls (plunging fire, torpedo damage) the same way, each total weighted by its
chance. The resolvers and tables are the very ones that resolve a roll; the tests compare
every step with the walk of every face. Inputs that differ only in the modifiers of a roll
share one walk (``Family``), so a worker's first game walks a few dozen times, not hundreds.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import gcd, lcm
from typing import Any

from ...engine.dice import DiceSource
from ...engine.distribution import sums, walk, walk_step
from ...engine.errors import RuleError
from ...engine.resolution import Resolution, in_force
from ...engine.ruleset import NoInput
from . import steps, tables
from .results import SalvoSoloBearing, SalvoSoloRange, SalvoSoloWeather
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


# --- the steps' odds, kept per worker -----------------------------------------------------

STEP_ODDS_CACHE = 4096  # distinct (step, inputs) kept per worker; each a few kilobytes at most

Table = tuple[tuple[dict[str, Any], Fraction], ...]
Resolve = Callable[[Any, Resolution], Mapping[str, Any]]


def rules_key() -> tuple[tuple[str, str], ...]:
    """The readings in force, as a cache key (the odds of a step depend on them)."""
    return tuple(sorted(in_force().chosen.items()))


@dataclass(frozen=True)
class Family:
    """Inputs of one step that differ only in the modifiers of its first roll.

    ``name`` is everything else the step reads (compared and hashed); ``members``, when
    given, lists the family's inputs (a firer's every T-hit count), so that a walk can be
    chosen to teach the family as many finals as it can (see ``_table_by_final``).
    """

    name: Hashable
    members: Callable[[], Iterable[Any]] | None = field(default=None, compare=False)


@lru_cache(maxsize=STEP_ODDS_CACHE)
def _table(
    resolve: Resolve, inputs: Any, rules: tuple[tuple[str, str], ...], family: Family | None
) -> Table:
    if family is None:
        return tuple(walk_step(resolve, inputs))
    return _table_by_final(resolve, inputs, rules, family)


def table(resolve: Resolve, inputs: Any, family: Family | None = None) -> Table:
    """A step's exact odds for these inputs under the readings in force, kept per worker
    (with ``family``, from one walk shared by the family's inputs)."""
    return _table(resolve, inputs, rules_key(), family)


Counts = tuple[int, tuple[tuple[Any, int], ...]]  # integer weights over one denominator


def _integers(odds: Table) -> Counts:
    """A table's chances as integers over their least common denominator."""
    denominator = lcm(*(p.denominator for _, p in odds))
    return denominator, tuple((r, p.numerator * (denominator // p.denominator)) for r, p in odds)


@lru_cache(maxsize=STEP_ODDS_CACHE)
def _counts(
    resolve: Resolve, inputs: Any, rules: tuple[tuple[str, str], ...], family: Family | None
) -> Counts:
    return _integers(_table(resolve, inputs, rules, family))


def counts(resolve: Resolve, inputs: Any, family: Family | None = None) -> Counts:
    """``table`` as integer weights over their least common denominator, in its order."""
    return _counts(resolve, inputs, rules_key(), family)


# --- one walk shared by the inputs of a family --------------------------------------------
#
# Every Salvo! step that rolls reads its first roll through the number its first check
# records: ``final``, the roll's total plus the modifiers the inputs call for. Inputs that
# differ only in those modifiers (a firer's T hits, -1 each on the Straddle table; the two
# ships' speeds for initiative) get the same outcomes for the same final number: only the
# window of finals the roll reaches moves. So a family keeps, for every final number seen,
# the outcomes that followed it (with the chances of any later rolls), learnt from walks of
# the step's own code over every total of every roll; the odds of new inputs take one run
# of the step (its first check tells their modifiers) and, when every final in their window
# is known, are the chance of each total of the roll times what follows its final, listed
# in the order the walk lists them. A final not yet seen is learnt by a walk: of the inputs
# themselves, or of the member of the family whose window holds every final they miss and
# the most finals of the whole family not yet seen (a 20-turret firer's 20 Straddle tables
# from 3 walks). Which inputs are only modifiers is the caller's claim (``Family.name``
# holds all the rest); a walk or a run that disagrees with what the family learnt (a step
# that reads those inputs some other way too) switches the family off, and its inputs are
# walked each, as without a family. Those checks catch a wrong claim only where it shows
# in a final already learnt, so the tests compare every family used with plain walks.

MAX_FAMILIES = 1024  # families kept per worker, each at most a few dozen finals


@dataclass
class _Learnt:
    count: int  # the first roll's dice and sides
    sides: int
    chances: dict[int, Fraction]  # of each total of that roll
    ways: dict[int, int]  # throws of each total of that roll
    # per final number: (outcome key, ways out of ``scale``) in walk order, and its scale
    by_final: dict[int, tuple[tuple[tuple[str, int], ...], int]] = field(default_factory=dict)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    tables: dict[int, Table] = field(default_factory=dict)  # put together, by offset
    sound: bool = True


@lru_cache(maxsize=MAX_FAMILIES)
def _learnt(
    _resolve: Resolve, _family: Family, _rules: tuple[tuple[str, str], ...], count: int, sides: int
) -> _Learnt:
    chances = sums(count, sides)
    throws = sides**count
    ways = {total: p.numerator * (throws // p.denominator) for total, p in chances.items()}
    return _Learnt(count, sides, chances, ways)


class _LowestFaces(DiceSource):
    """Every die shows 1: one run of a step, to read its first check."""

    def die(self, sides: int, label: str, count: int, index: int) -> int:
        return 1

    def describe(self) -> dict[str, Any]:
        return {"mode": "enumerated"}


def _first_roll(res: Resolution) -> tuple[int, int, int, int] | None:
    """(dice, sides, natural total, final) of a run's first roll, read by its first check;
    None when the step rolled nothing or its first check is not of its first roll."""
    if not res.rolls or not res.checks:
        return None
    roll, check = res.rolls[0], res.checks[0]
    if check["roll"] != roll.label or check["natural"] != roll.total:
        return None
    final: int = check["final"]
    return len(roll.values), roll.sides, roll.total, final


def _key(result: Mapping[str, Any]) -> str:
    return json.dumps(result, sort_keys=True)


def _probe(resolve: Resolve, inputs: Any) -> tuple[Mapping[str, Any], Resolution]:
    res = Resolution(_LowestFaces())
    return resolve(inputs, res), res


def _table_by_final(
    resolve: Resolve, inputs: Any, rules: tuple[tuple[str, str], ...], family: Family
) -> Table:
    result, probe = _probe(resolve, inputs)
    first = _first_roll(probe)
    if first is None:
        if not probe.rolls:  # nothing rolled: the one outcome, for sure
            return ((dict(result), Fraction(1)),)
        return tuple(walk_step(resolve, inputs))
    count, sides, natural, final = first
    offset = final - natural
    learnt = _learnt(resolve, family, rules, count, sides)
    if learnt.sound:
        missing = [t + offset for t in learnt.ways if t + offset not in learnt.by_final]
        if not missing:
            outcomes = learnt.by_final[final][0]
            if any(learnt.results[key] == result for key, _ in outcomes):
                found = learnt.tables.get(offset)
                if found is None:
                    found = learnt.tables[offset] = _assemble(learnt, offset)
                return found
            learnt.sound = False
        elif family.members is not None:
            teacher = _teacher(resolve, learnt, family, missing)
            if teacher is not None:
                _walk_into(resolve, teacher, learnt)
                if learnt.sound and final in learnt.by_final:
                    return _table_by_final(resolve, inputs, rules, family)
    return _walk_into(resolve, inputs, learnt)


def _assemble(learnt: _Learnt, offset: int) -> Table:
    """The odds at this offset from what follows each final: integers, then fractions."""
    window = [(ways, learnt.by_final[total + offset]) for total, ways in learnt.ways.items()]
    scale = lcm(*(s for _, (_, s) in window))
    counted: dict[str, int] = {}
    for ways, (outcomes, s) in window:
        times = ways * (scale // s)
        for key, n in outcomes:
            counted[key] = counted.get(key, 0) + times * n
    throws = learnt.sides**learnt.count * scale
    return tuple((learnt.results[key], Fraction(n, throws)) for key, n in counted.items())


def _teacher(resolve: Resolve, learnt: _Learnt, family: Family, missing: list[int]) -> Any:
    """The member whose walk teaches every final in ``missing`` and the most unseen ones."""
    assert family.members is not None
    windows: dict[int, Any] = {}  # a member for each offset of the first roll
    for member in family.members():
        try:
            _, probe = _probe(resolve, member)
        except RuleError:
            continue  # a member the step refuses (a silenced firer) teaches nothing
        first = _first_roll(probe)
        if first is not None and first[:2] == (learnt.count, learnt.sides):
            windows.setdefault(first[3] - first[2], member)
    totals = list(learnt.ways)
    unseen = {t + o for o in windows for t in totals} - set(learnt.by_final)
    best, most = None, 0
    for offset, member in windows.items():
        window = {t + offset for t in totals}
        if window.issuperset(missing) and len(window & unseen) > most:
            best, most = member, len(window & unseen)
    return best


def _walk_into(resolve: Resolve, inputs: Any, learnt: _Learnt) -> Table:
    """The step walked over every total of every roll; what followed each final of its first
    roll is added to (or checked against) what ``learnt`` knows."""
    results: dict[str, dict[str, Any]] = {}
    shape = (learnt.count, learnt.sides)

    def play(dice: DiceSource) -> tuple[int | None, int | None, str]:
        res = Resolution(dice)
        result = resolve(inputs, res)
        key = _key(result)
        results.setdefault(key, dict(result))
        first = _first_roll(res)
        if first is None or first[:2] != shape:
            return None, None, key
        return first[2], first[3], key

    out: dict[str, Fraction] = {}
    following: dict[int, dict[str, Fraction]] = {}
    offsets: set[int | None] = set()
    for (natural, final, key), p in walk(play).items():
        out[key] = out.get(key, 0) + p
        if natural is None or final is None:
            offsets.add(None)
            continue
        offsets.add(final - natural)
        after = following.setdefault(final, {})
        after[key] = after.get(key, 0) + p / learnt.chances[natural]  # given that total
    if len(offsets) != 1 or None in offsets:
        learnt.sound = False  # not one roll shifted by the inputs' modifiers
    if learnt.sound:
        for final, after in following.items():
            scale = lcm(*(q.denominator for q in after.values()))
            entry = (
                tuple((k, q.numerator * (scale // q.denominator)) for k, q in after.items()),
                scale,
            )
            if learnt.by_final.setdefault(final, entry) != entry:
                learnt.sound = False
        learnt.results.update(results)
    return tuple((results[key], p) for key, p in out.items())


# --- a whole attack: the steps' own odds put together, shot by shot ---------------------------
#
# Walking ``steps.attack`` branch by branch would be every fire total times every straddle
# total times every follow-up, squared at Short and Medium range (two shots): about 10^5
# runs. Instead each shot is put together from the exact odds of the steps it is made of
# (fire, straddle, then special damage or critical hit as the straddle's ``roll_next``
# says), each walked by total and kept per worker, and the shots are folded one after the
# other over the target's state, the way ``steps.attack`` plays them: a straddle counts
# for the next fire, a shot's hits are applied before the next, no shot at a sunk ship.

# What one shot does to its target: F, T and S hits, fire control lost, and whether it
# straddled (which counts for every later fire at that target).
Shot = tuple[int, int, int, bool, bool]

FOLLOW_UP: dict[str, Resolve] = {
    "special-damage": steps.special_damage,
    "critical": steps.critical,
}


def _afloat_card(ship: Ship) -> Ship:
    """The straddle and critical-hit steps read an afloat target only through its card."""
    return Ship(ship.card)


def _count(hits: str) -> tuple[int, int, int]:
    return hits.count("F"), hits.count("T"), hits.count("S")


ShotKey = tuple[
    Ship,
    Ship,
    SalvoSoloRange,
    SalvoSoloWeather,
    SalvoSoloBearing,
    bool,
    tuple[tuple[str, str], ...],
]


def shot_key(
    firer: Ship,
    target: Ship,
    range_: SalvoSoloRange,
    weather: SalvoSoloWeather,
    bearing: SalvoSoloBearing,
    straddled: bool,
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


def _straddle_family(inp: steps.StraddleInput) -> Family:
    """Every input of the Straddle table is a modifier of its 3d6 (armor, the guns bearing,
    range, the firer's T hits, gun size): one family, taught by the firer's T-hit counts."""
    card, target, range_, bearing = inp.firer.card, inp.target, inp.range, inp.guns_bearing

    def members() -> Iterable[steps.StraddleInput]:
        for hits in range(card.turret):
            firer = Ship(card, ShipState(turret_hits=hits))
            yield steps.StraddleInput(firer, target, range_, bearing)

    return Family((), members)


ShotWeights = tuple[int, tuple[tuple[Shot, int], ...]]


def shot_weights(
    firer: Ship,
    target: Ship,
    range_: SalvoSoloRange,
    weather: SalvoSoloWeather,
    bearing: SalvoSoloBearing,
    straddled: bool,
) -> ShotWeights:
    """The exact outcomes of one shot of ``firer`` at an afloat ``target``, as integer
    weights over one denominator (cheap to fold)."""
    return _shot_weights(*shot_key(firer, target, range_, weather, bearing, straddled))


def shot_weights_by_key(key: ShotKey) -> ShotWeights:
    """``shot_weights`` for a key made by ``shot_key`` (the advisor keeps its own picks by
    the same key)."""
    return _shot_weights(*key)


@lru_cache(maxsize=STEP_ODDS_CACHE)
def _straddle_hits(
    firer: Ship,
    target: Ship,
    range_: SalvoSoloRange,
    bearing: SalvoSoloBearing,
    _rules: tuple[tuple[str, str], ...],
) -> Counts:
    """What a straddle does, by (F, T, S hits, fire control lost): the Straddle table, then
    the follow-up roll each of its rows calls for (special damage, critical hit)."""
    straddle_inputs = steps.StraddleInput(firer, target, range_, bearing)
    chain_denominator, chains = counts(
        steps.straddle, straddle_inputs, _straddle_family(straddle_inputs)
    )
    # What the rest of the shot reads of a straddle: its hits, or the follow-up it calls
    # for. Many firers share it (the same modified roll), so what follows is kept by it.
    read = tuple((chain["roll_next"], chain["hits"], q) for chain, q in chains)
    return _after_straddle(chain_denominator, read, target, range_, _rules)


@lru_cache(maxsize=STEP_ODDS_CACHE)
def _after_straddle(
    chain_denominator: int,
    chains: tuple[tuple[str | None, str, int], ...],
    target: Ship,
    range_: SalvoSoloRange,
    _rules: tuple[tuple[str, str], ...],
) -> Counts:
    plain: dict[tuple[int, int, int, bool], int] = {}
    follow_ups: dict[str, int] = {}
    for follow, hits, q in chains:
        if follow is None:
            key = (*_count(hits), False)
            plain[key] = plain.get(key, 0) + q
        else:
            follow_ups[follow] = follow_ups.get(follow, 0) + q
    after_follow_up = []
    for follow in follow_ups:
        follow_inputs: Any = (
            NoInput() if follow == "special-damage" else steps.CriticalInput(target, range_)
        )
        after_follow_up.append((follow, *counts(FOLLOW_UP[follow], follow_inputs)))
    scale = lcm(*(d for _, d, _ in after_follow_up))  # 1 without follow-ups
    after_straddle = {key: q * scale for key, q in plain.items()}
    for follow, d, afters in after_follow_up:
        q = follow_ups[follow] * (scale // d)
        for after, r in afters:
            key = (*_count(after["hits"]), bool(after.get("fire_control_lost", False)))
            after_straddle[key] = after_straddle.get(key, 0) + q * r
    return chain_denominator * scale, tuple(after_straddle.items())


@lru_cache(maxsize=STEP_ODDS_CACHE)
def _shot_weights(
    firer: Ship,
    target: Ship,
    range_: SalvoSoloRange,
    weather: SalvoSoloWeather,
    bearing: SalvoSoloBearing,
    straddled: bool,
    rules: tuple[tuple[str, str], ...],
) -> ShotWeights:
    # Each table is first summed up by what the next part reads (fire: straddle or not; a
    # straddle: its hits, or which follow-up roll it calls for), then the parts multiplied,
    # in integers over the product of the tables' denominators, reduced at the end.
    fire_denominator, fired = counts(steps.fire, steps.FireInput(range_, weather, straddled))
    straddles = sum(w for result, w in fired if result["straddle"])
    after_denominator, after_straddle = _straddle_hits(firer, target, range_, bearing, rules)
    out: dict[Shot, int] = {}
    if straddles != fire_denominator:
        out[(0, 0, 0, False, False)] = (fire_denominator - straddles) * after_denominator
    if straddles:
        for (f, t, s, lost), q in after_straddle:
            out[(f, t, s, lost, True)] = straddles * q
    denominator = fire_denominator * after_denominator
    common = gcd(denominator, *out.values())
    return denominator // common, tuple((shot, w // common) for shot, w in out.items())


Damage = tuple[int, int, int, bool]  # F, T and S hits so far this attack, fire control lost


Dealt = tuple[int, int, int]  # F, T and S hits an attack resolves, counted or not


def attack_states(inp: steps.AttackInput) -> dict[tuple[Ship, Dealt, bool], Fraction]:
    """The exact (target after the attack, hits it dealt, firer has straddled) of a whole
    attack. The hits dealt are every hit resolved, past the count cap too (ruling
    hit-count-cap), so they are not always the target's counts after less before."""
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
    out: dict[tuple[Ship, Dealt, bool], Fraction] = {}
    for (damage, straddled), n in states.items():
        ended = (target_after(damage), damage[:3], straddled)
        out[ended] = out.get(ended, Fraction(0)) + Fraction(n, denominator)
    return out


def attack_summary(before: Ship, after: Ship, dealt: Dealt, straddled: bool) -> dict[str, Any]:
    """What an attack did to its target, by kind, and what the target is left with. The
    hits are those the attack dealt, as its shots report them: a target at a count's cap
    still takes them, though its state counts no more (ruling hit-count-cap)."""
    flotation, turret, speed = dealt
    return {
        "flotation_hits": flotation,
        "turret_hits": turret,
        "speed_hits": speed,
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
        (attack_summary(inp.target, after, dealt, straddled), p)
        for (after, dealt, straddled), p in attack_states(inp).items()
    ]


def clear_caches() -> None:
    """Forget every per-worker table the odds keep (a cold worker; for tests and bench)."""
    for cached in (_table, _counts, _learnt, _straddle_hits, _after_straddle, _shot_weights):
        cached.cache_clear()
