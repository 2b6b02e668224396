"""A fleet-action ship: its class, its crew and the Hull it has lost so far, as a shape
(service/engine/shape.py): the one definition of what a request sends of a ship."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import Annotated, Any, ClassVar, Self

from ...engine.errors import RuleError
from ...engine.typed import Doc, Key, Limits, Omitted, Via
from .results import FleetActionCrew, FleetActionShipClass
from .tables import CREW_QUALITY, SHIP_CLASSES, ShipClass

MAX_HULL = max(row.hull for row in SHIP_CLASSES.values())
MAX_NAME = 60
MAX_INCHES = 1000  # a distance the players measure, in inches

# A ship's class row, sent and answered by its name.
CLASS = Via(FleetActionShipClass, SHIP_CLASSES.__getitem__, attrgetter("name"))
Name = Annotated[str, Limits(least=1, most=MAX_NAME)]
HullLost = Annotated[
    int,
    Limits(minimum=0, maximum=MAX_HULL),
    Doc("Hull points lost so far (at most the class's Hull)"),
]


@dataclass(frozen=True, kw_only=True)
class Ship:
    """A ship by its class, with its crew and the Hull it has lost so far. ``hull_lost`` is
    the only state it carries."""

    component: ClassVar[str] = "FleetActionShip"

    ship_class: Annotated[ShipClass, Key("class"), CLASS, Doc(example="Destroyer")]
    crew: Annotated[FleetActionCrew | None, Omitted()] = None
    name: Annotated[
        Name | None, Omitted(), Doc("What the players call it", example="Destroyer 1")
    ] = None
    hull_lost: HullLost = 0

    @classmethod
    def of(
        cls,
        ship_class: str,
        crew: FleetActionCrew | None = None,
        name: str | None = None,
        hull_lost: int = 0,
    ) -> Self:
        return cls(ship_class=SHIP_CLASSES[ship_class], crew=crew, name=name, hull_lost=hull_lost)

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

    def apply(self, hull_lost: int, catastrophic: bool = False) -> Self:
        """The ship after losing ``hull_lost`` Hull, or all of it to a catastrophic hit."""
        total = self.ship_class.hull if catastrophic else self.hull_lost + hull_lost
        return replace(self, hull_lost=min(total, self.ship_class.hull))

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


@dataclass(frozen=True, kw_only=True)
class Firer(Ship):
    """The firing ship: its crew quality is needed, it sets the To Hit number."""

    component: ClassVar[str] = "FleetActionFirer"

    # Redeclared with field(): a bare annotation would inherit the parent's default.
    crew: Annotated[FleetActionCrew, Doc(example="Veteran")] = field()
