"""Every Salvo! resolution step, one function each: inputs in, result out, trail recorded."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated, ClassVar, TypedDict

from ...engine.errors import RuleError
from ...engine.resolution import Modifier, Resolution, in_force
from ...engine.ruleset import NoInput
from ...engine.shape import to_json
from ...engine.typed import Doc, Limits, Omitted
from . import tables as t
from .results import (
    SalvoSoloAction,
    SalvoSoloAttackResult,
    SalvoSoloBearing,
    SalvoSoloCriticalResult,
    SalvoSoloDamageResult,
    SalvoSoloEndOfTurnResult,
    SalvoSoloEnemyActionResult,
    SalvoSoloEvent,
    SalvoSoloFireResult,
    SalvoSoloInitiativeResult,
    SalvoSoloManeuverResult,
    SalvoSoloNextActions,
    SalvoSoloRange,
    SalvoSoloRangeResult,
    SalvoSoloRollNext,
    SalvoSoloShips,
    SalvoSoloShipStatus,
    SalvoSoloShot,
    SalvoSoloSide,
    SalvoSoloSpecialDamageResult,
    SalvoSoloStraddleResult,
    SalvoSoloTorpedoResult,
    SalvoSoloTurnResult,
    SalvoSoloWeather,
    SalvoSoloWeatherResult,
)
from .ships import ONLY_BROADSIDE, SHIP, Ship, ShipRef


def _published(table: dict[str, int], source: str) -> Modifier:
    """A modifier exactly as the published table names and values it."""
    return Modifier(source, table[source])


def _step_range(current: str, change: int) -> tuple[SalvoSoloRange | None, bool]:
    """Move along the range ladder; closer than Short stays Short, past Extreme is out."""
    ladder: tuple[SalvoSoloRange, ...] = t.RANGES
    index = t.RANGES.index(current) + change
    if index >= len(ladder):
        return None, True
    return ladder[max(0, index)], False


def _status(ship: Ship) -> SalvoSoloShipStatus:
    """A ship's status as the typed result names it."""
    return ship.status()


# --- weather and range ----------------------------------------------------------------


def weather(_: NoInput, res: Resolution) -> SalvoSoloWeatherResult:
    roll = res.roll("weather", 2, 6)
    result = t.look_up(t.WEATHER, roll.total)
    res.check("weather", roll.total, [], f"Weather {t.band_text(t.WEATHER, roll.total)}", result)
    return {"weather": result, "initial_range_modifier": t.WEATHER_RANGE_MODIFIER[result]}


@dataclass(frozen=True)
class RangeInput:
    weather: SalvoSoloWeather


def initial_range(inp: RangeInput, res: Resolution) -> SalvoSoloRangeResult:
    roll = res.roll("initial range", 2, 6)
    mods = [Modifier(f"weather {inp.weather}", t.WEATHER_RANGE_MODIFIER[inp.weather])]
    final = sum(m.value for m in mods) + roll.total
    result = t.look_up(t.INITIAL_RANGE, final)
    res.check(
        "initial range",
        roll.total,
        mods,
        f"Initial Range {t.band_text(t.INITIAL_RANGE, final)}",
        result,
    )
    return {"range": result}


# --- initiative, actions, maneuver ------------------------------------------------------


@dataclass(frozen=True)
class InitiativeInput:
    player: ShipRef
    enemy: ShipRef


def initiative(inp: InitiativeInput, res: Resolution) -> SalvoSoloInitiativeResult:
    roll = res.roll("initiative", 1, 6)
    mods = []
    if inp.enemy.speed < inp.player.speed:
        mods.append(_published(t.INITIATIVE_MODIFIERS, "enemy slower than player"))
    elif inp.enemy.speed > inp.player.speed:
        mods.append(_published(t.INITIATIVE_MODIFIERS, "enemy faster than player"))
    final = roll.total + sum(m.value for m in mods)
    first = t.look_up(t.INITIATIVE, final)
    res.check("initiative", roll.total, mods, t.bands_text(t.INITIATIVE, {}), f"{first} first")
    return {"first": first}


