"""Where the signing and sealing keys come from, and how they rotate.

Both are JSON Web Key Sets (RFC 7517). The first key of a set that has its private part
is the one in use; every other key stays for checking what it made before:

* signing keys: Ed25519 (``kty`` OKP). A new key signs; retired keys keep only their public
  part and stay listed at ``/.well-known/jwks.json``, so old receipts still verify.
* sealing keys: 256-bit AES keys (``kty`` oct). A new key seals; retired keys still open
  the tokens they sealed.

Each set comes from configuration, first match wins: the app config or the environment
variable ``FIRECONTROL_SIGNING_KEYS`` / ``FIRECONTROL_SEAL_KEYS`` (the set itself, as
JSON: fits a Kubernetes Secret), or ``..._FILE`` (a path to it). With neither, the
service makes a set on first start in ``FIRECONTROL_DATA_DIR`` (default ``var``), and
every worker process uses that one file: it is written to a temporary file and linked into
place, so when workers start together one wins and the others read the winner's set.

A set that cannot be used, a file that cannot be read, a data folder where no set can be
made: each is a ``StartupError`` (service/startup.py) naming the setting.
Private key material is never logged, served or put into an error message.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import secrets
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from joserfc.jwk import OctKey, OKPKey

from .. import startup
from ..startup import StartupError

T = TypeVar("T")

SIGNING = "SIGNING"
SEAL = "SEAL"
DEFAULT_DATA_DIR = "var"
FILE_NAMES = {SIGNING: "signing-keys.json", SEAL: "seal-keys.json"}


class KeyConfigError(RuntimeError):
    """The configured keys cannot be used (the message never quotes key material)."""


def setting(config: Mapping[str, Any], name: str) -> str | None:
    """A setting from the app config, else the environment."""
    value = config.get(name)
    if value is None:
        value = os.environ.get(name)
    return str(value) if value not in (None, "") else None


# --- one key ---------------------------------------------------------------------------


def new_signing_key() -> dict[str, Any]:
    key = OKPKey.generate_key("Ed25519", private=True)
    return {**key.as_dict(private=True), "kid": key.thumbprint()}


def new_seal_key() -> dict[str, Any]:
    key = OctKey.import_key(secrets.token_bytes(32))
    return {**key.as_dict(private=True), "kid": key.thumbprint()[:16]}


def _public(jwk: Mapping[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in jwk.items() if name != "d"}


# --- a set of keys ----------------------------------------------------------------------


@dataclass(frozen=True)
class SigningKeys:
    """The Ed25519 key that signs now, and every public key a receipt may name."""

    current: OKPKey
    kid: str
    public: dict[str, OKPKey]

    def jwks(self) -> dict[str, Any]:
        keys = [
            {**key.as_dict(private=False), "kid": kid, "alg": "Ed25519", "use": "sig"}
            for kid, key in self.public.items()
        ]
        return {"keys": keys}


@dataclass(frozen=True)
class SealKeys:
    """The AES-256 key that seals now, and every key that may open a token."""

    kid: str
    keys: dict[str, bytes]

    @property
    def current(self) -> bytes:
        return self.keys[self.kid]


def _members(document: Any, what: str) -> list[dict[str, Any]]:
    if isinstance(document, dict) and isinstance(document.get("keys"), list):
        members = document["keys"]
    elif isinstance(document, dict) and "kty" in document:
        members = [document]
    else:
        raise KeyConfigError(f"the {what} keys are not a JSON Web Key Set ({{'keys': [...]}})")
    if not members or not all(isinstance(m, dict) for m in members):
        raise KeyConfigError(f"the {what} key set has no keys")
    return list(members)


def signing_keys(document: Any) -> SigningKeys:
    current: OKPKey | None = None
    kid = ""
    public: dict[str, OKPKey] = {}
    for number, member in enumerate(_members(document, "signing"), start=1):
        if member.get("kty") != "OKP" or member.get("crv") != "Ed25519":
            raise KeyConfigError(f"signing key {number} is not an Ed25519 (OKP) key")
        try:
            key = OKPKey.import_key(dict(member))
        except Exception as error:  # joserfc raises several kinds; none may leak the key
            raise KeyConfigError(f"signing key {number} cannot be read") from error
        name = str(member.get("kid") or key.thumbprint())
        if name in public:
            raise KeyConfigError(f"signing key {number}: kid {name!r} is used twice")
        public[name] = OKPKey.import_key(_public(key.as_dict(private=False)))
        if current is None and key.is_private:
            current, kid = key, name
    if current is None:
        raise KeyConfigError("the signing key set has no private key to sign with")
    return SigningKeys(current, kid, public)


def seal_keys(document: Any) -> SealKeys:
    keys: dict[str, bytes] = {}
    for number, member in enumerate(_members(document, "seal"), start=1):
        encoded = member.get("k")
        try:
            raw = base64.urlsafe_b64decode(str(encoded) + "=" * (-len(str(encoded)) % 4))
        except ValueError:
            raw = b""
        if member.get("kty") != "oct" or not isinstance(encoded, str) or len(raw) != 32:
            raise KeyConfigError(f"seal key {number} is not a 256-bit (oct) key")
        name = str(member.get("kid") or OctKey.import_key(raw).thumbprint()[:16])
        if name in keys:
            raise KeyConfigError(f"seal key {number}: kid {name!r} is used twice")
        keys[name] = raw
    return SealKeys(next(iter(keys)), keys)


# --- where a set comes from -----------------------------------------------------------------


def data_file(config: Mapping[str, Any], kind: str) -> Path:
    folder = Path(setting(config, "FIRECONTROL_DATA_DIR") or DEFAULT_DATA_DIR)
    return folder / FILE_NAMES[kind]


def _write_new(path: Path, document: dict[str, Any]) -> None:
    """Create ``path`` holding ``document`` unless another process already has: never both."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=".new-", dir=path.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(document, handle)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)  # atomic, and fails if a key set is already there
    finally:
        os.unlink(temporary)


