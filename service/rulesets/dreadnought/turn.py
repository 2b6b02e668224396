"""A whole dreadnought turn, in the text's turn sequence, from a state the client sends back.

The players move the models and measure; the service is told, for each ship, its
formation, whether an enemy is within 6", the orders it wrote, whether it turned, and each
battery's and torpedo salvo's target with the distance after movement. From those it works
out the orders each ship moves on and every to-hit modifier that depends on the whole turn
(``plan_turn``), fires every gun and torpedo against the ships as they were when the turn
began (ruling simultaneous-fire), applies all damage and criticals together, rolls the
rudder repairs, counts the bridge down and hands back the next turn's state.

Dice are rolled ship by ship in the order of ``state.ships``: each ship's batteries in the
order declared, then its torpedo salvoes (each throw followed by its own critical dice),
then the rudder repairs in the same ship order. The odds of a turn (``turn_odds.py``) read
the very same plan.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from typing import Annotated, Any, ClassVar, cast

from ...engine.errors import RuleError
from ...engine.resolution import Readings, Resolution
from ...engine.shape import to_json
from ...engine.typed import Doc, Limits
from . import tables as t
from .results import (
    DreadnoughtActionShipStatus,
    DreadnoughtCriticalEffect,
    DreadnoughtFireResult,
    DreadnoughtFormation,
    DreadnoughtMovesOn,
    DreadnoughtOrdersEvent,
    DreadnoughtTorpedoResult,
    DreadnoughtTurnEvent,
    DreadnoughtTurnResult,
)
from .ships import MAX_BATTERIES, Ship, ShipRef
from .steps import (
    MAX_INCHES,
    BatteryCalibre,
    FireInput,
    Plan,
    Torpedoes,
    TorpedoInput,
    fire_plan,
    repair_rudder,
    roll_throw,
    torpedo_plan,
)

# The limits of one action (documented in the request schema and the README).
MAX_SHIPS = 8
MAX_SALVOES = 2  # torpedo salvoes one ship fires in a turn
MAX_PLOT = 200  # characters of written orders
# The turn count stops here, as the salvo-solo game's does: a turn played at it hands it
# back as it is, so every state handed back loads again.
MAX_TURN = 10_000


ShipName = Annotated[str, Limits(least=1, most=60), Doc("A ship of the action, by its card's name")]
TurnNumber = Annotated[int, Limits(minimum=1, maximum=MAX_TURN)]


def _plot(description: str) -> Doc:
    return Doc(f"{description}; at most {MAX_PLOT} characters")


Plot = Annotated[str | None, Limits(most=MAX_PLOT)]


@dataclass(frozen=True)
class FiredAt:
    component: ClassVar[str] = "DreadnoughtFiredAt"

    target: ShipName
    turn: TurnNumber


@dataclass(frozen=True)
class ActionShip:
    """One ship of the action between turns, as a turn's answer hands it back: its card
    and damage, side, plot and targets."""

    component: ClassVar[str] = "DreadnoughtActionShip"

    side: Annotated[
        str,
        Limits(least=1, most=40),
        Doc("The ship's side; ships of one side do not fire at each other"),
    ]
    ship: ShipRef
    plot: Annotated[Plot, _plot("Orders written last turn that this turn's move follows")] = None
    fired_at: Annotated[
        tuple[FiredAt, ...],
        Limits(most=MAX_SHIPS - 1),
        Doc("The ships its guns have fired at, each with the last turn"),
    ] = ()

    @property
    def name(self) -> str:
        return self.ship.card.name


@dataclass(frozen=True)
class ActionState:
    """Every ship of an action between turns: a turn's answer hands it back as
    `result.state`, and the next turn's request takes it as `state`, as it is."""

    component: ClassVar[str] = "DreadnoughtActionState"

    turn: Annotated[
        TurnNumber,
        Doc(
            f"The turn to play. The count stops at {MAX_TURN}: a turn played at {MAX_TURN} "
            f"hands back {MAX_TURN}"
        ),
    ]
    ships: Annotated[
        tuple[ActionShip, ...],
        Limits(least=1, most=MAX_SHIPS),
        Doc(f"At most {MAX_SHIPS} ships, sunk ones too"),
    ]


@dataclass(frozen=True)
class GunFire:
    """One battery's fire this turn."""

    component: ClassVar[str] = "DreadnoughtGunFire"

    battery: BatteryCalibre
    target: ShipName
    distance: Annotated[
        float,
        Limits(minimum=0, maximum=MAX_INCHES),
        Doc("To the target after movement, inches"),
    ]


