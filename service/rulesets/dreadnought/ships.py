"""Ship record cards and a ship's damage state, as shapes (service/engine/shape.py): the one
definition of what a request sends of a ship and what an answer hands back of it.

A card is what a player writes for one ship: its class from the Ship Characteristics
table, nationality, crew and batteries (one per calibre), and any figure of its own that
differs from the class. The state is what has happened to it since. A request names a ship
by its catalog card (``NamedShip``) or sends its card inline (``InlineShip``); either is
read as a ``Ship``, the card with its state (``ShipRef``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Annotated, Any, ClassVar, Final, cast

from ...engine.errors import RuleError
from ...engine.shape import members, to_json
from ...engine.typed import Doc, Key, Limits, Omitted, Via, fixed_set, table_of
from . import tables as t
from .results import (
    DreadnoughtCrew,
    DreadnoughtNationality,
    DreadnoughtRudder,
    DreadnoughtShipClass,
    DreadnoughtShipName,
)

RUDDER_STATES: Final = table_of(DreadnoughtRudder, tuple(way for _, _, way in t.RUDDER_JAM))
# Every odds branch looks through a card's batteries; with 10 a fire/odds at the branch cap
# took 51 ms of CPU, past the 50 ms budget (docs/performance.md). Four calibres a card is
# more than the ships of the rules carry (main, secondary, tertiary, anti-torpedo).
MAX_BATTERIES = 4
# The most damage a state records; a damage step that would pass it is refused (a limit), so
# every state the damage step hands back is accepted again.
MAX_DAMAGE = 10_000
CLASS_ALIASES: Final = fixed_set(DreadnoughtShipClass)[0].aliases


def class_name(name: str) -> str:
    """A ship class by its name or another a player may use for it."""
    return CLASS_ALIASES.get(name, name)


# A ship class, sent by its name (or another name of it) and held by its own.
ShipClassName = Annotated[str, Via(DreadnoughtShipClass, class_name, str)]
Calibre = Annotated[float, Limits(minimum=1, maximum=20)]


def _ceil_share(whole: int, left: int, boxes: int) -> int:
    """``whole`` scaled by the share of boxes left, rounded up (ruling wear-down)."""
    return -(-whole * left // boxes)


@dataclass(frozen=True)
class Battery:
    """All guns of one calibre on one ship: they fire as one battery."""

    component: ClassVar[str] = "DreadnoughtBattery"

    calibre: Annotated[Calibre, Doc("Bore, inches")]
    barrels: Annotated[int, Limits(minimum=1, maximum=40)]
    turrets: Annotated[
        int | None,
        Omitted(),
        Limits(minimum=1, maximum=40),
        Doc("Left out: twin turrets (barrels / 2, rounded up)"),
    ] = None

    def __post_init__(self) -> None:
        # Left out: twin turrets, ceil(barrels / 2) (ruling turrets); written back counted.
        if self.turrets is None:
            object.__setattr__(self, "turrets", (self.barrels + 1) // 2)

    @property
    def turret_count(self) -> int:
        return self.turrets if self.turrets is not None else (self.barrels + 1) // 2


def _figure(low: int, high: int) -> Limits:
    return Limits(minimum=low, maximum=high)


@dataclass(frozen=True)
class ShipCard:
    """A ship record card: the class's figures unless the card gives its own."""

    component: ClassVar[str] = "DreadnoughtShipCard"

    name: Annotated[str, Limits(least=1, most=60)]
    ship_class: Annotated[ShipClassName, Key("class")]
    nationality: DreadnoughtNationality
    crew: DreadnoughtCrew
    batteries: Annotated[tuple[Battery, ...], Limits(least=1, most=MAX_BATTERIES)]
    speed: Annotated[
        int | None, Omitted(), _figure(0, 30), Doc("Inches; left out: the class's higher figure")
    ] = None
    to_hit: Annotated[int | None, Omitted(), _figure(2, 40)] = None
    damage_reduction: Annotated[int | None, Omitted(), _figure(0, 20)] = None
    damage_boxes: Annotated[int | None, Omitted(), _figure(1, 500)] = None

    @property
    def row(self) -> t.ShipClass:
        return t.CLASSES[self.ship_class]

    def check(self, field: str) -> None:
        """Refuse a card the rules cannot read, naming the member at fault."""
        calibres = [battery.calibre for battery in self.batteries]
        if len(set(calibres)) != len(calibres):
            raise RuleError(
                f"{self.name}: all guns of one calibre fire as one battery; list each "
                f"calibre once (calibres given: {calibres})",
                f"{field}.batteries",
            )
        for index, battery in enumerate(self.batteries):
            if battery.turret_count > battery.barrels:
                raise RuleError(
                    f'{self.name}: the {battery.calibre}" battery has {battery.turret_count} '
                    f"turrets but only {battery.barrels} barrels; a turret holds at least one",
                    f"{field}.batteries.{index}.turrets",
                )

    def listed(self) -> dict[str, Any]:
        """The card as the catalog lists it: every figure, null where the class gives it."""
        return {item.key: None for item in members(ShipCard)} | to_json(self)


