"""The Salvo! tables as data, shaped like the printed tables.

The same data resolves every roll, answers ``/tables`` and drives ``/odds``.
Bands are ``(low, high, result)`` with ``None`` for an open end ("9 & below", "11+").
"""

from __future__ import annotations

from typing import Any, Final

from ...engine.typed import table_of
from .results import (
    SalvoSoloAction,
    SalvoSoloBearing,
    SalvoSoloRange,
    SalvoSoloShipType,
    SalvoSoloStraddleOutcome,
    SalvoSoloWeather,
)

# Tables keyed by a fixed set (results.py) are checked at import to name exactly its members.
RANGES: Final = table_of(SalvoSoloRange, ("Short", "Medium", "Medium-Long", "Long", "Extreme"))
WEATHERS: Final = table_of(SalvoSoloWeather, ("Fine", "Fair", "Misty", "Stormy"))
ACTIONS: Final = table_of(SalvoSoloAction, ("C", "OB", "W"))
SHIP_TYPES: Final = table_of(SalvoSoloShipType, ("BB", "BC", "PB", "CA", "CL"))

Band = tuple[int | None, int | None, Any]

WEATHER: Final[tuple[Band, ...]] = (
    (None, 3, "Stormy"),
    (4, 6, "Misty"),
    (7, 10, "Fair"),
    (11, None, "Fine"),
)
# The number in brackets after each weather result: it modifies the Initial Range roll.
WEATHER_RANGE_MODIFIER: Final = {"Stormy": -8, "Misty": -4, "Fair": 0, "Fine": 2}

INITIAL_RANGE: Final[tuple[Band, ...]] = (
    (None, 1, "Medium"),
    (2, 4, "Medium-Long"),
    (5, 9, "Long"),
    (10, None, "Extreme"),
)

# Initiative, 1d6: 1-3 the player acts first, 4+ the enemy.
INITIATIVE: Final[tuple[Band, ...]] = ((None, 3, "player"), (4, None, "enemy"))
INITIATIVE_MODIFIERS: Final = {"enemy slower than player": 1, "enemy faster than player": -1}

# Enemy action, 1d6: 1-2 Close, 3-4 Offer Broadside, 5 same as last turn, 6+ Withdraw.
ENEMY_ACTION: Final[tuple[Band, ...]] = (
    (None, 2, "C"),
    (3, 4, "OB"),
    (5, 5, "same"),
    (6, None, "W"),
)
ENEMY_ACTION_MODIFIERS: Final = {"enemy gun size smaller than player's": 1}
FIRST_TURN_LAST_ACTION: Final = "OB"
# Equal gun sizes: who fires first is rolled, 1d6 read like initiative (ruling gun-size-tie).
FIRE_ORDER_TIE: Final[tuple[Band, ...]] = ((None, 3, "player"), (4, None, "enemy"))

# Actions: how each moves the range (steps along RANGES) and which guns bear.
ACTION_EFFECTS: Final[dict[str, dict[str, Any]]] = {
    "C": {"name": "Close", "range_change": -1, "guns_bearing": "bow"},
    "OB": {"name": "Offer Broadside", "range_change": 0, "guns_bearing": "broadside"},
    "W": {"name": "Withdraw", "range_change": 1, "guns_bearing": "stern"},
}
table_of(SalvoSoloAction, ACTION_EFFECTS)
table_of(SalvoSoloBearing, tuple(effect["guns_bearing"] for effect in ACTION_EFFECTS.values()))

# Fire table, 2d6: the lowest modified roll that straddles at each range; below it misses.
FIRE_STRADDLE_FROM: Final = {"Short": 5, "Medium": 6, "Medium-Long": 7, "Long": 8, "Extreme": 10}
FIRE_WEATHER_MODIFIER: Final = {"Fine": 0, "Fair": 0, "Misty": -1, "Stormy": -3}
FIRE_PREVIOUSLY_STRADDLED: Final = 2
SHOTS_PER_TURN: Final = {"Short": 2, "Medium": 2, "Medium-Long": 1, "Long": 1, "Extreme": 1}

