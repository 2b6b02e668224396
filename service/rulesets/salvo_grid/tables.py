"""The SALVO grid game as data: the board, the fleet, the specials, the loot, the rating.

The same data drives resolution and answers ``/tables`` and ``/ships``.
A square is written column letter then row number: ``C5`` is column C, row 5.
Offsets in an area are ``(columns right, rows down)`` from the square the special is aimed at.
"""

from __future__ import annotations

from typing import Any, Final

from ...engine.typed import table_of
from .results import (
    SalvoGridColumn,
    SalvoGridCountingShip,
    SalvoGridFiredBy,
    SalvoGridLootKind,
    SalvoGridOrientation,
    SalvoGridShip,
    SalvoGridSpecialName,
)

# Tables keyed by a fixed set (results.py) are checked at import to name exactly its members.
COLUMNS: Final = table_of(SalvoGridColumn, "ABCDEFGHIJ")
ROWS: Final = 10

# The fleet, largest first: the order a random layout places them in (ruling random-layout).
FLEET: Final[tuple[tuple[str, str, int], ...]] = (
    ("carrier", "Carrier", 5),
    ("battleship", "Battleship", 4),
    ("cruiser", "Cruiser", 3),
    ("submarine", "Submarine", 3),
    ("destroyer", "Destroyer", 2),
)
SHIP_IDS: Final = table_of(SalvoGridShip, tuple(ship for ship, _, _ in FLEET))
SHIP_NAMES: Final = {ship: name for ship, name, _ in FLEET}
SHIP_SIZES: Final = {ship: size for ship, _, size in FLEET}
FLEET_SQUARES: Final = sum(SHIP_SIZES.values())  # 17

ORIENTATIONS: Final = table_of(SalvoGridOrientation, ("horizontal", "vertical"))
# One step along a ship or a line, by orientation: (columns, rows).
STEP: Final = table_of(SalvoGridOrientation, {"horizontal": (1, 0), "vertical": (0, 1)})

# Each ship's special, once a game, fired with the salvo and in addition to its shots.
# "aim" names the request members that place it; "area" the squares it covers.
SPECIALS: Final[dict[str, dict[str, Any]]] = {
    "carrier": {
        "special": "recon flight",
        "aim": ["square"],
        "square": "the centre of a 3x3 area; the part of it on the board is counted",
        "area": [(dc, dr) for dr in (-1, 0, 1) for dc in (-1, 0, 1)],
        "clipped_to_board": True,
        "effect": "count",
        "answers": "the number of enemy ship squares not yet hit in the area",
    },
    "cruiser": {
        "special": "sonar sweep",
        "aim": ["row", "column"],
        "square": None,
        "area": "one whole row (row 1-10) or column (column A-J)",
        "clipped_to_board": False,
        "effect": "count",
        "answers": "the number of enemy ship squares not yet hit in the line",
    },
    "battleship": {
        "special": "heavy shell",
        "aim": ["square"],
        "square": "the top-left square of a 2x2 block that lies wholly on the board",
        "area": [(0, 0), (1, 0), (0, 1), (1, 1)],
        "clipped_to_board": False,
        "effect": "fire",
        "answers": "every square of the block is fired on at once, like shots",
    },
    "destroyer": {
        "special": "depth charges",
        "aim": ["square", "orientation"],
        "square": "the top or left end of a line of 3 that lies wholly on the board",
        "area": {"horizontal": [(0, 0), (1, 0), (2, 0)], "vertical": [(0, 0), (0, 1), (0, 2)]},
        "clipped_to_board": False,
        "effect": "fire",
        "answers": "every square of the line is fired on and hits any ship there, a diving "
        "submarine included (the one weapon that can)",
    },
    "submarine": {
        "special": "dive",
        "aim": [],
        "square": None,
        "area": None,
        "clipped_to_board": False,
        "effect": "dive",
        "answers": "during the rival's salvo of the next round, shots on the submarine's "
        "squares come back as contact and do no damage; hidden from the rival",
    },
}
SPECIAL_NAMES: Final = {ship: spec["special"] for ship, spec in SPECIALS.items()}
# The ships whose special counts (the heat map step takes their counts).
COUNTING_SHIPS: Final = table_of(
    SalvoGridCountingShip,
    tuple(ship for ship, spec in SPECIALS.items() if spec["effect"] == "count"),
)
# Every ship has a special, each its own, in fleet order (GET /ships lists them so).
table_of(SalvoGridSpecialName, tuple(SPECIAL_NAMES[ship] for ship in SHIP_IDS))
# Areas that fire resolve in this order; a square under both is fired once, by the first
# (ruling area-overlap: the depth charges, which also hit a diving submarine).
FIRING_SPECIALS: Final = ("destroyer", "battleship")
FIRE_BY: Final = {"destroyer": "depth charges", "battleship": "heavy shell", None: "shot"}
table_of(SalvoGridFiredBy, tuple(FIRE_BY.values()))