@dataclass(frozen=True)
class ShipState:
    """What has happened to a ship: boxes marked off and critical hits. Sent in, and handed
    back by every answer that changes it."""

    component: ClassVar[str] = "DreadnoughtShipState"

    damage_taken: Annotated[
        int,
        Limits(minimum=0, maximum=MAX_DAMAGE),
        Doc(f"At most {MAX_DAMAGE}: damage that would pass it is a 422"),
    ] = 0
    turrets_lost: Annotated[int, Limits(minimum=0, maximum=40)] = 0
    director_destroyed: bool = False
    no_orders_turns: Annotated[int, Limits(minimum=0, maximum=t.BRIDGE_NO_ORDERS_TURNS)] = 0
    rudder_jammed: DreadnoughtRudder | None = None
    destroyed: bool = False


@dataclass(frozen=True)
class Ship:
    """A card with its state: every step reads a ship's abilities from here."""

    card: ShipCard
    state: ShipState = ShipState()

    # --- the card's figures, or its class's -----------------------------------------

    @property
    def damage_boxes(self) -> int:
        return self.card.damage_boxes or self.card.row.damage_boxes

    @property
    def to_hit(self) -> int:
        return self.card.to_hit if self.card.to_hit is not None else self.card.row.to_hit

    @property
    def full_speed(self) -> int:
        # A card without a speed of its own takes the class's higher figure (ruling speed).
        return self.card.speed if self.card.speed is not None else self.card.row.speed[1]

    @property
    def full_damage_reduction(self) -> int:
        given = self.card.damage_reduction
        return given if given is not None else self.card.row.damage_reduction

    @property
    def heavy(self) -> bool:
        """Armoured Cruiser or heavier: a target for heavy weapons and critical hits."""
        return self.card.row.weight == "heavy"

    @property
    def turn_cost(self) -> int:
        if self.card.nationality == "German" and self.heavy:
            return t.GERMAN_CAPITAL_TURN_COST
        return self.card.row.turn_cost

    @property
    def gunner_die(self) -> int:
        return t.gunner_die(self.card.nationality, self.card.crew)

    @property
    def main_battery(self) -> Battery:
        return max(self.card.batteries, key=lambda battery: battery.calibre)

    # --- worn down by damage ----------------------------------------------------------

    @property
    def boxes_left(self) -> int:
        return max(0, self.damage_boxes - self.state.damage_taken)

    @property
    def sunk(self) -> bool:
        return self.state.destroyed or self.boxes_left == 0

    @property
    def damage_reduction(self) -> int:
        return _ceil_share(self.full_damage_reduction, self.boxes_left, self.damage_boxes)

    @property
    def speed(self) -> int:
        return _ceil_share(self.full_speed, self.boxes_left, self.damage_boxes)

    @property
    def main_turrets_left(self) -> int:
        return max(0, self.main_battery.turret_count - self.state.turrets_lost)

    def barrels(self, battery: Battery) -> int:
        """Barrels that still fire: primaries lose turrets, the rest wear down with damage."""
        if self.heavy and battery == self.main_battery:
            turrets = battery.turret_count
            return battery.barrels * self.main_turrets_left // turrets
        return _ceil_share(battery.barrels, self.boxes_left, self.damage_boxes)

    def battery(self, calibre: float, field: str) -> Battery:
        for battery in self.card.batteries:
            if battery.calibre == calibre:
                return battery
        have = ", ".join(f'{b.calibre}"' for b in self.card.batteries)
        raise RuleError(f'{self.card.name} has no {calibre}" battery; it has {have}', field)

    # --- checks -------------------------------------------------------------------------

    def check(self, field: str) -> None:
        self.card.check(f"{field}.card")
        if self.state.turrets_lost > self.main_battery.turret_count:
            raise RuleError(
                f"{self.card.name} has lost {self.state.turrets_lost} turrets, but its main "
                f"battery has only {self.main_battery.turret_count}",
                f"{field}.state.turrets_lost",
            )

    def require_afloat(self, field: str) -> None:
        self.check(field)
        if self.sunk:
            how = "blown up" if self.state.destroyed else "broken up (no damage boxes left)"
            raise RuleError(f"{self.card.name} is already {how}: nothing more happens to it", field)

    # --- applying damage ------------------------------------------------------------------

    def apply(self, points: int, critical_effect: str = "no effect") -> Ship:
        """The ship after ``points`` boxes are marked off and a critical effect applied."""
        state = replace(self.state, damage_taken=self.state.damage_taken + points)
        if critical_effect == "ship destroyed":
            state = replace(state, destroyed=True)
        elif critical_effect == "turret destroyed":
            state = replace(
                state, turrets_lost=min(self.main_battery.turret_count, state.turrets_lost + 1)
            )
        elif critical_effect == "director destroyed":
            state = replace(state, director_destroyed=True)
        elif critical_effect == "bridge destroyed":
            state = replace(state, no_orders_turns=t.BRIDGE_NO_ORDERS_TURNS)
        elif critical_effect.startswith("rudder jammed "):
            way = cast(DreadnoughtRudder, critical_effect.removeprefix("rudder jammed "))
            state = replace(state, rudder_jammed=way)
        return Ship(self.card, state)

    def fix_rudder(self) -> Ship:
        return Ship(self.card, replace(self.state, rudder_jammed=None))

    def ref(self) -> dict[str, Any]:
        """How a request names this ship: by catalog name if it is a catalog card, else the
        card inline (the figures it leaves to its class left out), with its state."""
        if CATALOG.get(self.card.name) == self.card:
            return to_json(NamedShip(ship=self.card, state=self.state))
        return to_json(InlineShip(card=self.card, state=self.state))

    def status(self) -> dict[str, Any]:
        """The state a client sends back next time, plus what it means now."""
        return {
            "name": self.card.name,
            "class": self.card.ship_class,
            "state": to_json(self.state),
            "damage_boxes": self.damage_boxes,
            "boxes_left": self.boxes_left,
            "damage_reduction": self.damage_reduction,
            "speed": self.speed,
            "turn_cost": self.turn_cost,
            "to_hit": self.to_hit,
            "gunner_die": f"d{self.gunner_die}",
            "batteries": [
                {
                    "calibre": battery.calibre,
                    "barrels": self.barrels(battery),
                    "primary": self.heavy and battery == self.main_battery,
                }
                for battery in self.card.batteries
            ],
            "sunk": self.sunk,
        }


