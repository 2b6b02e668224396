"""A fleet-action turn as the text plays it, one call at a time.

A turn opens with initiative (both players roll, the winner goes second); then, starting
with the loser, the players take turns picking one of their ships, which moves and then
fires its guns or its torpedoes, not both; a sunk ship is removed and does not act; the
turn ends when every ship afloat has gone. The players measure movement, range and line of
sight on the table between calls, so each call resolves one thing: the first call rolls
initiative, each further call one activation, and every answer hands back the state the
next call sends as it is (whose pick is next, which ships have gone). The dice of an
activation are the single steps' own (``steps.fire``, ``steps.torpedo``), so a turn and
those steps cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Annotated, ClassVar, cast

from ...engine.dice import MAX_NONCE
from ...engine.dice_requests import Again
from ...engine.errors import RuleError
from ...engine.resolution import Resolution
from ...engine.ruleset import NoInput
from ...engine.shape import to_json
from ...engine.typed import Doc, Key, Limits
from . import steps
from . import tables as t
from .results import (
    FleetActionActivationResult,
    FleetActionCrew,
    FleetActionFireResult,
    FleetActionNextCall,
    FleetActionPlayer,
    FleetActionShipClass,
    FleetActionTorpedoResult,
    FleetActionTurnBase,
    FleetActionTurnResult,
    FleetActionTurnShipStatus,
    FleetActionVisibility,
    FleetActionWeapon,
)
from .ships import CLASS, MAX_INCHES, Firer, Name, Ship
from .tables import ShipClass

PLAYERS: tuple[FleetActionPlayer, FleetActionPlayer] = t.INITIATIVE_SIDES
MAX_SHIPS = 2 * t.MAX_SHIPS_PER_SIDE


def other(player: str) -> FleetActionPlayer:
    a, b = PLAYERS
    return b if player == a else a


@dataclass(frozen=True, kw_only=True)
class TurnShip(Firer):
    """A ship in the action: its own name, whose it is, its class, crew and Hull lost."""

    component: ClassVar[str] = "FleetActionTurnShip"

    # Redeclared with field(): a bare annotation would inherit the parent's default.
    ship_class: Annotated[ShipClass, Key("class"), CLASS] = field()
    crew: FleetActionCrew = field()
    name: Annotated[Name, Doc(example="Destroyer 1")] = field()
    player: FleetActionPlayer


@dataclass(frozen=True, kw_only=True)
class TurnState:
    """The action between calls: a turn call hands it back as `result.state`, and the next
    call takes it as `state`, as it is. A new game is the turn number and the ships."""

    component: ClassVar[str] = "FleetActionTurnState"

    turn: Annotated[
        int,
        Limits(minimum=1, maximum=t.MAX_TURN),
        Doc(f"The turn being played; the count stops at {t.MAX_TURN:,}"),
    ]
    ships: Annotated[
        tuple[TurnShip, ...],
        Limits(least=2, most=MAX_SHIPS),
        Doc(
            f"Every ship of both players, sunk or afloat: 1 to {t.MAX_SHIPS_PER_SIDE} a "
            "player, each with a name of its own"
        ),
    ]
    visibility: FleetActionVisibility = "Clear"
    first_pick: Annotated[
        FleetActionPlayer | None, Doc("Who picked first this turn; null: initiative to roll")
    ] = None
    next_pick: Annotated[
        FleetActionPlayer | None,
        Doc("Whose pick is next; null: initiative to roll, or game over"),
    ] = None
    gone: Annotated[
        tuple[Name, ...],
        Limits(most=MAX_SHIPS),
        Doc("The ships that have gone this turn, in order"),
    ] = ()

    def ship(self, name: str, field: str) -> tuple[int, TurnShip]:
        for index, ship in enumerate(self.ships):
            if ship.name == name:
                return index, ship
        names = ", ".join(ship.name for ship in self.ships)
        raise RuleError(f"there is no ship named {name!r} in the action (ships: {names})", field)

    def left_to_go(self, player: str) -> list[str]:
        """The ships of ``player`` that may still be picked this turn: afloat, not gone."""
        return [
            s.name
            for s in self.ships
            if s.player == player and not s.sunk and s.name not in self.gone
        ]

    def targets(self, player: str) -> list[str]:
        """The enemy ships a ship of ``player`` may fire at: every one afloat."""
        return [s.name for s in self.ships if s.player != player and not s.sunk]

    def afloat(self, player: str) -> int:
        return sum(1 for s in self.ships if s.player == player and not s.sunk)

    def whose_pick(self) -> FleetActionPlayer | None:
        """Who picks next: the other player from whoever picked last (the initiative's loser
        first); a player with no ship left to go passes (ruling picks-when-one-side-is-out);
        None once every ship afloat has gone."""
        if self.first_pick is None:
            return None
        picker: FleetActionPlayer
        if self.gone:
            last = next(s.player for s in self.ships if s.name == self.gone[-1])
            picker = other(last)
        else:
            picker = self.first_pick
        for player in (picker, other(picker)):
            if self.left_to_go(player):
                return player
        return None

    def winner(self) -> FleetActionPlayer | None:
        """The player still afloat once the other has no ship left (the game is over)."""
        for player in PLAYERS:
            if not self.afloat(other(player)):
                return player
        return None


def check_state(state: TurnState, field: str = "state") -> None:
    """Refuse a state no turn could hand back: names twice, a side too big or empty, Hull
    beyond the class, an order that is not the one the picks so far lead to."""
    names = [ship.name for ship in state.ships]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise RuleError(
            f"each ship needs a name of its own; {', '.join(map(repr, twice))} is used twice",
            f"{field}.ships",
        )
    for player in PLAYERS:
        count = sum(1 for ship in state.ships if ship.player == player)
        if not count or count > t.MAX_SHIPS_PER_SIDE:
            raise RuleError(
                f"player {player} has {count} ships: a player has 1 to "
                f"{t.MAX_SHIPS_PER_SIDE} ships in an action",
                f"{field}.ships",
            )
    for index, ship in enumerate(state.ships):
        ship.check_state(f"{field}.ships.{index}")
    for name in state.gone:
        if name not in names:
            raise RuleError(f"{name!r} has gone, but no ship has that name", f"{field}.gone")
    if len(set(state.gone)) != len(state.gone):
        raise RuleError("a ship goes once a turn: gone names one twice", f"{field}.gone")
    if state.first_pick is None:
        if state.next_pick is not None or state.gone:
            raise RuleError(
                "with no first_pick the turn has not started (initiative to roll): next_pick "
                "is null and no ship has gone",
                f"{field}.first_pick",
            )
        return
    expected = state.whose_pick() if state.winner() is None else None
    if state.next_pick != expected:
        whose = f"player {expected}'s pick" if expected else "no one's pick"
        raise RuleError(
            f"after the picks in gone it is {whose}, not what next_pick says: send the state "
            "as the last answer handed it back",
            f"{field}.next_pick",
        )


def next_dice(res: Resolution) -> Again:
    """These dice with the nonce counted up by one: what the next call may send."""
    again = res.dice.again()
    if again is None or again.get("nonce", 0) >= MAX_NONCE:
        return None
    return cast(Again, {**again, "nonce": again.get("nonce", 0) + 1})


def next_call(state: TurnState, res: Resolution) -> FleetActionNextCall | None:
    if state.winner() is not None:
        return None
    dice = next_dice(res)
    if state.next_pick is None:
        return {
            "call": "initiative",
            "player": None,
            "ships": [],
            "targets": [],
            "dice": dice,
            "detail": f"turn {state.turn} starts: send the state with no activation to roll "
            "initiative",
        }
    player = state.next_pick
    ships = state.left_to_go(player)
    return {
        "call": "activation",
        "player": player,
        "ships": ships,
        "targets": state.targets(player),
        "dice": dice,
        "detail": f"player {player}'s pick: send the state with an activation of one of "
        + ", ".join(ships),
    }


# What the players measured, sent when it applies (null or left out: not given).
Measured = Annotated[float | None, Limits(minimum=0, maximum=MAX_INCHES)]


@dataclass(frozen=True, kw_only=True)
class Activation:
    """One ship's go as the players measured it on the table: its move, then its fire."""

    component: ClassVar[str] = "FleetActionActivation"

    ship: Annotated[Name, Doc("The ship picked, by name")]
    weapon: FleetActionWeapon
    target: Annotated[Name | None, Doc("The enemy it fires at (not with none)")] = None
    range: Annotated[Measured, Doc("Inches to the target, measured after the move")] = None
    line_of_sight: Annotated[bool | None, Doc("Can it see the target after its move?")] = None
    moved: Annotated[Measured, Doc("Inches moved, checked against the class's Speed")] = None
    turned: Annotated[
        float | None,
        Limits(minimum=0, maximum=360),
        Doc(f"Degrees turned in the move, at most {t.MAX_TURN_DEGREES}"),
    ] = None


