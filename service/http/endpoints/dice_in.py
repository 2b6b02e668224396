"""Dice in: the three ways a request says how its dice are rolled.

Each is a shape (service/engine/dice_requests.py), whose schema is derived; ``dice_source``
turns the loaded shape into the dice that roll. The decisions (whether a sealed token may
still roll, and with which client seed) are the plain function ``sealed_dice``.
"""

from __future__ import annotations

import time
from typing import Any

from ...engine import dice as engine_dice
from ...engine import shape
from ...engine.dice_requests import Again, DiceRequest, SealedDice, SeededDice, SuppliedDice
from ...engine.envelope import DiceUsed
from ...receipts import sealing
from ...receipts.keys import SealKeys
from ...receipts.signing import rfc3339
from ..document.derive import shape_schema
from ..document.fields import OneOf
from ..signing.receipts import current_keys


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
        return shape.to_json(SealedDice(self.token, self.client_seed, self.nonce))

    def describe(self) -> DiceUsed:
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


DICE_VARIANTS = [shape_schema(SeededDice), shape_schema(SuppliedDice), shape_schema(SealedDice)]


def dice_source(dice: DiceRequest) -> engine_dice.DiceSource:
    """The dice a request's ``dice`` member rolls (a sealed token's once it may roll)."""
    if isinstance(dice, SeededDice):
        return engine_dice.SeededDice(dice.seed, dice.nonce)
    if isinstance(dice, SuppliedDice):
        return engine_dice.SuppliedDice(list(dice.values))
    seals = current_keys().seals
    return sealed_dice(seals, dice.sealed, dice.client_seed, dice.nonce, time.time())


def dice_field() -> OneOf:
    return OneOf(
        DICE_VARIANTS,
        metadata={
            "description": "Seeded ({seed, nonce}), supplied ({values}) or sealed ({sealed, "
            "client_seed, nonce}) dice; leave out for fresh dice from the server's randomness "
            "(the seed is returned)."
        },
    )


def dice_or_fresh(dice: DiceRequest | None) -> engine_dice.DiceSource:
    """The request's dice, or fresh ones from the server's randomness where it sent none."""
    return dice_source(dice) if dice is not None else engine_dice.SeededDice.fresh()
