"""The Salvo! advisor: for each Action the player may take, the chances of winning, drawing
and losing from a game state, the expected number of turns, and the best Action.

Why Monte Carlo and not the exact chain. A game state is the range, both ships' damage (F,
T and S hits, fire control), the enemy's last Action and who has straddled whom; between
a fresh Ajax and a fresh Graf Spee about 10^7 states are reachable, and one turn from one
state has up to about 40,000 outcomes (two attacks of up to about 200 each). An exact
solution from a fresh state is out of reach of the 250 ms budget by orders of magnitude.
So the advisor plays ``SAMPLES`` seeded games per Action from the state, and answers with
the counts, the observed fractions and a 95% Wilson interval for each.

How a game is played. Every random part of a turn is drawn from the exact odds of the very
step that resolves it (``steps.enemy_action``, ``steps.fire``, ``steps.straddle`` and its
follow-up, ``steps.torpedo``, ``steps.end_of_turn``, each walked by total and kept per
worker, see ``odds.py``), and the turn is put together in the order ``steps.turn`` plays
it; a test compares one turn of this game with the walk of ``steps.turn`` itself. The
player takes the Action being judged this turn and closes (``LATER``) every later turn (a
ship at speed 0 Offers Broadside); the enemy follows its table. Every Action is judged with
the same player for the later turns, so asking again every turn and taking the best Action
is a rollout of "always close" (one turn of lookahead over a fixed player), which with
exact figures does at least as well as that player from every state (docs/advice.md
measures it; the older advisor judged each Action kept for the whole game, which is no
rollout of anything and did not beat "always close"). The best Action has the highest
expected score, a win 1, a draw 1/2, a loss 0 (then the fewer losses, then table order).
A game still going after ``HORIZON`` turns is counted as unfinished, neither won nor lost
nor drawn (and scores 0).

Reproducible: sample ``i`` reads its own byte stream, ``HMAC-SHA256(key=UTF-8(seed),
msg=ASCII("fc-advice-v2:<nonce>:<i>:<block>"))`` for block = 0, 1, ..., and every Action is
judged on the same streams (common random numbers: the comparison between Actions is
sharper than each number alone); the picks are those of service/engine/sampling.py. A
draw from chances with common denominator ``D`` reads the fewest bytes ``k`` with
``256^k >= D`` as a big-endian number ``x``, discards it if ``x >= 256^k - 256^k mod D`` and
otherwise takes ``x mod D`` into the cumulative weights.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Annotated, Any, Final

from ...engine import budget as work
from ...engine import sampling
from ...engine.dice import DiceSource, SeededDice
from ...engine.errors import RuleError
from ...engine.resolution import Resolution
from ...engine.sampling import Choices, choices, weighted
from ...engine.sampling import Picker as Picker  # the tests' brute force plays through it
from ...engine.sampling import enumerate_picks as enumerate_picks
from ...engine.typed import Doc
from . import odds, steps
from . import tables as t
from .results import (
    SalvoSoloAction,
    SalvoSoloAdviceResult,
    SalvoSoloAdviceShare,
    SalvoSoloAdvisedAction,
    SalvoSoloBearing,
    SalvoSoloRange,
    SalvoSoloSide,
)
from .ships import Ship, ShipState

ALGORITHM: Final = "fc-advice-v2"  # v1 kept the judged Action every later turn
# The advisor's own allowance of work (about 250 ms of CPU), in the request's budget, and
# what a turn of a seeded game costs of it (about 40 us).
ADVICE_WORK = 2_500_000
TURN_UNITS = 400
SAMPLES = 300  # games per Action at most
TURN_BUDGET = 900  # turns played per Action: no game is started once they are used up
HORIZON = 40  # turns per game at most, from the state's turn
LATER: Final[SalvoSoloAction] = (
    "C"  # the player's Action after the turn judged (OB once at speed 0)
)


class StreamPicker(sampling.StreamPicker):
    """Seeded draws of the advisor's games (the algorithm in the module's docstring)."""

    def __init__(self, seed: str, nonce: int, sample: int) -> None:
        super().__init__(ALGORITHM, seed, nonce, sample)


# --- the random parts of a turn, from the steps' own odds -----------------------------------


@lru_cache(maxsize=odds.STEP_ODDS_CACHE)
def _cached_choices(
    resolve: Callable[[Any, Resolution], dict[str, Any]],
    inputs: Any,
    family: odds.Family | None,
    _rules: tuple[tuple[str, str], ...],
) -> Choices[dict[str, Any]]:
    return weighted(odds.counts(resolve, inputs, family)[1])


@lru_cache(maxsize=odds.STEP_ODDS_CACHE)
def _shot_choices(key: odds.ShotKey) -> Choices[odds.Shot]:
    """A shot's outcomes, in order, under the key of the attack odds (``odds.shot_key``)."""
    denominator, weights = odds.shot_weights_by_key(key)
    return weighted(sorted(weights), denominator)


