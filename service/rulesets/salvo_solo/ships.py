"""Ship cards and a ship's damage state, as shapes (service/engine/shape.py): the one
definition of what a request sends of a ship, by its catalog name or its card inline."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, ClassVar, Final, cast

from ...engine.errors import RuleError
from ...engine.shape import to_json
from ...engine.typed import Doc, Limits, Via, fixed_set, table_of
from .results import (
    SalvoSoloAction,
    SalvoSoloCardProvenance,
    SalvoSoloFireControl,
    SalvoSoloShipName,
    SalvoSoloShipStatus,
    SalvoSoloShipType,
)
from .tables import ACTIONS, SPEED_PER_S_HIT

FIRE_CONTROL_STATES: Final = table_of(
    SalvoSoloFireControl, ("ready", "lost-next-turn", "lost-this-turn")
)
# Each kind of hit is counted up to here (ruling hit-count-cap): far past sinking, silencing
# or stopping any ship, so nothing a player sees changes, and a state the service hands
# back is always one it accepts.
MAX_HITS: Final = 100
ONLY_BROADSIDE: Final[tuple[SalvoSoloAction, ...]] = ("OB",)

Rating = Annotated[int, Limits(minimum=-5, maximum=10)]
Figure = Annotated[int, Limits(minimum=1, maximum=20)]
Hits = Annotated[int, Limits(minimum=0, maximum=MAX_HITS)]


@dataclass(frozen=True)
class ShipCard:
    """A ship card: as GET /ships lists it, and as a request may send it inline (a card sent
    inline is the player's own, ``custom``, unless it says otherwise)."""

    component: ClassVar[str] = "SalvoSoloShipCard"

    name: Annotated[str, Limits(least=1, most=60)]
    type: SalvoSoloShipType
    guns: Annotated[Figure, Doc("Main gun size, inches")]
    broadside: Rating
    stern: Rating
    bow: Rating
    flotation: Figure
    turret: Figure
    speed: Annotated[int, Limits(minimum=0, maximum=20), Doc("Maximum speed (x3 = knots)")]
    armor: Annotated[int, Limits(minimum=0, maximum=20)]
    nation: Annotated[str, Limits(least=1, most=40)]
    provenance: SalvoSoloCardProvenance = "custom"

    def bearing(self, guns_bearing: str) -> int:
        """The card's rating for the guns that bear: bow, broadside or stern."""
        rating: int = getattr(self, guns_bearing)
        return rating


@dataclass(frozen=True)
class ShipState:
    """Damage taken so far. Cumulative; nothing is repaired. Sent in, and handed back by
    every answer that changes it."""

    component: ClassVar[str] = "SalvoSoloShipState"

    flotation_hits: Hits = 0
    turret_hits: Hits = 0
    speed_hits: Hits = 0
    fire_control: SalvoSoloFireControl = "ready"


@dataclass(frozen=True)
class NamedShip:
    """A catalog ship by name, with its state so far."""

    component: ClassVar[str] = "SalvoSoloNamedShip"

    ship: SalvoSoloShipName
    state: ShipState = field(default_factory=ShipState)


@dataclass(frozen=True)
class InlineShip:
    """A ship's card sent inline, with its state so far."""

    component: ClassVar[str] = "SalvoSoloInlineShip"

    card: ShipCard
    state: ShipState = field(default_factory=ShipState)


@dataclass(frozen=True)
class Ship:
    """A card with its damage: what every step reads a ship's abilities from."""

    card: ShipCard
    state: ShipState = ShipState()

    @property
    def speed(self) -> int:
        # Ruling speed-floor: speed never drops below 0.
        return max(0, self.card.speed - SPEED_PER_S_HIT * self.state.speed_hits)

    @property
    def sunk(self) -> bool:
        return self.state.flotation_hits > self.card.flotation

    @property
    def guns_silenced(self) -> bool:
        return self.state.turret_hits >= self.card.turret

    @property
    def must_offer_broadside(self) -> bool:
        return self.speed == 0

    @property
    def actions(self) -> tuple[SalvoSoloAction, ...]:
        """The Actions this ship may choose: a ship at speed 0 only Offers Broadside. The one
        definition: every answer that hands a ship back lists these, and an Action outside
        them is refused (``why_not``)."""
        return ONLY_BROADSIDE if self.must_offer_broadside else ACTIONS

    def why_not(self, action: str) -> str | None:
        """None when the ship may choose ``action``, else why not in the rules' words."""
        if action in self.actions:
            return None
        return f"{self.card.name} has speed 0 and can only Offer Broadside (OB), not {action}"

    def why_cannot_fire(self) -> str | None:
        """None when the ship may fire this turn, else the reason in the rules' words."""
        if self.sunk:
            return f"{self.card.name} is sunk"
        if self.guns_silenced:
            return (
                f"{self.card.name} has {self.state.turret_hits} T hits, as many as its "
                f"Turret rating of {self.card.turret}: it can't fire anymore"
            )
        if self.state.fire_control == "lost-this-turn":
            return f"{self.card.name} lost its fire control last turn: it can't fire this turn"
        return None

    def apply(self, hits: str, fire_control_lost: bool = False) -> Ship:
        """The ship after a string of F/T/S hits (and perhaps a lost fire control)."""
        return self.damaged(hits.count("F"), hits.count("T"), hits.count("S"), fire_control_lost)

    def damaged(
        self, flotation: int, turret: int, speed: int, fire_control_lost: bool = False
    ) -> Ship:
        """The ship after so many F, T and S hits (and perhaps a lost fire control)."""
        state = self.state
        return Ship(
            self.card,
            # Built directly, not with dataclasses.replace: the advisor's games apply hits
            # thousands of times a request, and replace costs several times as much.
            ShipState(
                min(MAX_HITS, state.flotation_hits + flotation),
                min(MAX_HITS, state.turret_hits + turret),
                min(MAX_HITS, state.speed_hits + speed),
                "lost-next-turn" if fire_control_lost else state.fire_control,
            ),
        )

    def reference(self) -> NamedShip | InlineShip:
        """How a request names this ship: by catalog name if it is a catalog card."""
        name = self.card.name
        if CATALOG.get(name) == self.card:
            return NamedShip(cast(SalvoSoloShipName, name), self.state)  # a catalog name
        return InlineShip(self.card, self.state)

    def status(self) -> SalvoSoloShipStatus:
        """The state a client sends back next time, plus what it means now."""
        return {
            "name": self.card.name,
            "state": to_json(self.state),
            "speed": self.speed,
            "sunk": self.sunk,
            "can_fire": self.why_cannot_fire() is None,
            "must_offer_broadside": self.must_offer_broadside,
            "actions": list(self.actions),
        }

    def require_afloat(self, role: str) -> None:
        if self.sunk:
            raise RuleError(f"{self.card.name} is already sunk: nothing more happens to it", role)


_PRINTED = (
    ShipCard("King George V", "BB", 14, 5, 2, 3, 6, 6, 9, 6, "Britain", "card"),
    ShipCard("Hood", "BC", 15, 5, 2, 2, 7, 8, 10, 4, "Britain", "card"),
    ShipCard("Graf Spee", "PB", 11, 3, 1, 1, 4, 4, 8, 2, "Germany", "card"),
    ShipCard("Nürnburg", "CL", 6, 1, 0, 0, 3, 4, 10, 0, "Germany", "card"),
)
# Listed without stats (Nelson, Prinz Eugen) or only named in an example (Ajax): cards
# derived on the printed cards' scale, see ruling derived-cards.
_DERIVED = (
    ShipCard("Nelson", "BB", 16, 5, 1, 3, 6, 6, 7, 6, "Britain", "derived"),
    ShipCard("Ajax", "CL", 6, 1, 0, 0, 3, 5, 10, 1, "Britain", "derived"),
    ShipCard("Prinz Eugen", "CA", 8, 2, 1, 1, 4, 5, 10, 1, "Germany", "derived"),
)
CATALOG: Final = table_of(SalvoSoloShipName, {card.name: card for card in _PRINTED + _DERIVED})
# The other spellings a player may type for a catalog ship (results.py, with the fixed set).
ALIASES: Final = fixed_set(SalvoSoloShipName)[0].aliases


def catalog_card(name: str, field: str) -> ShipCard:
    card = CATALOG.get(ALIASES.get(name, name))
    if card is None:
        known = ", ".join(CATALOG)
        raise RuleError(f"no ship called {name!r} in the catalog; known: {known}", field)
    return card


def _referred(reference: NamedShip | InlineShip) -> Ship:
    """The ship a request names, by catalog name (or another spelling of it) or inline."""
    if isinstance(reference, NamedShip):
        return Ship(CATALOG[ALIASES.get(reference.ship, reference.ship)], reference.state)
    return Ship(reference.card, reference.state)


# A ship as a request sends it and an answer hands it back: by catalog name or card inline.
SHIP: Final = Via(NamedShip | InlineShip, _referred, lambda ship: to_json(ship.reference()))
ShipRef = Annotated[Ship, SHIP]
