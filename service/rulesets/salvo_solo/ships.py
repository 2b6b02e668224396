"""Ship cards and a ship's damage state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ...engine.errors import RuleError
from ...engine.records import fields_dict
from ...engine.typed import fixed_set, table_of
from .results import SalvoSoloFireControl, SalvoSoloShipName
from .tables import SPEED_PER_S_HIT

FIRE_CONTROL_STATES: Final = table_of(
    SalvoSoloFireControl, ("ready", "lost-next-turn", "lost-this-turn")
)
# Each kind of hit is counted up to here (ruling hit-count-cap): far past sinking, silencing
# or stopping any ship, so nothing a player sees changes, and a state the service hands
# back is always one it accepts.
MAX_HITS: Final = 100


@dataclass(frozen=True)
class ShipCard:
    """A printed (or derived) ship card."""

    name: str
    type: str
    guns: int
    broadside: int
    stern: int
    bow: int
    flotation: int
    turret: int
    speed: int
    armor: int
    nation: str
    provenance: str = "card"

    def bearing(self, guns_bearing: str) -> int:
        """The card's rating for the guns that bear: bow, broadside or stern."""
        rating: int = getattr(self, guns_bearing)
        return rating

    def as_dict(self) -> dict[str, Any]:
        return fields_dict(self)


@dataclass(frozen=True)
class ShipState:
    """Damage taken so far. Cumulative; nothing is repaired."""

    flotation_hits: int = 0
    turret_hits: int = 0
    speed_hits: int = 0
    fire_control: str = "ready"


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

    def ref(self) -> dict[str, Any]:
        """How a request names this ship: by catalog name if it is a catalog card."""
        named: dict[str, Any] = (
            {"ship": self.card.name}
            if CATALOG.get(self.card.name) == self.card
            else {"card": self.card.as_dict()}
        )
        named["state"] = fields_dict(self.state)
        return named

    def status(self) -> dict[str, Any]:
        """The state a client sends back next time, plus what it means now."""
        return {
            "name": self.card.name,
            "state": fields_dict(self.state),
            "speed": self.speed,
            "sunk": self.sunk,
            "can_fire": self.why_cannot_fire() is None,
            "must_offer_broadside": self.must_offer_broadside,
        }

    def require_afloat(self, role: str) -> None:
        if self.sunk:
            raise RuleError(f"{self.card.name} is already sunk: nothing more happens to it", role)


_PRINTED = (
    ShipCard("King George V", "BB", 14, 5, 2, 3, 6, 6, 9, 6, "Britain"),
    ShipCard("Hood", "BC", 15, 5, 2, 2, 7, 8, 10, 4, "Britain"),
    ShipCard("Graf Spee", "PB", 11, 3, 1, 1, 4, 4, 8, 2, "Germany"),
    ShipCard("Nürnburg", "CL", 6, 1, 0, 0, 3, 4, 10, 0, "Germany"),
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
