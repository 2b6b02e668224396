"""POST /v1/dice/roll: a plain roll in dice notation, seeded like every step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Response
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from ..engine.dice import Notation
from ..engine.resolution import Resolution
from ..engine.ruleset import Step, run_step
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


class RollRequestSchema(Schema):
    notation = fields.String(
        required=True,
        validate=validate.Length(min=1, max=200),
        metadata={
            "description": "Sums of NdS terms and a constant: 3d6, 2d8+1d10, 1d6+2. "
            "At most 100 dice in all, 2 to 1000 sides, a constant of at most 10000.",
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
    return RollInput(Notation.parse(args["notation"]))


@blp.route("/roll", methods=["POST"])
@blp.doc(
    operationId="rollDice",
    summary="Roll dice in dice notation",
    description="A plain roll such as 3d6, 2d8+1d10 or 6d6+1, with the same three dice modes "
    "as every step. At most 100 dice, 2 to 1000 sides; past that a 422 names the limit.",
)
@blp.arguments(RollRequestSchema(), example=EXAMPLE)
@blp.response(
    200,
    RollResponseSchema,
    example=example_answer(None, ROLL, EXAMPLE, _build, RollRequestSchema(), "/v1/dice/roll"),
)
def roll(args: dict[str, Any]) -> Response:
    dice = dice_or_fresh(args.get("dice"))
    envelope = run_step(None, ROLL, _build(step_inputs(args)), dice)
    count_rolls(None, "roll", len(envelope["rolls"]))
    return signed(envelope)