@dataclass(frozen=True)
class EnemyActionInput:
    enemy: ShipRef
    player: ShipRef
    last_action: Annotated[
        SalvoSoloAction | None, Doc("The enemy's Act last turn; null on turn 1")
    ] = None


def enemy_action(inp: EnemyActionInput, res: Resolution) -> SalvoSoloEnemyActionResult:
    if inp.enemy.actions == ONLY_BROADSIDE:
        # A ship at speed 0 permanently performs OB: nothing to roll.
        return {"action": "OB", "reason": "speed 0: the ship can only Offer Broadside"}
    roll = res.roll("enemy action", 1, 6)
    mods = []
    if inp.enemy.card.guns < inp.player.card.guns:
        mods.append(_published(t.ENEMY_ACTION_MODIFIERS, "enemy gun size smaller than player's"))
    final = roll.total + sum(m.value for m in mods)
    row = t.look_up(t.ENEMY_ACTION, final)
    if row == "same":
        action: SalvoSoloAction = inp.last_action or t.FIRST_TURN_LAST_ACTION
        reason = (
            "same Act as last turn" if inp.last_action else "same Act as last turn (OB on turn 1)"
        )
    else:
        action, reason = row, "rolled"
    res.check(
        "enemy action",
        roll.total,
        mods,
        t.bands_text(t.ENEMY_ACTION, {"same": "same as last turn"}),
        action,
    )
    return {"action": action, "reason": reason}


@dataclass(frozen=True)
class ManeuverInput:
    range: SalvoSoloRange
    player_action: SalvoSoloAction
    enemy_action: SalvoSoloAction
    player: Annotated[Ship | None, SHIP, Omitted(), Doc("Checks speed 0 forces OB")] = None
    enemy: Annotated[Ship | None, SHIP, Omitted()] = None
    first: Annotated[
        SalvoSoloSide | None,
        Omitted(),
        Doc(
            "Who has the initiative: needed when the Actions apply in initiative order "
            "(ruling simultaneous-actions, reading in-initiative-order)"
        ),
    ] = None


def _require_action_allowed(ship: Ship | None, action: str, field: str) -> None:
    """Refuse an Action the ship may not choose (``Ship.actions``, which answers list)."""
    reason = None if ship is None else ship.why_not(action)
    if reason:
        raise RuleError(reason, field)


def _in_initiative_order(inp: ManeuverInput) -> tuple[SalvoSoloRange | None, bool]:
    """One Action after the other (reading in-initiative-order): out is out at once."""
    if inp.first is None:
        raise RuleError(
            "under the reading in-initiative-order of ruling simultaneous-actions the Actions "
            "apply one after the other: say who has the initiative in first (player or enemy)",
            "first",
        )
    order = ("player", "enemy") if inp.first == "player" else ("enemy", "player")
    actions = {"player": inp.player_action, "enemy": inp.enemy_action}
    current: str = inp.range
    moved: SalvoSoloRange | None = None
    for side in order:
        moved, _ = _step_range(current, t.ACTION_EFFECTS[actions[side]]["range_change"])
        if moved is None:
            return None, True
        current = moved
    return moved, False


def maneuver(inp: ManeuverInput, res: Resolution) -> SalvoSoloManeuverResult:
    _require_action_allowed(inp.player, inp.player_action, "player_action")
    _require_action_allowed(inp.enemy, inp.enemy_action, "enemy_action")
    change = sum(t.ACTION_EFFECTS[a]["range_change"] for a in (inp.player_action, inp.enemy_action))
    if res.reading("simultaneous-actions") == "in-initiative-order":
        new_range, out = _in_initiative_order(inp)
    else:
        new_range, out = _step_range(inp.range, change)
    return {
        "range": new_range,
        "range_change": change,
        "out_of_range": out,
        "game_over": out,
        "player_guns_bearing": t.ACTION_EFFECTS[inp.player_action]["guns_bearing"],
        "enemy_guns_bearing": t.ACTION_EFFECTS[inp.enemy_action]["guns_bearing"],
    }


