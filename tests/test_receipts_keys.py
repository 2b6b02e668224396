"""Where the keys come from: configuration, or one set made on first start and shared."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from service import create_app
from service.receipts import keys
from service.receipts.keys import SealKeys
from service.startup import StartupError
from tests.receipts_helpers import Doc, record_moves
from tests.serving_helpers import (
    assert_one_line,
    gunicorn_command,
    refused,
    where_read_only,
)

ROOT = Path(__file__).resolve().parent.parent

LOAD = """
import sys
from service.receipts import keys
document = keys.key_document({"FIRECONTROL_DATA_DIR": sys.argv[1]}, keys.SIGNING)
print(keys.signing_keys(document).kid)
"""


def test_workers_starting_together_end_up_with_one_key(tmp_path: Path) -> None:
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", LOAD, str(tmp_path / "data")],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    kids = {worker.communicate(timeout=60)[0].strip() for worker in workers}
    assert len(kids) == 1 and "" not in kids
    assert [p.name for p in (tmp_path / "data").iterdir()] == ["signing-keys.json"]


def test_a_key_set_already_there_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "signing-keys.json"
    keys._write_new(path, {"keys": [keys.new_signing_key()]})
    first = path.read_text()
    keys._write_new(path, {"keys": [keys.new_signing_key()]})
    assert path.read_text() == first
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["signing-keys.json"]


def jwks_of(config: dict[str, Any]) -> dict[str, Any]:
    app = create_app({"TESTING": True, **config})
    found: dict[str, Any] = app.test_client().get("/.well-known/jwks.json").get_json()
    return found


def test_keys_from_an_environment_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    current, retired = keys.new_signing_key(), keys.new_signing_key()
    del retired["d"]
    monkeypatch.setenv("FIRECONTROL_SIGNING_KEYS", json.dumps({"keys": [current, retired]}))
    jwks = jwks_of({"FIRECONTROL_DATA_DIR": str(tmp_path / "unused")})
    assert [key["kid"] for key in jwks["keys"]] == [current["kid"], retired["kid"]]
    assert not (tmp_path / "unused" / "signing-keys.json").exists()


def test_keys_from_a_file(tmp_path: Path) -> None:
    mounted = tmp_path / "secret" / "keys.json"
    mounted.parent.mkdir()
    key = keys.new_signing_key()
    mounted.write_text(json.dumps(key))  # a single JWK is a set of one
    jwks = jwks_of({"FIRECONTROL_SIGNING_KEYS_FILE": str(mounted)})
    assert [k["kid"] for k in jwks["keys"]] == [key["kid"]]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("not json", "its value is not JSON"),
        ("[1]", "not a JSON Web Key Set"),
        ('{"keys": []}', "has no keys"),
        ("PUBLIC", "no private key to sign with"),
        ("RSA", "not an Ed25519 (OKP) key"),
        ("TWICE", "is used twice"),
    ],
)
def test_unusable_keys_are_refused_without_quoting_them(document: str, message: str) -> None:
    key = keys.new_signing_key()
    if document == "PUBLIC":
        document = json.dumps({"keys": [{n: v for n, v in key.items() if n != "d"}]})
    elif document == "RSA":
        document = json.dumps({"keys": [{**key, "kty": "RSA"}]})
    elif document == "TWICE":
        document = json.dumps({"keys": [key, key]})
    with pytest.raises(StartupError) as raised:
        create_app({"TESTING": True, "FIRECONTROL_SIGNING_KEYS": document})
    assert str(raised.value).startswith("FIRECONTROL_SIGNING_KEYS: ")
    assert message in str(raised.value)
    assert key["d"] not in str(raised.value)


def test_a_seal_key_must_be_256_bits(tmp_path: Path) -> None:
    short = {"keys": [{"kty": "oct", "k": "c2hvcnQ", "kid": "short"}]}
    with pytest.raises(StartupError, match="^FIRECONTROL_SEAL_KEYS: seal key 1 is not a 256-bit"):
        create_app(
            {
                "TESTING": True,
                "FIRECONTROL_DATA_DIR": str(tmp_path),
                "FIRECONTROL_SEAL_KEYS": json.dumps(short),
            }
        )


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service.receipts", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def test_the_rotate_command_names_the_new_key_and_never_prints_one(tmp_path: Path) -> None:
    jwks_of({"FIRECONTROL_DATA_DIR": str(tmp_path)})
    result = run_cli("rotate", "signing", env={"FIRECONTROL_DATA_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    stored = json.loads((tmp_path / "signing-keys.json").read_text())["keys"]
    assert stored[0]["kid"] in result.stdout
    assert stored[0]["d"] not in result.stdout + result.stderr
    assert [("d" in key) for key in stored] == [True, False]


def test_the_new_command_prints_a_usable_set() -> None:
    result = run_cli("new", "seal")
    assert result.returncode == 0
    assert len(keys.seal_keys(json.loads(result.stdout)).current) == 32
    assert run_cli("new", "nothing").returncode == 2


# --- a start-up fault in the keys' settings: one line, never a traceback ---------------------


def _written(path: Path, content: str | bytes) -> str:
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


def _set(key: dict[str, Any]) -> str:
    return json.dumps({"keys": [key]})


# name: (settings made in a temporary folder, the setting named, what the line says)
KEY_FAULTS: dict[str, Any] = {
    "the data folder is a file": lambda tmp: (
        {"FIRECONTROL_DATA_DIR": _written(tmp / "data", "")},
        "FIRECONTROL_DATA_DIR",
        "is a file, not a folder",
    ),
    "the data folder is missing and cannot be made": lambda tmp: (
        {"FIRECONTROL_DATA_DIR": _written(tmp / "file", "") + "/data"},
        "FIRECONTROL_DATA_DIR",
        "does not exist and cannot be made: a part of its path is a file",
    ),
    "the signing key file is missing": lambda tmp: (
        {"FIRECONTROL_SIGNING_KEYS_FILE": str(tmp / "missing.json")},
        "FIRECONTROL_SIGNING_KEYS_FILE",
        "cannot be read from",
    ),
    "the seal key file cannot be read (a folder)": lambda tmp: (
        {"FIRECONTROL_SEAL_KEYS_FILE": str(tmp)},
        "FIRECONTROL_SEAL_KEYS_FILE",
        "cannot be read from",
    ),
    "the signing key file is not JSON": lambda tmp: (
        {"FIRECONTROL_SIGNING_KEYS_FILE": _written(tmp / "k.json", '{"keys": [')},
        "FIRECONTROL_SIGNING_KEYS_FILE",
        "is not JSON",
    ),
    "the signing key file is not UTF-8": lambda tmp: (
        {"FIRECONTROL_SIGNING_KEYS_FILE": _written(tmp / "k.json", b"\xff\xfe{}")},
        "FIRECONTROL_SIGNING_KEYS_FILE",
        "is not UTF-8 text",
    ),
    "the signing key file holds a seal key": lambda tmp: (
        {"FIRECONTROL_SIGNING_KEYS_FILE": _written(tmp / "k.json", _set(keys.new_seal_key()))},
        "FIRECONTROL_SIGNING_KEYS_FILE",
        "signing key 1 is not an Ed25519 (OKP) key",
    ),
    "the seal key file holds a signing key": lambda tmp: (
        {"FIRECONTROL_SEAL_KEYS_FILE": _written(tmp / "k.json", _set(keys.new_signing_key()))},
        "FIRECONTROL_SEAL_KEYS_FILE",
        "seal key 1 is not a 256-bit (oct) key",
    ),
    "the signing key file is no key set": lambda tmp: (
        {"FIRECONTROL_SIGNING_KEYS_FILE": _written(tmp / "k.json", "[1, 2]")},
        "FIRECONTROL_SIGNING_KEYS_FILE",
        "not a JSON Web Key Set",
    ),
    "the inline seal keys are not JSON": lambda tmp: (
        {"FIRECONTROL_SEAL_KEYS": "{"},
        "FIRECONTROL_SEAL_KEYS",
        "its value is not JSON",
    ),
    "the issuer is not printable": lambda tmp: (
        {"FIRECONTROL_ISSUER": "fire\ncontrol"},
        "FIRECONTROL_ISSUER",
        "is not a service name",
    ),
}


@pytest.mark.parametrize("fault", list(KEY_FAULTS))
def test_create_app_refuses_a_bad_key_setting_with_one_line_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    settings, name, says = KEY_FAULTS[fault](tmp_path)
    for variable in ("FIRECONTROL_SIGNING_KEYS", "FIRECONTROL_SEAL_KEYS", "FIRECONTROL_ISSUER"):
        monkeypatch.delenv(variable, raising=False)
        monkeypatch.delenv(f"{variable}_FILE", raising=False)
    config = {"FIRECONTROL_DATA_DIR": str(tmp_path / "data"), **settings}
    with pytest.raises(StartupError) as raised:
        create_app({"TESTING": True, **config})
    line = str(raised.value)
    assert raised.value.setting == name and line.startswith(f"{name}: ")
    assert says in line and "\n" not in line
    assert "; " in line  # what to do comes after what is wrong


@pytest.mark.parametrize("fault", list(KEY_FAULTS))
def test_the_server_refuses_a_bad_key_setting_with_one_line_and_no_traceback(
    tmp_path: Path, fault: str
) -> None:
    settings, name, says = KEY_FAULTS[fault](tmp_path)
    line = assert_one_line(refused(tmp_path, settings), name)
    assert says in line


def test_a_read_only_data_folder_where_keys_must_be_made_stops_the_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    command = where_read_only(data, gunicorn_command())
    line = assert_one_line(
        refused(tmp_path, {"FIRECONTROL_DATA_DIR": str(data)}, command), "FIRECONTROL_DATA_DIR"
    )
    assert f"'{data}' is not writable: " in line
    assert "FIRECONTROL_SIGNING_KEYS_FILE" in line  # the way out: keys from a file


def test_a_read_only_data_folder_stops_create_app_with_its_typed_error(tmp_path: Path) -> None:
    data = tmp_path / "data"
    build = "from service import create_app; create_app()"
    command = where_read_only(data, [sys.executable, "-c", build])
    result = subprocess.run(
        command,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "FIRECONTROL_DATA_DIR": str(data)},
    )
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("service.startup.StartupError: FIRECONTROL_DATA_DIR: "), result.stderr
    assert "is not writable" in last


def test_a_read_only_data_folder_is_no_fault_when_the_keys_come_from_files(
    tmp_path: Path,
) -> None:
    """The data folder is used only to make keys: given both sets, it is never touched."""
    signing = _written(tmp_path / "signing.json", _set(keys.new_signing_key()))
    seal = _written(tmp_path / "seal.json", _set(keys.new_seal_key()))
    build = "from service import create_app; create_app(); print('built')"
    data = tmp_path / "data"
    command = where_read_only(data, [sys.executable, "-c", build])
    env = {
        **os.environ,
        "FIRECONTROL_DATA_DIR": str(data),
        "FIRECONTROL_SIGNING_KEYS_FILE": signing,
        "FIRECONTROL_SEAL_KEYS_FILE": seal,
    }
    result = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False, env=env
    )
    assert result.returncode == 0 and result.stdout.strip() == "built", result.stderr


# --- where the keys come from: each setting, each refusal in its own words ------------------


def _ed25519(kid: str | None = None, private: bool = True) -> Doc:
    member = keys.new_signing_key()
    if kid is None:
        del member["kid"]
    else:
        member["kid"] = kid
    if not private:
        del member["d"]
    return member


def _thumbprint(members: Doc) -> str:
    """RFC 7638 by hand: SHA-256 of the required members, sorted, compact, base64url."""
    text = json.dumps(members, sort_keys=True, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(hashlib.sha256(text).digest()).rstrip(b"=").decode()


def test_a_signing_set_signs_with_its_first_private_key_and_lists_every_public_one() -> None:
    retired, unnamed, later = _ed25519("old", private=False), _ed25519(), _ed25519("later")
    found = keys.signing_keys({"keys": [retired, unnamed, later]})
    named = _thumbprint({"crv": "Ed25519", "kty": "OKP", "x": unnamed["x"]})
    assert found.kid == named
    assert found.current.as_dict(private=True)["d"] == unnamed["d"]
    assert list(found.public) == ["old", named, "later"]
    assert not any(key.is_private for key in found.public.values())
    assert found.jwks() == {
        "keys": [
            {"crv": "Ed25519", "kty": "OKP", "x": member["x"], "kid": kid, "alg": "Ed25519"}
            | {"use": "sig"}
            for member, kid in [(retired, "old"), (unnamed, named), (later, "later")]
        ]
    }
    assert keys.signing_keys(later).kid == "later"  # a single JWK is a set of one


@pytest.mark.parametrize(
    ("second", "message"),
    [
        ({"kty": "oct", "crv": "Ed25519", "k": "AA"}, "signing key 2 is not an Ed25519 (OKP) key"),
        ({"kty": "OKP", "crv": "X25519", "x": "AA"}, "signing key 2 is not an Ed25519 (OKP) key"),
        ({"kty": "OKP", "crv": "Ed25519", "x": "AA"}, "signing key 2 cannot be read"),
        ({"kty": "OKP", "crv": "Ed25519"}, "signing key 2 cannot be read"),
        ("TWICE", "signing key 2: kid 'one' is used twice"),
    ],
)
def test_an_unusable_signing_key_is_named_by_its_place(second: Any, message: str) -> None:
    first = _ed25519("one")
    if second == "TWICE":
        second = _ed25519("one")
    with pytest.raises(keys.KeyConfigError) as caught:
        keys.signing_keys({"keys": [first, second]})
    assert str(caught.value) == message


def test_a_signing_set_of_public_keys_only_cannot_sign() -> None:
    with pytest.raises(keys.KeyConfigError) as caught:
        keys.signing_keys({"keys": [_ed25519("a", private=False)]})
    assert str(caught.value) == "the signing key set has no private key to sign with"


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([{"kty": "oct"}], "the {what} keys are not a JSON Web Key Set ({{'keys': [...]}})"),
        (["kty"], "the {what} keys are not a JSON Web Key Set ({{'keys': [...]}})"),
        ({"keys": "kty"}, "the {what} keys are not a JSON Web Key Set ({{'keys': [...]}})"),
        ({"key": []}, "the {what} keys are not a JSON Web Key Set ({{'keys': [...]}})"),
        ("keys", "the {what} keys are not a JSON Web Key Set ({{'keys': [...]}})"),
        ({"keys": []}, "the {what} key set has no keys"),
        ({"keys": [1]}, "the {what} key set has no keys"),
        ({"keys": [{"kty": "oct"}, "k"]}, "the {what} key set has no keys"),
    ],
)
def test_a_key_set_that_is_no_set_of_keys_is_refused(document: Any, message: str) -> None:
    for read, what in [(keys.signing_keys, "signing"), (keys.seal_keys, "seal")]:
        with pytest.raises(keys.KeyConfigError) as caught:
            read(document)
        assert str(caught.value) == message.format(what=what)


def _oct(raw: bytes, kid: str | None = None) -> Doc:
    member = {"kty": "oct", "k": base64.urlsafe_b64encode(raw).rstrip(b"=").decode()}
    return member if kid is None else {**member, "kid": kid}


def test_a_seal_set_seals_with_its_first_key_and_opens_with_every_one() -> None:
    first, unnamed = bytes(range(32)), bytes(range(32, 64))
    found = keys.seal_keys({"keys": [_oct(first, "a"), _oct(unnamed)]})
    named = _thumbprint({"k": _oct(unnamed)["k"], "kty": "oct"})[:16]
    assert found == SealKeys("a", {"a": first, named: unnamed})
    assert (
        keys.seal_keys(_oct(first)).kid == _thumbprint({"k": _oct(first)["k"], "kty": "oct"})[:16]
    )


@pytest.mark.parametrize(
    "second",
    [
        {**_oct(bytes(32)), "kty": "OKP"},
        {"kty": "oct"},
        {"kty": "oct", "k": 5},
        _oct(bytes(31)),
        _oct(bytes(33)),
        {"kty": "oct", "k": "!!!!"},
        {"kty": "oct", "k": "A"},  # no base64: one character past a whole group
        {"kty": "oct", "k": "é" * 43},  # no base64: beyond ASCII
        {"kty": "oct", "k": "!" + _oct(bytes(32))["k"]},  # 43 digits read as 44 want none
    ],
)
def test_a_seal_key_that_is_not_256_bits_is_named_by_its_place(second: Doc) -> None:
    with pytest.raises(keys.KeyConfigError) as caught:
        keys.seal_keys({"keys": [_oct(bytes(32), "a"), second]})
    assert str(caught.value) == "seal key 2 is not a 256-bit (oct) key"


def test_a_seal_kid_used_twice_is_named() -> None:
    with pytest.raises(keys.KeyConfigError) as caught:
        keys.seal_keys({"keys": [_oct(bytes(32), "a"), _oct(bytes(range(32)), "a")]})
    assert str(caught.value) == "seal key 2: kid 'a' is used twice"


def test_a_setting_comes_from_the_config_first_then_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FC_GUARD", "from-env")
    assert keys.setting({"FC_GUARD": "from-config"}, "FC_GUARD") == "from-config"
    assert keys.setting({"FC_GUARD": 5}, "FC_GUARD") == "5"
    assert keys.setting({}, "FC_GUARD") == "from-env"
    assert keys.setting({"FC_GUARD": None}, "FC_GUARD") == "from-env"
    assert keys.setting({"FC_GUARD": ""}, "FC_GUARD") is None  # set empty: unset
    monkeypatch.setenv("FC_GUARD", "")
    assert keys.setting({}, "FC_GUARD") is None
    monkeypatch.delenv("FC_GUARD")
    assert keys.setting({"OTHER": "x"}, "FC_GUARD") is None


def test_the_data_folder_is_configured_or_var(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FIRECONTROL_DATA_DIR", raising=False)
    assert keys.data_file({}, keys.SIGNING) == Path("var/signing-keys.json")
    assert keys.data_file({}, keys.SEAL) == Path("var/seal-keys.json")
    config = {"FIRECONTROL_DATA_DIR": "/srv/fc"}
    assert keys.data_file(config, keys.SEAL) == Path("/srv/fc/seal-keys.json")


def test_a_new_key_set_is_made_in_a_private_folder_and_never_over_another(
    tmp_path: Path,
) -> None:
    path = tmp_path / "deep" / "data" / "seal-keys.json"
    keys._write_new(path, {"keys": ["first"]})
    assert json.loads(path.read_text(encoding="utf-8")) == {"keys": ["first"]}
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    keys._write_new(path, {"keys": ["second"]})  # already there: kept, no error
    assert json.loads(path.read_text(encoding="utf-8")) == {"keys": ["first"]}
    assert [p.name for p in path.parent.iterdir()] == ["seal-keys.json"]
    beside = tmp_path / "signing-keys.json"  # its folder already exists
    keys._write_new(beside, {"keys": ["third"]})
    assert json.loads(beside.read_text(encoding="utf-8")) == {"keys": ["third"]}


def test_a_new_key_set_is_written_beside_its_place_then_linked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """os.link is atomic and refuses to replace only within one file system."""
    links = record_moves(monkeypatch, "link")
    path = tmp_path / "keys" / "signing-keys.json"
    keys._write_new(path, {"keys": []})
    [(source, target)] = links
    assert target == path and source.parent == path.parent


@pytest.mark.parametrize("kind", [keys.SIGNING, keys.SEAL])
def test_a_key_set_is_made_on_first_start_in_the_data_folder(tmp_path: Path, kind: str) -> None:
    config = {"FIRECONTROL_DATA_DIR": str(tmp_path / "data")}
    document = keys.key_document(config, kind)
    assert json.loads(keys.data_file(config, kind).read_text()) == document
    [member] = document["keys"]
    assert member["kty"] == ("OKP" if kind == keys.SIGNING else "oct")
    assert keys.key_document(config, kind) == document  # made once


def test_inline_keys_come_before_a_file_and_a_file_before_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("FIRECONTROL_SEAL_KEYS", "FIRECONTROL_SEAL_KEYS_FILE"):
        monkeypatch.delenv(name, raising=False)
    mounted = tmp_path / "mounted.json"
    mounted.write_text('{"keys": ["from-file"]}', encoding="utf-8")
    data = {"FIRECONTROL_DATA_DIR": str(tmp_path / "data")}
    inline = {"FIRECONTROL_SEAL_KEYS": '{"keys": ["inline"]}'}
    from_file = {"FIRECONTROL_SEAL_KEYS_FILE": str(mounted)}
    seal = keys.SEAL
    assert keys.key_document({**data, **from_file, **inline}, seal) == {"keys": ["inline"]}
    assert keys.key_document({**data, **from_file}, seal) == {"keys": ["from-file"]}
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("kind", [keys.SIGNING, keys.SEAL])
def test_keys_that_cannot_be_read_say_from_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    for name in (f"FIRECONTROL_{kind}_KEYS", f"FIRECONTROL_{kind}_KEYS_FILE"):
        monkeypatch.delenv(name, raising=False)
    lower = kind.lower()
    form = "Ed25519 (OKP)" if kind == keys.SIGNING else "256-bit (oct)"
    remedy = f"give a JSON Web Key Set of {form} keys (python -m service.receipts new {lower} "
    remedy += "prints one)"
    missing = tmp_path / "missing.json"
    with pytest.raises(StartupError) as caught:
        keys.key_document({f"FIRECONTROL_{kind}_KEYS_FILE": str(missing)}, kind)
    assert str(caught.value) == (
        f"FIRECONTROL_{kind}_KEYS_FILE: the {lower} keys cannot be read from '{missing}': "
        f"No such file or directory; mount the {lower} key set there, or correct the path"
    )
    assert not missing.exists()  # a configured file is never made
    with pytest.raises(StartupError) as caught:
        keys.key_document({f"FIRECONTROL_{kind}_KEYS": "{keys"}, kind)
    assert str(caught.value) == f"FIRECONTROL_{kind}_KEYS: its value is not JSON; {remedy}"
    mounted = tmp_path / "mounted.json"
    mounted.write_text("{keys", encoding="utf-8")
    with pytest.raises(StartupError) as caught:
        keys.key_document({f"FIRECONTROL_{kind}_KEYS_FILE": str(mounted)}, kind)
    assert str(caught.value) == f"FIRECONTROL_{kind}_KEYS_FILE: '{mounted}' is not JSON; {remedy}"
    data = tmp_path / "data"
    data.mkdir()
    made = keys.data_file({"FIRECONTROL_DATA_DIR": str(data)}, kind)
    made.write_text("{keys")
    with pytest.raises(StartupError) as caught:
        keys.key_document({"FIRECONTROL_DATA_DIR": str(data)}, kind)
    assert str(caught.value) == f"FIRECONTROL_DATA_DIR: '{made}' is not JSON; {remedy}"


def test_new_keys_are_whole_and_named_by_their_thumbprint() -> None:
    signing = keys.new_signing_key()
    assert set(signing) == {"kty", "crv", "x", "d", "kid"} and signing["crv"] == "Ed25519"
    assert signing["kid"] == _thumbprint({"crv": "Ed25519", "kty": "OKP", "x": signing["x"]})
    seal = keys.new_seal_key()
    assert set(seal) == {"kty", "k", "kid"} and seal["kty"] == "oct"
    assert len(base64.urlsafe_b64decode(seal["k"] + "=")) == 32
    assert seal["kid"] == _thumbprint({"k": seal["k"], "kty": "oct"})[:16]
