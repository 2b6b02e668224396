"""POST /v1/receipts/verify: check a response or a whole game log, and its schemas.

The route is on the receipts blueprint (signing/receipts.py), beside the public key set it
checks against; the checking itself knows no HTTP (service/receipts/checking.py).
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Annotated, Any, cast

import orjson
from flask import Response
from flask_smorest import Blueprint

from ...engine import budget
from ...engine import dice as engine_dice
from ...engine.errors import KINDS
from ...engine.ruleset import Ruleset
from ...engine.typed import Doc
from ...receipts import answers, checking
from ...receipts.signing import Signer
from ..document.components import camel, component, ref
from ..document.derive import query_schema, result_schema
from ..fast import jsonbody
from ..fast.context import current_request
from ..fast.problems import problem
from ..signing.receipts import DEFAULT_ISSUER, blp, current_keys

# --- POST /v1/receipts/verify ---------------------------------------------------------------


VerifyResponseSchema = result_schema(answers.VerifyResponse)


@dataclass(frozen=True)
class VerifyQuery:
    """The query of POST /v1/receipts/verify."""

    accept_supplied: Annotated[
        bool,
        Doc(
            "The referee accepts dice the players rolled at the table: a log with supplied "
            "entries can be valid (they are counted in `supplied_entries`). Without it, a "
            "log is valid only if the service rolled every entry's dice from the game's one "
            "seed."
        ),
    ] = False


VerifyQuerySchema = query_schema(VerifyQuery)


VERIFY_EXAMPLE = {
    "ruleset": "salvo-solo",
    "step": "fire",
    "result": {"straddle": False, "shots_per_turn": 1},
    "rolls": [{"label": "fire", "notation": "1d6", "values": [2], "total": 2}],
    "modifiers": [],
    "dice": {
        "mode": "seeded",
        "algorithm": "fc-dice-v1",
        "seed": "game-42",
        "nonce": 1,
        "seed_source": "client",
    },
    "provenance": {
        "service": DEFAULT_ISSUER,
        "kid": "example",
        "issued_at": "2026-11-30T09:30:00Z",
        "request": {"path": "/v1/rulesets/salvo-solo/fire", "body": {}},
    },
    "receipt": "eyJhbGciOiJFZDI1NTE5Iiwia2lkIjoiZXhhbXBsZSJ9..c2lnbmF0dXJl",
}


def _signed_answers(served: Sequence[Ruleset]) -> list[str]:
    """The component of every signed answer of an app serving ``served``: each step's, the
    dice roll's, the seal's and the game header's."""
    names = [
        f"{camel(ruleset.id)}{camel(step.name)}Response"
        for ruleset in served
        for step in ruleset.steps
    ]
    return [*names, "RollResponse", "SealResponse", "GameResponse"]


def signed_answer(served: Sequence[Ruleset]) -> dict[str, Any]:
    """The component ``SignedAnswer`` as an app serving ``served`` documents it: any of its
    own signed answers (create_app writes it; the one registered here names no step's)."""
    return {
        "description": "A signed answer of this service, as it was received: any step's, the "
        "dice roll's or the seal's (a generated client passes the answer object it got). "
        "Any other object is checked too, and reported, never refused: a tampered answer "
        "is what this endpoint is for.",
        "anyOf": [
            *(ref(name) for name in _signed_answers(served)),
            # Named, so a generated client's class for it keeps its name when steps are
            # added (inline, openapi-python-client numbered it: SignedAnswerType31, ...).
            ref(
                component(
                    "OtherAnswer",
                    {
                        "description": "Any other JSON object (a saved answer of another "
                        "version, an altered one): checked and reported, never refused.",
                        "type": "object",
                        "additionalProperties": True,
                    },
                )
            ),
        ],
    }


SIGNED_ANSWER = component("SignedAnswer", signed_answer(()))

ONE_ANSWER = component(
    "OneAnswer",
    {
        "description": "One signed answer to check on its own: any object but one of exactly "
        "`checkpoint` and `entries`, which is a CheckpointPart.",
        "allOf": [ref(SIGNED_ANSWER)],
        "not": {
            "properties": {"checkpoint": {}, "entries": {}},
            "required": ["checkpoint", "entries"],
            "maxProperties": 2,
        },
    },
)

