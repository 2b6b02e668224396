"""A fleet-action ship: its class, its crew and the Hull it has lost so far."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.errors import RuleError
from .tables import CREW_QUALITY, SHIP_CLASSES, ShipClass


@dataclass(frozen=True)
class Ship:
    """A ship on the table. ``hull_lost`` is the only state it carries."""

    ship_class: ShipClass
    crew: str | None = None
    name: str | None = None
    hull_lost: int = 0

    @classmethod
    def of(
        cls, ship_class: str, crew: str | None = None, name: str | None = None, hull_lost: int = 0
    ) -> Ship:
        return cls(SHIP_CLASSES[ship_class], crew, name, hull_lost)

    @property
    def label(self) -> str:
        return self.name or f"the {self.ship_class.name}"

    @property
    def hull_left(self) -> int:
        return max(0, self.ship_class.hull - self.hull_lost)

    @property
    def sunk(self) -> bool:
        """A ship at zero Hull is sunk (a catastrophic hit takes all of it)."""
        return self.hull_left == 0

    @property
    def to_hit(self) -> int:
        """The crew's printed To Hit, before visibility."""
        assert self.crew is not None, "a ship that fires has a crew quality"
        return CREW_QUALITY[self.crew]

    def check_state(self, field: str) -> None:
        """Refuse a state the ship's class cannot have."""
        if self.hull_lost > self.ship_class.hull:
            raise RuleError(
                f"a {self.ship_class.name} has {self.ship_class.hull} Hull; it cannot have lost "
                f"{self.hull_lost}",
                f"{field}.hull_lost",
            )

    def require_afloat(self, field: str) -> None:
        self.check_state(field)
        if self.sunk:
            raise RuleError(
                f"{self.label} is already sunk (0 Hull left): it has been removed from the table",
                field,
            )

    def require_crew(self, field: str) -> None:
        if self.crew is None:
            levels = ", ".join(CREW_QUALITY)
            raise RuleError(
                f"{self.label} fires, so it needs a crew quality ({levels})", f"{field}.crew"
            )

    def apply(self, hull_lost: int, catastrophic: bool = False) -> Ship:
        """The ship after losing ``hull_lost`` Hull, or all of it to a catastrophic hit."""
        total = self.ship_class.hull if catastrophic else self.hull_lost + hull_lost
        return Ship(self.ship_class, self.crew, self.name, min(total, self.ship_class.hull))

    def status(self) -> dict[str, Any]:
        """The state a client sends back next time, plus what it means now."""
        return {
            "name": self.name,
            "class": self.ship_class.name,
            "crew": self.crew,
            "hull": self.ship_class.hull,
            "hull_lost": self.hull_lost,
            "hull_left": self.hull_left,
            "sunk": self.sunk,
        }