# --- fire and straddle ------------------------------------------------------------------


@dataclass(frozen=True)
class FireInput:
    range: SalvoSoloRange
    weather: SalvoSoloWeather
    previously_straddled: bool = False
    firer: Annotated[Ship | None, SHIP, Omitted(), Doc("Checks the ship can fire")] = None


def _require_can_fire(ship: Ship, field: str) -> None:
    reason = ship.why_cannot_fire()
    if reason:
        raise RuleError(reason, field)


def fire(inp: FireInput, res: Resolution, label: str = "fire") -> SalvoSoloFireResult:
    if inp.firer is not None:
        _require_can_fire(inp.firer, "firer")
    roll = res.roll(label, 2, 6)
    mods = [Modifier(f"weather {inp.weather}", t.FIRE_WEATHER_MODIFIER[inp.weather])]
    if inp.previously_straddled:
        mods.append(Modifier("firer has straddled the target before", t.FIRE_PREVIOUSLY_STRADDLED))
    needed = t.FIRE_STRADDLE_FROM[inp.range]
    straddle = roll.total + sum(m.value for m in mods) >= needed
    res.check(
        label,
        roll.total,
        mods,
        f"Fire table at {inp.range}: {needed}+ straddles",
        "straddle" if straddle else "miss",
    )
    return {"straddle": straddle, "shots_per_turn": t.SHOTS_PER_TURN[inp.range]}


@dataclass(frozen=True)
class StraddleInput:
    firer: ShipRef
    target: ShipRef
    range: SalvoSoloRange
    guns_bearing: SalvoSoloBearing


def straddle_modifiers(
    inp: StraddleInput, gun_size_reading: str = "printed-only"
) -> list[Modifier]:
    """Every DR modifier of the Straddle table, each named (ruling gun-size-bands read as
    ``gun_size_reading``)."""
    target_armor = inp.target.card.armor
    mods = [
        Modifier(f"target armor {target_armor}", -target_armor),
        Modifier(f"firer's {inp.guns_bearing} guns", inp.firer.card.bearing(inp.guns_bearing)),
        Modifier(f"range {inp.range}", t.STRADDLE_RANGE_MODIFIER[inp.range]),
        Modifier(
            f"firer has {inp.firer.state.turret_hits} T hits",
            t.STRADDLE_PER_FIRER_T_HIT * inp.firer.state.turret_hits,
        ),
    ]
    if target_armor > t.STRADDLE_GUN_SIZE_EXEMPT_ARMOR:
        guns = inp.firer.card.guns
        if gun_size_reading == "printed-only":
            value = t.STRADDLE_GUN_SIZE_PRINTED.get(guns, 0)
        else:
            value = t.look_up(t.STRADDLE_GUN_SIZE, guns)
        mods.append(Modifier(f'gun size {guns}"', value))
    return mods


def straddle(
    inp: StraddleInput, res: Resolution, label: str = "straddle"
) -> SalvoSoloStraddleResult:
    _require_can_fire(inp.firer, "firer")
    inp.target.require_afloat("target")
    roll = res.roll(label, 3, 6)
    mods = straddle_modifiers(inp, res.reading("gun-size-bands"))
    final = roll.total + sum(m.value for m in mods)
    outcome = t.look_up(t.STRADDLE, final)
    row = f"Straddle table {t.band_text(t.STRADDLE, final)}"
    if outcome is None:  # the empty 21+ row, read by ruling straddle-21-plus
        reading = res.reading("straddle-21-plus")
        outcome = t.STRADDLE_EMPTY_ROW[reading]
        row += f" (printed empty; read {reading})"
    res.check(label, roll.total, mods, row, outcome)
    follow_ups: dict[str, SalvoSoloRollNext] = {"Special": "special-damage", "Critical": "critical"}
    follow = follow_ups.get(outcome)
    hits = "" if outcome in ("NE", "Special", "Critical") else outcome
    return {"outcome": outcome, "hits": hits, "roll_next": follow}


