"""POST /v1/seeds and /v1/seeds/reveal: commit to a secret seed now, reveal it later.

No server state: the seed and its times travel in the sealed token the players keep.
"""

from __future__ import annotations

import time
from typing import Any

import orjson
from flask import Response
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from ..engine.dice import SEALED_ALGORITHM
from ..receipts import sealing
from ..receipts.signing import rfc3339
from .fields import StrictInteger
from .problems import problem
from .receipts import ProvenanceSchema, current_keys, prev_field, receipt_field, signed

MAX_REVEAL_IN = 366 * 24 * 3600
DEFAULT_REVEAL_IN = 24 * 3600

blp = Blueprint(
    "seeds",
    __name__,
    url_prefix="/v1/seeds",
    description="Sealed seeds: the service commits to a secret seed, rolls from it and the "
    "players' own seed, and reveals it once the game is over.",
)


class SealRequestSchema(Schema):
    reveal_in = StrictInteger(
        load_default=DEFAULT_REVEAL_IN,
        validate=validate.Range(min=0, max=MAX_REVEAL_IN),
        metadata={
            "description": "Seconds until the seed may be revealed (default one day, at most "
            "a year). Steps refuse the token from then on: set it past the game's end."
        },
    )
    prev = prev_field()


class SealedSeedSchema(Schema):
    commitment = fields.String(
        required=True, metadata={"description": "Hex SHA-256 of the secret server seed"}
    )
    algorithm = fields.String(required=True, metadata={"example": SEALED_ALGORITHM})
    issued_at = fields.String(required=True, metadata={"example": "2026-11-30T09:30:00Z"})
    reveal_after = fields.String(required=True, metadata={"example": "2026-12-01T09:30:00Z"})
    sealed = fields.String(
        required=True,
        metadata={"description": "The token: send it as dice.sealed, and to /reveal later"},
    )


class SealResponseSchema(SealedSeedSchema):
    provenance = fields.Nested(ProvenanceSchema, required=True)
    receipt = receipt_field()


class RevealRequestSchema(Schema):
    sealed = fields.String(
        required=True,
        validate=validate.Length(min=1, max=sealing.MAX_TOKEN),
        metadata={"description": "The token POST /v1/seeds returned"},
    )


class RevealResponseSchema(SealedSeedSchema):
    seed = fields.String(required=True, metadata={"description": "The server seed, revealed"})


def _described(opened: sealing.Sealed, token: str) -> dict[str, Any]:
    return {
        "commitment": opened.commitment,
        "algorithm": SEALED_ALGORITHM,
        "issued_at": rfc3339(opened.issued_at),
        "reveal_after": rfc3339(opened.reveal_after),
        "sealed": token,
    }


# The documented example token: sealed with the public example key (see sealing.py), due
# for reveal since 2026-01-01, so the example runs as it is anywhere.
EXAMPLE_TOKEN = sealing.seal_example("example-seed-public-by-design", 1767225600, 1767225600)


@blp.route("", methods=["POST"])
@blp.doc(
    summary="Seal a secret seed",
    description="The service picks a secret seed and answers with its SHA-256 commitment, "
    "the time after which it may be revealed, and a sealed token (the seed and times, "
    "encrypted and authenticated with a server key). Roll with "
    '`dice: {"sealed": <token>, "client_seed": <your text>, "nonce": n}`: the dice come from '
    "both seeds, so neither the players (the server seed is hidden) nor the service (it "
    "committed before it saw the client seed) can choose them. The answer is signed; send "
    "its receipt hash as the first roll's `prev` to put the commitment at the head of the "
    "game's log.",
)
@blp.arguments(SealRequestSchema(), example={"reveal_in": 86400})
@blp.response(200, SealResponseSchema)
def seal(args: dict[str, Any]) -> Response:
    now = int(time.time())
    seed = sealing.new_server_seed()
    token = sealing.seal(current_keys().seals, seed, now, now + args["reveal_in"])
    return signed(_described(sealing.open_token(current_keys().seals, token), token))


@blp.route("/reveal", methods=["POST"])
@blp.doc(
    summary="Reveal a sealed seed",
    description="Returns the server seed of a sealed token once its `reveal_after` time has "
    "passed; anyone can then check it against the commitment and re-derive every roll "
    "(tools/verify_dice.py). Before that time: 409. A token this service did not make, or "
    "one that was altered: 422.",
)
@blp.arguments(RevealRequestSchema(), example={"sealed": EXAMPLE_TOKEN})
@blp.response(200, RevealResponseSchema)
@blp.alt_response(409, response="CONFLICT")
def reveal(args: dict[str, Any]) -> Response:
    opened = sealing.open_token(current_keys().seals, args["sealed"], field="sealed")
    if time.time() < opened.reveal_after:
        return problem(
            409,
            "too-early",
            "Conflict",
            f"this seed stays sealed until {rfc3339(opened.reveal_after)}",
        )
    body = {**_described(opened, args["sealed"]), "seed": opened.seed}
    return Response(orjson.dumps(body), mimetype="application/json")