@dataclass(frozen=True)
class TorpedoSalvo:
    """Torpedoes declared before movement, resolved after the guns."""

    component: ClassVar[str] = "DreadnoughtTorpedoSalvo"

    target: ShipName
    distance: Annotated[
        float,
        Limits(minimum=0, maximum=MAX_INCHES),
        Doc("From the firing point to the target after movement, inches"),
    ]
    torpedoes: Torpedoes = 1


@dataclass(frozen=True)
class Declaration:
    """What the players plotted, declared and measured for one ship this turn. A ship of the
    action with no declaration keeps to its plot (or straight on) and fires nothing."""

    component: ClassVar[str] = "DreadnoughtDeclaration"

    ship: ShipName
    formation: DreadnoughtFormation = "other"
    enemy_within_6: Annotated[bool, Doc('An enemy warship within 6" of the ship')] = False
    orders: Annotated[
        Plot,
        _plot(
            "The orders written this turn (line astern or an enemy within 6\": this turn's "
            "move; otherwise next turn's)"
        ),
    ] = None
    # None: the service works it out (straight on, rudder).
    turned: Annotated[
        bool | None,
        Doc(
            "The ship turned this turn, as measured; left out: false, or what its rudder or "
            "a missing plot decides (ruling jammed-rudder, orders-this-turn)"
        ),
    ] = None
    fire: Annotated[
        tuple[GunFire, ...],
        Limits(most=MAX_BATTERIES),
        Doc(f"At most {MAX_BATTERIES}: each battery fires once a turn"),
    ] = ()
    torpedoes: Annotated[
        tuple[TorpedoSalvo, ...],
        Limits(most=MAX_SALVOES),
        Doc(f"At most {MAX_SALVOES} torpedo salvoes a turn"),
    ] = ()


@dataclass(frozen=True)
class TurnInput:
    state: ActionState
    declarations: Annotated[
        tuple[Declaration, ...],
        Limits(most=MAX_SHIPS),
        Doc(f"At most one per ship ({MAX_SHIPS})"),
    ] = ()


@dataclass(frozen=True)
class Attack:
    """One battery or torpedo salvo of the turn, planned up to its dice."""

    firer: str
    target: str
    plan: Plan[Any]
    dice: tuple[int, int]
    battery: float | None = None  # None: a torpedo salvo
    torpedoes: int = 0


@dataclass(frozen=True)
class TurnPlan:
    """Everything about a turn that the dice do not decide."""

    state: ActionState
    ships: dict[str, ActionShip]  # by name, in state order
    orders: list[DreadnoughtOrdersEvent]
    plots: dict[str, str | None]  # the plot each ship hands on to next turn
    attacks: list[Attack]


NO_DECLARATION = Declaration(ship="")


def _afloat(ships: dict[str, ActionShip]) -> Iterator[ActionShip]:
    return (entry for entry in ships.values() if not entry.ship.sunk)


def _ships(state: ActionState) -> dict[str, ActionShip]:
    ships: dict[str, ActionShip] = {}
    for i, entry in enumerate(state.ships):
        entry.ship.check(f"state.ships.{i}.ship")
        if entry.name in ships:
            raise RuleError(
                f"two ships of the action are named {entry.name}: give each record card a "
                "name of its own (declarations name ships by it)",
                f"state.ships.{i}.ship",
            )
        ships[entry.name] = entry
    for i, entry in enumerate(state.ships):
        for j, fired in enumerate(entry.fired_at):
            if fired.target not in ships:
                raise RuleError(
                    f"{entry.name} fired at {fired.target}, who is not a ship of the action",
                    f"state.ships.{i}.fired_at.{j}.target",
                )
            # At the turn count's cap a turn hands back the turn it played (MAX_TURN).
            if fired.turn >= state.turn and state.turn < MAX_TURN:
                raise RuleError(
                    f"{entry.name} fired at {fired.target} on turn {fired.turn}, not before "
                    f"turn {state.turn}, the turn to play",
                    f"state.ships.{i}.fired_at.{j}.turn",
                )
    return ships


def _declarations(
    inp: TurnInput, ships: dict[str, ActionShip]
) -> dict[str, tuple[int, Declaration]]:
    found: dict[str, tuple[int, Declaration]] = {}
    for i, decl in enumerate(inp.declarations):
        entry = ships.get(decl.ship)
        if entry is None:
            raise RuleError(
                f"no ship of the action is named {decl.ship}; the ships are " + ", ".join(ships),
                f"declarations.{i}.ship",
            )
        if decl.ship in found:
            raise RuleError(f"{decl.ship} is declared twice this turn", f"declarations.{i}.ship")
        if entry.ship.sunk:
            raise RuleError(
                f"{decl.ship} is sunk: it moves and fires no more", f"declarations.{i}.ship"
            )
        found[decl.ship] = (i, decl)
    return found