# --- special damage and critical hits ---------------------------------------------------


def special_damage(
    _: NoInput, res: Resolution, label: str = "special damage"
) -> SalvoSoloSpecialDamageResult:
    roll = res.roll(label, 2, 6)
    row = t.look_up(t.SPECIAL_DAMAGE, roll.total)
    res.check(
        label,
        roll.total,
        [],
        f"Special Damage {t.band_text(t.SPECIAL_DAMAGE, roll.total)}",
        row["name"],
    )
    return {
        "name": row["name"],
        "hits": row["hits"],
        "fire_control_lost": bool(row.get("fire_control_lost", False)),
    }


@dataclass(frozen=True)
class CriticalInput:
    target: ShipRef
    range: SalvoSoloRange


def critical(
    inp: CriticalInput, res: Resolution, label: str = "critical hit"
) -> SalvoSoloCriticalResult:
    inp.target.require_afloat("target")
    roll = res.roll(label, 2, 6)
    row = t.look_up(t.CRITICAL, roll.total)
    res.check(
        label,
        roll.total,
        [],
        f"Critical Hit {t.band_text(t.CRITICAL, roll.total)}",
        row["name"],
    )
    hits = row["hits"]
    if isinstance(hits, dict):
        hits = hits.get(inp.range, hits["other"])
    elif hits == "plunging":
        hits = ""
        if inp.range in t.PLUNGING_FIRE_RANGES:
            sub = res.roll(f"{label}: plunging fire", 2, 6)
            armor = inp.target.card.armor
            count = max(0, sub.total - armor)
            res.check(
                f"{label}: plunging fire",
                sub.total,
                [Modifier(f"target armor {armor}", -armor)],
                "number of FS hits (never below 0)",
                f"{count} FS",
            )
            hits = "F" * count + "S" * count
    return {"name": row["name"], "hits": hits}


# --- torpedoes ------------------------------------------------------------------------


@dataclass(frozen=True)
class TorpedoInput:
    firer: ShipRef
    target: ShipRef
    range: SalvoSoloRange
    weather: SalvoSoloWeather


def torpedo_problem(inp: TorpedoInput, reading: str | None = None) -> str | None:
    """Why this ship may not launch torpedoes now, or None. ``reading``: of ruling
    torpedoes-are-not-guns; by default the one in force where the step or odds are worked
    out."""
    if inp.firer.card.type not in t.TORPEDO_FIRER_TYPES:
        return f"only a CL launches torpedoes; {inp.firer.card.name} is a {inp.firer.card.type}"
    if inp.range not in t.TORPEDO_RANGES:
        return f"torpedoes are launched at Short range only, not {inp.range}"
    if inp.weather not in t.TORPEDO_WEATHERS:
        return f"torpedoes are launched in Fair or Fine weather only, not {inp.weather}"
    if inp.firer.sunk:
        return f"{inp.firer.card.name} is sunk"
    if inp.target.sunk:
        return f"{inp.target.card.name} is already sunk"
    reading = reading or in_force().reading("torpedoes-are-not-guns")
    if reading == "silenced-cannot-launch":
        silenced = inp.firer.why_cannot_fire()
        if silenced:
            return f"{silenced}, nor launch torpedoes (reading silenced-cannot-launch)"
    return None


