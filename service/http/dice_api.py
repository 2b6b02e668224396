"""POST /v1/dice/roll: a plain roll in dice notation, seeded like every step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Response
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields

from ..engine import dice as engine_dice
from ..engine.dice import Notation
from ..engine.errors import NotationError
from ..engine.resolution import Resolution
from ..engine.ruleset import Step, run_step
from .api import plainly
from .dice_in import dice_field, dice_or_fresh
from .envelope import EnvelopeBase
from .metrics import count_rolls
from .receipts import prev_field, signed
from .steps import example_answer, step_inputs

blp = Blueprint("dice", __name__, url_prefix="/v1/dice", description="Plain dice rolls.")


@dataclass(frozen=True)
class RollInput:
    notation: Notation


def _roll(inp: RollInput, res: Resolution) -> dict[str, Any]:
    terms = []
    for count, sides in inp.notation.terms:
        roll = res.roll(f"{count}d{sides}", count, sides)
        terms.append(roll.as_dict())
    total = sum(term["total"] for term in terms) + inp.notation.constant
    return {
        "notation": str(inp.notation),
        "total": total,
        "constant": inp.notation.constant,
        "terms": terms,
    }


ROLL = Step(
    name="roll",
    summary="Roll dice",
    description="A sum of NdS terms and a constant.",
    dice="as written",
    resolve=_roll,
)


# Room for every notation a roll can take (100 dice in terms of their own is past it).
MAX_NOTATION_LENGTH = 200


class NotationField(fields.Field[Notation]):
    """Dice notation, read as it is loaded: text that does not read as notation is a
    validation error at ``notation`` (the document gives its grammar as a ``pattern``); a
    notation that reads but is past a limit (dice, sides, constant) is a ``limit`` problem."""

    default_error_messages = {
        "invalid": "Not a valid string.",
        "length": f"Length must be between 1 and {MAX_NOTATION_LENGTH}.",
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Notation:
        if not isinstance(value, str):
            raise self.make_error("invalid")
        if not 1 <= len(value) <= MAX_NOTATION_LENGTH:
            raise self.make_error("length")
        try:
            return Notation.parse(value)
        except NotationError as error:
            raise ValidationError(error.detail) from None


class RollRequestSchema(Schema):
    notation = NotationField(
        required=True,
        metadata={
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_NOTATION_LENGTH,
            "pattern": engine_dice.NOTATION_PATTERN,
            "description": "Sums of NdS terms and a constant: "
            f"{engine_dice.NOTATION_EXAMPLES}; N may be left out (d20 is 1d20), blanks "
            "and tabs may stand around terms, a constant may be taken away (1d6-1), dice "
            f"may not. At most {engine_dice.MAX_NOTATION_DICE} dice in all, 2 to "
            f"{engine_dice.MAX_SIDES} sides, a constant of at most "
            f"{engine_dice.MAX_NOTATION_CONSTANT} either way: past those, a `limit` problem.",
            "example": "2d8+1d10",
        },
    )
    dice = dice_field()
    prev = prev_field()


class TermSchema(Schema):
    label = fields.String(required=True)
    notation = fields.String(required=True)
    values = fields.List(fields.Integer(), required=True)
    total = fields.Integer(required=True)


class RollResultSchema(Schema):
    notation = fields.String(required=True)
    total = fields.Integer(required=True)
    constant = fields.Integer(required=True)
    terms = fields.List(fields.Nested(TermSchema), required=True)


class RollResponseSchema(EnvelopeBase):
    result = fields.Nested(RollResultSchema, required=True)


EXAMPLE = {"notation": "2d8+1d10", "dice": {"seed": "game-42", "nonce": 1}}


def _build(args: dict[str, Any]) -> RollInput:
    notation: Notation = args["notation"]
    return RollInput(notation)


ROLL_REQUEST = RollRequestSchema()


@blp.route("/roll", methods=["POST"])
@plainly(ROLL_REQUEST)
@blp.doc(
    operationId="rollDice",
    summary="Roll dice in dice notation",
    description="A plain roll such as 3d6, 2d8+1d10 or 6d6+1, with the same three dice modes "
    "as every step. At most 100 dice, 2 to 1000 sides; past that a 422 names the limit.",
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
