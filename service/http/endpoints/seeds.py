"""POST /v1/seeds and /v1/seeds/reveal: commit to a secret seed now, reveal it later.

No server state: the seed, its times and the binding of the roller's client seed travel in
the sealed token the players keep.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from flask import Response
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, validate

from ...engine.dice import SEALED_ALGORITHM
from ...engine.errors import KINDS, RuleError
from ...engine.ruleset import Ruleset
from ...receipts import sealing
from ...receipts.signing import rfc3339
from ..document.fields import StrictInteger, date_time
from ..fast.problems import problem
from ..signing.receipts import (
    HASH,
    PREFER_PARAMETER,
    ProvenanceSchema,
    current_keys,
    prev_field,
    receipt_field,
    signed,
)
from .envelope import RULESET_ID, rules_schema, serving

MAX_REVEAL_IN = sealing.MAX_REVEAL_IN
DEFAULT_REVEAL_IN = 24 * 3600

# The example binding: the SHA-256 of the example client seed "ajax-4f1c9e27b3d05a86".
EXAMPLE_CLIENT_SEED = "ajax-4f1c9e27b3d05a86"
EXAMPLE_BINDING = sealing.client_seed_hash(EXAMPLE_CLIENT_SEED)

BINDING_DESCRIPTION = (
    "Hex SHA-256 (64 lowercase digits, as `sha256sum` prints it) of the UTF-8 client seed "
    "the roller will use, committed before the server seed exists. A bound token rolls only "
    "with that client seed, so whoever holds the token cannot try client seeds until one "
    "gives the dice they want. null: the token is unbound, and its holder can."
)

RULES_BINDING = (
    'Hex SHA-256 of the RFC 8785 JSON of `{"ruleset": ..., "rules": ...}` (the ruleset and '
    "every ruling's reading in force) the token binds: it rolls a step of that ruleset under "
    "those readings only (a plain dice roll too). null: the token binds no rules."
)


class GameRulesError(RuleError):
    """Rules a game cannot be played under: a ruling the ruleset does not read two ways, a
    reading it does not have, readings without their ruleset (a rule violation: the schema
    takes any ruling name, since which there are depends on the ruleset)."""


def game_readings(ruleset: Ruleset | None, rules: Any) -> dict[str, str] | None:
    """The readings in force a seal (or a game header) binds, or None when it names no ruleset."""
    if ruleset is None:
        if rules is not None:
            raise GameRulesError("`rules` binds the readings of a ruleset: name it", "ruleset")
        return None
    try:
        chosen = rules_schema(ruleset)().load(rules or {})
    except ValidationError as error:
        field, messages = next(iter(sorted(error.normalized_messages().items())))
        message = " ".join(messages) if isinstance(messages, list) else str(messages)
        raise GameRulesError(f"rules.{field}: {message}", f"rules.{field}") from None
    return ruleset.readings_in_force(chosen)


def ruleset_field() -> fields.String:
    return RULESET_ID.field(
        metadata={"description": "The game's ruleset, fixed before the first roll"}
    )


def rules_in_field() -> fields.Dict:
    return fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={
            "description": "The game's readings (ruling id to reading id, as a step's `rules`; "
            "leave out a ruling read the default way): bound with `ruleset`"
        },
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
    client_seed_sha256 = fields.String(
        validate=validate.Regexp(HASH, error="Not a hex SHA-256 (64 lowercase hex digits)."),
        metadata={
            "description": "Binds the token to one client seed: the hex SHA-256 (64 lowercase "
            'digits, `printf %s "$client_seed" | sha256sum`) of the client seed the roller '
            "chose. Rolls with the token must then send that very client seed as "
            "`dice.client_seed` (anything else is a 422). Leave out for an unbound token, "
            "with which the holder can try any client seed.",
            "example": EXAMPLE_BINDING,
        },
    )
    ruleset = ruleset_field()
    rules = rules_in_field()
    prev = prev_field()


class SealedSeedSchema(Schema):
    commitment = fields.String(
        required=True, metadata={"description": "Hex SHA-256 of the secret server seed"}
    )
    algorithm = fields.String(required=True, metadata={"example": SEALED_ALGORITHM})
    issued_at = date_time(required=True)
    reveal_after = date_time(required=True, metadata={"example": "2026-12-01T09:30:00Z"})
    sealed = fields.String(
        required=True,
        metadata={"description": "The token: send it as dice.sealed, and to /reveal later"},
    )
    client_seed_sha256 = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": BINDING_DESCRIPTION, "example": EXAMPLE_BINDING},
    )
    rules_sha256 = fields.String(
        required=True, allow_none=True, metadata={"description": RULES_BINDING}
    )


class SealResponseSchema(SealedSeedSchema):
    ruleset = RULESET_ID.field(
        required=True,
        allow_none=True,
        metadata={"description": "The ruleset the token binds; null: none"},
    )
    rules = fields.Dict(
        required=True,
        allow_none=True,
        metadata={
            "description": "The readings in force the token binds (every ruling's, defaults "
            "included); a game log that opens with this answer is checked against them"
        },
    )
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
        "client_seed_sha256": opened.client_seed_sha256,
        "rules_sha256": opened.rules_sha256,
    }


# The documented example token: sealed with the public example key (see sealing.py), due
# for reveal since 2026-01-01, so the example runs as it is anywhere.
EXAMPLE_TOKEN = sealing.seal_example("example-seed-public-by-design", 1767225600, 1767225600)


SEAL_EXAMPLE = {"reveal_in": 86400, "client_seed_sha256": EXAMPLE_BINDING}
SEAL_ANSWER = {
    **_described(
        sealing.Sealed(
            "example-seed-public-by-design",
            1764495000,
            1764581400,
            sealing.EXAMPLE_KID,
            EXAMPLE_BINDING,
        ),
        sealing.seal_example(
            "example-seed-public-by-design", 1764495000, 1764581400, EXAMPLE_BINDING
        ),
    ),
    "provenance": {
        "service": "fire-control",
        "kid": "example",
        "issued_at": "2025-11-30T09:30:00Z",
        "request": {"path": "/v1/seeds", "body": SEAL_EXAMPLE},
    },
    "ruleset": None,
    "rules": None,
    "receipt": "eyJhbGciOiJFZDI1NTE5Iiwia2lkIjoiZXhhbXBsZSJ9..c2lnbmF0dXJl",
}
REVEAL_ANSWER = {
    **_described(
        sealing.Sealed(
            "example-seed-public-by-design", 1767225600, 1767225600, sealing.EXAMPLE_KID
        ),
        EXAMPLE_TOKEN,
    ),
    "seed": "example-seed-public-by-design",
}


# --- POST /v1/games: a signed header that fixes a game's rules before its first roll -------


class GameRequestSchema(Schema):
    ruleset = RULESET_ID.field(required=True, metadata={"description": "The game's ruleset"})
    rules = rules_in_field()
    prev = prev_field()


class GameResponseSchema(Schema):
    ruleset = RULESET_ID.field(required=True, metadata={"example": "salvo-solo"})
    step = fields.String(
        required=True, metadata={"description": "Always `game-header`", "example": "game-header"}
    )
    rules = fields.Dict(
        required=True,
        metadata={
            "description": "Every ruling's reading in force for this game, defaults included"
        },
    )
    provenance = fields.Nested(ProvenanceSchema, required=True)
    receipt = receipt_field()


GAME_EXAMPLE = {"ruleset": "salvo-solo", "rules": {"straddle-21-plus": "no-effect"}}
HEADER_STEP = "game-header"


SEAL_DOC: dict[str, Any] = dict(
    operationId="sealSeed",
    summary="Seal a secret seed",
    description="The service picks a secret seed and answers with its SHA-256 commitment, "
    "the time after which it may be revealed, and a sealed token (the seed, its times and "
    "any binding, encrypted and authenticated with a server key). Roll with "
    '`dice: {"sealed": <token>, "client_seed": <text>, "nonce": n}`: the dice come from '
    "both seeds.\n\n"
    "The flow in which no single party can choose the dice: (1) the roller picks an "
    "unguessable client seed (say 32 random bytes in hex) and gives its SHA-256 to the "
    "opponent or referee; (2) the opponent or referee calls this endpoint with "
    "`client_seed_sha256` (and the game's `ruleset` and `rules`, which the token then binds: "
    "it rolls only under them, and the log is checked against them), keeps the signed "
    "answer, and hands the token over; (3) every roll "
    "sends the token with that client seed, which the service checks against the binding "
    "(another client seed is a 422). The roller cannot try client seeds (the token binds "
    "one) nor seal again until a token suits (the opponent sealed it, and the log starts "
    "with the opponent's answer); the opponent cannot compute the dice (it knows only the "
    "hash of the client seed); the service committed to its seed before it saw the client "
    "seed. Without `client_seed_sha256` the token is unbound: whoever holds it can try client "
    "seeds privately until the dice suit, so an unbound token does not stop grinding. "
    "Whoever holds both the token and the client seed can also roll any nonce privately "
    "before choosing a move (the service keeps no state): let the side that does not choose "
    "the move send the rolls. See docs/verifiable-rolls.md for who can do what.\n\n"
    "The answer is signed and shows the binding; send its receipt hash as the first roll's "
    "`prev` to put the commitment at the head of the game's log.",
    parameters=[PREFER_PARAMETER],
)

REVEAL_DOC: dict[str, Any] = dict(
    operationId="revealSeed",
    summary="Reveal a sealed seed",
    description="Returns the server seed of a sealed token once its `reveal_after` time has "
    "passed, with the binding the token holds (`client_seed_sha256`); anyone can then check "
    "the seed against the commitment, the rolls' client seed against the binding, and "
    "re-derive every roll (tools/verify_dice.py). Before that time: 409. A token this "
    "service did not make, or one that was altered: 422.",
)

GAME_DOC: dict[str, Any] = dict(
    operationId="openGame",
    summary="Fix a game's ruleset and readings",
    description="A signed header naming the game's ruleset and every ruling's reading in force "
    "(`rules` as a step takes it; left-out rulings read the default way). Send its receipt hash "
    "as the first roll's `prev`: a log that opens with it is checked against it, and any entry "
    "of another ruleset or other readings is `ruleset-changed` or `readings-changed`. No dice "
    "are rolled. A sealed game binds its rules in the seal instead (POST /v1/seeds with "
    "`ruleset` and `rules`).",
    parameters=[PREFER_PARAMETER],
)


def blueprints(served: Sequence[Ruleset]) -> tuple[Blueprint, Blueprint]:
    """POST /v1/seeds (and /reveal) and POST /v1/games, for the rulesets ``served``: made by
    each ``create_app``, so a seal or a game header names only a ruleset its app serves."""
    by_id = {ruleset.id: ruleset for ruleset in served}
    ids = list(by_id)
    blp = Blueprint(
        "seeds",
        __name__,
        url_prefix="/v1/seeds",
        description="Sealed seeds: the service commits to a secret seed, rolls from it and "
        "the players' own seed, and reveals it once the game is over.",
    )
    games = Blueprint(
        "games",
        __name__,
        url_prefix="/v1/games",
        description="A game header: the ruleset and readings of a game, signed before its "
        "first roll, to head its log.",
    )

    @blp.route("", methods=["POST"])
    @blp.doc(**SEAL_DOC)
    @blp.arguments(serving(SealRequestSchema(), ids), example=SEAL_EXAMPLE)
    @blp.response(200, SealResponseSchema, example=SEAL_ANSWER)
    def seal(args: dict[str, Any]) -> Response:
        return _seal(args, by_id)

    @blp.route("/reveal", methods=["POST"])
    @blp.doc(**REVEAL_DOC)
    @blp.arguments(RevealRequestSchema(), example={"sealed": EXAMPLE_TOKEN})
    @blp.response(200, RevealResponseSchema, example=REVEAL_ANSWER)
    @blp.alt_response(409, response="Conflict")
    def reveal(args: dict[str, Any]) -> Response:
        return _reveal(args)

    @games.route("", methods=["POST"])
    @games.doc(**GAME_DOC)
    @games.arguments(serving(GameRequestSchema(), ids), example=GAME_EXAMPLE)
    @games.response(200, GameResponseSchema)
    def open_game(args: dict[str, Any]) -> Response:
        return _open_game(args, by_id)

    return blp, games


def _seal(args: dict[str, Any], by_id: Mapping[str, Ruleset]) -> Response:
    """Seal a secret seed"""
    now = int(time.time())
    ruleset = args.get("ruleset")
    readings = game_readings(None if ruleset is None else by_id[ruleset], args.get("rules"))
    binding = (
        None if ruleset is None or readings is None else sealing.rules_binding(ruleset, readings)
    )
    seed = sealing.new_server_seed()
    keys = current_keys().seals
    token = sealing.seal(
        keys, seed, now, now + args["reveal_in"], args.get("client_seed_sha256"), binding
    )
    described = _described(sealing.open_token(keys, token), token)
    return signed({**described, "ruleset": ruleset, "rules": readings})


def _reveal(args: dict[str, Any]) -> Response:
    """Reveal a sealed seed"""
    opened = sealing.open_token(current_keys().seals, args["sealed"], field="sealed")
    if time.time() < opened.reveal_after:
        return problem(
            409,
            KINDS["too-early"].id,
            "Conflict",
            f"this seed stays sealed until {rfc3339(opened.reveal_after)}",
        )
    body = {**_described(opened, args["sealed"]), "seed": opened.seed}
    return Response(orjson.dumps(body), mimetype="application/json")


def _open_game(args: dict[str, Any], by_id: Mapping[str, Ruleset]) -> Response:
    """Fix a game's ruleset and readings"""
    ruleset = args["ruleset"]
    readings = game_readings(by_id[ruleset], args.get("rules"))
    return signed({"ruleset": ruleset, "step": HEADER_STEP, "rules": readings})