def torpedo(inp: TorpedoInput, res: Resolution, label: str = "torpedo") -> SalvoSoloTorpedoResult:
    problem = torpedo_problem(inp, res.reading("torpedoes-are-not-guns"))
    if problem:
        raise RuleError(problem, "firer")
    roll = res.roll(label, 2, 6)
    mods = []
    if inp.target.card.type in t.TORPEDO_TARGET_TYPE_MODIFIER:
        kind = inp.target.card.type
        mods.append(Modifier(f"target is a {kind}", t.TORPEDO_TARGET_TYPE_MODIFIER[kind]))
    below = t.TORPEDO_SLOW_TARGET["below_speed"]
    if inp.target.speed < below:
        mods.append(
            Modifier(
                f"target speed {inp.target.speed} is below {below}",
                t.TORPEDO_SLOW_TARGET["modifier"],
            )
        )
    hit = roll.total + sum(m.value for m in mods) >= t.TORPEDO_HIT_FROM
    res.check(
        label,
        roll.total,
        mods,
        f"Torpedo table: {t.TORPEDO_HIT_FROM}+ hits",
        "hit" if hit else "no effect",
    )
    hits = ""
    if hit:
        count = res.roll(f"{label} damage", 1, 6).total
        hits = "F" * count + "S" * count
    return {"hit": hit, "hits": hits}


# --- damage and end of turn -------------------------------------------------------------


@dataclass(frozen=True)
class DamageInput:
    ship: ShipRef
    hits: Annotated[str, Limits(pattern=r"^[FTS]{0,40}$"), Doc("F, T and S hits, e.g. FFST")]
    fire_control_lost: bool = False


def damage(inp: DamageInput, res: Resolution) -> SalvoSoloDamageResult:
    inp.ship.require_afloat("ship")
    after = inp.ship.apply(inp.hits, inp.fire_control_lost)
    return {"ship": _status(after), "newly_sunk": after.sunk}


@dataclass(frozen=True)
class EndOfTurnInput:
    weather: SalvoSoloWeather
    player_action: SalvoSoloAction
    enemy_action: SalvoSoloAction


def end_of_turn(inp: EndOfTurnInput, res: Resolution) -> SalvoSoloEndOfTurnResult:
    roll = res.roll("end of turn", 1, 6)
    actions = (inp.player_action, inp.enemy_action)
    mods = []
    if "C" in actions:
        mods.append(_published(t.END_OF_TURN_MODIFIERS, "either ship closed"))
    if "W" in actions:
        mods.append(_published(t.END_OF_TURN_MODIFIERS, "either ship withdrew"))
    if inp.weather in t.END_OF_TURN_MODIFIERS:
        mods.append(Modifier(f"weather {inp.weather}", t.END_OF_TURN_MODIFIERS[inp.weather]))
    final = roll.total + sum(m.value for m in mods)
    outcome = t.look_up(t.END_OF_TURN, final)
    text = t.bands_text(t.END_OF_TURN, {"continue": "new turn"})
    res.check("end of turn", roll.total, mods, text, outcome)
    return {"game_over": outcome == "game over"}


# --- composites ---------------------------------------------------------------------------

SIDES: tuple[SalvoSoloSide, SalvoSoloSide] = ("player", "enemy")


@dataclass(frozen=True)
class AttackInput:
    firer: ShipRef
    target: ShipRef
    range: SalvoSoloRange
    weather: SalvoSoloWeather
    guns_bearing: SalvoSoloBearing
    previously_straddled: bool = False


def attack(inp: AttackInput, res: Resolution) -> SalvoSoloAttackResult:
    """One ship's whole fire for a turn: every shot down the full chain."""
    return _attack(inp, res)[0]


class _ShotChain(TypedDict, total=False):
    """What follows a straddle in one shot (the keys of SalvoSoloShot between fire and
    target, in the order the answer lists them)."""

    straddle: SalvoSoloStraddleResult
    special_damage: SalvoSoloSpecialDamageResult
    critical: SalvoSoloCriticalResult
    hits: str


