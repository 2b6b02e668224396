"""Receipts: a detached JWS (RFC 7515, alg Ed25519 per RFC 9864) over a response.

The signed content is the RFC 8785 canonical JSON of the whole response without its
``receipt`` member. That response carries ``provenance``: the service, the key id, the
issue time and the request that produced it (its path and its whole body, ``prev``
included), so a receipt cannot be moved onto another question or out of its game. A caller
that keeps its requests may ask for the request pinned by a digest instead of echoed
(``request_echo``): the members a verifier reads stay as they were sent.

A receipt is ``BASE64URL(header) + ".." + BASE64URL(signature)``; the header is
``{"alg": "Ed25519", "kid": <key id>}``. To check one, put the canonical JSON back in the
empty middle (RFC 7515 appendix F) and verify with the key of that ``kid`` from
``/.well-known/jwks.json``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import time
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from joserfc import jws
from joserfc.errors import JoseError
from joserfc.jwk import OKPKey
from nacl.bindings import (
    crypto_sign,
    crypto_sign_BYTES,
    crypto_sign_open,
    crypto_sign_seed_keypair,
)
from nacl.exceptions import BadSignatureError

from .answers import SignatureCode
from .canonical import CanonicalizationError, canonical_json
from .keys import SigningKeys

ALGORITHMS = ["Ed25519"]
_DETACHED = re.compile(r"[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+")


_URLSAFE = bytes.maketrans(b"+/", b"-_")


def _b64(data: bytes) -> bytes:
    """BASE64URL without padding (RFC 7515 section 2): ``urlsafe_b64encode``'s bytes."""
    return binascii.b2a_base64(data, newline=False).translate(_URLSAFE).rstrip(b"=")


@lru_cache(maxsize=16)  # every answer of the same second writes the same time
def rfc3339(epoch: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))


def receipt_hash(receipt: str) -> str:
    """What the next request of the same game sends as ``prev``: hex SHA-256 of the receipt."""
    return hashlib.sha256(receipt.encode("utf-8")).hexdigest()


def unsigned(document: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in document.items() if name != "receipt"}


# The members of a request body that a verifier reads: the chain's ``prev``, the dice as
# sent (a sealed token among them), the readings as sent, and a Salvo! turn's
# ``player_action`` (a pending turn and its finishing call differ in these only). An echo
# by digest keeps them as they were sent and pins the rest by its SHA-256.
KEPT = frozenset({"prev", "dice", "rules", "player_action"})


# What the digest adds to an echo: ``,"rest_sha256":"<64 hex digits>"``. A rest no longer
# than that is its own shortest pin (``sent`` and ``body`` are names of one length).
DIGEST_BYTES = len(',"rest_sha256":""') + 64


def request_echo(path: str, body: Any, *, digest: bool = False) -> dict[str, Any]:
    """The request a response answers, as its provenance names it: the whole body, or (asked
    for with ``Prefer: return=minimal``) the members ``KEPT`` as sent and the SHA-256 of the
    RFC 8785 JSON of the rest, which the caller holds already, when that rest is longer
    than ``DIGEST_BYTES`` (a body of a few small members stays whole). Either pins the
    whole request."""
    if not digest or not isinstance(body, dict):
        return {"path": path, "body": body}
    rest = canonical_json({name: value for name, value in body.items() if name not in KEPT})
    if len(rest) <= DIGEST_BYTES:
        return {"path": path, "body": body}
    sent = {name: value for name, value in body.items() if name in KEPT}
    return {"path": path, "sent": sent, "rest_sha256": hashlib.sha256(rest).hexdigest()}


def echoed(document: Any) -> dict[str, Any] | None:
    """The members of the request ``document`` answers that its provenance shows: the whole
    body, or the members an echo by digest kept (None when it names no request)."""
    provenance = document.get("provenance") if isinstance(document, dict) else None
    request = provenance.get("request") if isinstance(provenance, dict) else None
    if not isinstance(request, dict):
        return None
    body = request.get("body")
    if not isinstance(body, dict):
        body = request.get("sent")
    return body if isinstance(body, dict) else None


def asked(document: Any, name: str) -> Any:
    """The member ``name`` of the request ``document`` answers, from either echo (None when
    the request had none, or the document names no request)."""
    members = echoed(document)
    return members.get(name) if members is not None else None


