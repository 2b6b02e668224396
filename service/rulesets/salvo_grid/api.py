"""HTTP face of SALVO: request schemas, one line per step to register it."""

from __future__ import annotations

import re
from typing import Any

from flask_smorest import Blueprint
from marshmallow import Schema, fields, post_load, validate

from ...http.document.components import EnumType, pattern_component
from ...http.document.derive import same_shape
from ...http.document.fields import BoundedList, StrictBoolean, StrictInteger
from ...http.endpoints.contract import RulesetAPI
from ...http.endpoints.steps import StepHTTP, inputs, register_steps
from ...http.pictures import heat_map
from . import RULESET, hard, results
from . import heatmap as hm
from . import tables as t
from .computer import ComputerInput, View
from .fleet import LayoutInput, LootInput, LootPiece, Ocean, Placement, parse
from .rating import RatingInput
from .salvo import Salvo, SalvoInput, Side, Special

blp = Blueprint(
    "salvo-grid",
    __name__,
    url_prefix="/v1/rulesets/salvo-grid",
    description="SALVO: two-captain grid game with simultaneous salvos, specials, loot, Elo.",
)

# The two forms of a square (results.py), each a component: a square field refers to its own.
SQUARE_COMPONENTS = {
    marker.pattern: marker.name
    for marker in map(pattern_component, (results.SalvoGridSquare, results.SalvoGridAnySquare))
}
BOARD_SQUARE, ANY_SQUARE = SQUARE_COMPONENTS
MAX_SHOTS = 20
MAX_SPECIALS = 10
MAX_FLEET = 10
MAX_SHIP_SQUARES = 10
SQUARES_ON_BOARD = len(t.COLUMNS) * t.ROWS

SHIP = EnumType.of(results.SalvoGridShip)
LOOT_KIND = EnumType.of(results.SalvoGridLootKind)
ORIENTATION = EnumType.of(results.SalvoGridOrientation)
COLUMN = EnumType.of(results.SalvoGridColumn)
RATING_RESULT = EnumType.of(results.SalvoGridBattleResult)
LEVEL = EnumType.of(results.SalvoGridComputerLevel)
SPECIAL = EnumType.of(results.SalvoGridSpecialName)
COUNTING_SHIP = EnumType(
    "SalvoGridCountingShip",
    tuple(ship for ship, spec in t.SPECIALS.items() if spec["effect"] == "count"),
    "A ship whose special counts: the carrier's recon flight, the cruiser's sonar sweep.",
)
MAX_COUNT_SQUARES = max(len(t.COLUMNS), t.ROWS)