def _orders(
    entry: ActionShip, decl: Declaration, path: str, readings: Readings
) -> tuple[DreadnoughtOrdersEvent, str | None]:
    """The orders a ship moves on, whether it turned, and the plot it hands on."""
    name, state = entry.name, entry.ship.state
    moves_on: DreadnoughtMovesOn
    if state.no_orders_turns > 0:
        # Ruling bridge-no-orders: no orders given; a plot written before still steers it.
        if decl.orders is not None:
            raise RuleError(
                f"{name}'s bridge is destroyed: it gives no orders for "
                f"{state.no_orders_turns} more turn(s); leave orders out",
                f"{path}.orders",
            )
        moves_on = "last turn's plot" if entry.plot is not None else "straight on"
        reason = f"bridge destroyed, no orders for {state.no_orders_turns} more turn(s)"
        plot = None
    elif decl.formation == "line astern" or decl.enemy_within_6:
        moves_on = "this turn's orders"
        reason = "in line astern" if decl.formation == "line astern" else 'an enemy within 6"'
        plot = None
    else:
        moves_on = "last turn's plot" if entry.plot is not None else "straight on"
        reason = 'out of line astern, no enemy within 6": its orders take effect next turn'
        plot = decl.orders
    jammed = entry.ship.state.rudder_jammed
    if moves_on == "straight on" and jammed in ("left", "right"):
        # Ruling jammed-rudder: a rudder jammed over never lets the ship keep a straight line.
        moves_on = "its jammed rudder"
        reason += f"; no plot for this turn, so the same speed with its rudder jammed {jammed}"
    elif moves_on == "straight on":
        reason += "; no plot for this turn, so straight on at the same speed"
    turned = _turned(entry, decl.turned, moves_on, f"{path}.turned", readings)
    event: DreadnoughtOrdersEvent = {
        "phase": "orders",
        "ship": name,
        "moves_on": moves_on,
        "turned": turned,
        "plots_for_next_turn": plot is not None,
        "reason": reason,
    }
    return event, plot


def _turned(
    entry: ActionShip, declared: bool | None, moves_on: str, path: str, readings: Readings
) -> bool:
    """Whether the ship turned: as declared, unless its rudder or its orders decide it."""
    jammed = entry.ship.state.rudder_jammed
    forced: bool | None = None
    if jammed == "straight ahead":
        forced, why = False, "its rudder is jammed straight ahead: it cannot turn"
    elif jammed is not None and readings.reading("jammed-rudder") == "turns-every-turn":
        forced, why = True, f"its rudder is jammed {jammed}: it turns every turn"
    elif jammed is None and moves_on == "straight on":
        forced, why = False, "it has no plot for this turn and keeps straight on"
    if forced is None:
        return bool(declared)
    if declared is not None and declared != forced:
        raise RuleError(
            f"{entry.name} {'did' if forced else 'cannot have'} turned: {why}; declare turned "
            f"{str(forced).lower()} or leave it out",
            path,
        )
    return forced


def _refield(error: RuleError, path: str, firer_path: str) -> RuleError:
    """A single step's refusal, renamed to the member of the turn's request at fault."""
    field = error.field or ""
    if field.startswith("firer"):
        where = firer_path
    elif field.startswith("target"):
        where = f"{path}.target"
    else:
        where = f"{path}.{field}" if field else path
    return RuleError(error.detail, where)


def _planned(make: Callable[[], Plan[Any]], path: str, firer_path: str) -> Plan[Any]:
    """A battery's or salvo's plan, its refusal naming the member of the turn at fault."""
    try:
        return make()
    except RuleError as error:
        raise _refield(error, path, firer_path) from None


def _target(ships: dict[str, ActionShip], firer: ActionShip, name: str, path: str) -> ActionShip:
    target = ships.get(name)
    if target is None:
        raise RuleError(f"no ship of the action is named {name}", f"{path}.target")
    if target.ship.sunk:
        raise RuleError(f"{name} is sunk: there is nothing left to fire at", f"{path}.target")
    if target.side == firer.side:
        raise RuleError(f"{name} is on {firer.name}'s own side ({firer.side})", f"{path}.target")
    return target