def _attack(
    inp: AttackInput, res: Resolution, prefix: str = ""
) -> tuple[SalvoSoloAttackResult, Ship]:
    _require_can_fire(inp.firer, "firer")
    inp.target.require_afloat("target")
    target, straddled = inp.target, inp.previously_straddled
    shots: list[SalvoSoloShot] = []
    for number in range(1, t.SHOTS_PER_TURN[inp.range] + 1):
        if target.sunk:
            break  # ruling sunk-is-final: no shot is fired at a sunk ship
        tag = f"{prefix}shot {number}"
        fired = fire(FireInput(inp.range, inp.weather, straddled), res, label=f"{tag} fire")
        chained: _ShotChain = {}
        if fired["straddle"]:
            straddled = True
            chain = straddle(
                StraddleInput(inp.firer, target, inp.range, inp.guns_bearing),
                res,
                label=f"{tag} straddle",
            )
            chained["straddle"] = chain
            hits, fire_control_lost = chain["hits"], False
            if chain["outcome"] == "Special":
                special = special_damage(NoInput(), res, f"{tag} special damage")
                chained["special_damage"] = special
                hits = special["hits"]
                fire_control_lost = special["fire_control_lost"]
            elif chain["outcome"] == "Critical":
                crit = critical(CriticalInput(target, inp.range), res, f"{tag} critical hit")
                chained["critical"] = crit
                hits = crit["hits"]
            target = target.apply(hits, fire_control_lost)
            chained["hits"] = hits
        shots.append({"shot": number, "fire": fired, **chained, "target": _status(target)})
    result: SalvoSoloAttackResult = {
        "shots": shots,
        "target": _status(target),
        "straddled": straddled,
        "target_sunk": target.sunk,
    }
    return result, target


# A game's turn count stops here (ruling turn-count-cap): a turn played at it hands it back
# as it is, the way hit counts stop at their cap, so every state handed back loads again.
MAX_TURN = 10_000


@dataclass(frozen=True)
class GameState:
    """The whole game between turns: everything the service needs to play the next turn.
    The client keeps it: a turn's answer hands it back as `result.state`, and the next
    turn's request takes it as `state`, as it is."""

    component: ClassVar[str] = "SalvoSoloGameState"

    turn: Annotated[
        int,
        Limits(minimum=1, maximum=MAX_TURN),
        Doc(
            f"The turn to play. The count stops at {MAX_TURN}: a turn played at {MAX_TURN} "
            f"hands back {MAX_TURN} (ruling turn-count-cap)"
        ),
    ]
    weather: SalvoSoloWeather
    range: SalvoSoloRange
    player: ShipRef
    enemy: ShipRef
    enemy_last_action: SalvoSoloAction | None = None
    player_has_straddled: bool = False
    enemy_has_straddled: bool = False


def _fire_order(
    player: Ship, enemy: Ship, res: Resolution, events: list[SalvoSoloEvent]
) -> tuple[SalvoSoloSide, SalvoSoloSide]:
    """Bigger gun size fires first; a tie is rolled for (ruling gun-size-tie)."""
    if player.card.guns != enemy.card.guns:
        return ("player", "enemy") if player.card.guns > enemy.card.guns else ("enemy", "player")
    roll = res.roll("fire order", 1, 6)
    first: SalvoSoloSide = t.look_up(t.FIRE_ORDER_TIE, roll.total)
    text = f"gun sizes tied: {t.bands_text(t.FIRE_ORDER_TIE, {'player': 'player first'})}"
    res.check("fire order", roll.total, [], text, first)
    events.append({"phase": "fire-order", "result": {"first": first}})
    return ("player", "enemy") if first == "player" else ("enemy", "player")


@dataclass(frozen=True)
class TurnInput:
    """A turn; without ``player_action`` the player waits to learn the initiative (and, when
    the enemy has it, the enemy's Action)."""

    state: GameState
    player_action: Annotated[
        SalvoSoloAction | None,
        Omitted(),
        Doc(
            "The player's Action. Leave it out to learn the initiative first: the answer is "
            "`result.pending`, with the enemy's Action when the enemy has the initiative "
            "(null when the player has it and commits first), and the same request with "
            "`player_action` and the same dice finishes the turn"
        ),
    ] = None


def _fire_control_at_turn_start(ship: Ship) -> Ship:
    if ship.state.fire_control == "lost-next-turn":
        return Ship(ship.card, replace(ship.state, fire_control="lost-this-turn"))
    return ship