CHECKPOINT_PART = component(
    "CheckpointPart",
    {
        "description": "The next part of a game longer than one request holds: the checkpoint "
        "the answer on the part before gave, and the entries after it, oldest first. They "
        "are checked as if the entries the checkpoint vouches for came first.",
        "type": "object",
        "required": ["checkpoint", "entries"],
        "additionalProperties": False,
        "properties": {
            "checkpoint": {
                "description": "The `checkpoint` of the answer on the part before, as it was "
                "received. Any other object is checked and reported (`checkpoint-altered`, "
                "`checkpoint-unknown`), never refused.",
                "anyOf": [
                    ref("Checkpoint"),
                    ref(
                        component(
                            "OtherCheckpoint",
                            {
                                "description": "Any other JSON object: reported, not refused.",
                                "type": "object",
                                "additionalProperties": True,
                            },
                        )
                    ),
                ],
            },
            "entries": {
                "type": "array",
                "items": ref(SIGNED_ANSWER),
                "minItems": 1,
                "maxItems": checking.MAX_LOG_ENTRIES,
            },
        },
    },
)

VERIFY_BODY = {
    "required": True,
    "description": "One saved response document, or a game log: the list of a game's "
    "responses in the order they were made (at least one; the body size limit bounds it), "
    "or the next part of a longer game after a checkpoint.",
    "content": {
        "application/json": {
            "schema": {
                "oneOf": [
                    ref(ONE_ANSWER),
                    ref(CHECKPOINT_PART),
                    {
                        "type": "array",
                        "items": ref(SIGNED_ANSWER),
                        "minItems": 1,
                        "maxItems": checking.MAX_LOG_ENTRIES,
                        "description": "A game log, oldest first",
                    },
                ]
            },
            "example": VERIFY_EXAMPLE,
        }
    },
}

VERIFY_ANSWER: answers.VerifyResponse = {
    "valid": False,
    "verdict": "invalid",
    "not_yet_checkable": 0,
    "entries": [
        {
            "index": 0,
            "ruleset": "salvo-solo",
            "step": "fire",
            "signature_valid": False,
            "dice_valid": True,
            "receipt_hash": None,
            "problems": ["the signature does not match the document: it was altered"],
            "codes": ["altered"],
        }
    ],
    "log": None,
    "checkpoint": None,
}


VERIFY_DESCRIPTION = (
    "For each entry: is the receipt a valid signature by one of this service's keys (old "
    "keys included), and do the dice re-derive from the seed and nonce (a sealed seed "
    "once revealed)? For a log: does each entry's `prev` hash the receipt before it "
    "(nothing removed, inserted, reordered or replayed), does it start at the beginning "
    "of a game, do the nonces count up by one with no gap or repeat, and did the service "
    "roll every entry's dice from the one seed or sealed seed of the game (so a roll made "
    "and thrown away shows; dice the player supplied count against the log unless "
    "`accept_supplied`). Steps that rolled no dice take no part in the seed check. "
    "Answers 200 with `valid: false` and the problems found, and where the log ends; a "
    "body that is neither an object nor a list of objects is a 422. "
    "A valid log's answer carries a signed `checkpoint` (it does not expire); a game longer "
    'than one request is checked in parts, each sent as {"checkpoint": ..., "entries": '
    "[...]} after the checkpoint of the part before, as if its entries were there (a "
    "forged or altered checkpoint is `checkpoint-altered`, one of another game "
    "`checkpoint-other-game`). "
)

# This route's own body limit (service/__init__.py sets it): whole games, a 100-entry log of
# the largest answers (a Salvo! turn answer is up to about 8 KB) with room to spare. Its CPU
# stays bounded by the checker's own limits (100 entries, 10,000 dice): docs/performance.md.
VERIFY_BODY_BYTES = 1024 * 1024

LIMITS = (
    f"Limits: a body of at most {VERIFY_BODY_BYTES} bytes (this route's own limit, 413 past "
    f"it: a whole game of any ruleset fits), at most {checking.MAX_LOG_ENTRIES} entries in a "
    "log and "
    f"{checking.MAX_DOCUMENT_DICE} dice in a whole document (past either, a 422 naming it); "
    f"an entry's rolls past what the service rolls ({engine_dice.MAX_DICE_PER_REQUEST} dice "
    f"a request, 2 to {engine_dice.MAX_SIDES} sides) are reported, not re-derived; each "
    f"entry lists at most {checking.MAX_ENTRY_PROBLEMS} problems and the log "
    f"{checking.MAX_LOG_PROBLEMS}, then a count. A body with a member name twice in one "
    "object is a 400 naming it (I-JSON)."
)