@lru_cache(maxsize=1024)
def _maneuver(
    range_: SalvoSoloRange,
    player: SalvoSoloAction,
    enemy: SalvoSoloAction,
    first: SalvoSoloSide,
    _rules: tuple[tuple[str, str], ...],
) -> dict[str, Any]:
    # No dice: the range ladder and the guns bearing (in initiative order, if so read).
    moved: dict[str, Any] = dict(
        steps.maneuver(
            steps.ManeuverInput(range_, player, enemy, first=first), Resolution(DiceSource())
        )
    )
    return moved


FIRE_ORDER_TIE = choices(
    [
        (first, Fraction(1, 6))
        for first in (t.look_up(t.FIRE_ORDER_TIE, face) for face in range(1, 7))
    ]
)
OTHER = {"player": "enemy", "enemy": "player"}


@dataclass(frozen=True)
class Ending:
    """How a game ended: ``winner`` player or enemy, or None for a draw or unfinished."""

    winner: str | None
    finished: bool
    turns: int


class Game:
    """The games of one request: its two cards and weather, and the random parts of a turn
    looked up by small keys (the odds behind them are kept per worker in ``odds``)."""

    def __init__(self, state: steps.GameState) -> None:
        self.cards = {"player": state.player.card, "enemy": state.enemy.card}
        self.weather = state.weather
        self.rules = odds.rules_key()
        guns = state.player.card.guns, state.enemy.card.guns
        # Bigger guns fire first; equal guns roll for it each turn (ruling gun-size-tie).
        self.fires_first: tuple[int, int] | None = (
            None if guns[0] == guns[1] else (0, 1) if guns[0] > guns[1] else (1, 0)
        )
        # Torpedoes are only ever launched at these ranges (steps.torpedo_problem says so
        # for every other): elsewhere the turn skips asking.
        self.torpedo_ranges = t.TORPEDO_RANGES
        self._initiative: dict[tuple[int, int], Choices[dict[str, Any]]] = {}
        self._enemy: dict[tuple[int, str | None], Choices[dict[str, Any]]] = {}
        self._shots: dict[tuple[str, int, str, str, bool], Choices[odds.Shot]] = {}
        self._torpedo: dict[tuple[str, int, str], Choices[dict[str, Any]]] = {}
        self._end: dict[tuple[str, str], Choices[dict[str, Any]]] = {}
        self._moves: dict[tuple[str, str, str, str], dict[str, Any]] = {}
        # Ships after their hits and who may launch torpedoes, looked up rather than worked
        # out again each time (the same few damage states come back game after game).
        self._after: dict[tuple[int, ShipState, object], Ship] = {}
        self._launches: dict[tuple[int, ShipState, bool, str], bool] = {}

    def _choices(
        self, resolve: Callable[[Any, Resolution], Any], inputs: Any, family: Hashable
    ) -> Choices[dict[str, Any]]:
        return _cached_choices(resolve, inputs, odds.Family(family), self.rules)

    def initiative(self, player: Ship, enemy: Ship, picker: Picker) -> SalvoSoloSide:
        key = (player.state.speed_hits, enemy.state.speed_hits)  # the cards are the game's
        found = self._initiative.get(key)
        if found is None:
            # Initiative reads the two ships' current speeds, as modifiers of its roll.
            cards = self.cards["player"], self.cards["enemy"]
            inputs = steps.InitiativeInput(
                Ship(cards[0], ShipState(speed_hits=player.state.speed_hits)),
                Ship(cards[1], ShipState(speed_hits=enemy.state.speed_hits)),
            )
            found = self._initiative[key] = self._choices(steps.initiative, inputs, ())
        first: SalvoSoloSide = picker.pick(found)["first"]
        return first

    def enemy_action(
        self, enemy: Ship, last: SalvoSoloAction | None, picker: Picker
    ) -> SalvoSoloAction:
        key = (enemy.state.speed_hits, last)
        found = self._enemy.get(key)
        if found is None:
            # The enemy's table reads its speed (0: OB only) and both cards' gun sizes.
            cards = self.cards["enemy"], self.cards["player"]
            inputs = steps.EnemyActionInput(
                Ship(cards[0], ShipState(speed_hits=enemy.state.speed_hits)), Ship(cards[1]), last
            )
            found = self._enemy[key] = self._choices(steps.enemy_action, inputs, (last,))
        action: SalvoSoloAction = picker.pick(found)["action"]
        return action

    def shot(
        self,
        firer: str,
        turret_hits: int,
        range_: SalvoSoloRange,
        bearing: SalvoSoloBearing,
        straddled: bool,
    ) -> Choices[odds.Shot]:
        key = (firer, turret_hits, range_, bearing, straddled)
        found = self._shots.get(key)
        if found is None:
            # A shot reads the firer's card and T hits, the target's card (afloat).
            shooter = Ship(self.cards[firer], ShipState(turret_hits=turret_hits))
            target = Ship(self.cards[OTHER[firer]])
            found = self._shots[key] = _shot_choices(
                odds.shot_key(shooter, target, range_, self.weather, bearing, straddled)
            )
        return found

    def torpedo(
        self, target: str, speed_hits: int, range_: SalvoSoloRange
    ) -> Choices[dict[str, Any]]:
        key = (target, speed_hits, range_)
        found = self._torpedo.get(key)
        if found is None:
            # The Torpedo table reads the firer's card and the target's card and speed (a
            # modifier of its roll).
            cards = self.cards[OTHER[target]], self.cards[target]
            inputs = steps.TorpedoInput(
                Ship(cards[0]),
                Ship(cards[1], ShipState(speed_hits=speed_hits)),
                range_,
                self.weather,
            )
            found = self._torpedo[key] = self._choices(steps.torpedo, inputs, ())
        return found

    def end(self, player: SalvoSoloAction, enemy: SalvoSoloAction) -> Choices[dict[str, Any]]:
        found = self._end.get((player, enemy))
        if found is None:
            # The End of Turn roll reads the Actions and the weather, as its modifiers.
            inputs = steps.EndOfTurnInput(self.weather, player, enemy)
            found = self._end[(player, enemy)] = self._choices(steps.end_of_turn, inputs, ())
        return found

    def hit(self, side: int, ship: Ship, hits: odds.Shot | str) -> Ship:
        """``ship`` (of ``side``, 0 player, 1 enemy) after a shot's hits or a torpedo's."""
        key = (side, ship.state, hits)
        found = self._after.get(key)
        if found is None:
            if isinstance(hits, str):
                found = ship.apply(hits)
            else:
                found = ship.damaged(hits[0], hits[1], hits[2], hits[3])
            self._after[key] = found
        return found

    def may_launch(self, firer: int, ships: list[Ship], range_: SalvoSoloRange) -> bool:
        """Whether ``ships[firer]`` may launch torpedoes (``steps.torpedo_problem``)."""
        # What steps.torpedo_problem reads of the two ships: the firer's damage (sunk,
        # silenced, fire control) and whether the target is sunk (cards, weather fixed).
        target = ships[1 - firer]
        key = (firer, ships[firer].state, target.sunk, range_)
        found = self._launches.get(key)
        if found is None:
            launch = steps.TorpedoInput(ships[firer], target, range_, self.weather)
            found = self._launches[key] = steps.torpedo_problem(launch) is None
        return found

    def attack(
        self,
        firer: str,
        shooter: Ship,
        target: Ship,
        range_: SalvoSoloRange,
        bearing: SalvoSoloBearing,
        straddled: bool,
        picker: Picker,
    ) -> tuple[Ship, bool]:
        """One ship's whole fire, shot by shot, as ``steps.attack`` plays it."""
        turret_hits = shooter.state.turret_hits
        side = 1 if firer == "player" else 0  # the target's
        options = None  # the shot's odds: the same until the first straddle
        for _ in range(t.SHOTS_PER_TURN[range_]):
            if target.sunk:
                break  # ruling sunk-is-final
            if options is None:
                options = self.shot(firer, turret_hits, range_, bearing, straddled)
            shot = picker.pick(options)
            if shot[4]:
                if not straddled:
                    straddled, options = True, None
                if shot[0] or shot[1] or shot[2] or shot[3]:
                    target = self.hit(side, target, shot)
        return target, straddled

    def turn(
        self,
        state: steps.GameState,
        action: SalvoSoloAction,
        picker: Picker,
        enemy_act: SalvoSoloAction | None = None,
    ) -> steps.GameState | Ending:
        """One turn from ``state`` with the player's ``action``: the next state or the end."""
        after = self.play(_position(state), action, picker, enemy_act)
        if isinstance(after, Ending):
            return after
        range_, player, enemy, last, player_straddled, enemy_straddled = after
        return replace(
            state,
            turn=min(steps.MAX_TURN, state.turn + 1),
            range=range_,
            player=player,
            enemy=enemy,
            enemy_last_action=last,
            player_has_straddled=player_straddled,
            enemy_has_straddled=enemy_straddled,
        )

    def play(
        self,
        position: Position,
        action: SalvoSoloAction,
        picker: Picker,
        enemy_act: SalvoSoloAction | None = None,
    ) -> Position | Ending:
        """One turn in the order of ``steps.turn``: the next position or the end."""
        range_, player, enemy, last, player_straddled, enemy_straddled = position
        ships = [
            steps._fire_control_at_turn_start(player),
            steps._fire_control_at_turn_start(enemy),
        ]
        straddled = [player_straddled, enemy_straddled]
        if enemy_act is None:
            first = self.initiative(ships[0], ships[1], picker)
            enemy_act = self.enemy_action(ships[1], last, picker)
        else:
            # A known enemy Action is a pending turn's: the enemy won that turn's initiative
            # (a turn waits for the player only then), so it is not rolled again.
            first = "enemy"
        move = (range_, action, enemy_act, first)
        moved = self._moves.get(move)
        if moved is None:
            moved = self._moves[move] = _maneuver(*move, self.rules)
        if moved["out_of_range"]:
            return DRAWN
        range_now: SalvoSoloRange = moved["range"]
        bearing = (moved["player_guns_bearing"], moved["enemy_guns_bearing"])
        if self.fires_first is not None:
            order = self.fires_first
        else:
            order = (0, 1) if picker.pick(FIRE_ORDER_TIE) == "player" else (1, 0)
        for firer in order:
            target = 1 - firer
            if ships[firer].why_cannot_fire():
                continue
            ships[target], straddled[firer] = self.attack(
                SIDES[firer],
                ships[firer],
                ships[target],
                range_now,
                bearing[firer],
                straddled[firer],
                picker,
            )
            if ships[target].sunk:
                return WON_BY[firer]
        if range_now in self.torpedo_ranges:
            hits: list[tuple[int, str]] = []
            for firer in (0, 1):
                target = 1 - firer
                if self.may_launch(firer, ships, range_now):
                    table = self.torpedo(SIDES[target], ships[target].state.speed_hits, range_now)
                    hits.append((target, picker.pick(table)["hits"]))
            for target, landed in hits:  # simultaneous: applied after all rolls
                ships[target] = self.hit(target, ships[target], landed)
            ending = steps._ending(ships[0], ships[1])
            if ending:
                return WON_BY_SIDE[ending[0]]
        if picker.pick(self.end(action, enemy_act))["game_over"]:
            return DRAWN
        return (
            range_now,
            steps._fire_control_at_turn_end(ships[0]),
            steps._fire_control_at_turn_end(ships[1]),
            enemy_act,
            straddled[0],
            straddled[1],
        )