# Straddle table, 3d6, as printed: the 21+ row is empty (None), and ruling straddle-21-plus
# reads it (FFSST as 20, or no effect).
STRADDLE: Final[tuple[Band, ...]] = (
    (None, 9, "NE"),
    (10, 10, "F"),
    (11, 11, "Special"),
    (12, 12, "T"),
    (13, 13, "FS"),
    (14, 14, "T"),
    (15, 15, "Special"),
    (16, 16, "Critical"),
    (17, 17, "FF"),
    (18, 18, "TT"),
    (19, 19, "FFST"),
    (20, 20, "FFSST"),
    (21, None, None),
)
# Its rows name every straddle outcome of the fixed set, in its order.
table_of(
    SalvoSoloStraddleOutcome, tuple(dict.fromkeys(row for _, _, row in STRADDLE if row is not None))
)
# How each reading of ruling straddle-21-plus fills the empty row.
STRADDLE_EMPTY_ROW: Final = {"as-20": "FFSST", "no-effect": "NE"}
STRADDLE_RANGE_MODIFIER: Final = {
    "Short": 5,
    "Medium": 2,
    "Medium-Long": 0,
    "Long": -2,
    "Extreme": -5,
}
STRADDLE_PER_FIRER_T_HIT: Final = -1
# Gun size rule: 8" -1, 6" -2; nothing against a target of armor 0, 1 or 2 (the * note).
# Sizes the rule does not name: by band, or nothing (ruling gun-size-bands).
STRADDLE_GUN_SIZE_PRINTED: Final = {8: -1, 6: -2}
STRADDLE_GUN_SIZE: Final[tuple[Band, ...]] = ((None, 6, -2), (7, 8, -1), (9, None, 0))
STRADDLE_GUN_SIZE_EXEMPT_ARMOR: Final = 2

# Special Damage, 2d6.
SPECIAL_DAMAGE: Final[tuple[Band, ...]] = (
    (None, 3, {"name": "Listing", "hits": "FF"}),
    (4, 4, {"name": "Flooding", "hits": "FS"}),
    (5, 5, {"name": "Fire Control", "hits": "", "fire_control_lost": True}),
    (6, 6, {"name": "Turret", "hits": "T"}),
    (7, 7, {"name": "Engineering", "hits": "S"}),
    (8, 8, {"name": "Hydraulics", "hits": "FS"}),
    (9, 9, {"name": "Magazine Flooded", "hits": "TT"}),
    (10, 10, {"name": "Transverse Bulkhead", "hits": "F"}),
    (11, None, {"name": "Steering", "hits": "SS"}),
)

# Critical Hit, 2d6. Explosion depends on range; Plunging fire rolls again at Long/Extreme.
CRITICAL: Final[tuple[Band, ...]] = (
    (None, 3, {"name": "Flooding", "hits": "FFFS"}),
    (4, 6, {"name": "Fire director", "hits": "TT"}),
    (7, 7, {"name": "Explosion", "hits": {"Short": "FFFSS", "Medium": "FFFSS", "other": "FFS"}}),
    (8, 8, {"name": "Bridge/Navigation", "hits": "SS"}),
    (9, 11, {"name": "Gunnery", "hits": "FTT"}),
    (12, None, {"name": "Plunging fire", "hits": "plunging"}),
)
PLUNGING_FIRE_RANGES: Final = ("Long", "Extreme")

# Torpedo table, 2d6: 10+ hits; on a hit 1d6 FS.
TORPEDO_HIT_FROM: Final = 10
TORPEDO_TARGET_TYPE_MODIFIER: Final = {"CL": -1, "CA": -1}
TORPEDO_SLOW_TARGET: Final = {"below_speed": 5, "modifier": 3}
TORPEDO_FIRER_TYPES: Final = ("CL",)
TORPEDO_RANGES: Final = ("Short",)
TORPEDO_WEATHERS: Final = ("Fair", "Fine")

# End of Turn, 1d6: 1-5 a new turn begins, 6+ the game is over.
END_OF_TURN: Final[tuple[Band, ...]] = ((None, 5, "continue"), (6, None, "game over"))
END_OF_TURN_MODIFIERS: Final = {
    "either ship closed": -1,
    "either ship withdrew": 1,
    "Misty": 1,
    "Stormy": 2,
}

# Damage codes and what each does to a ship.
DAMAGE_KEY: Final = {
    "F": "flotation hit: the ship sinks when F hits exceed its Flotation",
    "T": "turret/fire-control hit: at as many T hits as its Turret rating it cannot fire",
    "S": "speed hit: current speed drops by 2; at speed 0 it can only Offer Broadside",
}
SPEED_PER_S_HIT: Final = 2


