"""Where the keys come from: configuration, or one set made on first start and shared."""

from __future__ import annotations

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
        ("not json", "are not JSON"),
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
    with pytest.raises(keys.KeyConfigError) as raised:
        create_app({"TESTING": True, "FIRECONTROL_SIGNING_KEYS": document})
    assert message in str(raised.value)
    assert key["d"] not in str(raised.value)


def test_a_seal_key_must_be_256_bits(tmp_path: Path) -> None:
    short = {"keys": [{"kty": "oct", "k": "c2hvcnQ", "kid": "short"}]}
    with pytest.raises(keys.KeyConfigError, match="not a 256-bit"):
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
