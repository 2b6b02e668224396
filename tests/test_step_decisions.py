"""The decisions a step's HTTP view makes, as plain functions (they once hid inside a
``post_load`` that read the clock, and inside ``dice_from``, which popped ``prev`` out of the
arguments as a side effect)."""

from __future__ import annotations

import pytest

from service.engine import dice as engine_dice
from service.engine.dice_requests import SeededDice, SuppliedDice
from service.http.endpoints.dice_in import TokenDice, dice_or_fresh, sealed_dice
from service.http.endpoints.steps import ENVELOPE_MEMBERS, step_inputs
from service.receipts import sealing
from service.receipts.keys import SealKeys

KEYS = SealKeys(kid="test", keys={"test": bytes(range(32))})
ISSUED, REVEAL = 1_000, 2_000


def test_step_inputs_are_the_members_that_are_not_the_envelope() -> None:
    args = {"range": "Long", "dice": object(), "prev": "ab" * 32, "rules": {}, "weather": "Fair"}
    assert step_inputs(args) == {"range": "Long", "weather": "Fair"}
    assert set(args) >= ENVELOPE_MEMBERS  # the request's members are left as they were
    assert {"dice", "prev", "rules"} == ENVELOPE_MEMBERS


def test_dice_or_fresh() -> None:
    given = dice_or_fresh(SuppliedDice((3, 1)))
    assert isinstance(given, engine_dice.SuppliedDice)
    assert given.describe() == {"mode": "supplied", "values": [3, 1]}
    seeded = dice_or_fresh(SeededDice("game-42", 7)).describe()
    assert (seeded["seed"], seeded["nonce"], seeded["seed_source"]) == ("game-42", 7, "client")
    fresh = dice_or_fresh(None)
    assert isinstance(fresh, engine_dice.SeededDice)
    assert fresh.describe()["seed_source"] == "server"


def test_a_sealed_token_rolls_until_its_reveal_time_and_not_from_then() -> None:
    token = sealing.seal(KEYS, "server-seed", ISSUED, REVEAL)
    rolled = sealed_dice(KEYS, token, "ajax", 3, now=REVEAL - 1)
    assert rolled.describe()["mode"] == "sealed"
    assert rolled.describe()["nonce"] == 3
    with pytest.raises(sealing.SealError, match="may be revealed since"):
        sealed_dice(KEYS, token, "ajax", 3, now=REVEAL)


def test_a_bound_token_rolls_with_its_client_seed_only() -> None:
    token = sealing.seal(KEYS, "server-seed", ISSUED, REVEAL, sealing.client_seed_hash("ajax"))
    rolled = sealed_dice(KEYS, token, "ajax", 0, now=ISSUED)
    assert isinstance(rolled, TokenDice)
    assert rolled.describe()["client_seed_sha256"] == sealing.client_seed_hash("ajax")
    with pytest.raises(sealing.SealError) as refused:
        sealed_dice(KEYS, token, "spee", 0, now=ISSUED)
    assert refused.value.field == "dice.client_seed"


def test_the_documentation_example_token_never_rolls() -> None:
    token = sealing.seal_example("example-seed", ISSUED, REVEAL)
    with pytest.raises(sealing.SealError, match="example token"):
        sealed_dice(KEYS, token, "ajax", 0, now=ISSUED)