@dataclass(frozen=True, kw_only=True)
class TurnInput:
    state: TurnState
    activation: Annotated[
        Activation | None,
        Doc(
            "Leave out to roll initiative when the turn starts (no first_pick); "
            "afterwards the one ship that goes this call"
        ),
    ] = None


def _prefixed(error: RuleError, prefix: str) -> RuleError:
    """A single step's refusal, its field named as the turn request names it."""
    fields = {"firer.class": "weapon", "range": "range", "line_of_sight": "line_of_sight"}
    field = fields.get(error.field or "", "target") if error.field else None
    return RuleError(error.detail, f"{prefix}.{field}" if field else prefix)


def check_pick(state: TurnState, name: str, field: str) -> tuple[int, TurnShip]:
    """The ship named, if its player may pick it now; why not as a RuleError."""
    index, ship = state.ship(name, field)
    whose = state.next_pick
    ships = ", ".join(state.left_to_go(whose)) if whose else ""
    turn_of = f"it is player {whose}'s pick ({ships})"
    if ship.sunk:
        raise RuleError(
            f"{name} is sunk: it has been removed from the table and cannot be picked; {turn_of}",
            field,
        )
    if name in state.gone:
        raise RuleError(f"{name} has already gone this turn; {turn_of}", field)
    if ship.player != whose:
        raise RuleError(f"{name} is player {ship.player}'s ship, but {turn_of}", field)
    return index, ship