class SalvoGridSquare(fields.String):
    """A square like C5, read as (column, row); documented as its component."""

    default_error_messages = {"invalid": "Not a square: write a column letter and a row, like C5."}

    def __init__(self, pattern: str = BOARD_SQUARE, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pattern = re.compile(pattern)
        self.component = SQUARE_COMPONENTS[pattern]

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        # A JSON string is a str already: String's own checks would hand it back as it is
        # (a request holds some sixty squares).
        text = value if type(value) is str else super()._deserialize(value, attr, data, **kwargs)
        if not self.pattern.fullmatch(text):
            raise self.make_error("invalid")
        return parse(text)


def _squares(most: int, pattern: str = BOARD_SQUARE, **kwargs: Any) -> BoundedList:
    return BoundedList(SalvoGridSquare(pattern), most=most, **kwargs)


# --- requests ------------------------------------------------------------------------------


class SalvoGridPlacementSchema(Schema):
    """One ship and the squares it covers: sent in any order; a layout answers them in
    reading order, ready to send back as a fleet."""

    ship = SHIP.field(required=True)
    squares = BoundedList(
        SalvoGridSquare(ANY_SQUARE), required=True, least=1, most=MAX_SHIP_SQUARES
    )

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Placement:
        return Placement(data["ship"], tuple(data["squares"]))


def _fleet(**kwargs: Any) -> BoundedList:
    kwargs.setdefault("metadata", {"description": "The five ships, each with its squares"})
    return BoundedList(fields.Nested(SalvoGridPlacementSchema), least=1, most=MAX_FLEET, **kwargs)


class SalvoGridLootPieceSchema(Schema):
    square = SalvoGridSquare(required=True)
    kind = LOOT_KIND.field(required=True)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> LootPiece:
        return LootPiece(data["square"], data["kind"])


class SalvoGridOceanSchema(Schema):
    """One captain's ocean as the app holds it: send back what the last round returned."""

    fleet = _fleet(required=True)
    loot = BoundedList(
        fields.Nested(SalvoGridLootPieceSchema),
        required=True,
        least=t.LOOT_PER_OCEAN,
        most=t.LOOT_PER_OCEAN,
        metadata={"description": "The seven pieces hidden in this ocean, found or not"},
    )
    shots_received = _squares(
        SQUARES_ON_BOARD,
        load_default=list,
        metadata={"description": "Squares the rival has fired on to effect, each once"},
    )
    contacts = _squares(
        t.FLEET_SQUARES,
        load_default=list,
        metadata={"description": "Ship squares the rival knows as contacts and may fire at"},
    )
    specials_used = BoundedList(
        SHIP.field(),
        load_default=list,
        most=len(t.FLEET),
        metadata={"description": "Ships whose special this captain has used"},
    )
    diving = StrictBoolean(
        load_default=False,
        metadata={"description": "This captain's submarine dives during the rival's salvo"},
    )
    loot_bonus = StrictInteger(
        load_default=0,
        validate=validate.Range(min=t.LOOT_BONUS_RANGE[0], max=t.LOOT_BONUS_RANGE[1]),
        metadata={"description": "Shots this captain's last salvo found, for this salvo only"},
    )

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Ocean:
        return Ocean(
            fleet=tuple(data["fleet"]),
            loot=tuple(data["loot"]),
            shots_received=tuple(data["shots_received"]),
            contacts=tuple(data["contacts"]),
            specials_used=tuple(data["specials_used"]),
            diving=data["diving"],
            loot_bonus=data["loot_bonus"],
        )


class SalvoGridSpecialSchema(Schema):
    """A special: the ship, and what its table entry says to aim it with."""

    ship = SHIP.field(required=True)
    square = SalvoGridSquare(
        metadata={
            "description": "carrier: centre of the 3x3; battleship: top-left of the 2x2; "
            "destroyer: top or left end of the line of 3",
            "example": "C5",
        }
    )
    orientation = ORIENTATION.field(metadata={"description": "destroyer only"})
    row = StrictInteger(
        validate=validate.Range(min=1, max=t.ROWS), metadata={"description": "cruiser: a row"}
    )
    column = COLUMN.field(metadata={"description": "cruiser: a column"})

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Special:
        return Special(**data)


class SalvoGridSalvoSchema(Schema):
    """One captain's salvo: its shots and the specials fired with them."""

    shots = _squares(MAX_SHOTS, load_default=list)
    specials = BoundedList(
        fields.Nested(SalvoGridSpecialSchema), load_default=list, most=MAX_SPECIALS
    )

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Salvo:
        return Salvo(tuple(data["shots"]), tuple(data["specials"]))


class SalvoGridSideSchema(Schema):
    ocean = fields.Nested(SalvoGridOceanSchema, required=True)
    salvo = fields.Nested(SalvoGridSalvoSchema, required=True)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> Side:
        return Side(data["ocean"], data["salvo"])


class SalvoGridSunkShipSchema(Schema):
    """A sunk ship and its squares."""

    ship = SHIP.field(required=True)
    squares = _squares(5, required=True)


class SalvoGridViewSchema(Schema):
    """What one captain knows of the enemy ocean: the salvo step hands it back as `view`,
    and the computer and heat map steps take it as `view`, as it is, with, optionally,
    which contacts a dive gave away (the salvo's `told.fire` says `contact` for a shot on
    the diving submarine; a radar buoy's contact may be any ship)."""

    misses = _squares(SQUARES_ON_BOARD, load_default=list)
    hits = _squares(t.FLEET_SQUARES, load_default=list)
    contacts = _squares(t.FLEET_SQUARES, load_default=list)
    sunk = BoundedList(fields.Nested(SalvoGridSunkShipSchema), load_default=list, most=len(t.FLEET))
    dive_contacts = _squares(
        t.SHIP_SIZES["submarine"],
        load_default=list,
        metadata={
            "description": "Squares a shot found the diving submarine on, as the captain "
            "marks them (the salvo step never writes it): each listed under `contacts` (or "
            "`hits`, or the sunk submarine's squares, once fired on again)"
        },
    )

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> View:
        return View(
            tuple(data["misses"]),
            tuple(data["hits"]),
            tuple(data["contacts"]),
            tuple((s["ship"], tuple(s["squares"])) for s in data["sunk"]),
            tuple(data["dive_contacts"]),
        )


class SalvoGridLayoutInputs(Schema):
    fleet = _fleet(metadata={"description": "Leave out for a random fleet; send to check it"})


class SalvoGridLootInputs(Schema):
    fleet = _fleet(required=True)


class SalvoGridSalvoInputs(Schema):
    a = fields.Nested(SalvoGridSideSchema, required=True)
    b = fields.Nested(SalvoGridSideSchema, required=True)


class SalvoGridComputerInputs(Schema):
    ocean = fields.Nested(SalvoGridOceanSchema, required=True)
    view = fields.Nested(SalvoGridViewSchema, required=True)
    level = LEVEL.field(load_default="standard")


class SalvoGridCountSchema(Schema):
    """A recon flight's or sonar sweep's count: `ship`, `squares` and `count` as `told`
    reported them, and `hit`, the squares of that area the view showed hit or sunk when it
    counted (the view handed back with that count)."""

    ship = COUNTING_SHIP.field(required=True)
    squares = _squares(MAX_COUNT_SQUARES, required=True)
    count = StrictInteger(required=True, validate=validate.Range(min=0, max=t.FLEET_SQUARES))
    hit = _squares(MAX_COUNT_SQUARES, load_default=list)

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> hm.Count:
        return hm.Count(tuple(data["squares"]), data["count"], tuple(data["hit"]), data["ship"])


class SalvoGridHeatmapInputs(Schema):
    view = fields.Nested(
        SalvoGridViewSchema,
        required=True,
        metadata={"description": "The `view` a salvo answer handed back, as it is"},
    )
    counts = BoundedList(
        fields.Nested(SalvoGridCountSchema),
        load_default=list,
        most=len(COUNTING_SHIP.values),
        metadata={"description": "The recon and sonar counts told so far (each once a game)"},
    )


def _rating(**kwargs: Any) -> StrictInteger:
    return StrictInteger(
        validate=validate.Range(min=t.RATING_LOWEST, max=t.RATING_HIGHEST), **kwargs
    )


class SalvoGridRatingInputs(Schema):
    a = _rating(required=True, metadata={"description": "Captain a's rating before the battle"})
    b = _rating(required=True, metadata={"description": "Captain b's rating before the battle"})
    result = RATING_RESULT.field(required=True)


# --- results ------------------------------------------------------------------------------

# What a result hands back that a later request sends again is one component, the request's,
# with its limits.
same_shape(results.SalvoGridPlacement, SalvoGridPlacementSchema)
same_shape(results.SalvoGridLootPiece, SalvoGridLootPieceSchema)
same_shape(results.SalvoGridOcean, SalvoGridOceanSchema)
same_shape(results.SalvoGridSalvo, SalvoGridSalvoSchema)
same_shape(results.SalvoGridSunkShip, SalvoGridSunkShipSchema)
same_shape(results.SalvoGridView, SalvoGridViewSchema)


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
        inputs=SalvoGridLayoutInputs,
        result=results.SalvoGridLayoutResult,
        build=lambda args: LayoutInput(tuple(args["fleet"]) if "fleet" in args else None),
        example={"dice": SEED},
    ),
    StepHTTP(
        name="loot",
        inputs=SalvoGridLootInputs,
        result=results.SalvoGridLootResult,
        build=lambda args: LootInput(tuple(args["fleet"])),
        example={"fleet": FLEET_A, "dice": SEED},
    ),
    StepHTTP(
        name="salvo",
        inputs=SalvoGridSalvoInputs,
        result=results.SalvoGridSalvoResult,
        build=inputs(SalvoInput),
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
        inputs=SalvoGridComputerInputs,
        result=results.SalvoGridComputerResult,
        build=lambda args: hard.LevelledInput(
            ComputerInput(args["ocean"], args["view"]), args.get("level", "standard")
        ),
        example={
            "ocean": OCEAN_B,
            "view": {"misses": ["A2", "C5"], "hits": ["A1"], "contacts": [], "sunk": []},
            "level": "standard",
            "dice": SEED,
        },
    ),
    StepHTTP(
        name="heatmap",
        inputs=SalvoGridHeatmapInputs,
        result=results.SalvoGridHeatmapResult,
        build=lambda args: hm.HeatmapInput(args["view"], tuple(args["counts"])),
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
        inputs=SalvoGridRatingInputs,
        result=results.SalvoGridRatingResult,
        build=inputs(RatingInput),
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