Position = tuple[SalvoSoloRange, Ship, Ship, SalvoSoloAction | None, bool, bool]
SIDES = ("player", "enemy")
DRAWN = Ending(None, True, 1)
WON_BY = (Ending("player", True, 1), Ending("enemy", True, 1))
WON_BY_SIDE = {"player": WON_BY[0], "enemy": WON_BY[1], None: DRAWN}


def _position(state: steps.GameState) -> Position:
    return (
        state.range,
        state.player,
        state.enemy,
        state.enemy_last_action,
        state.player_has_straddled,
        state.enemy_has_straddled,
    )


def allowed_actions(state: steps.GameState) -> tuple[SalvoSoloAction, ...]:
    """The Actions the player may take (``Ship.actions``)."""
    return state.player.actions


def play_game(
    game: Game,
    state: steps.GameState,
    action: SalvoSoloAction,
    picker: Picker,
    enemy_act: SalvoSoloAction | None = None,
    horizon: int = HORIZON,
    later: SalvoSoloAction = LATER,
) -> Ending:
    """A game from ``state``: ``action`` this turn, ``later`` every later one (OB once at
    speed 0)."""
    position = _position(state)
    for played in range(1, horizon + 1):
        wanted = action if played == 1 else later
        taken = "OB" if position[1].must_offer_broadside else wanted
        after = game.play(position, taken, picker, enemy_act if played == 1 else None)
        if isinstance(after, Ending):
            return Ending(after.winner, True, played)
        position = after
    return Ending(None, False, horizon)


