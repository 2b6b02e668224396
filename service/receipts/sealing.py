"""Sealed seeds: commit to a secret server seed now, reveal it after a set time.

The service keeps no state: everything it must remember about a sealed seed travels in a
token the players hold, encrypted and authenticated with AES-256-GCM under a server key
(``keys.SealKeys``). A token is ``fcs1.<kid>.<BASE64URL(12-byte nonce || ciphertext)>``;
the associated data is ``fc-sealed-seed-v1.<kid>``, so a token cannot be edited, moved to
another key, or forged without the key. Replicas share the key through configuration.

A token may also bind the roller's client seed: it then holds the hex SHA-256 the roller
committed to before the server seed existed, and rolls must present a client seed with that
hash, so the token's holder cannot try client seeds until one gives the dice they want.
It may bind the game's rules too: the hex SHA-256 of the RFC 8785 JSON of the ruleset and
its readings in force (``rules_binding``), so the token rolls a step only under them.

The documentation's example key is public, so anyone can seal anything with it: opening a
token checks every member of what it holds (the members the service writes and no other, a
seed of the service's alphabet, whole-second times within a year of each other, a 64-digit
hex binding) and refuses the rest with a SealError, never an exception of another kind.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import secrets
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from ..engine.dice import commitment
from ..engine.dice_requests import MAX_TOKEN as MAX_TOKEN
from ..engine.errors import KINDS, RuleError
from .canonical import canonical_json
from .keys import SealKeys

PREFIX = "fcs1."
# A reveal at most a year after the seal (POST /v1/seeds refuses more).
MAX_REVEAL_IN = 366 * 24 * 3600
# Times a token may hold: whole seconds from 1970 to the end of year 9999 (RFC 3339's range).
LATEST = 253402300799
# What new_server_seed makes: base64url text (so never the colon that joins the two seeds).
SEED = re.compile(r"[A-Za-z0-9_-]{1,64}")
HEX_SHA256 = re.compile(r"[0-9a-f]{64}")
MEMBERS = frozenset({"seed", "iat", "reveal_after"})
BOUND = "client_seed_sha256"
RULES = "rules_sha256"

# The token in the API document's examples is sealed with this published key, so that the
# example runs as it is on every deployment. Its seed is public by construction: the key
# opens it for a reveal only, and a step refuses to roll from it.
EXAMPLE_KID = "docs-example"
EXAMPLE_KEY = hashlib.sha256(b"fire-control public example seal key").digest()


class SealError(RuleError):
    """A sealed token that cannot be used: tampered, from another service, or expired."""

    kind = KINDS["dice"].id
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
    client_seed_sha256: str | None = None
    rules_sha256: str | None = None

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    @property
    def is_example(self) -> bool:
        return self.kid == EXAMPLE_KID

    def admits(self, client_seed: str) -> bool:
        """Whether a roll may use ``client_seed``: any, unless the token binds one."""
        bound = self.client_seed_sha256
        return bound is None or client_seed_hash(client_seed) == bound


def rules_binding(ruleset: str, readings: dict[str, str]) -> str:
    """What binds a game's rules: hex SHA-256 of the RFC 8785 JSON of
    ``{"ruleset": <id>, "rules": <every ruling's reading in force>}``."""
    return hashlib.sha256(canonical_json({"ruleset": ruleset, "rules": readings})).hexdigest()


def client_seed_hash(client_seed: str) -> str:
    """What binds a client seed: hex SHA-256 of its UTF-8 bytes (``sha256sum``'s output)."""
    return hashlib.sha256(client_seed.encode("utf-8")).hexdigest()


def new_server_seed() -> str:
    """32 bytes of the operating system's randomness, as 43 base64url characters."""
    return secrets.token_urlsafe(32)


def _aad(kid: str) -> bytes:
    return f"fc-sealed-seed-v1.{kid}".encode()


def _seal(kid: str, key: bytes, nonce: bytes, content: dict[str, Any]) -> str:
    """A token holding ``content`` as compact JSON (the raw form: ``seal`` checks nothing)."""
    plain = json.dumps(content, separators=(",", ":")).encode()
    sealed = AESGCM(key).encrypt(nonce, plain, _aad(kid))
    return PREFIX + kid + "." + base64.urlsafe_b64encode(nonce + sealed).rstrip(b"=").decode()


def _content(
    seed: str,
    issued_at: int,
    reveal_after: int,
    client_seed_sha256: str | None,
    rules_sha256: str | None = None,
) -> dict[str, Any]:
    content: dict[str, Any] = {"seed": seed, "iat": issued_at, "reveal_after": reveal_after}
    if client_seed_sha256 is not None:
        content[BOUND] = client_seed_sha256
    if rules_sha256 is not None:
        content[RULES] = rules_sha256
    return content


def seal(
    keys: SealKeys,
    seed: str,
    issued_at: int,
    reveal_after: int,
    client_seed_sha256: str | None = None,
    rules_sha256: str | None = None,
) -> str:
    """A token holding ``seed``, its times and any binding, sealed with the current key."""
    content = _content(seed, issued_at, reveal_after, client_seed_sha256, rules_sha256)
    return _seal(keys.kid, keys.current, os.urandom(12), content)


def seal_example(
    seed: str, issued_at: int, reveal_after: int, client_seed_sha256: str | None = None
) -> str:
    """The documentation's example token: the public example key, the same bytes every time."""
    content = _content(seed, issued_at, reveal_after, client_seed_sha256)
    return _seal(EXAMPLE_KID, EXAMPLE_KEY, bytes(12), content)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    names = [name for name, _ in pairs]
    if len(set(names)) != len(names):
        raise ValueError("a member name is repeated")
    return dict(pairs)


def _no_constant(name: str) -> Any:
    raise ValueError(f"it holds {name}, which is no JSON number")


def _time(content: dict[str, Any], name: str) -> int:
    value = content[name]
    if type(value) is not int or not 0 <= value <= LATEST:
        raise ValueError(f"its {name} is not a time in whole seconds from 1970 to 9999")
    return value


def _opened(content: Any, kid: str) -> Sealed:
    """The Sealed of a decrypted token's content; ValueError naming what the service never seals."""
    if not isinstance(content, dict) or not MEMBERS <= content.keys() <= MEMBERS | {BOUND, RULES}:
        raise ValueError("it does not hold the seed, iat and reveal_after members alone")
    seed = content["seed"]
    if not isinstance(seed, str) or SEED.fullmatch(seed) is None:
        raise ValueError("its seed is not a seed the service makes")
    issued_at, reveal_after = _time(content, "iat"), _time(content, "reveal_after")
    if not 0 <= reveal_after - issued_at <= MAX_REVEAL_IN:
        raise ValueError("its reveal_after is not within a year after its iat")
    for name in (BOUND, RULES):
        value = content.get(name)
        if name in content and (not isinstance(value, str) or not HEX_SHA256.fullmatch(value)):
            raise ValueError(f"its {name} is not a hex SHA-256")
    return Sealed(seed, issued_at, reveal_after, kid, content.get(BOUND), content.get(RULES))


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
    except (InvalidTag, ValueError):
        raise foreign from None
    try:
        try:
            content = json.loads(
                plain, object_pairs_hook=_no_duplicates, parse_constant=_no_constant
            )
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ValueError("it does not hold JSON text") from None
        return _opened(content, kid)
    except ValueError as error:
        raise SealError(
            f"this sealed token was not made by this service: {error}; "
            "ask POST /v1/seeds for a new one",
            field,
        ) from None