def _fire_control_at_turn_end(ship: Ship) -> Ship:
    if ship.state.fire_control == "lost-this-turn":
        return Ship(ship.card, replace(ship.state, fire_control="ready"))
    return ship


def _ending(player: Ship, enemy: Ship) -> tuple[SalvoSoloSide | None, bool, str] | None:
    """(winner, draw, reason) once a ship is sunk, else None."""
    if player.sunk and enemy.sunk:
        return None, True, "both ships sunk"
    if enemy.sunk:
        return "player", False, f"{enemy.card.name} sunk"
    if player.sunk:
        return "enemy", False, f"{player.card.name} sunk"
    return None


def _next_actions(state: GameState) -> SalvoSoloNextActions:
    """The Actions each ship of ``state`` may choose next turn."""
    return {"player": list(state.player.actions), "enemy": list(state.enemy.actions)}


def _next_turn_status(ship: Ship) -> SalvoSoloShipStatus:
    """``ship.status()`` as the next turn will find the ship: a fire control lost-next-turn
    is lost then, so it may not fire (its state stays as handed back)."""
    status = _status(ship)
    status["can_fire"] = _fire_control_at_turn_start(ship).why_cannot_fire() is None
    return status


def _ships(state: GameState) -> SalvoSoloShips:
    """Both ships of ``state`` as their cards draw them for the next turn."""
    return {"player": _next_turn_status(state.player), "enemy": _next_turn_status(state.enemy)}


def _pending(
    state: GameState,
    events: list[SalvoSoloEvent],
    first: SalvoSoloSide,
    enemy_act: SalvoSoloAction | None,
    res: Resolution,
) -> SalvoSoloTurnResult:
    """What is decided so far, and the choice left to the player: the enemy acted first
    (``enemy_act`` is its Action), or the player has the initiative and commits first (the
    enemy's Action is not rolled yet: ``enemy_act`` None).

    Nothing is applied: the state goes back as it came, and the same request with the
    player's Action and the same dice rolls these very dice again, then finishes the turn.
    """
    choices = list(state.player.actions)
    dice = sum(len(roll.values) for roll in res.rolls)
    again = res.dice.again()
    send = (
        "dice as pending.dice"
        if again is not None
        else f"the same dice (supplied dice: these {dice}, then the rest of the turn's)"
    )
    if enemy_act is None:
        said = f"{state.player.card.name} has the initiative and acts first"
    else:
        name = t.ACTION_EFFECTS[enemy_act]["name"]
        said = f"{state.enemy.card.name} has the initiative and will {name} ({enemy_act})"
    return {
        "game_over": False,
        "winner": None,
        "draw": False,
        "reason": None,
        "state": to_json(state),
        "actions": _next_actions(state),
        "ships": _ships(state),
        "events": events,
        "pending": {
            "first": first,
            "enemy_action": enemy_act,
            "choose": "player_action",
            "choices": choices,
            "dice_used": dice,
            "dice": again,
            "detail": f"{said}: send the same request with player_action, one of "
            + ", ".join(choices)
            + f", and {send} to finish the turn",
        },
    }