# --- impossible states --------------------------------------------------------------------


def impossible(state: steps.GameState, enemy_act: str | None) -> tuple[str, str] | None:
    """(what is impossible, the member at fault) for a state no game reaches, else None."""
    for role in ("player", "enemy"):
        ship: Ship = getattr(state, role)
        if ship.sunk:
            return (
                f"{ship.card.name} is sunk ({ship.state.flotation_hits} F hits against a "
                f"Flotation of {ship.card.flotation}): the game is over, there is nothing to "
                "advise",
                f"state.{role}.state.flotation_hits",
            )
        if ship.state.fire_control == "lost-this-turn":
            return (
                f'{ship.card.name}\'s fire control is "lost-this-turn", which a ship has only '
                'during a turn; between turns it is "lost-next-turn" or "ready"',
                f"state.{role}.state.fire_control",
            )
    if state.turn == 1 and state.enemy_last_action is not None:
        return (
            "state.turn is 1 but the enemy has a last Action: no turn came before turn 1",
            "state.enemy_last_action",
        )
    if state.turn > 1 and state.enemy_last_action is None:
        return (
            f"state.turn is {state.turn} but the enemy has no last Action: every turn played "
            "hands one back",
            "state.enemy_last_action",
        )
    if state.turn == 1 and (state.player_has_straddled or state.enemy_has_straddled):
        side = "player" if state.player_has_straddled else "enemy"
        return (
            f"state.turn is 1 but the {side} has straddled already: no fire came before turn 1",
            f"state.{side}_has_straddled",
        )
    refused = None if enemy_act is None else state.enemy.why_not(enemy_act)
    return None if refused is None else (refused, "enemy_action")


