"""Signed receipts over HTTP: the keys, signing a response, Prefer, the public key set.

``init_app`` loads the signing and seal keys once per process (see service/receipts/keys.py
for where they come from); every resolution response goes through ``signed``. The verify
endpoint (endpoints/verify.py) adds its route to ``blp``, beside the key set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

import orjson
from flask import Flask, Response
from flask_smorest import Blueprint
from marshmallow import fields

from ...engine.errors import KINDS, RuleError
from ...engine.typed import Fixed, values
from ...receipts import answers, keys
from ...receipts.canonical import CanonicalizationError
from ...receipts.signing import Signer
from ...startup import StartupError, quoted
from ..document.components import EnumType, ref
from ..document.derive import field_of, result_schema
from ..fast.context import current_request, this_app

EXTENSION = "fire-control.receipts"
DEFAULT_ISSUER = answers.DEFAULT_ISSUER
HASH = answers.HASH

blp = Blueprint(
    "receipts",
    __name__,
    description="Signed receipts: the public keys, and checks of a response or a game log.",
)


@dataclass(frozen=True)
class Keys:
    signer: Signer
    seals: keys.SealKeys


def init_app(app: Flask) -> None:
    """Load the keys (made on first start when none are configured)."""
    signing = keys.configured(app.config, keys.SIGNING, keys.signing_keys)
    seals = keys.configured(app.config, keys.SEAL, keys.seal_keys)
    issuer = _issuer(keys.setting(app.config, "FIRECONTROL_ISSUER") or DEFAULT_ISSUER)
    app.extensions[EXTENSION] = Keys(Signer(signing, issuer), seals)


ISSUER_MAX = 200


def _issuer(name: str) -> str:
    """The name every receipt is signed under: printable Unicode text, kept short."""
    if not name.isprintable() or len(name) > ISSUER_MAX:  # a lone surrogate is not printable
        raise StartupError(
            "FIRECONTROL_ISSUER",
            f"{quoted(name[:40])}{'...' if len(name) > 40 else ''} is not a service name "
            f"(printable text, {ISSUER_MAX} characters at most)",
            f"set the name receipts are signed under, or unset it for {DEFAULT_ISSUER!r}",
        )
    return name


def current_keys() -> Keys:
    found: Keys = this_app().extensions[EXTENSION]
    return found


# --- every resolution: prev in, provenance and receipt out --------------------------------


def prev_field() -> fields.Field[Any]:
    return field_of(answers.Prev, strict=True)


ProvenanceSchema = result_schema(answers.Provenance)


def receipt_field() -> fields.Field[Any]:
    return field_of(answers.Receipt, required=True)


class ReceiptCanonicalError(RuleError):
    kind = KINDS["validation"].id
    title = "This request cannot be signed"


# Prefer (RFC 7240): a caller that keeps its requests asks for the request pinned by digest.
# The preferences a signed operation reads: the request pinned by its digest, or echoed
# whole (what it does without one). Any other is ignored, as RFC 7240 says.
Preference = Annotated[
    Literal["return=minimal", "return=representation"],
    Fixed(
        "Preference",
        "A preference (RFC 7240) a signed operation reads: the request pinned by its digest "
        "(`return=minimal`), or echoed whole (`return=representation`, the default).",
    ),
]
PREFERENCES = values(Preference)
MINIMAL: Literal["return=minimal"] = "return=minimal"
if MINIMAL not in PREFERENCES:  # pragma: no cover
    raise ValueError("return=minimal is not a preference the operations read")
PREFER_PARAMETER = "Prefer"  # the parameter component every signed operation names
PREFER_COMPONENT = {
    "in": "header",
    "name": "Prefer",
    "required": False,
    "description": "`return=minimal`: the answer's `provenance.request` pins the request by "
    "its digest (`sent` and `rest_sha256`) instead of echoing its whole body, where that is "
    "shorter, and then (only then) says `Preference-Applied: return=minimal`; a body whose "
    "digest would be no shorter is echoed whole, without the header. Everything else in "
    "the answer is the same. `return=representation`, the default, echoes the body whole; "
    "other preferences are ignored (RFC 7240). See docs/verifiable-rolls.md, *Receipts*.",
    # The preferences the operations read, as an enum a client can name, or any other
    # preference, which RFC 7240 has a server ignore rather than refuse.
    "schema": {
        "anyOf": [ref(EnumType.of(Preference).name), {"type": "string"}],
        "example": MINIMAL,
    },
}


def prefers_minimal(environ: dict[str, Any]) -> bool:
    """Whether the request's first ``return`` preference (RFC 7240) is ``minimal``; other
    preferences, and anything unreadable, are ignored as the RFC says."""
    # Straight from the environ: a WSGI server joins repeated Prefer headers into one
    # (RFC 9110 section 5.3), so this is the very list Headers.getlist would give, unparsed.
    header: str = environ.get("HTTP_PREFER", "")
    for preference in header.split(","):
        name, _, value = preference.split(";", 1)[0].partition("=")
        if name.strip().lower() == "return":
            return value.strip().strip('"') == "minimal"
    return False


def signed(document: dict[str, Any]) -> Response:
    """The response with its provenance and receipt, as JSON."""
    signer = current_keys().signer
    req = current_request()
    body = req.get_json(silent=True)
    minimal = prefers_minimal(req.environ) and isinstance(body, dict)
    try:
        provenance = signer.provenance(req.path, body, digest=minimal)
        document = signer.sign({**document, "provenance": provenance})
    except CanonicalizationError:
        raise ReceiptCanonicalError(
            "the request holds text that is not valid Unicode (a lone surrogate escape) or a "
            "number JSON cannot carry exactly, so its receipt cannot be signed",
            field="(body)",
        ) from None
    # The Content-Type mimetype="application/json" gives (no charset), without working it out.
    response = Response(orjson.dumps(document), content_type="application/json")
    # Said only when the body was pinned by its digest: a short body stays whole (request_echo).
    # No Vary: Prefer, an answer to a POST with no freshness is never stored.
    if "rest_sha256" in provenance["request"]:
        response.headers["Preference-Applied"] = MINIMAL
    return response


# --- GET /.well-known/jwks.json -------------------------------------------------------------


JwksSchema = result_schema(answers.Jwks)


JWKS_EXAMPLE: answers.Jwks = {
    "keys": [
        {
            "kty": "OKP",
            "crv": "Ed25519",
            "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
            "kid": "example",
            "alg": "Ed25519",
            "use": "sig",
        }
    ]
}


@blp.get("/.well-known/jwks.json")
@blp.doc(operationId="getJwks")
@blp.response(200, JwksSchema, example=JWKS_EXAMPLE)
def jwks() -> Response:
    """The public keys that sign receipts

    A JSON Web Key Set (RFC 7517): the key that signs now comes first; retired keys stay
    listed so the receipts they signed still verify. A receipt's header names its `kid`.
    """
    body = orjson.dumps(current_keys().signer.keys.jwks())
    response = Response(body, mimetype="application/json")
    response.headers["Cache-Control"] = "public, max-age=300"
    return response
