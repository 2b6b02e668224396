"""Sealed seeds: commit, play, reveal, re-derive; and every token that must be refused."""

from __future__ import annotations

import hashlib
import hmac
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from service.receipts import keys
from tests.receipts_helpers import SOLO, TURN, receipt_hash, third_party_check, verify

ROOT = Path(__file__).resolve().parent.parent
VERIFIER = ROOT / "tools" / "verify_dice.py"
CLIENT_SEED = "ajax-and-achilles"


@pytest.fixture()
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture()
def app(data_dir: Path) -> Flask:
    return create_app({"TESTING": True, "FIRECONTROL_DATA_DIR": str(data_dir)})


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def seal(client: FlaskClient, reveal_in: int = 3600) -> dict[str, Any]:
    response = client.post("/v1/seeds", json={"reveal_in": reveal_in})
    assert response.status_code == 200, response.get_json()
    sealed: dict[str, Any] = response.get_json()
    return sealed


def play_sealed(client: FlaskClient, sealed: dict[str, Any]) -> list[dict[str, Any]]:
    """The seal answer heads the log; each roll chains to the entry before it."""
    log = [sealed]
    for nonce, (step, inputs) in enumerate(TURN, start=1):
        dice = {"sealed": sealed["sealed"], "client_seed": CLIENT_SEED, "nonce": nonce}
        body = {**inputs, "dice": dice, "prev": receipt_hash(log[-1])}
        response = client.post(f"{SOLO}/{step}", json=body)
        assert response.status_code == 200, response.get_json()
        log.append(response.get_json())
    return log


def later(monkeypatch: pytest.MonkeyPatch, seconds: int) -> None:
    now = time.time() + seconds
    monkeypatch.setattr(time, "time", lambda: now)


def fc_dice(seed: str, nonce: int, rolls: list[tuple[int, int]]) -> list[list[int]]:
    """fc-dice-v1 as docs/dice.md writes it: the referee's own few lines."""

    def stream() -> Any:
        block = 0
        while True:
            msg = f"fc-dice-v1:{nonce}:{block}".encode()
            yield from hmac.new(seed.encode(), msg, hashlib.sha256).digest()
            block += 1

    source, out = stream(), []
    for count, sides in rolls:
        limit = 256 - 256 % sides
        values: list[int] = []
        while len(values) < count:
            byte = next(source)
            if byte < limit:
                values.append(byte % sides + 1)
        out.append(values)
    return out


