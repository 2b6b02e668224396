"""docs/verifiable-rolls.md names three JOSE libraries that check a receipt: check each claim.

joserfc and jwcrypto verify receipts as shipped (they know the RFC 9864 name `Ed25519`);
PyJWT knows only `EdDSA` and needs the one-line registration the docs show.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import jwt
import pytest
import rfc8785
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from jwcrypto import jwk as jwcrypto_jwk
from jwcrypto import jws as jwcrypto_jws
from jwt.algorithms import OKPAlgorithm

from tests.receipts_helpers import third_party_check

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
JWKS: dict[str, Any] = json.loads((LOGS / "jwks.json").read_text())
RECEIPT: dict[str, Any] = json.loads((LOGS / "valid-game.json").read_text())[3]
DOCS = (Path(__file__).resolve().parent.parent / "docs" / "verifiable-rolls.md").read_text()


def payload(document: dict[str, Any]) -> bytes:
    return rfc8785.dumps({name: value for name, value in document.items() if name != "receipt"})


def pyjwt_token(document: dict[str, Any]) -> str:
    """The detached receipt with its content put back in the middle (RFC 7515 appendix F)."""
    head, _, signature = document["receipt"].partition("..")
    middle = base64.urlsafe_b64encode(payload(document)).rstrip(b"=").decode()
    return f"{head}.{middle}.{signature}"


def altered() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(json.dumps(RECEIPT))
    document["result"]["straddle"] = not document["result"]["straddle"]
    return document


def test_joserfc_verifies_a_receipt_as_shipped() -> None:
    assert third_party_check(JWKS, RECEIPT)["alg"] == "Ed25519"
    with pytest.raises(Exception, match="signature"):
        third_party_check(JWKS, altered())


def test_jwcrypto_verifies_a_receipt_as_shipped() -> None:
    keys = jwcrypto_jwk.JWKSet.from_json(json.dumps(JWKS))
    for document, holds in ((RECEIPT, True), (altered(), False)):
        token = jwcrypto_jws.JWS()
        token.deserialize(document["receipt"])
        key = keys.get_key(token.jose_header["kid"])
        if holds:
            token.verify(key, detached_payload=payload(document))
        else:
            with pytest.raises(jwcrypto_jws.InvalidJWSSignature):
                token.verify(key, detached_payload=payload(document))


def test_pyjwt_needs_the_one_line_registration_the_docs_show() -> None:
    assert 'jwt.register_algorithm("Ed25519", OKPAlgorithm())' in DOCS
    key = OKPAlgorithm.from_jwk(JWKS["keys"][0])
    assert isinstance(key, Ed25519PublicKey)  # the published key is a public one
    unregistered = jwt.PyJWS()  # a fresh registry: as PyJWT ships
    with pytest.raises(jwt.InvalidAlgorithmError):
        unregistered.decode_complete(pyjwt_token(RECEIPT), key, algorithms=["Ed25519"])
    registered = jwt.PyJWS()
    registered.register_algorithm("Ed25519", OKPAlgorithm())
    checked = registered.decode_complete(pyjwt_token(RECEIPT), key, algorithms=["Ed25519"])
    assert checked["header"]["kid"] == JWKS["keys"][0]["kid"]
    with pytest.raises(jwt.InvalidSignatureError):
        registered.decode_complete(pyjwt_token(altered()), key, algorithms=["Ed25519"])
