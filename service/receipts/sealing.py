"""Sealed seeds: commit to a secret server seed now, reveal it after a set time.

The service keeps no state: everything it must remember about a sealed seed travels in a
token the players hold, encrypted and authenticated with AES-256-GCM under a server key
(``keys.SealKeys``). A token is ``fcs1.<kid>.<BASE64URL(12-byte nonce || ciphertext)>``;
the associated data is ``fc-sealed-seed-v1.<kid>``, so a token cannot be edited, moved to
another key, or forged without the key. Replicas share the key through configuration.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from ..engine.dice import commitment
from ..engine.errors import RuleError
from .keys import SealKeys

PREFIX = "fcs1."
MAX_TOKEN = 512

# The token in the API document's examples is sealed with this published key, so that the
# example runs as it is on every deployment. Its seed is public by construction: the key
# opens it for a reveal only, and a step refuses to roll from it.
EXAMPLE_KID = "docs-example"
EXAMPLE_KEY = hashlib.sha256(b"fire-control public example seal key").digest()


class SealError(RuleError):
    """A sealed token that cannot be used: tampered, from another service, or expired."""

    kind = "dice"
    title = "The sealed seed cannot be used"

    def __init__(self, detail: str, field: str = "dice.sealed") -> None:
        super().__init__(detail, field=field)


@dataclass(frozen=True)
class Sealed:
    """What a token holds once opened."""

    seed: str
    issued_at: int
    reveal_after: int
    kid: str

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    @property
    def is_example(self) -> bool:
        return self.kid == EXAMPLE_KID


def new_server_seed() -> str:
    """32 bytes of the operating system's randomness, as 43 base64url characters."""
    return secrets.token_urlsafe(32)


def _aad(kid: str) -> bytes:
    return f"fc-sealed-seed-v1.{kid}".encode()


def _seal(kid: str, key: bytes, nonce: bytes, seed: str, issued_at: int, reveal_after: int) -> str:
    plain = json.dumps(
        {"seed": seed, "iat": issued_at, "reveal_after": reveal_after}, separators=(",", ":")
    ).encode()
    sealed = AESGCM(key).encrypt(nonce, plain, _aad(kid))
    return PREFIX + kid + "." + base64.urlsafe_b64encode(nonce + sealed).rstrip(b"=").decode()


def seal(keys: SealKeys, seed: str, issued_at: int, reveal_after: int) -> str:
    """A token holding ``seed`` and its times, sealed with the current key (a fresh nonce)."""
    return _seal(keys.kid, keys.current, os.urandom(12), seed, issued_at, reveal_after)


def seal_example(seed: str, issued_at: int, reveal_after: int) -> str:
    """The documentation's example token: the public example key, the same bytes every time."""
    return _seal(EXAMPLE_KID, EXAMPLE_KEY, bytes(12), seed, issued_at, reveal_after)


def open_token(keys: SealKeys, token: str, field: str = "dice.sealed") -> Sealed:
    """The seed and times in ``token``; a clear SealError if it is not one of ours, intact."""
    foreign = SealError(
        "this sealed token was not made by this service, or was altered: "
        "ask POST /v1/seeds for a new one",
        field,
    )
    if len(token) > MAX_TOKEN or not token.startswith(PREFIX) or token.count(".") != 2:
        raise foreign
    kid, _, data = token[len(PREFIX) :].partition(".")
    key = EXAMPLE_KEY if kid == EXAMPLE_KID else keys.keys.get(kid)
    if key is None:
        raise foreign
    try:
        raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
        plain = AESGCM(key).decrypt(raw[:12], raw[12:], _aad(kid))
        content = json.loads(plain)
        return Sealed(str(content["seed"]), int(content["iat"]), int(content["reveal_after"]), kid)
    except (InvalidTag, ValueError, TypeError, KeyError, IndexError):
        raise foreign from None