def check_move(ship: Ship, activation: Activation, field: str) -> None:
    speed = ship.ship_class.speed
    if activation.moved is not None and activation.moved > speed:
        raise RuleError(
            f'{ship.label} moved {activation.moved:g}", more than its Speed of {speed}"',
            f"{field}.moved",
        )
    if activation.turned is not None and activation.turned > t.MAX_TURN_DEGREES:
        raise RuleError(
            f"{ship.label} turned {activation.turned:g} degrees: a move makes one turn of up to "
            f"{t.MAX_TURN_DEGREES}",
            f"{field}.turned",
        )


Attack = steps.FireInput | steps.TorpedoInput


def attack_of(
    state: TurnState, firer: TurnShip, activation: Activation, field: str
) -> tuple[int, Attack] | None:
    """The declared attack (the target's index and the step's input), checked as the single
    step checks it; None when the ship fires nothing."""
    if activation.weapon == "none":
        for member in ("target", "range", "line_of_sight"):
            if getattr(activation, member) is not None:
                raise RuleError(
                    f"{firer.name} fires nothing (weapon none), so it names no {member}",
                    f"{field}.{member}",
                )
        return None
    for member in ("target", "range", "line_of_sight"):
        if getattr(activation, member) is None:
            raise RuleError(
                f"{firer.name} fires its {activation.weapon}: name its {member}, measured after "
                "its move",
                f"{field}.{member}",
            )
    assert activation.target is not None and activation.range is not None
    index, target = state.ship(activation.target, f"{field}.target")
    if target.player == firer.player:
        raise RuleError(
            f"{activation.target} is player {firer.player}'s own ship: pick an enemy",
            f"{field}.target",
        )
    seen = bool(activation.line_of_sight)
    try:
        if activation.weapon == "guns":
            guns = steps.FireInput(firer, target, activation.range, seen, state.visibility)
            steps.check_guns(guns)
            return index, guns
        torpedoes = steps.TorpedoInput(firer, target, activation.range, seen, state.visibility)
        steps.check_torpedoes(torpedoes)
        return index, torpedoes
    except RuleError as error:
        raise _prefixed(error, field) from None


def _turn_over(state: TurnState, initiative_every_turn: bool) -> TurnState:
    """The state that starts the next turn: nothing gone, initiative to roll (or, under the
    reading once-a-game of ruling initiative-each-turn, the same player picking first)."""
    first = None if initiative_every_turn else state.first_pick
    fresh = replace(state, turn=min(t.MAX_TURN, state.turn + 1), first_pick=first, gone=())
    return replace(fresh, next_pick=fresh.whose_pick())


