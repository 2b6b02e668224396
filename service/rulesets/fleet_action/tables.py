"""The fleet-action tables as data, shaped like the printed tables.

The same data resolves every roll, answers ``/tables`` and drives ``/odds``.
Distances are inches on the table; a target number ``n`` reads "n+" (n or more on 1d6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ...engine.records import fields_dict
from ...engine.typed import table_of
from .results import (
    FleetActionCrew,
    FleetActionPlayer,
    FleetActionShipClass,
    FleetActionVisibility,
)

DIE: Final = 6

# Crew quality: the score needed to hit on 1d6 (keyed by the fixed set of crews).
CREW_QUALITY: Final = table_of(
    FleetActionCrew, {"Green": 6, "Seasoned": 5, "Veteran": 4, "Elite": 3}
)


@dataclass(frozen=True)
class ShipClass:
    """One row of the Ship classes table."""

    name: str
    speed: int  # inches per move
    attack: int  # gun dice
    range: int  # gun range, inches
    armour: int  # save on 1d6, "n+"
    hull: int
    torpedoes: bool

    def as_dict(self) -> dict[str, Any]:
        return fields_dict(self)


SHIP_CLASSES: Final = table_of(
    FleetActionShipClass,
    {
        row.name: row
        for row in (
            ShipClass("Corvette", speed=6, attack=2, range=16, armour=6, hull=1, torpedoes=False),
            ShipClass("Destroyer", speed=14, attack=3, range=24, armour=5, hull=2, torpedoes=True),
            ShipClass("Cruiser", speed=12, attack=4, range=36, armour=4, hull=4, torpedoes=True),
            ShipClass(
                "Battleship", speed=10, attack=6, range=48, armour=2, hull=6, torpedoes=False
            ),
        )
    },
)

# Visibility raises the To Hit number; it can never make it worse than 6+.
VISIBILITY: Final = table_of(FleetActionVisibility, {"Clear": 0, "Poor": 1, "Terrible": 2})
VISIBILITY_CONDITIONS: Final = {"Clear": "", "Poor": "rain, dusk", "Terrible": "fog, night"}
WORST_TO_HIT: Final = 6

# Each hit that is not saved costs the target this much Hull.
HULL_PER_UNSAVED_HIT: Final = 1

# An attack die showing this face, unmodified, that gets through sinks the target outright.
CATASTROPHIC_FACE: Final = 6

# Torpedoes: instead of guns, by classes that carry them.
TORPEDO_RANGE: Final = 16
TORPEDO_DICE: Final = 3

# Initiative: each player rolls 1d6, ties are rolled again, the winner goes second.
INITIATIVE_SIDES: Final[tuple[FleetActionPlayer, FleetActionPlayer]] = table_of(
    FleetActionPlayer, ("A", "B")
)
# Ruling initiative-ties: at most this many rounds are rolled (a tie in every one is a
# chance of one in 6**20 with seeded dice); past it the request is refused as over a limit.
MAX_INITIATIVE_ROUNDS: Final = 20

# Movement: up to the class's Speed, with one turn of up to this many degrees on the way.
MAX_TURN_DEGREES: Final = 90

# The turn (a service limit, not the text's): ships a player may have in one action, and
# the turn count, which stops here (a turn played at it hands it back as it is).
MAX_SHIPS_PER_SIDE: Final = 6
MAX_TURN: Final = 10_000

# The odds of a turn: exact while the walk of the ships' joint Hull stays within this many
# branches (each a state of the ships still to be fired on, times an outcome of the next
# attack); past it, this many seeded games.
TURN_ODDS_BRANCHES: Final = 5_000
TURN_ODDS_SAMPLES: Final = 600


def as_data() -> dict[str, Any]:
    """Every table, for GET /tables (the very objects the engine resolves with)."""
    return {
        "die": f"1d{DIE}",
        "crew_quality": {
            "rows": [{"level": level, "to_hit": n} for level, n in CREW_QUALITY.items()],
        },
        "ship_classes": {"rows": [row.as_dict() for row in SHIP_CLASSES.values()]},
        "visibility": {
            "rows": [
                {"visibility": name, "to_hit_modifier": value, "conditions": conditions}
                for (name, value), conditions in zip(
                    VISIBILITY.items(), VISIBILITY_CONDITIONS.values(), strict=True
                )
            ],
            "worst_to_hit": WORST_TO_HIT,
        },
        "guns": {
            "dice": "Attack x 1d6 against To Hit",
            "save": "1d6 per hit against the target's Armour",
            "hull_per_unsaved_hit": HULL_PER_UNSAVED_HIT,
            "catastrophic_face": CATASTROPHIC_FACE,
        },
        "torpedoes": {
            "range": TORPEDO_RANGE,
            "dice": TORPEDO_DICE,
            "ignore_armour": True,
            "catastrophic_face": CATASTROPHIC_FACE,
        },
        "initiative": {
            "dice": "1d6 each",
            "sides": list(INITIATIVE_SIDES),
            "ties": "roll again",
            "winner": "goes second",
            "max_rounds": MAX_INITIATIVE_ROUNDS,
        },
    }