# Loot: seven pieces per ocean on open water, placed in this order (ruling loot-placement).
LOOT: Final[tuple[tuple[str, int, int, str], ...]] = (
    # kind, pieces per ocean, shots it adds to the finder's next salvo, what else it does
    ("crate", 3, 1, ""),
    ("mine", 2, -1, ""),
    ("radar-buoy", 2, 0, "a contact on a square of an enemy ship afloat, chosen by the seed"),
)
LOOT_KINDS: Final = table_of(SalvoGridLootKind, tuple(kind for kind, _, _, _ in LOOT))
LOOT_COUNTS: Final = {kind: count for kind, count, _, _ in LOOT}
LOOT_SHOTS: Final = {kind: shots for kind, _, shots, _ in LOOT}
LOOT_PER_OCEAN: Final = sum(LOOT_COUNTS.values())  # 7
LOOT_BONUS_RANGE: Final = (
    sum(LOOT_COUNTS[k] * LOOT_SHOTS[k] for k in LOOT_KINDS if LOOT_SHOTS[k] < 0),
    sum(LOOT_COUNTS[k] * LOOT_SHOTS[k] for k in LOOT_KINDS if LOOT_SHOTS[k] > 0),
)  # (-2, 3): the most one salvo's finds can take away or add

# Salvo: one shot per ship afloat, plus the loot of the last salvo, never below this.
SHOTS_PER_SHIP_AFLOAT: Final = 1
MIN_SALVO: Final = 1
MAX_SALVO: Final = len(FLEET) * SHOTS_PER_SHIP_AFLOAT + LOOT_BONUS_RANGE[1]  # 8

# Rating (Elo), chess-style.
RATING_START: Final = 1000
RATING_K: Final = 32
RATING_SCALE: Final = 400
RATING_SCORES: Final = {"win": 1.0, "draw": 0.5, "loss": 0.0}
RATING_LOWEST: Final = 0
RATING_HIGHEST: Final = 10_000
RATING: Final[dict[str, Any]] = {
    "start": RATING_START,
    "k": RATING_K,
    "scale": RATING_SCALE,
    "score": RATING_SCORES,
    "lowest": RATING_LOWEST,
    "highest": RATING_HIGHEST,
    "expected_score": "1 / (1 + 10 ^ ((other - own) / scale))",
    "change": "k x (score - expected), rounded half away from zero; the other side moves by "
    "the opposite amount",
}

# The computer captain, in the order it fills its salvo (ruling computer-captain).
COMPUTER_AIMS: Final = ("contact", "next to a hit", "at random")
# The specials the computer captain fires (in this order); it never uses the others.
COMPUTER_SPECIALS: Final = ("destroyer", "battleship", "submarine")
NEIGHBOURS: Final = ((0, -1), (-1, 0), (1, 0), (0, 1))


def as_data() -> dict[str, Any]:
    """Every table, for GET /tables (the very objects the engine resolves with)."""

    def area(value: Any) -> Any:
        if isinstance(value, list):
            return [list(offset) for offset in value]
        if isinstance(value, dict):
            return {key: area(inner) for key, inner in value.items()}
        return value

    return {
        "board": {"columns": list(COLUMNS), "rows": ROWS, "square": "column then row, e.g. C5"},
        "fleet": [{"ship": ship, "name": name, "size": size} for ship, name, size in FLEET],
        "fleet_squares": FLEET_SQUARES,
        "specials": {
            ship: {**spec, "area": area(spec["area"]), "aim": list(spec["aim"])}
            for ship, spec in SPECIALS.items()
        },
        "area_offsets": "(columns right, rows down) from the square the special is aimed at",
        "loot": [
            {"kind": kind, "pieces": count, "shots": shots, "also": also}
            for kind, count, shots, also in LOOT
        ],
        "loot_per_ocean": LOOT_PER_OCEAN,
        "salvo": {
            "shots_per_ship_afloat": SHOTS_PER_SHIP_AFLOAT,
            "minimum_while_a_ship_floats": MIN_SALVO,
            "loot_counts_for": "the next salvo only",
            "largest": MAX_SALVO,
        },
        "rating": RATING,
        "computer": {
            "aims_in_order": list(COMPUTER_AIMS),
            "never_uses": [ship for ship in SPECIALS if ship not in COMPUTER_SPECIALS],
        },
    }