# --- the advice -----------------------------------------------------------------------------


@dataclass(frozen=True)
class AdviceInput:
    state: Annotated[
        steps.GameState, Doc("The game as a turn's answer hands it back (`result.state`)")
    ]
    enemy_action: Annotated[
        SalvoSoloAction | None,
        Doc(
            "The enemy's Action when it is already known: the one a pending turn's answer "
            "names (`result.pending.enemy_action`); null when not known. Given, this turn is "
            "judged as that pending turn: the enemy has its initiative (it is not rolled again)"
        ),
    ] = None


def _share(count: int, samples: int) -> SalvoSoloAdviceShare:
    """An observed fraction, exactly as counted, with its 95% Wilson interval."""
    return {
        "count": count,
        "probability": f"{count}/{samples}",
        "p": count / samples,
        "interval": sampling.wilson(count, samples),
    }


def judge(
    state: steps.GameState,
    action: SalvoSoloAction,
    seed: str,
    nonce: int,
    enemy_act: SalvoSoloAction | None = None,
    samples: int = SAMPLES,
    game: Game | None = None,
    budget: int = TURN_BUDGET,
    later: SalvoSoloAction = LATER,
) -> SalvoSoloAdvisedAction:
    """``samples`` seeded games with ``action`` this turn and ``later`` after it: the counts
    and shares of each ending."""
    game = game or Game(state)
    wins = losses = draws = unfinished = turns = played = 0
    for sample in range(samples):
        if turns >= budget:
            break
        played += 1
        picker = StreamPicker(seed, nonce, sample)
        ending = play_game(game, state, action, picker, enemy_act, later=later)
        work.current().charge(
            ending.turns * TURN_UNITS, "this advice", "ask about a state nearer its end"
        )
        turns += ending.turns
        if not ending.finished:
            unfinished += 1
        elif ending.winner == "player":
            wins += 1
        elif ending.winner == "enemy":
            losses += 1
        else:
            draws += 1
    return {
        "action": action,
        "samples": played,
        "win": _share(wins, played),
        "draw": _share(draws, played),
        "loss": _share(losses, played),
        "unfinished": unfinished,
        "expected_turns": turns / played,
    }