def test_a_sealed_game_is_revealed_and_rederived(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    sealed = seal(client)
    assert sealed["algorithm"] == "fc-dice-sealed-v1"
    jwks = client.get("/.well-known/jwks.json").get_json()
    third_party_check(jwks, sealed)  # the commitment and its time are signed

    log = play_sealed(client, sealed)
    for entry in log[1:]:
        third_party_check(jwks, entry)
        assert entry["dice"]["mode"] == "sealed"
        assert entry["dice"]["commitment"] == sealed["commitment"]
        assert entry["dice"]["reveal_after"] == sealed["reveal_after"]
    report = verify(client, log)
    assert report["valid"] is True, report
    assert [e["dice_valid"] for e in report["entries"]] == [None] * len(log)
    assert report["entries"][1]["problems"] == [
        f"sealed until {sealed['reveal_after']}: the dice can be re-derived then"
    ]

    early = client.post("/v1/seeds/reveal", json={"sealed": sealed["sealed"]})
    assert early.status_code == 409
    assert early.get_json()["detail"] == f"this seed stays sealed until {sealed['reveal_after']}"

    later(monkeypatch, 3601)
    revealed = client.post("/v1/seeds/reveal", json={"sealed": sealed["sealed"]}).get_json()
    server_seed = revealed["seed"]
    assert hashlib.sha256(server_seed.encode()).hexdigest() == sealed["commitment"]
    assert all(server_seed not in json.dumps(entry) for entry in log)

    for entry in log[1:]:
        rolls = [(len(r["values"]), int(r["notation"].split("d")[1])) for r in entry["rolls"]]
        seed = f"{server_seed}:{CLIENT_SEED}"
        assert [r["values"] for r in entry["rolls"]] == fc_dice(seed, entry["dice"]["nonce"], rolls)

    report = verify(client, log)
    assert report["valid"] is True
    assert [e["dice_valid"] for e in report["entries"]] == [None] + [True] * len(TURN)

    (tmp_path / "log.json").write_text(json.dumps(log))
    (tmp_path / "revealed.json").write_text(json.dumps(revealed))
    checked = run_verifier(tmp_path / "log.json", tmp_path / "revealed.json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count(": ok,") == len(TURN)


def run_verifier(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(VERIFIER), *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_the_verifier_catches_an_altered_sealed_roll_and_a_false_seed(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    sealed = seal(client)
    log = play_sealed(client, sealed)
    later(monkeypatch, 3601)
    revealed = client.post("/v1/seeds/reveal", json={"sealed": sealed["sealed"]}).get_json()
    roll = log[4]["rolls"][0]
    roll["values"] = [value % 6 + 1 for value in roll["values"]]
    (tmp_path / "log.json").write_text(json.dumps(log))
    (tmp_path / "revealed.json").write_text(json.dumps(revealed))
    altered = run_verifier(tmp_path / "log.json", tmp_path / "revealed.json")
    assert altered.returncode == 1
    assert "entry 5 salvo-solo/fire: MISMATCH" in altered.stdout

    report = verify(client, log)
    assert report["entries"][4]["dice_valid"] is False

    (tmp_path / "false.json").write_text(json.dumps({**revealed, "seed": "not-it"}))
    false_seed = run_verifier(tmp_path / "log.json", tmp_path / "false.json")
    assert false_seed.returncode == 1
    assert "does not hash to its commitment" in false_seed.stdout

    without = run_verifier(tmp_path / "log.json")
    assert without.returncode == 1
    assert "pass the revealed seed" in without.stdout


def test_the_client_seed_changes_the_dice(client: FlaskClient) -> None:
    sealed = seal(client)

    def straddle(client_seed: str) -> list[list[int]]:
        dice = {"sealed": sealed["sealed"], "client_seed": client_seed, "nonce": 1}
        body = {**TURN[4][1], "dice": dice}
        return [r["values"] for r in client.post(f"{SOLO}/straddle", json=body).get_json()["rolls"]]

    assert straddle("a") == straddle("a")
    assert len({json.dumps(straddle(str(n))) for n in range(8)}) > 1


def test_a_log_that_changes_client_seed_or_seal_is_reported(client: FlaskClient) -> None:
    sealed, other = seal(client), seal(client)
    log = play_sealed(client, sealed)[:3]
    for token, client_seed in [(sealed["sealed"], "another"), (other["sealed"], CLIENT_SEED)]:
        dice = {"sealed": token, "client_seed": client_seed, "nonce": 3}
        body = {**TURN[2][1], "dice": dice, "prev": receipt_hash(log[-1])}
        entry = client.post(f"{SOLO}/enemy-action", json=body).get_json()
        report = verify(client, [*log, entry])
        assert report["log"]["one_seed"] is False
        assert report["valid"] is False


def problem_of(response: Any) -> tuple[int, str, str]:
    body = response.get_json()
    return response.status_code, body["type"].rsplit("#", 1)[1], body["errors"][0]["field"]


def roll_with(client: FlaskClient, token: str) -> Any:
    dice = {"sealed": token, "client_seed": CLIENT_SEED, "nonce": 1}
    return client.post(f"{SOLO}/weather", json={"dice": dice})


def test_a_tampered_token_is_a_clear_422(client: FlaskClient) -> None:
    token = seal(client)["sealed"]
    head, data = token.rsplit(".", 1)
    flipped = head + "." + data[:20] + ("A" if data[20] != "A" else "B") + data[21:]
    for bad in (flipped, token[:-6], token + "x", "fcs1.nope.AAAA", "hello"):
        response = roll_with(client, bad)
        assert problem_of(response) == (422, "dice", "dice.sealed")
        assert "was not made by this service, or was altered" in response.get_json()["detail"]
        reveal = client.post("/v1/seeds/reveal", json={"sealed": bad})
        assert problem_of(reveal) == (422, "dice", "sealed")


def test_a_foreign_token_is_a_clear_422(client: FlaskClient, tmp_path: Path) -> None:
    elsewhere = create_app({"TESTING": True, "FIRECONTROL_DATA_DIR": str(tmp_path / "other")})
    foreign = seal(elsewhere.test_client())["sealed"]
    assert problem_of(roll_with(client, foreign)) == (422, "dice", "dice.sealed")
    assert roll_with(elsewhere.test_client(), foreign).status_code == 200


def test_replicas_share_the_seal_key_through_configuration(tmp_path: Path) -> None:
    shared = json.dumps({"keys": [keys.new_seal_key()]})
    replicas = [
        create_app(
            {
                "TESTING": True,
                "FIRECONTROL_DATA_DIR": str(tmp_path / name),
                "FIRECONTROL_SEAL_KEYS": shared,
            }
        ).test_client()
        for name in ("one", "two")
    ]
    token = seal(replicas[0])["sealed"]
    assert roll_with(replicas[1], token).status_code == 200


def test_a_token_past_its_reveal_time_no_longer_rolls(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = seal(client, reveal_in=60)["sealed"]
    assert roll_with(client, token).status_code == 200
    later(monkeypatch, 61)
    response = roll_with(client, token)
    assert problem_of(response) == (422, "dice", "dice.sealed")
    assert "no longer secret" in response.get_json()["detail"]


def test_the_documented_example_token_reveals_but_never_rolls(client: FlaskClient) -> None:
    document = client.get("/openapi.json").get_json()
    example = document["paths"]["/v1/seeds/reveal"]["post"]["requestBody"]["content"][
        "application/json"
    ]["example"]
    revealed = client.post("/v1/seeds/reveal", json=example).get_json()
    assert hashlib.sha256(revealed["seed"].encode()).hexdigest() == revealed["commitment"]
    assert problem_of(roll_with(client, example["sealed"])) == (422, "dice", "dice.sealed")


def test_rotating_the_seal_key_still_opens_old_tokens(
    data_dir: Path, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = seal(client)
    keys.rotate(data_dir / "seal-keys.json", keys.SEAL)
    rotated = create_app({"TESTING": True, "FIRECONTROL_DATA_DIR": str(data_dir)}).test_client()
    new = seal(rotated)
    assert old["sealed"].split(".")[1] != new["sealed"].split(".")[1]
    assert roll_with(rotated, old["sealed"]).status_code == 200
    later(monkeypatch, 3601)
    assert rotated.post("/v1/seeds/reveal", json={"sealed": old["sealed"]}).status_code == 200


@pytest.mark.parametrize("reveal_in", [-1, 366 * 24 * 3600 + 1, 1.5, "60", True])
def test_reveal_in_is_bounded(client: FlaskClient, reveal_in: Any) -> None:
    response = client.post("/v1/seeds", json={"reveal_in": reveal_in})
    assert problem_of(response) == (422, "validation", "reveal_in")


def test_reveal_after_follows_reveal_in(client: FlaskClient) -> None:
    sealed = seal(client, reveal_in=0)
    assert sealed["reveal_after"] == sealed["issued_at"]
    assert client.post("/v1/seeds/reveal", json={"sealed": sealed["sealed"]}).status_code == 200
    assert seal(client)["reveal_after"] > sealed["issued_at"]