def turn(inp: TurnInput, res: Resolution) -> SalvoSoloTurnResult:
    """A whole turn, in the rulebook's order, from a state the client sends back each time."""
    state = inp.state
    for role in ("player", "enemy"):
        getattr(state, role).require_afloat(f"state.{role}")
    if inp.player_action is not None:
        _require_action_allowed(state.player, inp.player_action, "player_action")
    elif res.reading("initiative-in-turn") == "player-commits":
        raise RuleError(
            "under the reading player-commits of ruling initiative-in-turn the player's Action "
            "is committed before initiative is rolled: send player_action",
            "player_action",
        )
    ships = {
        "player": _fire_control_at_turn_start(state.player),
        "enemy": _fire_control_at_turn_start(state.enemy),
    }
    straddled = {"player": state.player_has_straddled, "enemy": state.enemy_has_straddled}
    events: list[SalvoSoloEvent] = []

    def finish(
        range_now: SalvoSoloRange,
        ending: tuple[SalvoSoloSide | None, bool, str] | None,
        enemy_act: SalvoSoloAction,
    ) -> SalvoSoloTurnResult:
        new_state = replace(
            state,
            turn=min(MAX_TURN, state.turn + 1),
            range=range_now,
            player=_fire_control_at_turn_end(ships["player"]),
            enemy=_fire_control_at_turn_end(ships["enemy"]),
            enemy_last_action=enemy_act,
            player_has_straddled=straddled["player"],
            enemy_has_straddled=straddled["enemy"],
        )
        winner, draw, reason = ending if ending else (None, False, None)
        return {
            "game_over": ending is not None,
            "winner": winner,
            "draw": draw,
            "reason": reason,
            "state": to_json(new_state),
            "actions": _next_actions(new_state),
            "ships": _ships(new_state),
            "events": events,
        }

    first = initiative(InitiativeInput(ships["player"], ships["enemy"]), res)
    events.append({"phase": "initiative", "result": first})
    if inp.player_action is None and first["first"] == "player":
        return _pending(state, events, "player", None, res)
    enemy_act = enemy_action(
        EnemyActionInput(ships["enemy"], ships["player"], state.enemy_last_action), res
    )
    events.append({"phase": "enemy-action", "result": enemy_act})
    if inp.player_action is None:
        return _pending(state, events, "enemy", enemy_act["action"], res)
    actions = {"player": inp.player_action, "enemy": enemy_act["action"]}
    moved = maneuver(
        ManeuverInput(state.range, actions["player"], actions["enemy"], first=first["first"]), res
    )
    events.append({"phase": "maneuver", "result": moved})
    range_now = moved["range"]
    if range_now is None:  # out of range
        return finish(state.range, (None, True, "out of range"), actions["enemy"])
    bearing = {"player": moved["player_guns_bearing"], "enemy": moved["enemy_guns_bearing"]}

    order = _fire_order(ships["player"], ships["enemy"], res, events)
    for firer_role in order:
        target_role = "enemy" if firer_role == "player" else "player"
        firer = ships[firer_role]
        reason = firer.why_cannot_fire()
        if reason:
            events.append(
                {"phase": "fire", "side": firer_role, "result": {"fired": False, "reason": reason}}
            )
            continue
        fired, ships[target_role] = _attack(
            AttackInput(
                firer,
                ships[target_role],
                range_now,
                state.weather,
                bearing[firer_role],
                straddled[firer_role],
            ),
            res,
            prefix=f"{firer_role} ",
        )
        straddled[firer_role] = fired["straddled"]
        events.append({"phase": "fire", "side": firer_role, "result": fired})
        if fired["target_sunk"]:
            return finish(range_now, _ending(ships["player"], ships["enemy"]), actions["enemy"])

    launches = []
    for firer_role in SIDES:
        target_role = "enemy" if firer_role == "player" else "player"
        launch = TorpedoInput(ships[firer_role], ships[target_role], range_now, state.weather)
        if torpedo_problem(launch, res.reading("torpedoes-are-not-guns")) is None:
            launches.append(
                (firer_role, target_role, torpedo(launch, res, f"{firer_role} torpedo"))
            )
    for firer_role, target_role, result in launches:  # simultaneous: applied after all rolls
        ships[target_role] = ships[target_role].apply(result["hits"])
        events.append({"phase": "torpedo", "side": firer_role, "result": result})
    ending = _ending(ships["player"], ships["enemy"])
    if ending:
        return finish(range_now, ending, actions["enemy"])

    end = end_of_turn(EndOfTurnInput(state.weather, actions["player"], actions["enemy"]), res)
    events.append({"phase": "end-of-turn", "result": end})
    ending = (None, True, "game ended by the End of Turn table") if end["game_over"] else None
    return finish(range_now, ending, actions["enemy"])