def _catalog_card(name: str) -> ShipCard:
    return CATALOG[ALIASES.get(name, name)]


def _card_name(card: ShipCard) -> str:
    return card.name


@dataclass(frozen=True, kw_only=True)
class NamedShip:
    """A catalog ship by name, with its state so far."""

    component: ClassVar[str] = "DreadnoughtNamedShip"

    ship: Annotated[ShipCard, Via(DreadnoughtShipName, _catalog_card, _card_name)]
    state: ShipState = field(default_factory=ShipState)


@dataclass(frozen=True, kw_only=True)
class InlineShip:
    """A ship's card sent inline, with its state so far."""

    component: ClassVar[str] = "DreadnoughtInlineShip"

    card: ShipCard
    state: ShipState = field(default_factory=ShipState)


def _ship_of(sent: NamedShip | InlineShip) -> Ship:
    return Ship(sent.ship if isinstance(sent, NamedShip) else sent.card, sent.state)


# A ship as a request sends it and an answer's state hands it back: by name or inline.
ShipRef = Annotated[Ship, Via(NamedShip | InlineShip, _ship_of, Ship.ref)]


def _card(
    name: str,
    ship_class: str,
    nationality: DreadnoughtNationality,
    crew: DreadnoughtCrew,
    speed: int,
    *batteries: tuple[float, int, int | None],
) -> ShipCard:
    return ShipCard(
        name,
        ship_class,
        nationality,
        crew,
        tuple(Battery(calibre, barrels, turrets) for calibre, barrels, turrets in batteries),
        speed=speed,
    )


# Example record cards: speeds are knots / 3 to the nearest inch, held within the class's
# printed figures; batteries as built. A player's own cards are sent inline.
_CARDS = (
    _card("Queen Elizabeth", "Super Dreadnought", "British", "good", 8, (15, 8, 4), (6, 14, 14)),
    _card("Iron Duke", "Super Dreadnought", "British", "good", 7, (13.5, 10, 5), (6, 12, 12)),
    _card("Dreadnought", "Dreadnought", "British", "good", 7, (12, 10, 5), (3, 27, 27)),
    _card("König", "Dreadnought", "German", "good", 7, (12, 10, 5), (5.9, 14, 14)),
    _card("Lion", "Battlecruiser", "British", "good", 9, (13.5, 8, 4), (4, 16, 16)),
    _card("Invincible", "Battlecruiser", "British", "average", 8, (12, 8, 4), (4, 16, 16)),
    _card("Derfflinger", "Battlecruiser", "German", "good", 9, (12, 8, 4), (5.9, 12, 12)),
    _card("Seydlitz", "Battlecruiser", "German", "good", 9, (11, 10, 5), (5.9, 12, 12)),
    _card("Pommern", "Battleship", "German", "average", 6, (11, 4, 2), (6.7, 14, 14)),
    _card("Defence", "Armoured Cruiser", "British", "average", 7, (9.2, 4, 4), (7.5, 10, 10)),
    _card("Southampton", "Protected Cruiser", "British", "good", 8, (6, 8, 8)),
    _card("M-class destroyer", "Destroyer", "British", "average", 9, (4, 3, 3)),
    _card("V-class torpedo boat", "Destroyer", "German", "average", 9, (3.5, 3, 3)),
)
CATALOG: Final = table_of(DreadnoughtShipName, {card.name: card for card in _CARDS})
ALIASES: Final = fixed_set(DreadnoughtShipName)[0].aliases