def _answer(state: TurnState, res: Resolution, *, turn_over: bool = False) -> FleetActionTurnBase:
    """What every turn call answers, whatever it did: the ships as they now are, the state to
    send back and what the next call sends."""
    winner = state.winner()
    return {
        "turn_over": turn_over,
        "game_over": winner is not None,
        "winner": winner,
        "ships": [_status(ship, state) for ship in state.ships],
        "state": to_json(state),
        "next": next_call(state, res),
    }


def _status(ship: TurnShip, state: TurnState) -> FleetActionTurnShipStatus:
    return {
        "name": ship.name,
        "player": ship.player,
        "class": cast(FleetActionShipClass, ship.ship_class.name),
        "crew": ship.crew,
        "hull": ship.ship_class.hull,
        "hull_lost": ship.hull_lost,
        "hull_left": ship.hull_left,
        "sunk": ship.sunk,
        "gone": ship.name in state.gone,
    }


def _measured(value: float | None) -> float | None:
    """A measure as the players sent it: 12 stays 12, not 12.0 (a request reads every number
    as a float), so the answer is written as it was asked, and signed without a second walk
    of its JSON for floats written the RFC 8785 way."""
    return int(value) if value is not None and value.is_integer() else value


def _names(ships: Iterable[TurnShip]) -> str:
    return ", ".join(ship.name for ship in ships)


def turn(inp: TurnInput, res: Resolution) -> FleetActionTurnResult:
    """One call of a turn: initiative when the turn starts, else one ship's activation."""
    state = inp.state
    check_state(state)
    winner = state.winner()
    if winner is not None:
        raise RuleError(
            f"the game is over: player {other(winner)} has no ship afloat, player {winner} wins",
            "state.ships",
        )
    if state.first_pick is None:
        if inp.activation is not None:
            raise RuleError(
                f"turn {state.turn} has not started: roll initiative first (send the state with "
                "no activation)",
                "activation",
            )
        rolled = steps.initiative(NoInput(), res)
        started = replace(state, first_pick=rolled["first"], gone=())
        started = replace(started, next_pick=started.whose_pick())
        return {**_answer(started, res), "call": "initiative", "initiative": rolled}
    if inp.activation is None:
        whose = state.next_pick
        assert whose is not None  # check_state: the game is on and the turn started
        raise RuleError(
            f"initiative is rolled; it is player {whose}'s pick: send an activation of one of "
            + ", ".join(state.left_to_go(whose)),
            "activation",
        )
    activation = inp.activation
    _, mover = check_pick(state, activation.ship, "activation.ship")
    check_move(mover, activation, "activation")
    attack = attack_of(state, mover, activation, "activation")
    ships = list(state.ships)
    guns: FleetActionFireResult | None = None
    torpedoes: FleetActionTorpedoResult | None = None
    if attack is not None:
        target_index, inputs = attack
        if isinstance(inputs, steps.FireInput):
            guns = steps.fire(inputs, res)
            lost, catastrophic = guns["hull_lost"], guns["catastrophic"]
        else:
            torpedoes = steps.torpedo(inputs, res)
            lost, catastrophic = torpedoes["hull_lost"], torpedoes["catastrophic"]
        hit = ships[target_index]
        ships[target_index] = hit.apply(lost, catastrophic)
    after = replace(state, ships=tuple(ships), gone=(*state.gone, mover.name))
    after = replace(after, next_pick=after.whose_pick() if after.winner() is None else None)
    turn_over = after.winner() is None and after.next_pick is None
    if turn_over:
        after = _turn_over(after, res.reading("initiative-each-turn") == "every-turn")
    done: FleetActionActivationResult = {
        "ship": mover.name,
        "player": mover.player,
        "weapon": activation.weapon,
        "target": activation.target,
        "range": _measured(activation.range),
        "line_of_sight": activation.line_of_sight,
        "moved": _measured(activation.moved),
        "turned": _measured(activation.turned),
        "guns": guns,
        "torpedoes": torpedoes,
    }
    return {**_answer(after, res, turn_over=turn_over), "call": "activation", "activation": done}