# The query is loaded by the parser ``blp.arguments`` uses, with one schema made once; an
# empty query string (nearly every call) loads to the schema's defaults without it.
_QUERY_PARSER = Blueprint.ARGUMENTS_PARSER
VERIFY_QUERY = VerifyQuerySchema()
NO_QUERY = VERIFY_QUERY.load({})


def verify_query() -> dict[str, Any]:
    """The query's arguments, as ``blp.arguments(VerifyQuerySchema, location="query")``
    loads them (the same 422 on a value it refuses)."""
    req = current_request()
    if not req.environ.get("QUERY_STRING"):
        return dict(NO_QUERY)
    query: dict[str, Any] = _QUERY_PARSER.parse(VERIFY_QUERY, req, location="query")
    return query


def _plainly(documented: Callable[..., Any]) -> Callable[[], Response]:
    """Serve the verify view as a plain function, as ``plainly`` (service/http/fast/api.py) serves
    the steps: flask-smorest's decorators still write its document, while a request calls
    the view itself with ``verify_query()``, without their wrappers and webargs' own."""
    view = inspect.unwrap(documented)

    def plain() -> Response:
        answer: Response = view(verify_query())
        return answer

    return functools.update_wrapper(plain, documented)


def _checkpoint(signer: Signer, state: answers.CheckpointState) -> answers.Checkpoint:
    """The signed checkpoint of ``state``: its provenance names no request."""
    provenance = signer.provenance("", None)
    del provenance["request"]
    # sign() adds the receipt that makes it a Checkpoint.
    return cast(answers.Checkpoint, signer.sign({"state": state, "provenance": provenance}))


@blp.route("/v1/receipts/verify", methods=["POST"])
@_plainly
@blp.doc(
    operationId="verifyReceipts", requestBody=VERIFY_BODY, description=VERIFY_DESCRIPTION + LIMITS
)
@blp.arguments(VerifyQuerySchema, location="query")
@blp.response(200, VerifyResponseSchema, example=VERIFY_ANSWER)
def verify(query: dict[str, Any]) -> Response:
    """Check a response or a whole game log"""
    req = current_request()
    # The whole of the work, counted off the bytes before any of it is done: a log too dear
    # for one request is refused for the price of counting, with the way to split it.
    counts = jsonbody.body_counts(req)
    receipts = req.get_data().count(b'"receipt"')
    work = counts.reading() + checking.checking_work(receipts, counts.values)
    budget.current().afford(
        work,
        f"checking this body ({counts.size} bytes, at most {counts.values} JSON values and "
        f"{min(receipts, checking.MAX_LOG_ENTRIES + 1)} signatures)",
        checking.SPLIT,
        field="(body)",
    )
    document = req.get_json()
    budget.current().charge(
        counts.values * checking.CANONICAL_WORK_PER_VALUE,
        "the canonical JSON of this body's entries",
        checking.SPLIT,
        field="(body)",
    )
    checkpoint = None
    if isinstance(document, dict) and set(document) == {"checkpoint", "entries"}:
        checkpoint, document = document["checkpoint"], document["entries"]
        if not isinstance(checkpoint, dict) or not isinstance(document, list):
            document = None  # refused below
    if isinstance(document, dict):
        documents, log = [document], False
    elif isinstance(document, list) and document and all(map(isinstance, document, repeat(dict))):
        documents, log = document, True
    else:
        return problem(
            422,
            KINDS["validation"].id,
            "Unprocessable Content",
            "send one response document (a JSON object), a game log (a list of them), or "
            'the next part of one: {"checkpoint": <object>, "entries": <list of them>}',
            [{"field": "(body)", "message": "Must be an object or a list of objects."}],
        )
    limit = checking.document_limits(documents)
    if limit is not None:
        raise limit
    found = current_keys()
    report = checking.check(
        documents,
        found.signer.keys,
        found.seals,
        int(time.time()),
        log=log,
        accept_supplied=query["accept_supplied"],
        checkpoint=checkpoint,
        sign=functools.partial(_checkpoint, found.signer),
    )
    return Response(orjson.dumps(report), mimetype="application/json")
