"""HTTP face of SALVO: one line per step to register it. Each step's inputs are its
shape (fleet.py, salvo.py, computer.py, heatmap/step.py, rating.py), which its request
schema and components are derived from."""

from __future__ import annotations

from flask_smorest import Blueprint

from ...http.document.components import EnumType
from ...http.endpoints.contract import RulesetAPI
from ...http.endpoints.steps import StepHTTP, register_steps
from ...http.pictures import heat_map
from . import RULESET, hard, results
from . import heatmap as hm
from . import tables as t
from .fleet import LayoutInput, LootInput
from .rating import RatingInput
from .salvo import SalvoInput

blp = Blueprint(
    "salvo-grid",
    __name__,
    url_prefix="/v1/rulesets/salvo-grid",
    description="SALVO: two-captain grid game with simultaneous salvos, specials, loot, Elo.",
)

# The fixed sets GET /ships refers to.
SHIP = EnumType.of(results.SalvoGridShip)
SPECIAL = EnumType.of(results.SalvoGridSpecialName)


# --- registration ---------------------------------------------------------------------------

SEED = {"seed": "game-42", "nonce": 1}
FLEET_A = [
    {"ship": "carrier", "squares": ["A1", "B1", "C1", "D1", "E1"]},
    {"ship": "battleship", "squares": ["A3", "A4", "A5", "A6"]},
    {"ship": "cruiser", "squares": ["C3", "D3", "E3"]},
    {"ship": "submarine", "squares": ["G5", "G6", "G7"]},
    {"ship": "destroyer", "squares": ["I9", "J9"]},
]
FLEET_B = [
    {"ship": "carrier", "squares": ["J1", "J2", "J3", "J4", "J5"]},
    {"ship": "battleship", "squares": ["B8", "C8", "D8", "E8"]},
    {"ship": "cruiser", "squares": ["E4", "E5", "E6"]},
    {"ship": "submarine", "squares": ["G2", "H2", "I2"]},
    {"ship": "destroyer", "squares": ["A10", "B10"]},
]
LOOT_A = [
    {"square": "F1", "kind": "crate"},
    {"square": "B5", "kind": "crate"},
    {"square": "H8", "kind": "crate"},
    {"square": "D6", "kind": "mine"},
    {"square": "J3", "kind": "mine"},
    {"square": "E9", "kind": "radar-buoy"},
    {"square": "C10", "kind": "radar-buoy"},
]
LOOT_B = [
    {"square": "A1", "kind": "crate"},
    {"square": "F5", "kind": "crate"},
    {"square": "C3", "kind": "crate"},
    {"square": "H9", "kind": "mine"},
    {"square": "D1", "kind": "mine"},
    {"square": "G7", "kind": "radar-buoy"},
    {"square": "B4", "kind": "radar-buoy"},
]
OCEAN_A = {"fleet": FLEET_A, "loot": LOOT_A, "shots_received": [], "contacts": []}
OCEAN_B = {"fleet": FLEET_B, "loot": LOOT_B, "shots_received": [], "contacts": []}


STEPS = [
    StepHTTP(
        name="layout",
        inputs=LayoutInput,
        result=results.SalvoGridLayoutResult,
        example={"dice": SEED},
    ),
    StepHTTP(
        name="loot",
        inputs=LootInput,
        result=results.SalvoGridLootResult,
        example={"fleet": FLEET_A, "dice": SEED},
    ),
    StepHTTP(
        name="salvo",
        inputs=SalvoInput,
        result=results.SalvoGridSalvoResult,
        example={
            "a": {
                "ocean": OCEAN_A,
                "salvo": {
                    "shots": ["E5", "B8", "H2", "A1", "F6"],
                    "specials": [{"ship": "cruiser", "column": "E"}],
                },
            },
            "b": {
                "ocean": OCEAN_B,
                "salvo": {
                    "shots": ["A1", "A2", "C5", "G5", "J10"],
                    "specials": [{"ship": "battleship", "square": "C3"}],
                },
            },
            "dice": SEED,
        },
    ),
    StepHTTP(
        name="computer",
        inputs=hard.LevelledInput,
        result=results.SalvoGridComputerResult,
        example={
            "ocean": OCEAN_B,
            "view": {"misses": ["A2", "C5"], "hits": ["A1"], "contacts": [], "sunk": []},
            "level": "standard",
            "dice": SEED,
        },
    ),
    StepHTTP(
        name="heatmap",
        inputs=hm.HeatmapInput,
        result=results.SalvoGridHeatmapResult,
        example={
            "view": {
                "misses": ["A2", "C5", "D6", "F3", "H8", "B9"],
                "hits": ["A1", "B1"],
                "contacts": [],
                "sunk": [{"ship": "destroyer", "squares": ["J9", "J10"]}],
            },
            "counts": [
                {
                    "ship": "cruiser",
                    "squares": [f"{c}1" for c in t.COLUMNS],
                    "count": 3,
                    "hit": ["A1", "B1"],
                }
            ],
            "dice": SEED,
        },
        picture=heat_map,
    ),
    StepHTTP(
        name="rating",
        inputs=RatingInput,
        result=results.SalvoGridRatingResult,
        example={"a": 1000, "b": 1000, "result": "a-wins"},
    ),
]

register_steps(blp, RULESET, STEPS)

API = RulesetAPI(
    ruleset=RULESET,
    blueprint=blp,
    results=results.STEP_RESULTS,
    shape_refs={"ship": SHIP.name, "special": SPECIAL.name},
)