@dataclass(frozen=True)
class Signer:
    keys: SigningKeys
    issuer: str

    def provenance(
        self, path: str, body: Any, now: int | None = None, *, digest: bool = False
    ) -> dict[str, Any]:
        return {
            "service": self.issuer,
            "kid": self.keys.kid,
            "issued_at": rfc3339(int(time.time()) if now is None else now),
            "request": request_echo(path, body, digest=digest),
        }

    @cached_property
    def _protected(self) -> bytes:
        """BASE64URL of the JWS header, exactly as joserfc writes it (made once per key)."""
        header = {"alg": "Ed25519", "kid": self.keys.kid}
        token = jws.serialize_compact(header, b"", self.keys.current, algorithms=ALGORITHMS)
        return token.split(".")[0].encode("ascii")

    @cached_property
    def _head(self) -> str:
        return self._protected.decode("ascii")

    @cached_property
    def _secret(self) -> bytes:
        """The signing key, for libsodium (PyNaCl): an Ed25519 signature is a function of
        the key and the message alone (RFC 8032), so it is the very signature OpenSSL
        would make, for about two thirds of the CPU (tests/test_receipts.py checks it)."""
        key = self.keys.current.private_key
        if not isinstance(key, Ed25519PrivateKey):
            raise TypeError("the signing key is not an Ed25519 private key")
        return crypto_sign_seed_keypair(key.private_bytes_raw())[1]

    def sign(self, document: dict[str, Any]) -> dict[str, Any]:
        """``document`` (which has its provenance) with its ``receipt`` added.

        The JWS signing input (RFC 7515 section 5.1) is signed with the Ed25519 key
        directly: joserfc's serialize_compact gives the very same bytes (Ed25519 is
        deterministic; tests/test_receipts.py checks it) at about twice the cost, and it
        is still joserfc that writes the header, and OpenSSL, with the key joserfc holds,
        that checks every receipt (``_verifies``).
        """
        signing_input = b"%s.%s" % (self._protected, _b64(canonical_json(document)))
        signature = crypto_sign(signing_input, self._secret)[:crypto_sign_BYTES]
        return {**document, "receipt": f"{self._head}..{_b64(signature).decode('ascii')}"}


@dataclass(frozen=True)
class Checked:
    valid: bool
    kid: str | None
    problem: str | None
    code: SignatureCode | None = None


def canonical_b64url(text: str) -> bool:
    """Whether ``text`` is base64url as the service writes it: no padding, a length some
    bytes have, and the spare bits of its last character zero. Another spelling of the
    same bytes is another receipt (another hash, another ``prev``): all three verifiers
    accept only this one."""
    if len(text) % 4 == 1:
        return False
    try:
        return _b64(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))).decode() == text
    except ValueError:
        return False


NOT_CANONICAL = (
    "the receipt is not spelled as the service writes it (base64url with its spare bits "
    "zero): another spelling of a receipt is another receipt"
)


@lru_cache(maxsize=64)
def _head(head: str) -> tuple[bool, dict[str, Any] | None]:
    """Whether a receipt's first part is canonical base64url, and the JSON object it
    decodes to (None if none): the same few headers come back on every receipt of a key,
    so each is read once."""
    try:
        decoded = json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))
    except (ValueError, TypeError):
        decoded = None
    return canonical_b64url(head), decoded if isinstance(decoded, dict) else None


def _header(receipt: str) -> dict[str, Any] | None:
    decoded = _head(receipt.split(".", 1)[0])[1]
    return None if decoded is None else dict(decoded)  # a copy: the cached one stays as read


_REGISTRY = jws.JWSRegistry(algorithms=ALGORITHMS)
_ED25519 = _REGISTRY.get_alg("Ed25519")


# The keys ``_checked_key`` has passed, by identity (joserfc keys are not hashable), each
# held so that its id stays its own; a process knows a handful, tests make a few more.
_CHECKED: dict[int, tuple[OKPKey, Ed25519PublicKey, bytes]] = {}
_CHECKED_MAX = 64


def _checked_key(key: OKPKey) -> tuple[OKPKey, Ed25519PublicKey, bytes]:
    """``key``, the OpenSSL key joserfc's Ed25519 algorithm verifies with and its 32 bytes,
    once its ``check_key`` has passed for ``key`` (its use, type, ``alg`` and curve: what a
    key holds, not what a receipt does, so checked once per key). Raises JoseError as
    ``check_key`` does."""
    found = _CHECKED.get(id(key))
    if found is not None and found[0] is key:
        return found
    _ED25519.check_key(key)
    public = key.get_op_key("verify")
    if not isinstance(public, Ed25519PublicKey):  # pragma: no cover - check_key saw Ed25519
        raise TypeError("the key is not an Ed25519 public key")
    if len(_CHECKED) >= _CHECKED_MAX:
        _CHECKED.clear()
    found = _CHECKED[id(key)] = (key, public, public.public_bytes_raw())
    return found