def plan_turn(inp: TurnInput, readings: Readings) -> TurnPlan:
    """Orders, modifiers and every attack of the turn; refusals as RuleError."""
    state = inp.state
    ships = _ships(state)
    declared = _declarations(inp, ships)
    orders: list[DreadnoughtOrdersEvent] = []
    plots: dict[str, str | None] = {}
    turned: dict[str, bool] = {}
    for entry in _afloat(ships):
        i, decl = declared.get(entry.name, (-1, NO_DECLARATION))
        event, plot = _orders(entry, decl, f"declarations.{i}", readings)
        orders.append(event)
        plots[entry.name] = plot
        turned[entry.name] = event["turned"]

    # Who fires guns at whom: the modifiers of the whole turn read it.
    guns_at: dict[str, list[str]] = {}
    for entry in _afloat(ships):
        i, decl = declared.get(entry.name, (-1, NO_DECLARATION))
        seen: set[float] = set()
        for j, fire in enumerate(decl.fire):
            path = f"declarations.{i}.fire.{j}"
            if fire.battery in seen:
                raise RuleError(
                    f"{entry.name}'s {fire.battery}\" battery is declared twice: each battery "
                    "fires once a turn",
                    f"{path}.battery",
                )
            seen.add(fire.battery)
            _target(ships, entry, fire.target, path)
            firers = guns_at.setdefault(fire.target, [])
            if entry.name not in firers:
                firers.append(entry.name)

    since_last = readings.reading("first-time-firing") == "since-last-turn"

    def flags(firer: ActionShip, target: str) -> tuple[dict[str, bool], dict[str, str]]:
        before = {f.target: f.turn for f in firer.fired_at}
        if since_last:
            first = before.get(target) != state.turn - 1
            first_why = f"{firer.name} did not fire at {target} last turn"
        else:
            first = target not in before
            first_why = f"{firer.name} has not fired at {target} before"
        others = guns_at.get(target, [])
        on = {
            "firer_turned": turned[firer.name],
            "target_turned": turned[target],
            "first_time_at_target": first,
            "more_than_one_ship_firing": len(others) > 1,
            "not_under_fire": firer.name not in guns_at,
        }
        why = {
            "director down": f"{firer.name}'s director is destroyed",
            "firing ship turned this turn": f"{firer.name} turned",
            "target ship turned this turn": f"{target} turned",
            "first time firing at this target": first_why,
            "more than one ship firing at the same target": f"{', '.join(others)} fire at {target}",
            "not under fire this turn": f"no gun fires at {firer.name} this turn",
        }
        return on, why

    torpedo_flags = readings.reading("torpedo-throws") == "gunnery-modifiers"
    attacks: list[Attack] = []
    for entry in _afloat(ships):
        i, decl = declared.get(entry.name, (-1, NO_DECLARATION))
        firer_path = f"declarations.{i}.ship"
        for j, fire in enumerate(decl.fire):
            path = f"declarations.{i}.fire.{j}"
            target = ships[fire.target]
            on, why = flags(entry, fire.target)
            label = f'{entry.name} {fire.battery:g}" at {fire.target}'
            gun = FireInput(entry.ship, fire.battery, target.ship, fire.distance, **on)
            plan = _planned(partial(fire_plan, gun, readings, label, why), path, firer_path)
            attacks.append(
                Attack(entry.name, fire.target, plan, t.TO_HIT_DICE, battery=fire.battery)
            )
        for j, salvo in enumerate(decl.torpedoes):
            path = f"declarations.{i}.torpedoes.{j}"
            target = _target(ships, entry, salvo.target, path)
            on, why = flags(entry, salvo.target) if torpedo_flags else ({}, {})
            label = f"{entry.name} torpedoes at {salvo.target}"
            launch = TorpedoInput(entry.ship, target.ship, salvo.distance, salvo.torpedoes, **on)
            plan = _planned(partial(torpedo_plan, launch, readings, label, why), path, firer_path)
            attacks.append(
                Attack(entry.name, salvo.target, plan, t.TORPEDO_DICE, torpedoes=salvo.torpedoes)
            )
    return TurnPlan(state, ships, orders, plots, attacks)


def mark(ship: Ship, points: int, effect: str) -> Ship:
    """The ship after a hit: its boxes marked and its critical applied. A record card holds
    no more marks than its boxes, so every state handed back loads again."""
    after = ship.apply(points, effect)
    most = max(ship.state.damage_taken, ship.damage_boxes)
    if after.state.damage_taken > most:
        after = Ship(after.card, replace(after.state, damage_taken=most))
    return after


