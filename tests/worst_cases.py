"""Every operation's most expensive request at its documented limits, as data.

``bench/worst_case.py`` measures these (CPU per request, nothing may pass 50 ms) and
``tests/test_worst_cases.py`` checks that every operation of the OpenAPI document has one
and that each is answered as written here. A new endpoint needs an entry: the test fails
until it has one.

Each case is the request at the limit that bounds its cost (the largest counts, the longest
lists, the branch of the rules that does the most work); ``past`` is, where a count bounds
the cost, the same request just over that limit, which must be refused.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.engine.budget import REQUEST_WORK
from service.engine.dice import MAX_SIDES
from service.engine.errors import LimitError, RuleError
from service.engine.notation import (
    MAX_NOTATION_DICE,
    MAX_NOTATION_DRAWS,
    MAX_NOTATION_LENGTH,
    MIN_CAP,
    Notation,
)
from service.engine.notation_odds import foreseen_units
from service.http.endpoints.seeds import EXAMPLE_TOKEN, MAX_REVEAL_IN
from service.http.endpoints.verify import VERIFY_BODY_BYTES
from service.http.fast.jsonbody import BYTES_PER_OBJECT, MAX_BODY_OBJECTS
from service.receipts.checking import MAX_LOG_ENTRIES
from service.rulesets.dreadnought.ships import MAX_BATTERIES
from service.rulesets.dreadnought.turn import MAX_PLOT, MAX_SALVOES, MAX_SHIPS
from service.rulesets.dreadnought.turn_odds import BRANCH_LIMIT as TURN_ODDS_BRANCHES
from service.rulesets.dreadnought.turn_odds import GAMES as TURN_ODDS_GAMES
from service.rulesets.salvo_grid.api import FLEET_A, LOOT_A
from tests.heat_views import view_at

Body = dict[str, Any] | list[Any] | None
# A body that depends on the running app (signed responses to verify): built by calling
# ``post(path, body) -> response document`` on the app under measurement.
BodyMaker = Callable[[Callable[[str, Any], Any]], Body]


@dataclass(frozen=True)
class Case:
    method: str
    path: str  # concrete path, as requested
    limit: str  # what bounds the cost, in words (the table's "limit" column)
    body: Body | BodyMaker = None
    status: int = 200
    template: str | None = None  # the document's path when it has parameters
    past: Body = None  # just over the limit
    past_status: int = 422
    budget_ms: float | None = None  # the 50 ms rule's one named exception: the advisor

    @property
    def operation(self) -> tuple[str, str]:
        return self.method.lower(), self.template or self.path


SEED = {"seed": "s" * 256, "nonce": 2**53 - 1}
PREV = "f" * 64
NAME = "N" * 60

# --- salvo-solo ---------------------------------------------------------------------------

SOLO = "/v1/rulesets/salvo-solo"


def solo_card(**figures: Any) -> dict[str, Any]:
    """A Salvo! card at its longest: 60-character name, 40-character nation."""
    return {
        "card": {
            "name": NAME,
            "type": "BB",
            "guns": 20,
            "broadside": 10,
            "stern": 10,
            "bow": 10,
            "flotation": 20,
            "turret": 20,
            "speed": 20,
            "armor": 20,
            "nation": "X" * 40,
            **figures,
        },
        "state": {"flotation_hits": 0, "turret_hits": 0, "speed_hits": 0},
    }


SOLO_SHIP = solo_card()
# The straddle tree is 3d6 whatever the ships; these two make every branch go on to hits.
STRADDLE_ODDS = {
    "firer": {"ship": "Graf Spee"},
    "target": {"ship": "Prinz Eugen"},
    "range": "Short",
    "guns_bearing": "bow",
}
# Of the nonces 1 to 200 with the seed "worst", the one whose answer has the most rolls
# (ties: the slowest), found by trying each once.
SOLO_ATTACK_SEED = {"seed": "worst", "nonce": 135}  # 5 rolls
SOLO_TURN_SEED = {"seed": "worst", "nonce": 141}  # 13 rolls

# A Salvo! game at its longest: cards at their limits, both straddled, at Short range.
SOLO_TURN_STATE = {
    "turn": 10_000,
    "weather": "Fine",
    "range": "Short",
    "player": SOLO_SHIP,
    "enemy": SOLO_SHIP,
    "enemy_last_action": "C",
    "player_has_straddled": True,
    "enemy_has_straddled": True,
}

SOLO_CASES = [
    Case("POST", f"{SOLO}/weather", "2d6", {"dice": SEED, "prev": PREV}),
    Case("POST", f"{SOLO}/weather/odds", "2d6 walked by total: 11 runs", {}),
    Case("POST", f"{SOLO}/range", "2d6", {"weather": "Stormy", "dice": SEED}),
    Case("POST", f"{SOLO}/range/odds", "2d6 by total: 11 runs", {"weather": "Fine"}),
    Case(
        "POST",
        f"{SOLO}/initiative",
        "1d6; inline cards at their longest",
        {"player": SOLO_SHIP, "enemy": SOLO_SHIP, "dice": SEED},
    ),
    Case(
        "POST",
        f"{SOLO}/initiative/odds",
        "1d6: 6 runs",
        {"player": SOLO_SHIP, "enemy": SOLO_SHIP},
    ),
    Case(
        "POST",
        f"{SOLO}/enemy-action",
        "1d6; inline cards",
        {"enemy": SOLO_SHIP, "player": SOLO_SHIP, "last_action": "C", "dice": SEED},
    ),
    Case(
        "POST",
        f"{SOLO}/enemy-action/odds",
        "1d6: 6 runs",
        {"enemy": SOLO_SHIP, "player": SOLO_SHIP, "last_action": "C"},
    ),
    Case(
        "POST",
        f"{SOLO}/maneuver",
        "no dice; inline cards",
        {
            "range": "Extreme",
            "player_action": "W",
            "enemy_action": "W",
            "player": SOLO_SHIP,
            "enemy": SOLO_SHIP,
        },
    ),
    Case(
        "POST",
        f"{SOLO}/fire",
        "2d6",
        {"range": "Short", "weather": "Fine", "previously_straddled": True, "dice": SEED},
    ),
    Case(
        "POST",
        f"{SOLO}/fire/odds",
        "2d6 by total: 11 runs",
        {"range": "Short", "weather": "Fine", "previously_straddled": True},
    ),
    Case(
        "POST",
        f"{SOLO}/straddle",
        "3d6; inline cards",
        {
            "firer": SOLO_SHIP,
            "target": SOLO_SHIP,
            "range": "Short",
            "guns_bearing": "broadside",
            "dice": SEED,
        },
    ),
    Case("POST", f"{SOLO}/straddle/odds", "3d6 by total: 16 runs (216 throws)", STRADDLE_ODDS),
    Case("POST", f"{SOLO}/special-damage", "2d6", {"dice": SEED}),
    Case("POST", f"{SOLO}/special-damage/odds", "2d6 by total: 11 runs", {}),
    Case(
        "POST",
        f"{SOLO}/critical",
        "2d6, then 2d6 for plunging fire",
        {"target": {"ship": "Hood"}, "range": "Long", "dice": {"values": [6, 6, 6, 6]}},
    ),
    Case(
        "POST",
        f"{SOLO}/critical/odds",
        "2d6, then 2d6 of plunging fire, by total: 21 runs (71 throws)",
        {"target": {"ship": "Hood"}, "range": "Long"},
    ),
    Case(
        "POST",
        f"{SOLO}/torpedo",
        "2d6, then 1d6 of damage",
        {
            "firer": {"ship": "Ajax"},
            "target": {"ship": "Hood"},
            "range": "Short",
            "weather": "Fair",
            "dice": SEED,
        },
    ),
    Case(
        "POST",
        f"{SOLO}/torpedo/odds",
        "2d6 by total, then 1d6 of damage: 26 runs (66 throws)",
        {
            "firer": {"ship": "Ajax"},
            "target": {"ship": "Hood"},
            "range": "Short",
            "weather": "Fair",
        },
    ),
    Case(
        "POST",
        f"{SOLO}/damage",
        "hits: 40 letters",
        {"ship": SOLO_SHIP, "hits": "FTS" * 13 + "F", "fire_control_lost": True},
        past={"ship": SOLO_SHIP, "hits": "F" * 41},
    ),
    Case(
        "POST",
        f"{SOLO}/end-of-turn",
        "1d6",
        {"weather": "Stormy", "player_action": "W", "enemy_action": "W", "dice": SEED},
    ),
    Case(
        "POST",
        f"{SOLO}/end-of-turn/odds",
        "1d6: 6 runs",
        {"weather": "Stormy", "player_action": "W", "enemy_action": "W"},
    ),
    Case(
        "POST",
        f"{SOLO}/attack",
        "every shot of the turn; inline cards",
        {
            "firer": SOLO_SHIP,
            "target": SOLO_SHIP,
            "range": "Short",
            "weather": "Fine",
            "guns_bearing": "broadside",
            "previously_straddled": True,
            "dice": SOLO_ATTACK_SEED,
        },
    ),
    Case(
        "POST",
        f"{SOLO}/turn",
        "a whole turn: both sides fire; turn 10000, where the count stops",
        {
            "state": SOLO_TURN_STATE,
            "player_action": "C",
            "dice": SOLO_TURN_SEED,
            "prev": PREV,
        },
        past={
            "state": {
                "turn": 10_001,
                "weather": "Fine",
                "range": "Short",
                "player": SOLO_SHIP,
                "enemy": SOLO_SHIP,
            },
            "player_action": "C",
        },
    ),
]

# The advisor's heaviest state: two cards at the figures' limits (flotation, turret and speed
# 20, so games are long and every turn fires), unarmoured, so every shot can go on to hits;
# light cruisers at Short range in Fine weather, so torpedoes too. Its games stop at the
# turn budget (docs/advice.md).
SOLO_ADVICE_CARD = solo_card(type="CL", guns=6, armor=0)
SOLO_ADVICE_STATE = {
    "turn": 2,
    "weather": "Fine",
    "range": "Short",
    "player": SOLO_ADVICE_CARD,
    "enemy": SOLO_ADVICE_CARD,
    "enemy_last_action": "C",
    "player_has_straddled": True,
    "enemy_has_straddled": True,
}
# The heaviest state measured cold: the same limits, but cards that differ (the enemy with
# 20 guns, armour 3 and its own bearing ratings), so the two sides share no table and a
# worker that has never seen them works out twice as many.
SOLO_ADVICE_DIFFERING = {
    **SOLO_ADVICE_STATE,
    "player": SOLO_ADVICE_CARD,
    "enemy": solo_card(type="CL", guns=20, armor=3, bow=0, stern=5, broadside=8),
}
ADVICE_BUDGET_MS = 250.0

SOLO_CASES += [
    Case(
        "POST",
        f"{SOLO}/attack/odds",
        "two shots at Short, previously straddled; inline cards whose modifiers spread the "
        "Straddle table over every row: 82 outcomes, the most of any inputs tried",
        {
            "firer": SOLO_SHIP,
            "target": solo_card(armor=10),
            "range": "Short",
            "weather": "Fine",
            "guns_bearing": "broadside",
            "previously_straddled": True,
        },
    ),
    Case(
        "POST",
        f"{SOLO}/advice",
        "3 Actions x up to 300 seeded games, 900 turns each (the turn budget); cards at "
        "their limits, both firing every turn, torpedoes",
        {"state": SOLO_ADVICE_STATE, "dice": SEED},
        budget_ms=ADVICE_BUDGET_MS,
    ),
    Case(
        "POST",
        f"{SOLO}/advice",
        "as above with cards that differ (20 guns, armour 3 against 6 guns, armour 0): no "
        "table shared between the sides, the heaviest state for a worker's first request",
        {"state": SOLO_ADVICE_DIFFERING, "dice": SEED},
        budget_ms=ADVICE_BUDGET_MS,
    ),
]

# --- dreadnought ---------------------------------------------------------------------------

DREAD = "/v1/rulesets/dreadnought"


def dread_card(ship_class: str = "Battleship", crew: str = "good", **figures: Any) -> Any:
    """A record card at its longest: 4 batteries (the first the main one), 40 barrels."""
    state = figures.pop("state", {})
    batteries: list[dict[str, float]] = [{"calibre": 12, "barrels": 40, "turrets": 2}]
    batteries += [{"calibre": 11 - n * 0.5, "barrels": 40} for n in range(MAX_BATTERIES - 1)]
    return {
        "card": {
            "name": NAME,
            "class": ship_class,
            "nationality": "British",
            "crew": crew,
            "batteries": figures.pop("batteries", batteries),
            **figures,
        },
        "state": state,
    }


# Every throw hits (to_hit 2), so every double goes on to the Critical Hits table, and a
# British battleship with two turrets left rolls both the two-turrets and the blow-up die.
DREAD_TARGET = dread_card(to_hit=2)
D8_LIGHT_GUNS = dread_card(
    "Armoured Cruiser",
    crew="average",
    batteries=[{"calibre": 4 - n / 10, "barrels": 40} for n in range(MAX_BATTERIES)],
)
DESTROYER = dread_card("Destroyer", batteries=[{"calibre": 4, "barrels": 3}])
# The heaviest fire tree: 2D8 and a D10 gunner die (a good British crew), every throw a hit
# on a British battleship with two main turrets left, so every double goes to the Critical
# Hits table and double 8 to the two-turrets and blow-up dice: 1,215 branches walked face by
# face (past the odds branch cap), 192 multisets of three dice for the exact odds.
FIRE_ODDS = {
    "firer": dread_card(),
    "battery": 12,
    "target": DREAD_TARGET,
    "distance": 1,
    "firer_turned": True,
    "first_time_at_target": True,
}
# The documented example: a D10 gunner die and criticals, 825 branches walked face by face.
FIRE_ODDS_EXAMPLE = {
    "firer": {"ship": "Queen Elizabeth"},
    "battery": 15,
    "target": {"ship": "Derfflinger"},
    "distance": 20,
}
# 2D6 and a D10 gunner die at a British battleship with two turrets, every throw a hit and
# 20 torpedoes: every double goes on to the Critical Hits table (455 branches face by face).
TORPEDO_ODDS = {
    "firer": dread_card("Destroyer", crew="good", batteries=[{"calibre": 4, "barrels": 3}]),
    "target": DREAD_TARGET,
    "distance": 1,
    "torpedoes": 20,
}

DREAD_CASES = [
    Case(
        "POST",
        f"{DREAD}/range",
        "no dice",
        {"calibre": 8, "target_class": "Armoured Cruiser", "distance": 1000},
    ),
    Case(
        "POST",
        f"{DREAD}/fire",
        f"2D8 + gunner die, a critical with its two extra dice; {MAX_BATTERIES} batteries a card",
        {
            "firer": dread_card(),
            "battery": 12,
            "target": DREAD_TARGET,
            "distance": 1,
            "firer_turned": True,
            "target_turned": True,
            "first_time_at_target": True,
            "more_than_one_ship_firing": True,
            "not_under_fire": True,
            "dice": {"values": [8, 8, 1, 6, 6]},
        },
        past={
            "firer": dread_card(
                batteries=[{"calibre": 12 - n, "barrels": 4} for n in range(MAX_BATTERIES + 1)]
            ),
            "battery": 12,
            "target": DREAD_TARGET,
            "distance": 1,
        },
    ),
    Case(
        "POST",
        f"{DREAD}/fire/odds",
        "2D8 + D10, every throw a hit, every double a critical with its own dice: 192 multisets",
        FIRE_ODDS,
    ),
    Case(
        "POST",
        f"{DREAD}/critical",
        "1d6 two turrets, 1d6 blow up",
        {"target": DREAD_TARGET, "throw": "double 8", "dice": {"values": [6, 6]}},
    ),
    Case(
        "POST",
        f"{DREAD}/critical/odds",
        "two turrets, then blow up, 1d6 each: 21 runs",
        {"target": DREAD_TARGET, "throw": "double 8"},
    ),
    Case(
        "POST",
        f"{DREAD}/torpedo",
        "2D6 + gunner die, a critical; 20 torpedoes",
        {
            "firer": dread_card("Destroyer", batteries=[{"calibre": 4, "barrels": 3}]),
            "target": DREAD_TARGET,
            "distance": 1,
            "torpedoes": 20,
            "dice": {"seed": "worst", "nonce": 132},  # a hit and a critical
        },
    ),
    Case(
        "POST",
        f"{DREAD}/torpedo/odds",
        "2D6 + D10, every throw a hit, every double a critical: 140 multisets",
        TORPEDO_ODDS,
    ),
    Case(
        "POST",
        f"{DREAD}/damage",
        f"10,000 points; {MAX_BATTERIES} batteries",
        {"ship": dread_card(damage_boxes=500), "points": 10_000, "critical_effect": "no effect"},
    ),
    Case(
        "POST",
        f"{DREAD}/rudder",
        "1d6",
        {"ship": dread_card(state={"rudder_jammed": "left"}), "dice": SEED},
    ),
    Case(
        "POST",
        f"{DREAD}/rudder/odds",
        "1d6: 6 runs",
        {"ship": dread_card(state={"rudder_jammed": "left"})},
    ),
]


# The heaviest turn: every ship of the action at its limits (an inline card of 4 batteries
# of 40 barrels, a 40-character side, a plot of the longest, every other ship fired at
# before), each firing every battery and two salvoes of 20 torpedoes at 1", every throw a
# hit on British battleships with two turrets left (so every double goes on to the
# Critical Hits table and its own dice), every rudder jammed so each rolls its repair.
# ``boxes``: 500, the most, spreads the damage the widest.
def _turn_ship(n: int, boxes: int) -> dict[str, Any]:
    side = ("A" if n % 2 else "B") * 40
    name = f"{n}" + "N" * 59
    ship = dread_card(to_hit=2, damage_boxes=boxes, state={"rudder_jammed": "straight ahead"})
    ship["card"]["name"] = name
    return {
        "side": side,
        "ship": ship,
        "plot": "P" * MAX_PLOT,
        "fired_at": [{"target": f"{m}" + "N" * 59, "turn": 1} for m in range(MAX_SHIPS) if m != n],
    }


def _turn_declaration(n: int, targets: list[int]) -> dict[str, Any]:
    aim = [f"{m}" + "N" * 59 for m in targets]
    batteries = [12] + [11 - k * 0.5 for k in range(MAX_BATTERIES - 1)]
    return {
        "ship": f"{n}" + "N" * 59,
        "formation": "other",
        "enemy_within_6": True,
        "orders": "O" * MAX_PLOT,
        "fire": [
            {"battery": b, "target": aim[k % len(aim)], "distance": 1}
            for k, b in enumerate(batteries)
        ],
        "torpedoes": [
            {"target": aim[k % len(aim)], "distance": 1, "torpedoes": 20}
            for k in range(MAX_SALVOES)
        ],
    }


def turn_body(spread: bool, boxes: int = 500) -> dict[str, Any]:
    """Every ship at its limits; ``spread``: each fires at every enemy in turn, else every
    ship of one side at one enemy (the most throws combined at one target)."""
    ships = [_turn_ship(n, boxes) for n in range(MAX_SHIPS)]
    enemies = {side: [m for m in range(MAX_SHIPS) if m % 2 != side] for side in (0, 1)}
    declarations = [
        _turn_declaration(n, enemies[n % 2] if spread else enemies[n % 2][:1])
        for n in range(MAX_SHIPS)
    ]
    return {"state": {"turn": 2, "ships": ships}, "declarations": declarations}


DREAD_CASES += [
    Case(
        "POST",
        f"{DREAD}/turn",
        f"{MAX_SHIPS} ships, {MAX_BATTERIES} batteries and {MAX_SALVOES} torpedo salvoes "
        "each, every throw a hit with its critical dice, every rudder rolled",
        {**turn_body(spread=True), "dice": SEED},
        past={**turn_body(spread=True), "dice": SEED, "declarations": [{"ship": "x"}] * 9},
    ),
    Case(
        "POST",
        f"{DREAD}/turn/odds",
        f"the same turn, every ship of a side at one enemy of 500 boxes: the exact odds would "
        f"pass {TURN_ODDS_BRANCHES:,} branches, so {TURN_ODDS_GAMES} seeded games of "
        f"{MAX_SHIPS * (MAX_BATTERIES + MAX_SALVOES)} throws",
        {**turn_body(spread=False), "dice": SEED},
    ),
    Case(
        "POST",
        f"{DREAD}/turn/odds",
        f"the same turn spread over the enemies, 82 boxes each: exact, 39,184 branches of the "
        f"{TURN_ODDS_BRANCHES:,}",
        {**turn_body(spread=True, boxes=82), "dice": SEED},
    ),
]

# --- fleet-action --------------------------------------------------------------------------

FLEET = "/v1/rulesets/fleet-action"
BATTLESHIP = {"class": "Battleship", "crew": "Veteran", "name": NAME}
FLEET_FIRE = {
    "firer": BATTLESHIP,
    "target": {"class": "Battleship", "name": NAME},
    "range": 1,
    "line_of_sight": True,
    "visibility": "Clear",
}
FLEET_TORPEDO = {**FLEET_FIRE, "firer": {"class": "Destroyer", "crew": "Veteran", "name": NAME}}

# A turn at the limits: 6 Elite Battleships a side, each named with the longest name.
FLEET_A_NAMES = [f"A{i}{'N' * 58}" for i in range(1, 7)]
FLEET_B_NAMES = [f"B{i}{'N' * 58}" for i in range(1, 7)]
FLEET_TURN_STATE = {
    "turn": 10_000,
    "visibility": "Clear",
    "ships": [
        {"name": name, "player": player, "class": "Battleship", "crew": "Elite"}
        for player, names in (("A", FLEET_A_NAMES), ("B", FLEET_B_NAMES))
        for name in names
    ],
    "first_pick": "A",
    "next_pick": "B",
    # every ship has gone but B's last
    "gone": [
        *(x for pair in zip(FLEET_A_NAMES[:5], FLEET_B_NAMES[:5], strict=True) for x in pair),
        FLEET_A_NAMES[5],
    ],
}


def fleet_guns(firer: str, target: str) -> dict[str, Any]:
    return {"ship": firer, "weapon": "guns", "target": target, "range": 1, "line_of_sight": True}


# Found by a search over random declarations: the exact walk would take 2.9 million
# branches, so auto walks to the limit, then plays the seeded games.
FLEET_ODDS_ORDER = [
    ("B6", "A2"), ("B1", "A3"), ("A3", "B1"), ("A4", "B3"), ("B2", "A1"), ("A5", "B2"),
    ("B5", "A2"), ("B3", "A3"), ("B4", "A1"), ("A1", "B2"), ("A6", "B1"), ("A2", "B3"),
]  # fmt: skip


def _fleet_name(short: str) -> str:
    return (FLEET_A_NAMES if short[0] == "A" else FLEET_B_NAMES)[int(short[1]) - 1]


FLEET_ODDS = {
    "state": {**FLEET_TURN_STATE, "next_pick": "A", "gone": []},
    "fire": [fleet_guns(_fleet_name(f), _fleet_name(t)) for f, t in FLEET_ODDS_ORDER],
    "method": "auto",
    "dice": SEED,
}

FLEET_CASES = [
    Case(
        "POST",
        f"{FLEET}/initiative",
        "1d6 each, ties rolled again",
        {"dice": {"seed": "worst", "nonce": 129}},  # 3 ties: 8 rolls
    ),
    Case("POST", f"{FLEET}/fire", "a battleship's 6 attack dice, each saved", FLEET_FIRE),
    Case("POST", f"{FLEET}/fire/odds", "6 attack dice, exact tallies", FLEET_FIRE),
    Case("POST", f"{FLEET}/torpedo", "torpedo dice", FLEET_TORPEDO),
    Case("POST", f"{FLEET}/torpedo/odds", "torpedo dice, exact tallies", FLEET_TORPEDO),
    Case(
        "POST",
        f"{FLEET}/damage",
        "no dice",
        {"ship": {"class": "Battleship", "name": NAME}, "hull_lost": 100, "catastrophic": True},
    ),
    Case(
        "POST",
        f"{FLEET}/turn",
        "12 ships, 11 gone: the last activation of the last turn, a battleship's 6 attack "
        "dice each saved, the state of the next turn",
        {
            "state": FLEET_TURN_STATE,
            "activation": {**fleet_guns(FLEET_B_NAMES[5], FLEET_A_NAMES[0]), "moved": 10},
            "rules": {"initiative-each-turn": "once-a-game"},
            "dice": SEED,
        },
    ),
    Case(
        "POST",
        f"{FLEET}/turn/odds",
        "12 battleships' declared fire whose exact walk is 2.9 million branches: the walk "
        "to the branch limit, then the seeded games",
        FLEET_ODDS,
    ),
    Case(
        "POST",
        f"{FLEET}/turn/odds",
        "12 battleships' declared fire in seeded games, as asked",
        {**FLEET_ODDS, "method": "monte-carlo"},
    ),
]

# --- salvo-grid ----------------------------------------------------------------------------

GRID = "/v1/rulesets/salvo-grid"
SQUARES = [f"{c}{r}" for r in range(1, 11) for c in "ABCDEFGHIJ"]
FLEET_SHIP_SQUARES = {s for ship in FLEET_A for s in ship["squares"]}
# Ten ships of ten squares each, every one at fault (sizes, gaps, overlaps, off the board).
BAD_FLEET = [
    {"ship": ship, "squares": [f"{c}{n}" for c in "ABCDEFGHIK"]}
    for n, ship in enumerate(["carrier", "battleship", "cruiser", "submarine", "destroyer"] * 2, 1)
]
OCEAN = {
    "fleet": FLEET_A,
    "loot": LOOT_A,  # captain a's documented ocean, as the API document shows it
    # every square fired on but the ships', so the captain still has a fleet afloat
    "shots_received": [s for s in SQUARES if s not in FLEET_SHIP_SQUARES],
    "contacts": sorted(FLEET_SHIP_SQUARES),
    "specials_used": [],
    "diving": False,
    "loot_bonus": 3,
}
SPECIALS = [
    {"ship": "carrier", "square": "E5"},
    {"ship": "battleship", "square": "C3"},
    {"ship": "cruiser", "column": "E"},
    {"ship": "destroyer", "square": "A1", "orientation": "horizontal"},
    {"ship": "submarine"},
]
# A salvo is at most 8 shots by the rules (5 ships afloat, +3 from loot); all on ships.
SHOTS = ["D1", "A3", "A4", "A5", "A6", "G5", "G6", "G7"]  # ships' squares no special covers
SIDE = {"ocean": OCEAN, "salvo": {"shots": SHOTS, "specials": SPECIALS}}
VIEW = {
    "misses": [s for s in SQUARES if s not in FLEET_SHIP_SQUARES][:83],
    "hits": sorted(FLEET_SHIP_SQUARES)[:16],
    "contacts": [],
    "sunk": [],
}

# The heat map's costliest views are the open ones with something to cover: hits and
# contacts apart (every pair move has work to do) and both counts (captain a's fleet).
HEAT_VIEW = {
    "misses": ["B2", "F5", "H3", "D8"],
    "hits": ["A1", "C3", "G6", "I9"],
    "contacts": ["A4", "E1"],
    "sunk": [],
}
HEAT_COUNTS = [
    {"ship": "cruiser", "squares": [f"{c}5" for c in "ABCDEFGHIJ"], "count": 2},
    {
        "ship": "carrier",
        "squares": [f"{c}{r}" for r in (3, 4, 5) for c in "BCD"],
        "count": 1,
        "hit": ["C3"],
    },
]

# Scattered hits with both counts: its 214 ways listed in most of the listing's budget, and
# counted exactly (994 layouts).
# Hits apart and a sonar row: its listing foreseen past a fifth of its budget (230,000), so
# not listed: drawn exactly.
HEAT_LISTED_OUT = {
    "view": {
        "misses": ["I1", "J7", "H5", "B6", "B4"],
        "hits": ["J1", "C4", "C5", "D3"],
        "contacts": [],
        "sunk": [],
    },
    "counts": [{"ship": "cruiser", "squares": [f"{c}2" for c in "ABCDEFGHIJ"], "count": 2}],
}
HEAT_SCATTERED = {
    "view": {
        "misses": ["B2", "F5", "H3", "D8", "J1"],
        "hits": ["A1", "G6", "I9", "C8"],
        "contacts": ["E1"],
        "sunk": [],
    },
    "counts": [
        {"ship": "cruiser", "squares": [f"{c}5" for c in "ABCDEFGHIJ"], "count": 3},
        {"ship": "carrier", "squares": [f"{c}{r}" for r in (7, 8, 9) for c in "FGH"], "count": 2},
    ],
}

# Named by bench/heatmap_views.py: the costliest legal view of 200 generated (56 ms of CPU
# before the heat map drew on the request's budget), the costliest of 300 views one step
# from them that is answered (54 ms), and the costliest refused (126 ms), which fits 36
# layouts: the search found none of them before it counted down the product's states.
HEAVIEST_VIEW = "heavy-49"
HEAVIEST_STEP = "heavy-88/m76"
HEAVIEST_IMPOSSIBLE = "heavy-150/m133"

GRID_CASES = [
    Case("POST", f"{GRID}/layout", "a random fleet placed", {"dice": SEED}),
    Case(
        "POST",
        f"{GRID}/layout",
        "10 ships of 10 squares checked",
        {"fleet": BAD_FLEET},
    ),
    Case(
        "POST",
        f"{GRID}/loot",
        "7 pieces placed",
        {"fleet": FLEET_A, "dice": SEED},
        past={"fleet": BAD_FLEET + [FLEET_A[0]]},
    ),
    Case(
        "POST",
        f"{GRID}/salvo",
        "8 shots (the rules' most) and every special a side; full oceans",
        {"a": SIDE, "b": SIDE, "dice": SEED},
        past={
            "a": {**SIDE, "salvo": {"shots": SQUARES[:21]}},
            "b": SIDE,
        },
    ),
    Case(
        "POST",
        f"{GRID}/computer",
        "100 squares known; full ocean",
        {"ocean": OCEAN, "view": VIEW, "dice": SEED},
    ),
    Case(
        "POST",
        f"{GRID}/computer",
        "level hard, nothing known yet: the heat map sampled at the hard captain's budget",
        {"ocean": OCEAN, "view": {}, "level": "hard", "dice": SEED},
    ),
    Case(
        "POST",
        f"{GRID}/heatmap",
        "hits, contacts, both counts: counted exactly (2,694 layouts)",
        {"view": HEAT_VIEW, "counts": HEAT_COUNTS, "dice": SEED},
        past={"view": HEAT_VIEW, "counts": HEAT_COUNTS * 2, "dice": SEED},
    ),
    Case(
        "POST",
        f"{GRID}/heatmap",
        "scattered hits, a contact, both counts: its ways listed, counted exactly (994)",
        {**HEAT_SCATTERED, "dice": SEED},
    ),
    Case(
        "POST",
        f"{GRID}/heatmap",
        "hits apart, a sonar row: too many ways to list, drawn exactly",
        {**HEAT_LISTED_OUT, "dice": SEED},
    ),
    # The heaviest views found among real fleets (tests/heat_views.py, bench/heatmap_views.py):
    # each search ends within the request's work budget.
    Case(
        "POST",
        f"{GRID}/heatmap",
        "a real fleet's heaviest view: hits, contacts, both counts; drawn in the budget",
        {**view_at(HEAVIEST_VIEW), "dice": SEED},
    ),
    Case(
        "POST",
        f"{GRID}/heatmap",
        "one step from a real fleet's view, still legal: counted in the budget",
        {**view_at(HEAVIEST_STEP), "dice": SEED},
    ),
    Case(
        "POST",
        f"{GRID}/heatmap",
        "one step from a real fleet's view, refused before, fits 36 layouts: counted",
        {**view_at(HEAVIEST_IMPOSSIBLE), "dice": SEED},
    ),
    Case("POST", f"{GRID}/rating", "no dice", {"a": 0, "b": 10_000, "result": "draw"}),
]

# --- dice, receipts, seeds, and the GETs -----------------------------------------------------


# With every die exploding 5 times and each die of the chain rerolled 5 times, a d6 draws 36
# dice (past the draws limit every cap is 5): 27 of them are the most that stay within it.
MOST_REROLLED = MAX_NOTATION_DRAWS // ((1 + MIN_CAP) * (1 + MIN_CAP))


def most_draws() -> list[int]:
    """Supplied dice that make 27d6r6!kh3 draw all it may: every die a 6, so each explodes
    to its cap and each die of the chain is rerolled into 6s to its cap."""
    return [6] * (MOST_REROLLED * (1 + MIN_CAP) * (1 + MIN_CAP))


def notation_terms() -> str:
    """As many NdS terms as 200 characters hold, at most 100 dice, the largest dice."""
    terms = [f"1d{MAX_SIDES - n}" for n in range(MAX_NOTATION_DICE)]
    text = ""
    for term in terms:
        if len(text) + len(term) + 1 + len("+10000") > 200:
            break
        text += ("+" if text else "") + term
    return text + "+10000"


# --- dice notation odds: every form of the grammar at the edge of the work budget ----------
#
# Each form is one way of writing a term (or a sum of terms) with ``n`` dice. Its case is the
# largest ``n`` whose odds the budget has room for (answered), and ``past`` the next one
# (refused, before the work: the refusal cases below hold it to the refusals' few ms). A form
# with no room even for one die is a refusal case. Every modifier of a term appears in some
# form: tests/test_worst_cases.py fails when one of the Term's fields is in none.
NOTATION_FORMS: list[Callable[[int], str]] = [
    lambda n: f"{n}d6",
    lambda n: f"{n}d10",
    lambda n: f"{n}d%",
    lambda n: f"{n}dF",
    lambda n: f"{n}d{MAX_SIDES}",
    lambda n: f"{n}d20r1",
    lambda n: f"{n}d20ro<3",
    lambda n: f"{n}d{MAX_SIDES}r<={MAX_SIDES - 1}",
    lambda n: f"{n}d%r>=2",
    lambda n: f"{n}d6min2",
    lambda n: f"{n}d6max4",
    lambda n: f"{n}d6!",
    lambda n: f"{n}d6!!",
    lambda n: f"{n}d%!>=2",
    lambda n: f"{n}d%!!>=2",
    lambda n: f"{n}d{MAX_SIDES}!",
    lambda n: f"{n}d6kh3",
    lambda n: f"{n}d20kl2",
    lambda n: f"{n}d6dh1",
    lambda n: f"{n}d10dl3",
    lambda n: f"{n}d20k1",
    lambda n: f"{n}d%>=50",
    lambda n: f"{n}d10>=8f1",
    lambda n: f"{n}d{MAX_SIDES}>=500f<10",
    lambda n: f"{n}d6r1!kh3",
    lambda n: f"{n}dF.1",
    lambda n: f"{n}d6!p",
    lambda n: f"{n}d10!!p>=9",
    lambda n: f"{n}d6d1",
    lambda n: f"{n}d10kh4dl1",
    lambda n: f"{n}d20<>10",
    lambda n: f"{n}d20cs>=19cf<=2sd",
    lambda n: f"{n}d20ro<3!kl1sa",
    lambda n: f"floor({n}d10*3/2)",  # arithmetic: each value of a term mapped
    lambda n: f"max({n}d6, {n}d6)",  # every pair of two terms' values
    lambda n: f"({n}d20+1)%7*{n}d4",
    lambda n: "{" + ", ".join([f"{n}d6"] * 6) + "}kh3",  # a roll group's fold
    lambda n: f"{n}d10u",  # unique dice: their odds are refused, at once
    lambda n: f"{n}d10uo>5",
    lambda n: f"{n}d6!!kl1>=4f1",
    lambda n: f"{n}d12ro10min3max11",
    lambda n: f"{n}d%!dl2",
    lambda n: f"{n}d12ro10+{n}d12min3-{n}d%r>=63",
    lambda n: "+".join(["d6"] * n),  # a long sum
    lambda n: "+".join([f"d{MAX_SIDES}r1"] * n),
]


def _odds_fit(text: str) -> bool | None:
    """Whether the odds of ``text`` fit the budget (None: it does not read, or a limit of
    the notation itself refuses it)."""
    if len(text) > MAX_NOTATION_LENGTH:
        return None
    try:
        notation = Notation.parse(text)
    except RuleError:
        return None
    try:
        return foreseen_units(notation) <= REQUEST_WORK
    except LimitError:  # odds the service does not work out (unique dice), refused at once
        return False


def notation_odds_cases() -> list[Case]:
    """Every form at the edge of the budget, found by counting up its dice."""
    cases = []
    for form in NOTATION_FORMS:
        most = 0
        for n in range(1, MAX_NOTATION_DICE + 1):
            fits = _odds_fit(form(n))
            if not fits:
                break
            most = n
        if most == 0:
            cases.append(_refusal("/v1/dice/odds", f"refused: {form(1)}", {"notation": form(1)}))
            continue
        past = {"notation": form(most + 1)}
        cases.append(
            Case(
                "POST",
                "/v1/dice/odds",
                f"{form(most)}: the most dice of this form within the work budget",
                {"notation": form(most)},
                past=past,
            )
        )
        if _odds_fit(form(most + 1)) is False:
            cases.append(
                _refusal("/v1/dice/odds", f"refused: {form(most + 1)}, just past the budget", past)
            )
    return cases


def _most_terms(term: Callable[[int], str]) -> str:
    """As many terms as 200 characters hold, each ``term(i)`` (distinct, where it can be)."""
    text = term(0)
    for i in range(1, MAX_NOTATION_DICE):
        longer = f"{text}+{term(i)}"
        if len(longer) > MAX_NOTATION_LENGTH:
            break
        text = longer
    return text


# Notations whose odds once cost seconds or were refused only after the work, and the
# refusals the odds foresee at the most cost: terms that each cost little to foresee alone
# but much together, as many as 200 characters hold. Each is answered within the budget or
# refused before the work, whichever the budget says.
HARD_NOTATIONS = [
    f"1d{MAX_SIDES}r<={MAX_SIDES - 1}",
    f"2d{MAX_SIDES}r>=2",
    "+".join(["1d%r>=2"] * 6),
    "4d12ro10 + 4d12min3-5d%r>=63",
    "+".join(["d6"] * 67),
    "3d%!>=2",
    "100d10",
    _most_terms(lambda i: f"d{MAX_SIDES - i}r<{MAX_SIDES - i}"),
    _most_terms(lambda i: f"1d{MAX_SIDES}r<={MAX_SIDES - 1}"),
    _most_terms(lambda i: "1d%!>=2"),
    _most_terms(lambda i: f"1d{MAX_SIDES - i}kh1"),
    _most_terms(lambda i: f"d{MAX_SIDES - i}!!>=2"),
    "10d10*10d10",
    _most_terms(lambda i: f"max(d{MAX_SIDES - i},d{MAX_SIDES - 1 - i})"),
    _most_terms(lambda i: f"floor(d{MAX_SIDES - i}/3)"),
]


def tiny_values_log(post: Callable[[str, Any], Any]) -> Body:
    """100 signed answers, each padded with one-digit numbers until the verify route's body
    limit is full: the most JSON values a body holds, which would each be decoded, walked
    into canonical JSON and signature-checked; refused from its bytes for the work."""
    entry = post("/v1/dice/roll", {"notation": "1d6", "dice": SEED})
    room = (VERIFY_BODY_BYTES - MAX_LOG_ENTRIES * (len(json.dumps(entry)) + 10)) // MAX_LOG_ENTRIES
    return [{**entry, "x": [1] * (room // 3)} for _ in range(MAX_LOG_ENTRIES)]  # "1, " each


def signed_log(post: Callable[[str, Any], Any]) -> Body:
    """A game log of 100-dice rolls, as long as the checker takes (100 entries, 10,000 dice,
    well within the route's own body limit), chained."""
    log: list[Any] = []
    size = 2
    prev = None
    nonce = 1
    while True:
        body: dict[str, Any] = {
            "notation": f"{MAX_NOTATION_DICE}d{MAX_SIDES}",
            "dice": {"seed": "s" * 256, "nonce": nonce},
        }
        if prev:
            body["prev"] = prev
        entry = post("/v1/dice/roll", body)
        grown = size + len(json.dumps(entry)) + 2
        if grown > VERIFY_BODY_BYTES or len(log) == MAX_LOG_ENTRIES:
            return log
        log.append(entry)
        size = grown
        prev = hashlib.sha256(entry["receipt"].encode()).hexdigest()
        nonce += 1


def _chained(
    post: Callable[[str, Any], Any],
    path: str,
    body: Callable[[int], Any],
    entries: int = MAX_LOG_ENTRIES,
) -> Body:
    """A log of ``entries`` answers of ``path``, each chained to the one before (``prev``)."""
    log: list[Any] = []
    for nonce in range(1, entries + 1):
        asked = body(nonce)
        if log:
            asked["prev"] = hashlib.sha256(log[-1]["receipt"].encode()).hexdigest()
        log.append(post(path, asked))
    return log


def fleet_action_log(post: Callable[[str, Any], Any]) -> Body:
    """100 chained fleet-action turn answers at their limits (names at their longest)."""
    return _chained(
        post,
        f"{FLEET}/turn",
        lambda nonce: {
            "state": FLEET_TURN_STATE,
            "activation": {**fleet_guns(FLEET_B_NAMES[5], FLEET_A_NAMES[0]), "moved": 10},
            "dice": {"seed": "fleet-game", "nonce": nonce},
        },
    )


def salvo_log(post: Callable[[str, Any], Any], turns: int = MAX_LOG_ENTRIES) -> Body:
    """Chained Salvo! turn answers, cards at their longest: 100 of them, the largest real
    game, no longer fit one request's work (each turn answer names both ships' status and
    Actions); the most that do are checked whole, and the rest in a part of their own."""
    return _chained(
        post,
        f"{SOLO}/turn",
        lambda nonce: {
            "state": SOLO_TURN_STATE,
            "player_action": "C",
            "dice": {"seed": "salvo-game", "nonce": nonce},
        },
        turns,
    )


SALVO_LOG_WHOLE = 80  # chained turns of cards at their longest checked at once, with room


OTHER_CASES = [
    Case(
        "POST",
        "/v1/dice/roll",
        f"{MAX_NOTATION_DICE} dice of {MAX_SIDES} sides",
        {"notation": f"{MAX_NOTATION_DICE}d{MAX_SIDES}", "dice": SEED, "prev": PREV},
        past={"notation": f"{MAX_NOTATION_DICE + 1}d{MAX_SIDES}"},
    ),
    Case(
        "POST",
        "/v1/dice/roll",
        "200 characters of notation: as many terms as fit",
        {"notation": notation_terms(), "dice": SEED},
    ),
    Case(
        "POST",
        "/v1/dice/roll",
        f"{MAX_NOTATION_DRAWS} dice drawn at most: every die rerolled and exploded to its caps",
        {"notation": f"{MOST_REROLLED}d6r6!kh3", "dice": {"values": most_draws()}},
        past={"notation": f"{MOST_REROLLED + 1}d6r6!kh3"},
    ),
    Case(
        "POST",
        "/v1/receipts/verify",
        f"a Salvo! game of {SALVO_LOG_WHOLE} chained turns, cards at their longest (about 760 KB)",
        functools.partial(salvo_log, turns=SALVO_LOG_WHOLE),
    ),
    Case(
        "POST",
        "/v1/receipts/verify",
        "refused: a Salvo! game of 100 chained turns, cards at their longest (about 940 KB): "
        "checked in two parts",
        salvo_log,
        status=422,
    ),
    Case(
        "POST",
        "/v1/receipts/verify",
        "a whole fleet-action game of 100 chained turns, names at their longest",
        fleet_action_log,
    ),
    Case(
        "POST",
        "/v1/receipts/verify",
        "100 entries of 100-dice rolls: the checker's 10,000 dice",
        signed_log,
    ),
    Case("POST", "/v1/seeds", "one seal and a receipt", {"reveal_in": MAX_REVEAL_IN, "prev": PREV}),
    Case("POST", "/v1/seeds/reveal", "one token opened", {"sealed": EXAMPLE_TOKEN}),
    Case(
        "POST",
        "/v1/games",
        "a ruleset's readings validated and signed",
        {"ruleset": "salvo-solo", "rules": {"straddle-21-plus": "no-effect"}, "prev": PREV},
    ),
    Case("GET", "/.well-known/jwks.json", "every key"),
    Case("GET", "/healthz", "none"),
    Case("GET", "/readyz", "none"),
    Case("GET", "/v1/rulesets", "every ruleset"),
    Case(
        "GET",
        "/v1/rulesets/salvo-solo",
        "the ruleset with the most rulings",
        template="/v1/rulesets/{ruleset}",
    ),
    Case(
        "GET",
        "/v1/rulesets/dreadnought/ships",
        "the longest catalog",
        template="/v1/rulesets/{ruleset}/ships",
    ),
    Case(
        "GET",
        "/v1/rulesets/dreadnought/tables",
        "the largest tables",
        template="/v1/rulesets/{ruleset}/tables",
    ),
]

# Not in the OpenAPI document, served all the same.
UNDOCUMENTED = [
    Case("GET", "/metrics", "every series of every step"),
    Case("GET", "/openapi.json", "the whole document"),
    Case("GET", "/docs/", "the page"),
]

# --- refusals: whatever a body under the limit holds, refused for a few ms -----------------

REFUSAL_BUDGET_MS = 5.0
BODY_ROOM = 60 * 1024  # a body under the 64 KiB limit, with room for the rest of it
BODY_OBJECTS = 64 * 1024 // BYTES_PER_OBJECT  # the most objects such a body may open


def flood(item: Any, room: int = BODY_ROOM) -> list[Any]:
    """As many copies of ``item`` as ``room`` bytes of JSON hold."""
    return [item] * (room // (len(json.dumps(item)) + 2))


STRADDLE = {
    "firer": {"ship": "Ajax"},
    "target": {"ship": "Graf Spee"},
    "range": "Long",
    "guns_bearing": "bow",
}


def _refusal(path: str, limit: str, body: Body | BodyMaker, status: int = 422) -> Case:
    return Case("POST", path, limit, body, status=status, budget_ms=REFUSAL_BUDGET_MS)


REFUSAL_CASES = [
    _refusal(
        f"{GRID}/heatmap", "refused: 64 KiB of empty counts", {"view": {}, "counts": flood({})}
    ),
    _refusal(
        f"{GRID}/heatmap",
        "refused: empty counts, as many objects as the body may open",
        {"view": {}, "counts": [{}] * (BODY_OBJECTS - 2)},
    ),
    _refusal(
        f"{DREAD}/fire",
        "refused: 64 KiB of empty batteries on a card",
        {"firer": {**dread_card(), "batteries": flood({})}, "target": DREAD_TARGET, "battery": 1},
    ),
    _refusal(
        f"{SOLO}/straddle", "refused: 64 KiB of dice", {**STRADDLE, "dice": {"values": flood(0)}}
    ),
    _refusal(
        f"{GRID}/computer",
        "refused: every list at its length, every item a long wrong string",
        {
            "ocean": {**OCEAN, "shots_received": ["Z" * 300] * 100},
            "view": {"misses": ["Z" * 300] * 100},
        },
    ),
    _refusal(
        f"{SOLO}/straddle",
        "refused: 64 KiB of unknown member names",
        {**STRADDLE, **{f"x{i}": 0 for i in range(5000)}},
    ),
    _refusal(
        f"{FLEET}/fire/odds",
        "refused: a lone surrogate deep in 64 KiB",
        {**FLEET_FIRE, "target": {"class": "Battleship", "name": "\ud800"}, "pad": flood("x")},
        status=400,
    ),
    _refusal("/v1/receipts/verify", "refused: a log of 64 KiB of empty entries", flood({})),
    _refusal(
        "/v1/receipts/verify",
        "refused: a log of 65,000 empty entries, past the objects a body may open",
        [{}] * 65_000,
    ),
    _refusal(
        "/v1/receipts/verify",
        "refused: a log of as many empty entries as a body may open, read and too long",
        [{}] * (MAX_BODY_OBJECTS - 1),
    ),
    _refusal(
        "/v1/receipts/verify",
        'refused: as many {"a": 0} entries as a body may open, read and too long',
        [{"a": 0}] * (MAX_BODY_OBJECTS - 1),
    ),
    _refusal(
        "/v1/receipts/verify",
        "refused: the route's body limit (1 MiB) of the tiniest JSON values in 100 entries",
        tiny_values_log,
    ),
    _refusal(
        "/v1/receipts/verify",
        "refused: 1 MiB of zeros",
        [0] * (VERIFY_BODY_BYTES // len("0, ") - 1),
    ),
    _refusal(
        "/v1/receipts/verify",
        "refused: one object of the most members 1 MiB holds",
        {f"{i:05x}": 0 for i in range(VERIFY_BODY_BYTES // len('"00000": 0, ') - 1)},
    ),
    _refusal("/v1/dice/roll", "refused: notation that does not read", {"notation": "d" * 200}),
]

NOTATION_ODDS_CASES = [
    *notation_odds_cases(),
    *[
        Case("POST", "/v1/dice/odds", f"answered: {text}", {"notation": text})
        if _odds_fit(text)
        else _refusal("/v1/dice/odds", f"refused: {text}", {"notation": text})
        for text in HARD_NOTATIONS
    ],
]

WORST_CASES: list[Case] = [
    *SOLO_CASES,
    *DREAD_CASES,
    *FLEET_CASES,
    *GRID_CASES,
    *OTHER_CASES,
    *NOTATION_ODDS_CASES,
    *UNDOCUMENTED,
    *REFUSAL_CASES,
]
# The plain step every figure is compared with: salvo-solo straddle with supplied dice.
PLAIN = Case(
    "POST",
    f"{SOLO}/straddle",
    "plain step",
    {
        "firer": {"ship": "Ajax"},
        "target": {"ship": "Graf Spee"},
        "range": "Long",
        "guns_bearing": "bow",
        "dice": {"values": [6, 4, 2]},
    },
)