def _signs(public: Ed25519PublicKey, raw_key: bytes, signature: bytes, signed: bytes) -> bool:
    """OpenSSL's verdict on an Ed25519 ``signature`` of ``signed``, asking libsodium first.

    libsodium accepts a signature only if S is below the group's order and R is the very
    encoding of [S]B - [k]A (RFC 8032 section 5.1.7), k the hash of R, A and the message:
    what OpenSSL checks, so whatever libsodium accepts OpenSSL accepts, for about two
    thirds of the CPU. libsodium refuses more (a small-order R or key, a non-canonical key),
    so a signature it refuses is asked of OpenSSL, whose verdict stands: the answer is
    OpenSSL's on every input (tests/test_receipts.py checks them against joserfc's)."""
    if len(signature) == crypto_sign_BYTES:
        try:
            crypto_sign_open(signature + signed, raw_key)
            return True
        except BadSignatureError:
            pass
    try:
        public.verify(signature, signed)
        return True
    except InvalidSignature:
        return False


def _verifies(receipt: str, header: dict[str, Any], key: OKPKey, payload: bytes) -> bool:
    """Whether the detached ``receipt`` signs ``payload`` with ``key``.

    A receipt whose header is the one the service writes (``alg`` and ``kid``, nothing
    else) is checked as joserfc's Ed25519 algorithm checks it (``check_key``, then
    OpenSSL's verdict on the JWS signing input, RFC 7515 section 5.2, see ``_signs``), over
    the signing input put together here: the header joserfc would parse again is already
    read, and its checks of such a header (critical members, RFC 7797's ``b64``, sizes)
    cannot fail. Any other header goes through joserfc's whole ``deserialize_compact``.
    tests/test_receipts.py checks that the two agree on every receipt they are given.
    """
    head, _, signature = receipt.partition("..")
    try:
        if (
            header != {"alg": "Ed25519", "kid": header.get("kid")}
            or len(head) > _REGISTRY.max_header_length
        ):
            jws.deserialize_compact(receipt, key, algorithms=ALGORITHMS, payload=payload)
            return True
        _, public, raw_key = _checked_key(key)
        raw = base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4))
        return _signs(public, raw_key, raw, b"%s.%s" % (head.encode("ascii"), _b64(payload)))
    except (JoseError, ValueError, TypeError):
        return False


def check_signature(keys: SigningKeys, document: dict[str, Any]) -> Checked:
    """Whether ``document``'s receipt is a valid signature of the rest by one of our keys."""
    receipt = document.get("receipt")
    if not isinstance(receipt, str) or not _DETACHED.fullmatch(receipt):
        return Checked(
            False, None, "no receipt: `receipt` must be a detached JWS (header..sig)", "no-receipt"
        )
    head, _, signature = receipt.partition("..")
    if not (_head(head)[0] and canonical_b64url(signature)):
        return Checked(False, None, NOT_CANONICAL, "receipt-not-canonical")
    header = _header(receipt)
    if header is None or header.get("alg") != "Ed25519":
        return Checked(
            False, None, "the receipt's header is not an Ed25519 JWS header", "bad-header"
        )
    kid = header.get("kid")
    key = keys.public.get(kid) if isinstance(kid, str) else None
    if key is None:
        shown = json.dumps(kid, ensure_ascii=True)[:60]
        return Checked(
            False,
            None,
            f"the receipt names a key this service does not know: {shown}",
            "unknown-key",
        )
    try:
        payload = canonical_json(unsigned(document))
    except CanonicalizationError as error:
        return Checked(
            False, kid, f"the document has no RFC 8785 form ({error})", "no-canonical-form"
        )
    if not _verifies(receipt, header, key, payload):
        return Checked(
            False, kid, "the signature does not match the document: it was altered", "altered"
        )
    provenance = document.get("provenance")
    if not isinstance(provenance, dict) or provenance.get("kid") != kid:
        return Checked(
            False, kid, "the provenance names another key than the receipt", "provenance-kid"
        )
    return Checked(True, kid, None)