def turn(inp: TurnInput, res: Resolution) -> DreadnoughtTurnResult:
    """A whole turn: orders, all guns together, torpedoes, damage, rudders and bridges."""
    plan = plan_turn(inp, res.readings)
    state = plan.state
    events: list[DreadnoughtTurnEvent] = list(plan.orders)
    outcomes = []
    for attack in plan.attacks:
        outcome = roll_throw(attack.plan, attack.dice, res)
        result = {**attack.plan.head, **outcome}
        outcomes.append((attack, outcome))
        if attack.battery is not None:
            events.append(
                {
                    "phase": "fire",
                    "ship": attack.firer,
                    "battery": attack.battery,
                    "target": attack.target,
                    "result": cast(DreadnoughtFireResult, result),
                }
            )
        else:
            events.append(
                {
                    "phase": "torpedo",
                    "ship": attack.firer,
                    "target": attack.target,
                    "torpedoes": attack.torpedoes,
                    "result": cast(DreadnoughtTorpedoResult, result),
                }
            )

    start = {name: entry.ship for name, entry in plan.ships.items()}
    ships = dict(start)
    effects: dict[str, list[DreadnoughtCriticalEffect]] = {}
    for attack, outcome in outcomes:
        if not outcome["hit"]:
            continue
        critical = outcome["critical"]
        effect = critical["effect"] if critical else "no effect"
        ships[attack.target] = mark(ships[attack.target], outcome["damage"], effect)
        listed = effects.setdefault(attack.target, [])
        if effect != "no effect":
            listed.append(effect)
    for name in plan.ships:
        if name in effects:
            before, hit = start[name], ships[name]
            events.append(
                {
                    "phase": "damage",
                    "ship": name,
                    "points": hit.state.damage_taken - before.state.damage_taken,
                    "effects": effects[name],
                    "sunk": hit.sunk,
                }
            )

    # The bridge counts down for the turns already without orders; a bridge destroyed this
    # turn gives two whole turns from the next (ruling bridge-no-orders). A ship sunk this
    # turn counts nothing down, as it rolls no rudder repair: it gives no more orders at all.
    for name, ship in ships.items():
        left = start[name].state.no_orders_turns
        if left and not ship.sunk and "bridge destroyed" not in effects.get(name, ()):
            ships[name] = Ship(ship.card, replace(ship.state, no_orders_turns=left - 1))
    # Ruling rudder-repair: a rudder jammed this turn, even one already jammed before it,
    # moves jammed at least once before its first repair roll (unless it rolls the same turn).
    same_turn = res.reading("rudder-repair") == "same-turn"
    for name, ship in ships.items():
        jammed_now = any(e.startswith("rudder jammed") for e in effects.get(name, ()))
        rolls = same_turn or not jammed_now
        if ship.sunk or ship.state.rudder_jammed is None or not rolls:
            continue
        repaired, ships[name] = repair_rudder(ship, res, f"{name} rudder repair")
        events.append({"phase": "rudder", "ship": name, "repaired": repaired})
    for name, ship in ships.items():
        if not ship.sunk and (start[name].state.no_orders_turns or ship.state.no_orders_turns):
            events.append(
                {"phase": "bridge", "ship": name, "no_orders_turns": ship.state.no_orders_turns}
            )

    fired: dict[str, dict[str, int]] = {
        name: {f.target: f.turn for f in entry.fired_at} for name, entry in plan.ships.items()
    }
    for attack in plan.attacks:
        if attack.battery is not None:
            fired[attack.firer][attack.target] = state.turn
    next_state = ActionState(
        turn=min(MAX_TURN, state.turn + 1),
        ships=tuple(
            ActionShip(
                side=entry.side,
                ship=ships[name],
                plot=plan.plots.get(name),
                fired_at=tuple(
                    FiredAt(target, fired[name][target])
                    for target in plan.ships
                    if target in fired[name]
                ),
            )
            for name, entry in plan.ships.items()
        ),
    )
    sides_afloat = list(dict.fromkeys(e.side for e in next_state.ships if not e.ship.sunk))
    over = len(sides_afloat) <= 1
    return {
        "turn": state.turn,
        "state": to_json(next_state),
        "ships": [
            cast(DreadnoughtActionShipStatus, {**e.ship.status(), "side": e.side})
            for e in next_state.ships
        ],
        "sunk": [name for name, ship in ships.items() if ship.sunk and not start[name].sunk],
        "action_over": over,
        "winner": sides_afloat[0] if over and sides_afloat else None,
        "events": events,
    }