PLAYER_POLICY = (
    "takes the Action judged this turn and closes (C) every later turn (Offer Broadside once "
    "at speed 0)"
)


def score(judged: SalvoSoloAdvisedAction) -> float:
    """Expected score of a judged Action: a win 1, a draw 1/2, a loss or unfinished 0."""
    points: float = (judged["win"]["count"] + judged["draw"]["count"] / 2) / judged["samples"]
    return points


def by_score(judged: SalvoSoloAdvisedAction) -> tuple[float, ...]:
    """Highest expected score first; as high, the fewer losses (then table order)."""
    return (-score(judged), judged["loss"]["count"] / judged["samples"])


def by_wins(judged: SalvoSoloAdvisedAction) -> tuple[float, ...]:
    """Most wins first; as many wins, the fewer losses (then table order)."""
    samples = judged["samples"]
    return (-judged["win"]["count"] / samples, judged["loss"]["count"] / samples)


def best_of(
    judged: Sequence[SalvoSoloAdvisedAction],
    key: Callable[[SalvoSoloAdvisedAction], tuple[float, ...]] = by_score,
) -> SalvoSoloAdvisedAction:
    """The best judged Action (``min`` keeps the first of equals: table order C, OB, W)."""
    return min(judged, key=key)


ENEMY_POLICY = "rolls on its Action table every turn, as in the rules"


def advice(inp: AdviceInput, res: Resolution) -> SalvoSoloAdviceResult:
    """Each Action the player may take, judged over seeded games, and the best of them."""
    problem = impossible(inp.state, inp.enemy_action)
    if problem:
        raise RuleError(*problem)
    dice = res.dice
    if not isinstance(dice, SeededDice):
        raise RuleError(
            "the advisor plays seeded games: send dice as {seed, nonce}, or leave dice out for "
            "a fresh seed (supplied and sealed dice are for rolls a player makes)",
            "dice",
        )
    work.current().allow(ADVICE_WORK)
    game = Game(inp.state)
    judged = [
        judge(inp.state, action, dice.seed, dice.nonce, inp.enemy_action, game=game)
        for action in allowed_actions(inp.state)
    ]
    best = best_of(judged)
    return {
        "best_action": best["action"],
        "actions": judged,
        "enemy_action": inp.enemy_action,
        "method": {
            "kind": "monte-carlo",
            "algorithm": ALGORITHM,
            "max_samples": SAMPLES,
            "turn_budget": TURN_BUDGET,
            "horizon": HORIZON,
            "player": PLAYER_POLICY,
            "enemy": ENEMY_POLICY,
        },
    }


def clear_caches() -> None:
    """Forget every per-worker table the advisor reads (a cold worker; for tests and bench)."""
    for cached in (_cached_choices, _shot_choices, _maneuver):
        cached.cache_clear()
    odds.clear_caches()
