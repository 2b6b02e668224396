"""POST /v1/seeds and /v1/seeds/reveal: commit to a secret seed now, reveal it later.

No server state: the seed, its times and the binding of the roller's client seed travel in
the sealed token the players keep.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import orjson
from flask import Response
from flask_smorest import Blueprint
from marshmallow import ValidationError

from ...engine.dice import SEALED_ALGORITHM
from ...engine.errors import KINDS, RuleError
from ...engine.ruleset import Ruleset
from ...engine.typed import Doc, Limits, Omitted
from ...receipts import answers, sealing
from ...receipts.answers import Prev, RulesetId
from ...receipts.signing import rfc3339
from ..document.derive import named_field, result_schema, shape_schema
from ..fast.problems import problem
from ..signing.receipts import HASH, PREFER_PARAMETER, current_keys, signed
from .envelope import RULESET_ID, rules_schema, serving

MAX_REVEAL_IN = sealing.MAX_REVEAL_IN
DEFAULT_REVEAL_IN = 24 * 3600

EXAMPLE_CLIENT_SEED = answers.EXAMPLE_CLIENT_SEED
EXAMPLE_BINDING = answers.EXAMPLE_BINDING
RULES_IN = (
    "The game's readings (ruling id to reading id, as a step's `rules`; leave out a ruling "
    "read the default way): bound with `ruleset`"
)

named_field(RULESET_ID.name, RULESET_ID.field)


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


@dataclass(frozen=True, kw_only=True)
class SealRequest:
    """What POST /v1/seeds reads."""

    reveal_in: Annotated[
        int,
        Limits(minimum=0, maximum=MAX_REVEAL_IN),
        Doc(
            "Seconds until the seed may be revealed (default one day, at most a year). Steps "
            "refuse the token from then on: set it past the game's end."
        ),
    ] = DEFAULT_REVEAL_IN
    client_seed_sha256: Annotated[
        str | None,
        Omitted(),
        Limits(pattern=HASH, error="Not a hex SHA-256 (64 lowercase hex digits)."),
        Doc(
            "Binds the token to one client seed: the hex SHA-256 (64 lowercase digits, "
            '`printf %s "$client_seed" | sha256sum`) of the client seed the roller chose. '
            "Rolls with the token must then send that very client seed as "
            "`dice.client_seed` (anything else is a 422). Leave out for an unbound token, "
            "with which the holder can try any client seed.",
            example=EXAMPLE_BINDING,
        ),
    ] = None
    ruleset: Annotated[
        RulesetId | None, Omitted(), Doc("The game's ruleset, fixed before the first roll")
    ] = None
    rules: Annotated[dict[str, str] | None, Omitted(), Doc(RULES_IN)] = None
    prev: Annotated[Prev | None, Omitted()] = None


@dataclass(frozen=True)
class RevealRequest:
    """What POST /v1/seeds/reveal reads."""

    sealed: Annotated[
        str,
        Limits(least=1, most=sealing.MAX_TOKEN),
        Doc("The token POST /v1/seeds returned"),
    ]


def _described(opened: sealing.Sealed, token: str) -> answers.SealedSeed:
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
SEAL_ANSWER: answers.SealResponse = {
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
REVEAL_ANSWER: answers.RevealResponse = {
    **_described(
        sealing.Sealed(
            "example-seed-public-by-design", 1767225600, 1767225600, sealing.EXAMPLE_KID
        ),
        EXAMPLE_TOKEN,
    ),
    "seed": "example-seed-public-by-design",
}


# --- POST /v1/games: a signed header that fixes a game's rules before its first roll -------


@dataclass(frozen=True, kw_only=True)
class GameRequest:
    """What POST /v1/games reads."""

    ruleset: Annotated[RulesetId, Doc("The game's ruleset")]
    rules: Annotated[dict[str, str] | None, Omitted(), Doc(RULES_IN)] = None
    prev: Annotated[Prev | None, Omitted()] = None


GAME_EXAMPLE = {"ruleset": "salvo-solo", "rules": {"straddle-21-plus": "no-effect"}}
HEADER_STEP = answers.HEADER_STEP


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
    @blp.arguments(serving(shape_schema(SealRequest)(), ids), example=SEAL_EXAMPLE)
    @blp.response(200, result_schema(answers.SealResponse), example=SEAL_ANSWER)
    def seal(args: SealRequest) -> Response:
        return _seal(args, by_id)

    @blp.route("/reveal", methods=["POST"])
    @blp.doc(**REVEAL_DOC)
    @blp.arguments(shape_schema(RevealRequest)(), example={"sealed": EXAMPLE_TOKEN})
    @blp.response(200, result_schema(answers.RevealResponse), example=REVEAL_ANSWER)
    @blp.alt_response(409, response="Conflict")
    def reveal(args: RevealRequest) -> Response:
        return _reveal(args)

    @games.route("", methods=["POST"])
    @games.doc(**GAME_DOC)
    @games.arguments(serving(shape_schema(GameRequest)(), ids), example=GAME_EXAMPLE)
    @games.response(200, result_schema(answers.GameResponse))
    def open_game(args: GameRequest) -> Response:
        return _open_game(args, by_id)

    return blp, games


def _seal(args: SealRequest, by_id: Mapping[str, Ruleset]) -> Response:
    """Seal a secret seed"""
    now = int(time.time())
    ruleset = args.ruleset
    readings = game_readings(None if ruleset is None else by_id[ruleset], args.rules)
    binding = (
        None if ruleset is None or readings is None else sealing.rules_binding(ruleset, readings)
    )
    seed = sealing.new_server_seed()
    keys = current_keys().seals
    token = sealing.seal(keys, seed, now, now + args.reveal_in, args.client_seed_sha256, binding)
    described = _described(sealing.open_token(keys, token), token)
    return signed({**described, "ruleset": ruleset, "rules": readings})


def _reveal(args: RevealRequest) -> Response:
    """Reveal a sealed seed"""
    opened = sealing.open_token(current_keys().seals, args.sealed, field="sealed")
    if time.time() < opened.reveal_after:
        return problem(
            409,
            KINDS["too-early"].id,
            "Conflict",
            f"this seed stays sealed until {rfc3339(opened.reveal_after)}",
        )
    body: answers.RevealResponse = {**_described(opened, args.sealed), "seed": opened.seed}
    return Response(orjson.dumps(body), mimetype="application/json")


def _open_game(args: GameRequest, by_id: Mapping[str, Ruleset]) -> Response:
    """Fix a game's ruleset and readings"""
    readings = game_readings(by_id[args.ruleset], args.rules)
    return signed({"ruleset": args.ruleset, "step": HEADER_STEP, "rules": readings})
