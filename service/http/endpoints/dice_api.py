"""POST /v1/dice/roll and /v1/dice/odds: a roll in dice notation, seeded like every step,
and the exact odds of its total."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any

from flask import Response
from flask_smorest import Blueprint
from marshmallow import fields

from ...engine import budget, notation_odds, shape
from ...engine import dice as engine_dice
from ...engine import notation as nt
from ...engine.dice_results import DiceOddsResult, RollResult
from ...engine.resolution import Resolution
from ...engine.ruleset import Step, run_step, step_odds
from ...engine.typed import Doc, Limits, Via
from .. import pictures
from ..document.derive import members_schema, result_schema
from ..document.fields import Const
from ..fast.answers import json_response
from ..fast.api import plainly
from ..middleware.metrics import count_rolls
from ..signing.receipts import PREFER_PARAMETER, prev_field, signed
from .dice_in import dice_field, dice_or_fresh
from .envelope import RULESET_ID, EnvelopeBase, OddsBase, OddsOutcomeBase, named
from .steps import example_answer, step_inputs

blp = Blueprint(
    "dice", __name__, url_prefix="/v1/dice", description="Rolls in dice notation, and their odds."
)


def _roll(inp: RollInput, res: Resolution) -> RollResult:
    return nt.roll(inp.notation, res.roll)


ROLL = Step(
    name="roll",
    summary="Roll dice",
    description="A roll in dice notation.",
    dice="as written",
    resolve=_roll,
    odds=True,
    exact_odds=lambda inp: notation_odds.outcomes(inp.notation),
)

GRAMMAR = (
    "rpg-dice-roller's notation: terms joined by `+` and `-` (blanks, line ends and "
    "comments, `# ...`, `// ...` or `/* ... */`, may stand around them), or arithmetic over "
    "them: `*`, `/`, `%`, `^` (`**`), parentheses, "
    "decimals and `abs`, `ceil`, `floor`, `round`, `sign`, `max`, `min`, `pow` "
    "(`floor(4d6kh3/2)`), where the total is always a whole number; roll groups "
    "`{a, b, ...}` of two or more sub-rolls with a keep, a drop, successes or a sort over "
    "their totals (`{4d6+2d8, 3d20+3}kh1`); a notation of constants alone is its constant. "
    "A term is a constant "
    "(digits) or `NdS`: N dice (N may be left out: `d20` is `1d20`) of S sides, `d%` (a "
    "d100), `dF` (a Fate die: -1, 0, +1) or `dF.1` (one -1 and one +1 of six faces); then, "
    "each kind at most once and in any order: `minN`, `maxN` (each of the N dice counts at "
    "least, at most N); `!C` (explode: one more die while the last meets C; `!` alone: the "
    "highest face), `!!C` (compounding: the explosions add to the die), `!pC` (penetrating: "
    "each explosion counts one less); `rC` (reroll while the value meets C; `r` alone: the "
    "lowest face) or `roC` (once); `u`, `uo`, `uC` (unique: reroll a value an earlier die "
    "shows); `khN`, `klN`, `kN` (keep the N highest or lowest; `k` is `kh`) and `dN`, `dlN`, "
    "`dhN` (drop the N lowest or highest; N left out is 1); a compare point C (count "
    "successes: +1 a die that meets it) and then `fC` (failures: -1); `csC`, `cfC` (mark "
    "critical dice); `s`, `sa`, `sd` (sort the values). A compare point C is `>=N`, `<=N`, "
    "`>N`, `<N`, `=N` or `<>N` (`!=N`; a number alone after `r`, `!`, `f`, `cs` and `cf` is "
    "`=N`). The modifiers apply in rpg-dice-roller's order whatever order they are written "
    "in: min, max, explode, reroll, unique, keep, drop, successes. Text that does not read "
    "is a `notation` problem naming the position and the character; docs/dice.md gives the "
    "order the dice are drawn in, the caps of rerolls and explosions, and where the service "
    "differs from rpg-dice-roller."
)
LIMITS = (
    f"At most {nt.MAX_NOTATION_DICE} dice in all, 2 to {engine_dice.MAX_SIDES} sides, a "
    f"constant of at most {nt.MAX_NOTATION_CONSTANT} either way, and at most "
    f"{nt.MAX_NOTATION_DRAWS} dice drawn with every reroll and explosion the notation allows "
    f"(a chain stops where reaching it has at most one chance in a million, after "
    f"{nt.MIN_CAP} to {nt.PEER_CAP} dice); a modifier's number (min, max, a compare point) at "
    f"most {engine_dice.MAX_SIDES} either way and a keep or drop of at most "
    f"{nt.MAX_NOTATION_DRAWS} dice: past those, a `limit` problem."
)


@dataclass(frozen=True)
class RollInput:
    """A roll in dice notation: the request's own member (a shape, engine/shape.py), read
    as notation where it is loaded (``Notation.parse``) and written back as text."""

    notation: Annotated[
        nt.Notation,
        Via(str, nt.Notation.parse, str),
        Limits(least=1, most=nt.MAX_NOTATION_LENGTH),
        Doc(f"{GRAMMAR} {LIMITS}", example="4d6kh3"),
    ]


RollRequestSchema = named(
    "RollRequest", members_schema(RollInput), {"dice": dice_field(), "prev": prev_field()}
)
OddsRequestSchema = named("OddsRequest", members_schema(RollInput), {})


RollResponseSchema = named(
    "RollResponse",
    EnvelopeBase,
    {
        "step": Const(ROLL.name, required=True),
        "result": fields.Nested(result_schema(RollResult), required=True),
    },
)


DiceOddsOutcome = named(
    "DiceOddsOutcome",
    OddsOutcomeBase,
    {"result": fields.Nested(result_schema(DiceOddsResult), required=True)},
)
DiceOdds = named(
    "DiceOdds",
    OddsBase,
    {
        "ruleset": RULESET_ID.field(required=True, allow_none=True),
        "step": Const(ROLL.name, required=True),
        "notation": fields.String(
            required=True, metadata={"description": "The notation as written back"}
        ),
        "outcomes": fields.List(fields.Nested(DiceOddsOutcome), required=True),
    },
)

EXAMPLE = {"notation": "4d6kh3", "dice": {"seed": "game-42", "nonce": 1}}
ODDS_EXAMPLE = {"notation": "4d6kh3"}
ODDS_EXAMPLE_OUTCOMES = 3


_build = shape.maker(RollInput)  # a request's members as its RollInput


def odds_answer(notation: nt.Notation) -> dict[str, Any]:
    """The exact odds of a notation's total, in the form of every ``/odds`` answer."""
    answer = step_odds(None, ROLL, RollInput(notation))
    return {**answer, "notation": str(notation)}


