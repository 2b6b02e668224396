"""Dice in: the three ways a request says how its dice are rolled, as schemas.

The decisions (whether a sealed token may still roll, and with which client seed) are the
plain function ``sealed_dice``; the schemas' ``post_load`` only call it.
"""

from __future__ import annotations

import time
from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate

from ...engine import dice as engine_dice
from ...engine import dice_requests
from ...engine.dice_requests import Again
from ...receipts import sealing
from ...receipts.keys import SealKeys
from ...receipts.signing import rfc3339
from ..document.derive import same_shape
from ..document.fields import BoundedList, OneOf, StrictInteger
from ..signing.receipts import current_keys


def _unicode(text: str) -> None:
    """A seed is hashed as UTF-8: a lone surrogate escape ("\\ud800") has no UTF-8 form."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError("Not valid Unicode text (a lone surrogate escape).") from None


def _nonce() -> StrictInteger:
    return StrictInteger(
        load_default=0,
        validate=validate.Range(min=0, max=engine_dice.MAX_NONCE),
        metadata={"description": "Counts up through a game (turn or roll number)"},
    )


class SeededDiceSchema(Schema):
    """The service rolls, deterministically, from a seed and a nonce."""

    seed = fields.String(
        required=True,
        validate=[validate.Length(min=1, max=256), _unicode],
        metadata={"description": "Any text; a game keeps one seed", "example": "game-42"},
    )
    nonce = _nonce()

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> engine_dice.DiceSource:
        return engine_dice.SeededDice(data["seed"], data["nonce"])


class SuppliedDiceSchema(Schema):
    """Dice the player rolled at the table, in the order the step consumes them."""

    values = BoundedList(
        StrictInteger(validate=validate.Range(min=1, max=engine_dice.MAX_SIDES)),
        required=True,
        least=1,
        most=engine_dice.MAX_DICE_PER_REQUEST,
    )

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> engine_dice.DiceSource:
        return engine_dice.SuppliedDice(data["values"])


class TokenDice(engine_dice.SealedDice):
    """Sealed dice with what their token binds: the answer's ``dice`` shows a client seed's
    binding; a binding of the rules is checked by ``check_rules`` before the step runs."""

    def __init__(
        self,
        *args: Any,
        client_seed_sha256: str | None,
        rules_sha256: str | None,
        token: str,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.client_seed_sha256 = client_seed_sha256
        self.rules_sha256 = rules_sha256
        self.token = token

    def again(self) -> Again:
        return {"sealed": self.token, "client_seed": self.client_seed, "nonce": self.nonce}

    def describe(self) -> dict[str, Any]:
        if self.client_seed_sha256 is None:
            return super().describe()
        return {**super().describe(), "client_seed_sha256": self.client_seed_sha256}


def check_rules(dice: engine_dice.DiceSource, ruleset: str, readings: dict[str, str]) -> None:
    """A SealError when a sealed token that binds a game's rules would roll under others."""
    bound = dice.rules_sha256 if isinstance(dice, TokenDice) else None
    if bound is not None and sealing.rules_binding(ruleset, readings) != bound:
        raise sealing.SealError(
            f"this sealed token binds the game's ruleset and readings (their SHA-256 is {bound}, "
            f"as its seal answer shows them); {ruleset} with these rules is not that game, and a "
            "bound token rolls under no other"
        )


def sealed_dice(
    seals: SealKeys, token: str, client_seed: str, nonce: int, now: float
) -> engine_dice.DiceSource:
    """The dice of a sealed token at time ``now``, or a SealError saying why it cannot roll.

    It cannot roll if it is the documentation's example, once its seed may be revealed (the
    rolls would no longer be secret), or with a client seed other than the one it binds.
    """
    opened = sealing.open_token(seals, token)
    if opened.is_example:
        raise sealing.SealError("the documentation's example token only shows a reveal")
    if now >= opened.reveal_after:
        raise sealing.SealError(
            f"this sealed seed may be revealed since {rfc3339(opened.reveal_after)}, so its "
            "rolls are no longer secret: seal a new one with POST /v1/seeds"
        )
    if not opened.admits(client_seed):
        raise sealing.SealError(
            "this sealed token binds the client seed whose SHA-256 is "
            f"{opened.client_seed_sha256}; dice.client_seed is not that seed, and a bound "
            "token rolls with no other",
            field="dice.client_seed",
        )
    return TokenDice(
        opened.seed,
        client_seed,
        nonce,
        reveal_after=rfc3339(opened.reveal_after),
        client_seed_sha256=opened.client_seed_sha256,
        rules_sha256=opened.rules_sha256,
        token=token,
    )


class SealedDiceSchema(Schema):
    """The service rolls from a sealed server seed (POST /v1/seeds) and the client's seed."""

    sealed = fields.String(
        required=True,
        validate=validate.Length(min=1, max=sealing.MAX_TOKEN),
        metadata={"description": "The token POST /v1/seeds returned"},
    )
    client_seed = fields.String(
        required=True,
        validate=[validate.Length(min=1, max=256), _unicode],
        metadata={
            "description": "Any text, chosen before the seal; if the token binds a client "
            "seed (`client_seed_sha256`), exactly the seed whose SHA-256 it binds",
            "example": "ajax",
        },
    )
    nonce = _nonce()

    @post_load
    def make(self, data: dict[str, Any], **_: Any) -> engine_dice.DiceSource:
        seals = current_keys().seals
        return sealed_dice(seals, data["sealed"], data["client_seed"], data["nonce"], time.time())


DICE_VARIANTS = [SeededDiceSchema, SuppliedDiceSchema, SealedDiceSchema]


# The dice a composite step hands back for a later call (a pending turn's finishing call, a
# fleet action's next activation) are the request's own components, wherever a result
# nests them.
same_shape(dice_requests.SeededDice, SeededDiceSchema)
same_shape(dice_requests.SealedDice, SealedDiceSchema)


def dice_field() -> OneOf:
    return OneOf(
        DICE_VARIANTS,
        metadata={
            "description": "Seeded ({seed, nonce}), supplied ({values}) or sealed ({sealed, "
            "client_seed, nonce}) dice; leave out for fresh dice from the server's randomness "
            "(the seed is returned)."
        },
    )


def dice_or_fresh(source: engine_dice.DiceSource | None) -> engine_dice.DiceSource:
    """The request's dice, or fresh ones from the server's randomness where it sent none."""
    return source if source is not None else engine_dice.SeededDice.fresh()