def replace(path: Path, document: dict[str, Any]) -> None:
    """Write ``document`` over ``path`` atomically (rotation)."""
    descriptor, temporary = tempfile.mkstemp(prefix=".new-", dir=path.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(document, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def _source(config: Mapping[str, Any], kind: str) -> str:
    """The setting the key set of ``kind`` comes from: the first of the three that is set."""
    for name in (f"FIRECONTROL_{kind}_KEYS", f"FIRECONTROL_{kind}_KEYS_FILE"):
        if setting(config, name) is not None:
            return name
    return "FIRECONTROL_DATA_DIR"


def _set_remedy(kind: str) -> str:
    form = "Ed25519 (OKP)" if kind == SIGNING else "256-bit (oct)"
    return (
        f"give a JSON Web Key Set of {form} keys "
        f"(python -m service.receipts new {kind.lower()} prints one)"
    )


def key_document(config: Mapping[str, Any], kind: str) -> Any:
    """The configured key set of ``kind`` (SIGNING or SEAL) as JSON, made on first start.
    A fault is a StartupError naming the setting the set comes from."""
    lower, source = kind.lower(), _source(config, kind)
    if source == f"FIRECONTROL_{kind}_KEYS":
        text, where = str(setting(config, source)), "its value"
    else:
        if source == "FIRECONTROL_DATA_DIR":
            path = data_file(config, kind)
            if not path.exists():
                _make(path, kind)
            remedy = "let the service read the file, or restore it from a backup"
        else:
            path = Path(str(setting(config, source)))
            remedy = f"mount the {lower} key set there, or correct the path"
        where = startup.quoted(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            problem = f"the {lower} keys cannot be read from {where}: {startup.why(error)}"
            raise StartupError(source, problem, remedy) from None
        except UnicodeDecodeError:
            raise StartupError(source, f"{where} is not UTF-8 text", _set_remedy(kind)) from None
    try:
        return json.loads(text)
    except ValueError:
        raise StartupError(source, f"{where} is not JSON", _set_remedy(kind)) from None


def _make(path: Path, kind: str) -> None:
    """The first start: a new set of ``kind`` at ``path``, in the data folder."""
    remedy = (
        "point it at a folder the service may write, where the keys are made on first "
        f"start, or give the keys in FIRECONTROL_{kind}_KEYS_FILE"
    )
    startup.writable_folder("FIRECONTROL_DATA_DIR", path.parent, remedy, mode=0o700)
    maker = new_signing_key if kind == SIGNING else new_seal_key
    try:
        _write_new(path, {"keys": [maker()]})
    except OSError as error:
        problem = f"no {kind.lower()} keys can be made in {startup.quoted(path.parent)}"
        raise StartupError(
            "FIRECONTROL_DATA_DIR", f"{problem}: {startup.why(error)}", remedy
        ) from None


def configured(config: Mapping[str, Any], kind: str, read: Callable[[Any], T]) -> T:
    """The key set of ``kind`` the service starts with, read by ``read`` (signing_keys or
    seal_keys); a StartupError naming its setting if it cannot be used."""
    document = key_document(config, kind)
    try:
        return read(document)
    except KeyConfigError as error:
        raise StartupError(_source(config, kind), str(error), _set_remedy(kind)) from None


def rotate(path: Path, kind: str) -> str:
    """Put a new key first in the set at ``path``; returns its kid.

    A retired signing key keeps only its public part; a retired seal key stays whole, as
    it must still open the tokens it sealed.
    """
    document = json.loads(path.read_text(encoding="utf-8"))
    members = _members(document, kind.lower())
    fresh = new_signing_key() if kind == SIGNING else new_seal_key()
    if kind == SIGNING:
        members = [_public(member) for member in members]
    replace(path, {"keys": [fresh, *members]})
    return str(fresh["kid"])