def _odds_example() -> dict[str, Any]:
    answer = odds_answer(_build(ODDS_REQUEST.load(ODDS_EXAMPLE)).notation)
    return {**answer, "outcomes": answer["outcomes"][:ODDS_EXAMPLE_OUTCOMES]}


ODDS_READING = pictures.reading(DiceOddsResult)
ROLL_REQUEST = RollRequestSchema()
ODDS_REQUEST = OddsRequestSchema()


@blp.route("/roll", methods=["POST"])
@plainly(ROLL_REQUEST)
@blp.doc(
    operationId="rollDice",
    summary="Roll dice in dice notation",
    description="A roll such as 3d6, 4d6d1, 4d6kh3, 3d6!, 10d6>=5 or 4dF+1, with the same three "
    "dice modes as every step. Every die drawn (rerolls and explosions too) is a roll of "
    "`rolls`, in the order drawn, so the verifiers re-derive each one; `result.terms[].dice` "
    "says what became of each (kept, dropped, rerolled, compounded; exploded, penetrated; "
    "a success; critical). "
    "Supplied dice are taken in that order (a Fate die as 1, 2, 3 for -1, 0, +1). " + LIMITS,
    parameters=[PREFER_PARAMETER],
)
@blp.arguments(ROLL_REQUEST, example=EXAMPLE)
@blp.response(
    200,
    RollResponseSchema,
    example=example_answer(None, ROLL, EXAMPLE, _build, ROLL_REQUEST, "/v1/dice/roll"),
)
def roll(args: dict[str, Any]) -> Response:
    dice = dice_or_fresh(args.get("dice"))
    envelope = run_step(None, ROLL, _build(step_inputs(args)), dice)
    count_rolls(None, "roll", len(envelope["rolls"]))
    return signed(envelope)


@blp.route("/odds", methods=["POST"])
@plainly(ODDS_REQUEST)
@blp.doc(
    operationId="diceOdds",
    summary="Odds: roll dice in dice notation",
    description="The exact distribution of a notation's total (its count of successes, if "
    "it counts them), most likely first, as fractions and floats; exploding and rerolled "
    "dice exactly as they roll, up to their caps. No dice are rolled. The work is "
    "foreseen from the notation first: where it would pass the request's work budget "
    f"(about {budget.REQUEST_MS} ms of CPU) the answer is a `limit` problem, given before "
    "any of it is done.",
    **pictures.doc(),
)
@blp.arguments(ODDS_REQUEST, example=ODDS_EXAMPLE)
@blp.response(200, DiceOdds, example=_odds_example())
def odds(args: dict[str, Any]) -> Response:
    svg = pictures.wants_svg()
    notation = _build(args).notation
    if svg:  # the picture's work foreseen with the odds', so a refusal comes first
        pictures.afford_drawing(*reversed(notation_odds.foresee(notation)))
    answer = odds_answer(notation)
    if svg:
        return pictures.answer(answer, partial(pictures.odds, reads=ODDS_READING))
    return pictures.varies(json_response(answer))