def look_up(table: tuple[Band, ...], roll: int) -> Any:
    """The result of the band that holds ``roll``."""
    for low, high, result in table:
        if (low is None or roll >= low) and (high is None or roll <= high):
            return result
    raise ValueError(f"no band holds {roll}")  # the tables are closed at both ends


def band_text(table: tuple[Band, ...], roll: int) -> str:
    """The printed band that holds ``roll``, e.g. '9 & below' or '11+'."""
    for low, high, _ in table:
        if (low is None or roll >= low) and (high is None or roll <= high):
            if low is None:
                return f"{high} or less"
            if high is None:
                return f"{low}+"
            return str(low) if low == high else f"{low}-{high}"
    raise ValueError(f"no band holds {roll}")


def bands_text(table: tuple[Band, ...], names: dict[Any, str], lowest: int = 1) -> str:
    """A whole band table as one line, e.g. '1-3 player, 4+ enemy' (an open low end read
    from the die's ``lowest`` face), so a trail's text comes from the very rows it uses."""
    parts = []
    for low, high, result in table:
        start = lowest if low is None else low
        span = f"{start}+" if high is None else f"{start}-{high}"
        if start == high:
            span = str(start)
        parts.append(f"{span} {names.get(result, result)}")
    return ", ".join(parts)


def as_data() -> dict[str, Any]:
    """Every table, for GET /tables (the very objects the engine resolves with)."""

    def bands(table: tuple[Band, ...]) -> list[dict[str, Any]]:
        return [{"from": low, "to": high, "result": result} for low, high, result in table]

    return {
        "ranges": list(RANGES),
        "weather": {
            "dice": "2d6",
            "rows": bands(WEATHER),
            "initial_range_modifier": WEATHER_RANGE_MODIFIER,
        },
        "initial_range": {"dice": "2d6", "rows": bands(INITIAL_RANGE)},
        "initiative": {
            "dice": "1d6",
            "rows": bands(INITIATIVE),
            "modifiers": INITIATIVE_MODIFIERS,
        },
        "enemy_action": {
            "dice": "1d6",
            "rows": bands(ENEMY_ACTION),
            "modifiers": ENEMY_ACTION_MODIFIERS,
            "first_turn_last_action": FIRST_TURN_LAST_ACTION,
        },
        "actions": ACTION_EFFECTS,
        "fire_order_tie": {"dice": "1d6", "rows": bands(FIRE_ORDER_TIE)},
        "fire": {
            "dice": "2d6",
            "straddle_from": FIRE_STRADDLE_FROM,
            "weather_modifier": FIRE_WEATHER_MODIFIER,
            "previously_straddled_modifier": FIRE_PREVIOUSLY_STRADDLED,
            "shots_per_turn": SHOTS_PER_TURN,
        },
        "straddle": {
            "dice": "3d6",
            "rows": bands(STRADDLE),
            "range_modifier": STRADDLE_RANGE_MODIFIER,
            "per_firer_t_hit": STRADDLE_PER_FIRER_T_HIT,
            "empty_row_readings": STRADDLE_EMPTY_ROW,
            "gun_size_modifier": bands(STRADDLE_GUN_SIZE),
            "gun_size_modifier_printed": {
                str(size): value for size, value in STRADDLE_GUN_SIZE_PRINTED.items()
            },
            "gun_size_exempt_up_to_armor": STRADDLE_GUN_SIZE_EXEMPT_ARMOR,
        },
        "special_damage": {"dice": "2d6", "rows": bands(SPECIAL_DAMAGE)},
        "critical": {
            "dice": "2d6",
            "rows": bands(CRITICAL),
            "plunging_fire_ranges": list(PLUNGING_FIRE_RANGES),
            "plunging_fire": "2d6 minus target Armor = FS hits (never below 0)",
        },
        "torpedo": {
            "dice": "2d6",
            "hit_from": TORPEDO_HIT_FROM,
            "target_type_modifier": TORPEDO_TARGET_TYPE_MODIFIER,
            "slow_target": TORPEDO_SLOW_TARGET,
            "firer_types": list(TORPEDO_FIRER_TYPES),
            "ranges": list(TORPEDO_RANGES),
            "weathers": list(TORPEDO_WEATHERS),
            "damage": "1d6 FS",
        },
        "end_of_turn": {
            "dice": "1d6",
            "rows": bands(END_OF_TURN),
            "modifiers": END_OF_TURN_MODIFIERS,
        },
        "damage_key": DAMAGE_KEY,
        "speed_per_s_hit": SPEED_PER_S_HIT,
    }
