"""The dreadnought tables as data, shaped like the printed tables.

The same data resolves every roll, answers ``/tables`` and drives ``/odds``. Distances
are inches on the table; calibres are inches of bore.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ...engine.typed import fixed_set, table_of, values
from .results import (
    DreadnoughtCrew,
    DreadnoughtCriticalEffect,
    DreadnoughtDamageColumn,
    DreadnoughtGunnerDie,
    DreadnoughtNationality,
    DreadnoughtRangeBand,
    DreadnoughtShipClass,
    DreadnoughtThrow,
    DreadnoughtWeapon,
)

# --- Ship Characteristics table -------------------------------------------------------


@dataclass(frozen=True)
class ShipClass:
    """One row of the Ship Characteristics table."""

    name: str
    speed: tuple[int, int]  # inches, as printed "8-9\""
    speed_change: int  # "+/- Turn": how much the speed may change in a turn
    turn_cost: int
    to_hit: int  # the score three dice must reach to hit this ship
    damage_reduction: int  # "Dam Reduc"
    damage_boxes: int  # "Dam Boxes"
    printed_boxes: str  # the printed figure, "40+?" for the battlecruiser
    weight: str  # "light" (green weapons' targets) or "heavy" (blue weapons' targets)

    def as_dict(self) -> dict[str, Any]:
        return {
            "class": self.name,
            "speed": list(self.speed),
            "speed_change": self.speed_change,
            "turn_cost": self.turn_cost,
            "to_hit": self.to_hit,
            "damage_reduction": self.damage_reduction,
            "damage_boxes": self.damage_boxes,
            "printed_damage_boxes": self.printed_boxes,
            "targets_for": f"{self.weight} weapons",
            "critical_hits": self.weight == "heavy",
        }


SHIP_CLASSES: Final = (
    ShipClass("Destroyer", (8, 9), 4, 1, 17, 1, 20, "20", "light"),
    ShipClass("Protected Cruiser", (7, 8), 4, 1, 16, 2, 30, "30", "light"),
    ShipClass("Armoured Cruiser", (6, 7), 2, 2, 16, 1, 30, "30", "heavy"),
    # "40+?" is printed: 40 is the class figure, a card may give more (ruling battlecruiser-boxes).
    ShipClass("Battlecruiser", (8, 9), 3, 2, 17, 2, 40, "40+?", "heavy"),
    ShipClass("Battleship", (5, 6), 1, 3, 15, 3, 50, "50", "heavy"),
    ShipClass("Dreadnought", (6, 7), 2, 3, 16, 3, 70, "70", "heavy"),
    ShipClass("Super Dreadnought", (7, 8), 2, 3, 16, 4, 80, "80", "heavy"),
)
CLASSES: Final = {row.name: row for row in SHIP_CLASSES}
CLASS_NAMES: Final = table_of(DreadnoughtShipClass, tuple(CLASSES))
# The other names a player may use for a class (results.py, with the fixed set).
CLASS_ALIASES: Final = fixed_set(DreadnoughtShipClass)[0].aliases
# German capital ships turn for 2 (ruling german-turn-cost: capital = Armoured Cruiser or heavier).
GERMAN_CAPITAL_TURN_COST: Final = 2

NATIONALITIES: Final = values(DreadnoughtNationality)
CREWS: Final = values(DreadnoughtCrew)

# --- gunner die -----------------------------------------------------------------------

# "Gnr is normally 1D10 for German and good British. 1D8 for other British and all other
# nationalities."
GUNNER_D10: Final = {"German": CREWS, "British": ("good",)}
GUNNER_DIE_SIDES: Final = table_of(DreadnoughtGunnerDie, {"d10": 10, "d8": 8})
GUNNER_DIE_OTHERWISE: Final = "d8"


def gunner_die(nationality: str, crew: str) -> int:
    """Sides of the gunner die for a crew of this nationality and quality."""
    kind = "d10" if crew in GUNNER_D10.get(nationality, ()) else GUNNER_DIE_OTHERWISE
    return GUNNER_DIE_SIDES[kind]


# --- to hit ---------------------------------------------------------------------------

TO_HIT_DICE: Final = (2, 8)  # 2D8, plus the gunner die
TO_HIT_MODIFIERS: Final = {
    "director down": -2,
    "firing ship turned this turn": -1,
    "target ship turned this turn": -1,
    "first time firing at this target": -1,
    "more than one ship firing at the same target": -1,
    "not under fire this turn": 1,
}
# Short range lowers the score needed by 2, long range raises it by 2; damage is untouched.
RANGE_TARGET_NUMBER: Final = table_of(DreadnoughtRangeBand, {"short": -2, "medium": 0, "long": 2})
BANDS: Final = ("short", "medium", "long")

# --- Weapons Effect table -------------------------------------------------------------


@dataclass(frozen=True)
class WeaponRow:
    """One row of the Weapons Effect table.

    ``low``/``high`` bound the calibres the row serves (``None`` = open end), with the
    printed inclusive or exclusive ends; the two gaps the print leaves are closed by
    ruling calibre-gaps (``served`` says how). Bands are the printed inch figures.
    """

    weapon: str
    targets: str  # "light": Destroyers and Protected Cruisers; "heavy": Armoured Cruiser+
    low: float | None
    low_inclusive: bool
    high: float | None
    high_inclusive: bool
    short: tuple[int, int]
    medium: tuple[int, int]
    long: tuple[int, int]
    damage: str  # Low, Medium, High or All
    served: str = ""

    def covers(self, calibre: float) -> bool:
        above = (
            self.low is None or calibre > self.low or (self.low_inclusive and calibre == self.low)
        )
        below = (
            self.high is None
            or calibre < self.high
            or (self.high_inclusive and calibre == self.high)
        )
        return above and below

    def band(self, distance: float) -> str | None:
        """short, medium or long (each up to and including its printed upper figure)."""
        for name, (_, upper) in zip(BANDS, (self.short, self.medium, self.long), strict=True):
            if distance <= upper:
                return name
        return None

    @property
    def barrels_damage(self) -> str:
        return BARRELS_DAMAGE[self.damage]

    def as_dict(self) -> dict[str, Any]:
        return {
            "weapon": self.weapon,
            "targets": self.targets,
            "calibre": {
                "above" if not self.low_inclusive else "from": self.low,
                "below" if not self.high_inclusive else "to": self.high,
            },
            "short": list(self.short),
            "medium": list(self.medium),
            "long": list(self.long),
            "to_hit": "2D8 + Gnr",
            "damage": self.damage,
            "barrels_to_hit": BARRELS_TO_HIT,
            "barrels_damage": self.barrels_damage,
            "served": self.served or None,
        }


WEAPONS: Final = (
    WeaponRow('<5.5"', "light", None, False, 5.5, False, (1, 2), (3, 6), (7, 8), "Low"),
    WeaponRow('5.5"-<7"', "light", 5.5, True, 7, False, (1, 3), (4, 8), (9, 12), "Medium"),
    # The 7"-9" row is printed twice on purpose: these guns may fire at both kinds of
    # target, with different ranges and damage (ruling seven-to-nine-rows).
    WeaponRow('7"-9"', "light", 7, True, 9, True, (1, 4), (5, 10), (11, 18), "High"),
    WeaponRow('7"-9"', "heavy", 7, True, 9, True, (1, 8), (9, 16), (17, 24), "Low"),
    WeaponRow('>9"-<11"', "heavy", 9, False, 11, False, (1, 12), (13, 24), (25, 30), "Low"),
    WeaponRow(
        '11"-12"',
        "heavy",
        11,
        True,
        13.5,
        False,
        (1, 14),
        (15, 26),
        (27, 33),
        "Medium",
        served='printed 11"-12"; also serves calibres over 12" and under 13.5"',
    ),
    WeaponRow(
        '13.5"-15"',
        "heavy",
        13.5,
        True,
        None,
        False,
        (1, 16),
        (17, 28),
        (29, 36),
        "High",
        served='printed 13.5"-15"; also serves calibres over 15"',
    ),
)
# The rows name every weapon and every damage column of the fixed sets, in their order.
table_of(DreadnoughtWeapon, tuple(dict.fromkeys(row.weapon for row in WEAPONS)))
table_of(DreadnoughtDamageColumn, tuple(dict.fromkeys(row.damage for row in WEAPONS)))

# Multiple barrels (ruling barrels-bonus: the count is of barrels beyond the first).
BARRELS_TO_HIT: Final = "half"  # +1/2 per barrel, rounded up
BARRELS_DAMAGE: Final = {"Low": "half", "Medium": "half", "High": "full", "All": "full"}


def barrels_bonus(rule: str, barrels: int, *, count_first: bool = False) -> int:
    """+1 per extra barrel ("full") or +1/2 per extra barrel rounded up ("half").

    ``count_first``: every barrel counts, the first too (the other readings of rulings
    barrels-bonus for damage and torpedo-count).
    """
    extra = barrels if count_first else max(0, barrels - 1)
    return extra if rule == "full" else (extra + 1) // 2


# --- torpedoes ------------------------------------------------------------------------

TORPEDO_RANGE: Final = (0, 10)  # printed in the Medium column only: no short or long band
TORPEDO_DICE: Final = (2, 6)  # 2D6, plus the gunner die
TORPEDO_DAMAGE: Final = "All"
TORPEDO_BONUS: Final = "full"  # +1 per torpedo beyond the first, to hit and to damage

# --- Critical Hits table --------------------------------------------------------------

CRITICAL_HITS: Final[dict[str, dict[str, Any]]] = {
    "triples": {"name": "Magazine Hit", "effect": "ship destroyed"},
    "double 8": {"name": "Turret Explodes", "effect": "turret destroyed"},
    "double 7": {"name": "Director Destroyed", "effect": "director destroyed"},
    "double 6": {"name": "Bridge Destroyed", "effect": "bridge destroyed"},
    "double 5": {"name": "Rudder Destroyed", "effect": "rudder jammed"},
}
# Doubles of 1 to 4 are not on the table: no critical effect (ruling low-doubles).
NO_CRITICAL: Final = {"name": "No effect", "effect": "no effect"}
# Three dice of at most two kinds pair only on faces 1-8 (ruling doubles).
THROWS: Final = table_of(DreadnoughtThrow, ("triples", *(f"double {n}" for n in range(8, 0, -1))))
DIRECTOR_DOWN: Final = TO_HIT_MODIFIERS["director down"]  # "-2 to hit from now on"
BRIDGE_NO_ORDERS_TURNS: Final = 2

# Turret explodes: chances in a D6 of the ship blowing up, by nationality and class; a roll
# of 7 - chance or more blows it up (ruling blow-up-roll). Every other ship loses the turret
# and survives (ruling blow-up-who).
BATTLESHIP_CLASSES: Final = ("Battleship", "Dreadnought", "Super Dreadnought")
BLOW_UP_IN_D6: Final = {
    **{("British", name): 1 for name in BATTLESHIP_CLASSES},
    ("German", "Battlecruiser"): 1,
    ("British", "Battlecruiser"): 2,
}


def blow_up_in_d6(reading: str) -> dict[tuple[str, str], int]:
    """The chances of blowing up under a reading of blow-up-who, read from the one table:
    by default "Battleship means pre dreadnought battleship", so the 1 in D6 of "British
    Battleships" is the Battleship class alone; the other reading gives it to every
    British battleship class."""
    if reading == "every-british-battleship":
        return BLOW_UP_IN_D6
    return {
        key: chances
        for key, chances in BLOW_UP_IN_D6.items()
        if key[1] not in BATTLESHIP_CLASSES or key[1] == "Battleship"
    }


# "(2 turrets = 50% no effect)": with two or fewer main turrets left, a D6 first: 1-3 no
# effect, 4-6 the turret explodes (ruling two-turrets).
TWO_TURRETS_AT_MOST: Final = 2
TWO_TURRETS_NO_EFFECT: Final = (1, 3)
TWO_TURRETS_EXPLODES: Final = (4, 6)

# Rudder jammed "either left, right or straight ahead": a D6 (ruling rudder-jam-direction).
RUDDER_JAM: Final = ((1, 2, "left"), (3, 4, "right"), (5, 6, "straight ahead"))
RUDDER_REPAIR_FROM: Final = 5  # "Need a 5,6 on 1d6 each turn to fix"

CRITICAL_EFFECTS: Final = table_of(
    DreadnoughtCriticalEffect,
    (
        "no effect",
        "ship destroyed",
        "turret destroyed",
        "director destroyed",
        "bridge destroyed",
        *(f"rudder jammed {way}" for _, _, way in RUDDER_JAM),
    ),
)


def two_turrets(roll: int) -> str:
    """What the two-turrets D6 does: 'no effect' or 'turret explodes', by its two bands."""
    for (low, high), outcome in (
        (TWO_TURRETS_NO_EFFECT, "no effect"),
        (TWO_TURRETS_EXPLODES, "turret explodes"),
    ):
        if low <= roll <= high:
            return outcome
    raise ValueError(f"no two-turrets band holds {roll}")  # the D6 bands cover 1-6


def d6_text(bands: tuple[tuple[int, int, str], ...]) -> str:
    """D6 bands as one line, e.g. '1-2 left, 3-4 right, 5-6 straight ahead'."""
    return ", ".join(
        f"{low} {name}" if low == high else f"{low}-{high} {name}" for low, high, name in bands
    )


def rudder_jam(roll: int) -> str:
    for low, high, way in RUDDER_JAM:
        if low <= roll <= high:
            return way
    raise ValueError(f"no rudder band holds {roll}")  # the D6 bands cover 1-6


def as_data() -> dict[str, Any]:
    """Every table, for GET /tables (the very objects the engine resolves with)."""
    return {
        "ship_characteristics": [row.as_dict() for row in SHIP_CLASSES],
        "class_aliases": CLASS_ALIASES,
        "german_capital_turn_cost": GERMAN_CAPITAL_TURN_COST,
        "gunner_die": {
            "d10": {nation: list(crews) for nation, crews in GUNNER_D10.items()},
            "otherwise": GUNNER_DIE_OTHERWISE,
        },
        "to_hit": {
            "dice": "2D8 + Gnr",
            "modifiers": TO_HIT_MODIFIERS,
            "range_changes_score_needed": RANGE_TARGET_NUMBER,
        },
        "weapons_effect": [row.as_dict() for row in WEAPONS],
        "barrels": {
            "counts": "barrels beyond the first",
            "half": "+1/2 per barrel, rounded up",
            "full": "+1 per barrel",
        },
        "torpedo": {
            "range": list(TORPEDO_RANGE),
            "to_hit": "2D6 + Gnr",
            "damage": TORPEDO_DAMAGE,
            "torpedoes_to_hit": TORPEDO_BONUS,
            "torpedoes_damage": TORPEDO_BONUS,
        },
        "damage_types": {
            "Low": "the lowest die, counting every die equal to it",
            "Medium": "the middle die, counting every die equal to it",
            "High": "the highest die, counting every die equal to it",
            "All": "all three dice",
        },
        "critical_hits": {
            "applies_to": [row.name for row in SHIP_CLASSES if row.weight == "heavy"],
            "rows": CRITICAL_HITS,
            "other_doubles": NO_CRITICAL,
            "blow_up_in_d6": [
                {"nationality": nation, "class": name, "chances": chances}
                for (nation, name), chances in BLOW_UP_IN_D6.items()
            ],
            "two_turrets": {
                "turrets_at_most": TWO_TURRETS_AT_MOST,
                "no_effect": list(TWO_TURRETS_NO_EFFECT),
                "explodes": list(TWO_TURRETS_EXPLODES),
            },
            "director_to_hit": DIRECTOR_DOWN,
            "bridge_no_orders_turns": BRIDGE_NO_ORDERS_TURNS,
            "rudder_jam_d6": [{"from": lo, "to": hi, "jammed": way} for lo, hi, way in RUDDER_JAM],
            "rudder_repair_from": RUDDER_REPAIR_FROM,
        },
    }
