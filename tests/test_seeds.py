"""Sealed seeds: commit, play, reveal, re-derive; and every token that must be refused."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from flask import Flask
from flask.testing import FlaskClient
from joserfc.errors import BadSignatureError

from service import create_app
from service.receipts import keys, sealing
from service.receipts.keys import SealKeys
from service.rulesets.salvo_solo import RULESET as SALVO_SOLO
from tests.receipts_helpers import (
    ABSENT,
    NOW,
    SEALS,
    SOLO,
    TURN,
    Doc,
    receipt_hash,
    third_party_check,
    verify,
)

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
    assert (report["valid"], report["verdict"]) == (False, "not-yet-checkable"), report
    assert report["not_yet_checkable"] == len(log) - 1
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
    """The standalone verifier on the dice alone (these tests' apps sign with keys of their own)."""
    return subprocess.run(
        [sys.executable, str(VERIFIER), "--dice-only", *map(str, paths)],
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
    assert without.returncode == 4  # not yet checkable: its own exit status
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


# --- tokens anyone can make with the public example key ------------------------------------


def example_key_token(plain: bytes) -> str:
    """A token as anyone can seal it: the published example key, the documented format."""
    nonce = bytes(12)
    aad = f"fc-sealed-seed-v1.{sealing.EXAMPLE_KID}".encode()
    data = nonce + AESGCM(sealing.EXAMPLE_KEY).encrypt(nonce, plain, aad)
    encoded = base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    return f"fcs1.{sealing.EXAMPLE_KID}.{encoded}"


# Sealed contents that once answered 500 on some endpoint, and their relatives. The seed and times
# around each odd member are ones the service itself would seal.
ODD_CONTENTS = {
    "iat-infinity": b'{"seed":"s","iat":Infinity,"reveal_after":1767225600}',
    "reveal-after-1e20": b'{"seed":"s","iat":1767225600,"reveal_after":1e20}',
    "reveal-after-minus-1e20": b'{"seed":"s","iat":1767225600,"reveal_after":-1e20}',
    "iat-not-an-integer": b'{"seed":"s","iat":1767225600.5,"reveal_after":1767225601}',
    "reveal-after-integral-float": b'{"seed":"s","iat":1767225600,"reveal_after":1767225600.0}',
    "reveal-after-nan": b'{"seed":"s","iat":1767225600,"reveal_after":NaN}',
    "iat-huge-integer": b'{"seed":"s","iat":' + b"9" * 40 + b',"reveal_after":1767225600}',
    "iat-true": b'{"seed":"s","iat":true,"reveal_after":1767225600}',
    "reveal-before-iat": b'{"seed":"s","iat":1767225600,"reveal_after":1767225599}',
    "seed-a-number": b'{"seed":5,"iat":1767225600,"reveal_after":1767225600}',
    "seed-null": b'{"seed":null,"iat":1767225600,"reveal_after":1767225600}',
    "seed-lone-surrogate": b'{"seed":"\\ud800","iat":1767225600,"reveal_after":1767225600}',
    "seed-with-a-colon": b'{"seed":"a:b","iat":1767225600,"reveal_after":1767225600}',
    "seed-missing": b'{"iat":1767225600,"reveal_after":1767225600}',
    "member-twice": b'{"seed":"s","seed":"t","iat":1767225600,"reveal_after":1767225600}',
    "unknown-member": b'{"seed":"s","iat":1767225600,"reveal_after":1767225600,"x":1}',
    "binding-not-hex": b'{"seed":"s","iat":1767225600,"reveal_after":1767225600,'
    b'"client_seed_sha256":"zz"}',
    "a-list": b'["s",1767225600,1767225600]',
    "not-json": b"\xff\xfe{",
}
ODD = pytest.mark.parametrize("content", ODD_CONTENTS.values(), ids=ODD_CONTENTS.keys())
REFUSED = "this sealed token was not made by this service: "


def test_a_token_of_the_example_key_with_sane_contents_opens(client: FlaskClient) -> None:
    """The other side of the cases below: the test's token maker is right."""
    plain = b'{"seed":"s","iat":1767225600,"reveal_after":1767225600}'
    reveal = client.post("/v1/seeds/reveal", json={"sealed": example_key_token(plain)})
    assert reveal.status_code == 200
    assert reveal.get_json()["seed"] == "s"


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> FlaskClient:
    """One app for the many odd-token cases (they need no keys of their own)."""
    data = tmp_path_factory.mktemp("data")
    return create_app({"TESTING": True, "FIRECONTROL_DATA_DIR": str(data)}).test_client()


@ODD
def test_an_odd_token_is_a_422_on_reveal(shared: FlaskClient, content: bytes) -> None:
    client = shared
    response = client.post("/v1/seeds/reveal", json={"sealed": example_key_token(content)})
    assert problem_of(response) == (422, "dice", "sealed")
    assert response.get_json()["detail"].startswith(REFUSED)


@ODD
def test_an_odd_token_is_a_422_on_a_step(shared: FlaskClient, content: bytes) -> None:
    response = roll_with(shared, example_key_token(content))
    assert problem_of(response) == (422, "dice", "dice.sealed")
    assert response.get_json()["detail"].startswith(REFUSED)


@ODD
def test_an_odd_token_is_reported_by_verify(shared: FlaskClient, content: bytes) -> None:
    """verify checks documents: a token that cannot be opened makes its entry invalid."""
    client = shared
    entry = play_sealed(client, seal(client))[1]
    entry["provenance"]["request"]["body"]["dice"]["sealed"] = example_key_token(content)
    report = verify(client, entry)
    assert report["valid"] is False
    assert report["entries"][0]["dice_valid"] is False
    assert any(REFUSED in problem for problem in report["entries"][0]["problems"]), report


# --- binding the client seed: no single party chooses the dice ------------------------------


def commit(client_seed: str) -> str:
    """What the roller hands the opponent: the hex SHA-256 of the client seed."""
    return hashlib.sha256(client_seed.encode()).hexdigest()


def seal_bound(client: FlaskClient, client_seed: str, reveal_in: int = 3600) -> dict[str, Any]:
    response = client.post(
        "/v1/seeds", json={"reveal_in": reveal_in, "client_seed_sha256": commit(client_seed)}
    )
    assert response.status_code == 200, response.get_json()
    sealed: dict[str, Any] = response.get_json()
    return sealed


def two_d6(client: FlaskClient, token: str, client_seed: str, nonce: int = 1) -> Any:
    dice = {"sealed": token, "client_seed": client_seed, "nonce": nonce}
    return client.post("/v1/dice/roll", json={"notation": "2d6", "dice": dice})


def test_the_seal_answer_and_the_reveal_show_the_binding_signed(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    bound, unbound = seal_bound(client, CLIENT_SEED), seal(client)
    assert bound["client_seed_sha256"] == commit(CLIENT_SEED)
    assert unbound["client_seed_sha256"] is None
    jwks = client.get("/.well-known/jwks.json").get_json()
    third_party_check(jwks, bound)  # the binding is in the signed content
    edited = {**bound, "client_seed_sha256": commit("another")}
    with pytest.raises(BadSignatureError):
        third_party_check(jwks, edited)

    later(monkeypatch, 3601)
    for sealed in (bound, unbound):
        revealed = client.post("/v1/seeds/reveal", json={"sealed": sealed["sealed"]}).get_json()
        assert revealed["client_seed_sha256"] == sealed["client_seed_sha256"]


def test_a_bound_token_rolls_only_with_its_client_seed(client: FlaskClient) -> None:
    """The roller cannot grind: every client seed but the committed one is refused."""
    sealed = seal_bound(client, CLIENT_SEED)
    honest = two_d6(client, sealed["sealed"], CLIENT_SEED)
    assert honest.status_code == 200
    assert honest.get_json()["dice"]["client_seed_sha256"] == commit(CLIENT_SEED)
    for attempt in ["another", CLIENT_SEED.upper(), CLIENT_SEED + " ", commit(CLIENT_SEED)]:
        response = two_d6(client, sealed["sealed"], attempt)
        assert problem_of(response) == (422, "dice", "dice.client_seed")
        assert commit(CLIENT_SEED) in response.get_json()["detail"]


def test_grinding_finds_double_six_with_an_unbound_token_and_nothing_with_a_bound_one(
    client: FlaskClient,
) -> None:
    """Grinding client seeds for a double six with an unbound token, then with a bound one."""
    unbound = seal(client)["sealed"]
    found = None
    for attempt in range(500):  # 1 in 36 per try: missing in 500 tries is under 1e-6
        answer = two_d6(client, unbound, f"try-{attempt}").get_json()
        if answer["result"]["terms"][0]["values"] == [6, 6]:
            found = attempt
            break
    assert found is not None  # an unbound token does not stop grinding, as the docs say
    assert "client_seed_sha256" not in answer["dice"]

    bound = seal_bound(client, CLIENT_SEED)["sealed"]
    statuses = {two_d6(client, bound, f"try-{attempt}").status_code for attempt in range(50)}
    assert statuses == {422}
    assert two_d6(client, bound, f"try-{found}").status_code == 422


def test_the_opponent_holding_a_bound_token_cannot_roll_without_the_client_seed(
    client: FlaskClient,
) -> None:
    """The opponent sealed with the hash alone: the token rolls nothing until the roller's
    seed is sent, and no answer before that shows a die."""
    sealed = seal_bound(client, CLIENT_SEED)
    assert CLIENT_SEED not in json.dumps(sealed)
    for guess in ["", "ajax", sealed["commitment"], sealed["client_seed_sha256"]]:
        response = two_d6(client, sealed["sealed"], guess)
        assert response.status_code == 422
        assert "result" not in response.get_json()


def test_the_seal_takes_only_the_hash_of_the_client_seed(client: FlaskClient) -> None:
    """The service seals before it can know the client seed: the seal request has no room
    for it, and the binding must be a SHA-256 as sha256sum prints it."""
    digest = commit(CLIENT_SEED)
    bodies: list[dict[str, object]] = [
        {"client_seed": CLIENT_SEED},
        {"client_seed_sha256": CLIENT_SEED},
        {"client_seed_sha256": digest.upper()},
        {"client_seed_sha256": digest[:-1]},
        {"client_seed_sha256": digest + "0"},
        {"client_seed_sha256": None},
        {"client_seed_sha256": 5},
    ]
    for body in bodies:
        response = client.post("/v1/seeds", json=body)
        assert response.status_code == 422, body
        field = next(iter(body))
        assert response.get_json()["errors"][0]["field"] == field


def test_a_bound_game_verifies_and_its_binding_is_checked_at_reveal(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The documented flow end to end: the opponent seals with the roller's hash, the
    roller plays, the log verifies, and after the reveal every client seed hashes to the
    binding the reveal names."""
    sealed = seal_bound(client, CLIENT_SEED)
    log = play_sealed(client, sealed)
    assert all(e["dice"]["client_seed_sha256"] == commit(CLIENT_SEED) for e in log[1:])
    assert verify(client, log)["verdict"] == "not-yet-checkable"
    later(monkeypatch, 3601)
    revealed = client.post("/v1/seeds/reveal", json={"sealed": sealed["sealed"]}).get_json()
    report = verify(client, log)
    assert report["valid"] is True
    assert [e["dice_valid"] for e in report["entries"]] == [None] + [True] * len(TURN)
    assert {commit(e["dice"]["client_seed"]) for e in log[1:]} == {revealed["client_seed_sha256"]}


def test_a_roller_who_seals_their_own_token_cannot_pass_it_off_as_the_opponents(
    client: FlaskClient,
) -> None:
    """Sealing again until a server seed suits is grinding too: the log starts with the
    opponent's seal answer, and rolls from any other token break one_seed."""
    opponents = seal_bound(client, CLIENT_SEED)
    own = seal_bound(client, CLIENT_SEED)  # same binding, another server seed
    assert own["commitment"] != opponents["commitment"]
    log = play_sealed(client, own)
    forged = [opponents, *log[1:]]
    forged[1] = two_sealed_roll(client, own, prev=receipt_hash(opponents))
    report = verify(client, forged)
    assert report["valid"] is False
    assert report["log"]["one_seed"] is False


def two_sealed_roll(client: FlaskClient, sealed: dict[str, Any], prev: str) -> dict[str, Any]:
    step, inputs = TURN[0]
    dice = {"sealed": sealed["sealed"], "client_seed": CLIENT_SEED, "nonce": 1}
    response = client.post(f"{SOLO}/{step}", json={**inputs, "dice": dice, "prev": prev})
    assert response.status_code == 200
    answer: dict[str, Any] = response.get_json()
    return answer


def test_a_holder_of_token_and_client_seed_can_peek_at_any_nonce_unseen(
    client: FlaskClient,
) -> None:
    """What no flow of a stateless service stops: whoever holds both the token and the client
    seed rolls a coming nonce privately, and the log made afterwards is valid all the same.
    Only keeping the token from the side that chooses the moves prevents it (the docs)."""
    sealed = seal_bound(client, CLIENT_SEED)
    peeked = two_d6(client, sealed["sealed"], CLIENT_SEED, nonce=1).get_json()
    log = [sealed]
    dice = {"sealed": sealed["sealed"], "client_seed": CLIENT_SEED, "nonce": 1}
    body = {"notation": "2d6", "dice": dice, "prev": receipt_hash(sealed)}
    log.append(client.post("/v1/dice/roll", json=body).get_json())
    assert log[1]["rolls"] == peeked["rolls"]
    assert verify(client, log)["verdict"] == "not-yet-checkable"  # nothing shows the peek


def test_without_the_token_the_client_seed_rolls_no_sealed_dice(client: FlaskClient) -> None:
    """The roller who keeps only the client seed (the opponent keeps the token) cannot peek:
    no request rolls the game's dice without the token, and the client seed alone gives
    other dice."""
    sealed = seal_bound(client, CLIENT_SEED)
    dice = {"sealed": sealed["sealed"], "client_seed": CLIENT_SEED, "nonce": 1}
    game = client.post("/v1/dice/roll", json={"notation": "20d6", "dice": dice}).get_json()
    without = client.post(
        "/v1/dice/roll",
        json={"notation": "20d6", "dice": {"client_seed": CLIENT_SEED, "nonce": 1}},
    )
    assert without.status_code == 422
    alone = {"seed": CLIENT_SEED, "nonce": 1}
    own = client.post("/v1/dice/roll", json={"notation": "20d6", "dice": alone}).get_json()
    assert own["rolls"] != game["rolls"]


def test_the_threat_table_names_a_test_that_exists_for_each_cannot() -> None:
    """docs/verifiable-rolls.md's table of who can do what matches the tests."""
    text = (ROOT / "docs" / "verifiable-rolls.md").read_text(encoding="utf-8")
    section = text.split("## Who can do what with a sealed seed", 1)[1].split("\n## ", 1)[0]
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("| ") and not line.startswith(("| party", "| ---"))
    ]
    defined = {
        name
        for path in (ROOT / "tests").glob("test_*.py")
        for name in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)
    }
    assert {row[0] for row in rows} == {"roller", "opponent", "operator"}
    for party, kind, _what, _stopped_by, tests in rows:
        named = re.findall(r"`(test_\w+)`", tests)
        if kind == "cannot":
            assert named, f"{party} cannot {_what}: no test named"
        assert set(named) <= defined, set(named) - defined
    assert any(row[1] == "can" and "peek" in row[2] for row in rows)


def test_a_token_that_binds_the_rules_rolls_under_them_only(client: FlaskClient) -> None:
    """The seal fixes the game's ruleset and readings before the first roll: a step under
    other readings or of another ruleset is refused; the same readings, left out or spelled
    out, roll; so does a plain dice roll, which names no ruleset."""
    house = {"straddle-21-plus": "no-effect"}
    sealed = client.post("/v1/seeds", json={"ruleset": "salvo-solo", "rules": house}).get_json()
    assert sealed["ruleset"] == "salvo-solo" and sealed["rules"]["straddle-21-plus"] == "no-effect"
    assert sealed["rules"] == SALVO_SOLO.readings_in_force(house)  # every reading, named
    assert sealed["rules_sha256"] is not None
    dice = {"sealed": sealed["sealed"], "client_seed": CLIENT_SEED, "nonce": 1}
    weather = "/v1/rulesets/salvo-solo/weather"
    assert client.post(weather, json={"dice": dice, "rules": house}).status_code == 200
    refused = client.post(weather, json={"dice": dice})
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["field"] == "dice.sealed"
    assert "binds the game's ruleset and readings" in refused.get_json()["detail"]
    other = client.post("/v1/rulesets/fleet-action/initiative", json={"dice": dice})
    assert other.status_code == 422
    plain = client.post("/v1/dice/roll", json={"notation": "2d6", "dice": dice})
    assert plain.status_code == 200
    assert client.post("/v1/seeds", json={"reveal_in": 0}).get_json()["rules_sha256"] is None


def test_a_seal_refuses_rules_it_cannot_read(client: FlaskClient) -> None:
    for body, field in [
        ({"rules": {"straddle-21-plus": "no-effect"}}, "ruleset"),
        ({"ruleset": "salvo-solo", "rules": {"no-such-ruling": "x"}}, "rules.no-such-ruling"),
        ({"ruleset": "salvo-solo", "rules": {"straddle-21-plus": "x"}}, "rules.straddle-21-plus"),
    ]:
        answer = client.post("/v1/seeds", json=body)
        assert answer.status_code == 422, body
        assert answer.get_json()["errors"][0]["field"] == field


def test_a_game_header_names_every_reading_in_force(client: FlaskClient) -> None:
    header = client.post("/v1/games", json={"ruleset": "salvo-solo"})
    assert header.status_code == 200
    opened = header.get_json()
    assert (opened["ruleset"], opened["step"]) == ("salvo-solo", "game-header")
    defaults = client.post("/v1/rulesets/salvo-solo/weather", json={}).get_json()["rules"]
    assert opened["rules"] == defaults
    assert verify(client, opened)["valid"] is True


# --- sealed seeds: the documentation's example token, the client seed's binding -------------
# The API document's example token is sealed once, as the service starts
# (service/http/endpoints/seeds.py): these tests call seal_example themselves, and check the
# token it makes byte for byte.

EXAMPLE_KEY = hashlib.sha256(b"fire-control public example seal key").digest()


def example_token_by_hand(content: dict[str, Any]) -> str:
    """The example token as docs/ describe it, written out a second time: AES-256-GCM under
    the published key, a zero nonce, the associated data fc-sealed-seed-v1.docs-example."""
    plain = json.dumps(content, separators=(",", ":")).encode()
    sealed = AESGCM(EXAMPLE_KEY).encrypt(bytes(12), plain, b"fc-sealed-seed-v1.docs-example")
    return "fcs1.docs-example." + base64.urlsafe_b64encode(bytes(12) + sealed).rstrip(b"=").decode()


def test_the_example_token_is_the_published_key_over_the_seed_and_times() -> None:
    token = sealing.seal_example("example-seed", 1767225600, 1767229200)
    assert token == example_token_by_hand(
        {"seed": "example-seed", "iat": 1767225600, "reveal_after": 1767229200}
    )
    opened = sealing.open_token(SealKeys("other", {"other": bytes(32)}), token)
    assert (opened.seed, opened.issued_at, opened.reveal_after) == (
        "example-seed",
        1767225600,
        1767229200,
    )
    assert opened.is_example and opened.client_seed_sha256 is None


def test_a_token_whose_base64_ends_in_x_keeps_its_last_characters() -> None:
    """Only the padding is taken off the end of a token's BASE64URL, whatever letters come
    before it (this seed's example token ends in "XX")."""
    token = sealing.seal_example("example-seed-1415", 1767225600, 1767229200)
    assert token.endswith("XX")
    assert token == example_token_by_hand(
        {"seed": "example-seed-1415", "iat": 1767225600, "reveal_after": 1767229200}
    )
    assert sealing.open_token(SealKeys("other", {"other": bytes(32)}), token).seed == (
        "example-seed-1415"
    )


def test_the_example_token_can_bind_a_client_seed() -> None:
    bound = sealing.client_seed_hash("ajax")
    token = sealing.seal_example("example-seed", 1767225600, 1767225600, bound)
    assert token == example_token_by_hand(
        {
            "seed": "example-seed",
            "iat": 1767225600,
            "reveal_after": 1767225600,
            "client_seed_sha256": bound,
        }
    )


def test_a_client_seed_is_bound_by_the_sha256_of_its_utf8_bytes() -> None:
    # sha256sum's output for the bytes, written out: "ajax", and a seed beyond ASCII
    assert sealing.client_seed_hash("ajax") == hashlib.sha256(b"ajax").hexdigest()
    assert (
        sealing.client_seed_hash("Nürnburg ⚓")
        == hashlib.sha256("Nürnburg ⚓".encode()).hexdigest()
    )
    assert sealing.client_seed_hash("") == (
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    )


def test_a_token_admits_any_client_seed_unless_it_binds_one() -> None:
    free = sealing.Sealed("s", 0, 0, "k")
    assert free.admits("ajax") and free.admits("")
    bound = sealing.Sealed("s", 0, 0, "k", sealing.client_seed_hash("ajax"))
    assert bound.admits("ajax")
    assert not bound.admits("hector")
    assert not bound.admits("")


def test_a_seal_error_names_dice_sealed_unless_told_otherwise() -> None:
    assert sealing.SealError("gone").field == "dice.sealed"
    assert sealing.SealError("gone", "seal").field == "seal"


def test_a_token_holding_a_number_json_does_not_know_is_refused_saying_so() -> None:
    content = {"seed": "s", "iat": float("nan"), "reveal_after": 0}
    token = sealing._seal("docs-example", EXAMPLE_KEY, bytes(12), content)
    with pytest.raises(sealing.SealError) as caught:
        sealing.open_token(SealKeys("other", {"other": bytes(32)}), token)
    assert caught.value.detail == (
        "this sealed token was not made by this service: it holds NaN, which is no JSON "
        "number; ask POST /v1/seeds for a new one"
    )
    assert caught.value.field == "dice.sealed"


# --- a sealed token opened: each thing it must hold, refused in its own words ---------------
# The example key is public, so anyone can seal anything: each member is checked on opening.
# Tokens are sealed here under SEALS, straight from the bytes, so each case is one fault.


def _token_of(plain: bytes, keys: SealKeys = SEALS, nonce: bytes = bytes(range(12))) -> str:
    sealed = AESGCM(keys.current).encrypt(nonce, plain, f"fc-sealed-seed-v1.{keys.kid}".encode())
    return f"fcs1.{keys.kid}." + base64.urlsafe_b64encode(nonce + sealed).rstrip(b"=").decode()


def _content_of(**members: Any) -> bytes:
    content = {"seed": "s", "iat": NOW, "reveal_after": NOW, **members}
    return json.dumps({k: v for k, v in content.items() if v is not ABSENT}).encode()


def _refusal(token: str, field: str = "dice.sealed") -> str:
    with pytest.raises(sealing.SealError) as caught:
        sealing.open_token(SEALS, token, field)
    assert caught.value.field == field
    return caught.value.detail


YEAR = 366 * 24 * 3600
LATEST = 253402300799  # 9999-12-31T23:59:59Z


@pytest.mark.parametrize(
    ("members", "seed", "iat", "reveal_after", "bound"),
    [
        ({}, "s", NOW, NOW, None),
        ({"seed": "A-z_9" * 12 + "abcd"}, "A-z_9" * 12 + "abcd", NOW, NOW, None),  # 64
        ({"iat": 0, "reveal_after": 0}, "s", 0, 0, None),
        ({"iat": LATEST - YEAR, "reveal_after": LATEST}, "s", LATEST - YEAR, LATEST, None),
        ({"reveal_after": NOW + YEAR}, "s", NOW, NOW + YEAR, None),
        ({"client_seed_sha256": "0f" * 32}, "s", NOW, NOW, "0f" * 32),
    ],
    ids=["plain", "longest-seed", "epoch", "latest", "a-year", "bound"],
)
def test_a_token_holding_what_the_service_seals_opens(
    members: Doc, seed: str, iat: int, reveal_after: int, bound: str | None
) -> None:
    opened = sealing.open_token(SEALS, _token_of(_content_of(**members)))
    assert opened == sealing.Sealed(seed, iat, reveal_after, "guard", bound)


MEMBERS_ALONE = "it does not hold the seed, iat and reveal_after members alone"
NOT_A_SEED = "its seed is not a seed the service makes"


def _not_a_time(name: str) -> str:
    return f"its {name} is not a time in whole seconds from 1970 to 9999"


@pytest.mark.parametrize(
    ("plain", "reason"),
    [
        (_content_of(seed=ABSENT), MEMBERS_ALONE),
        (_content_of(iat=ABSENT), MEMBERS_ALONE),
        (_content_of(reveal_after=ABSENT), MEMBERS_ALONE),
        (_content_of(x=1), MEMBERS_ALONE),
        (_content_of(client_seed_sha256="0f" * 32, x=1), MEMBERS_ALONE),
        (b'["s", 0, 0]', MEMBERS_ALONE),
        (b'"s"', MEMBERS_ALONE),
        (_content_of(seed=""), NOT_A_SEED),
        (_content_of(seed="s" * 65), NOT_A_SEED),
        (_content_of(seed="a:b"), NOT_A_SEED),
        (_content_of(seed="s\n"), NOT_A_SEED),
        (_content_of(seed=5), NOT_A_SEED),
        (_content_of(iat=-1), _not_a_time("iat")),
        (_content_of(iat=True), _not_a_time("iat")),
        (_content_of(iat=float(NOW)), _not_a_time("iat")),
        (_content_of(iat="1767225600"), _not_a_time("iat")),
        (_content_of(reveal_after=LATEST + 1), _not_a_time("reveal_after")),
        (_content_of(reveal_after=None), _not_a_time("reveal_after")),
        (_content_of(reveal_after=NOW - 1), "its reveal_after is not within a year after its iat"),
        (
            _content_of(reveal_after=NOW + YEAR + 1),
            "its reveal_after is not within a year after its iat",
        ),
        (_content_of(client_seed_sha256="0F" * 32), "its client_seed_sha256 is not a hex SHA-256"),
        (_content_of(client_seed_sha256="0f" * 31), "its client_seed_sha256 is not a hex SHA-256"),
        (_content_of(client_seed_sha256=None), "its client_seed_sha256 is not a hex SHA-256"),
        (_content_of(client_seed_sha256=7), "its client_seed_sha256 is not a hex SHA-256"),
        (b'{"seed":"s","seed":"t","iat":0,"reveal_after":0}', "a member name is repeated"),
        (
            b'{"seed":"s","iat":0,"reveal_after":Infinity}',
            "it holds Infinity, which is no JSON number",
        ),
        (b"seed=s", "it does not hold JSON text"),
        (b"\xff\xfe{", "it does not hold JSON text"),
    ],
)
def test_a_token_holding_what_the_service_never_seals_is_refused_saying_what(
    plain: bytes, reason: str
) -> None:
    token = _token_of(plain)
    for field in ("dice.sealed", "sealed"):
        assert _refusal(token, field) == (
            f"this sealed token was not made by this service: {reason}; "
            "ask POST /v1/seeds for a new one"
        )


def test_tokens_of_every_length_open_whatever_padding_they_lack() -> None:
    """BASE64URL drops the padding; opening puts back what each length needs."""
    for length in range(1, 9):
        seed = "s" * length
        assert sealing.open_token(SEALS, _token_of(_content_of(seed=seed))).seed == seed


FOREIGN_TOKEN = (
    "this sealed token was not made by this service, or was altered: ask POST /v1/seeds for a "
    "new one"
)


def _at_length(length: int) -> str:
    """A token of exactly ``length`` characters: the kid's length takes up the difference."""
    base = len(_token_of(_content_of(), SealKeys("k", {"k": bytes(32)})))
    kid = "k" * (1 + length - base)
    keys = SealKeys(kid, {kid: bytes(32)})
    token = _token_of(_content_of(), keys)
    assert len(token) == length
    return token


def test_a_token_of_512_characters_opens_and_one_of_513_is_refused() -> None:
    longest = _at_length(512)
    kid = longest.split(".")[1]
    keys = SealKeys(kid, {kid: bytes(32)})
    assert sealing.open_token(keys, longest).seed == "s"
    longer = _at_length(513)
    kid = longer.split(".")[1]
    with pytest.raises(sealing.SealError) as caught:
        sealing.open_token(SealKeys(kid, {kid: bytes(32)}), longer, "seal")
    assert (caught.value.detail, caught.value.field) == (FOREIGN_TOKEN, "seal")


def test_a_token_one_character_longer_than_its_base64_is_foreign() -> None:
    """Opening puts back exactly the padding the token's length needs: a stray character
    (which the base64 decoder skips) makes a genuine token's length want one "=" where its
    digits want two, and it does not open."""
    token = next(
        token
        for length in range(1, 9)
        for token in [_token_of(_content_of(seed="s" * length))]
        if len(token.split(".")[2]) % 4 == 2
    )
    head, data = token.rsplit(".", 1)
    assert sealing.open_token(SEALS, token).seed.startswith("s")
    with pytest.raises(sealing.SealError) as caught:
        sealing.open_token(SEALS, f"{head}.{data[:5]}!{data[5:]}")
    assert caught.value.detail == FOREIGN_TOKEN


def test_a_token_not_of_this_service_or_altered_is_foreign() -> None:
    token = _token_of(_content_of())
    data = token.split(".")[2]
    flipped = data[:20] + ("A" if data[20] != "A" else "B") + data[21:]
    other = SealKeys("guard", {"guard": bytes(32)})
    for bad in [
        "fcs2." + token[len("fcs1.") :],  # another prefix, the rest intact
        "fcs1" + token[len("fcs1.") :],
        token + ".x",  # three dots
        token.replace("fcs1.guard.", "fcs1.guard.x."),
        token.replace("fcs1.guard.", "fcs1.gone."),  # a kid this service does not know
        token.replace("fcs1.guard.", "fcs1.docs-example."),  # the example key's kid
        f"fcs1.guard.{flipped}",
        _token_of(_content_of(), other),  # the same kid, another key
        f"fcs1.guard.{data[:10]}",  # shorter than a nonce and a tag
        "fcs1.guard.!!!!",
        "fcs1.guard.",
    ]:
        for field in ("dice.sealed", "sealed"):
            with pytest.raises(sealing.SealError) as caught:
                sealing.open_token(SEALS, bad, field)
            assert (caught.value.detail, caught.value.field) == (FOREIGN_TOKEN, field), bad


def test_a_seal_opens_to_what_it_sealed_under_the_current_key() -> None:
    keys = SealKeys("new", {"new": bytes(range(32)), "old": bytes(32)})
    token = sealing.seal(keys, "Server-Seed_1", NOW, NOW + 60)
    assert token.startswith("fcs1.new.")
    assert sealing.open_token(keys, token) == sealing.Sealed("Server-Seed_1", NOW, NOW + 60, "new")
    bound = sealing.seal(keys, "Server-Seed_1", NOW, NOW + 60, "ab" * 32)
    assert sealing.open_token(keys, bound).client_seed_sha256 == "ab" * 32
    # a fresh nonce each time: the same content seals to another token
    assert sealing.seal(keys, "Server-Seed_1", NOW, NOW + 60) != token
    nonce = base64.urlsafe_b64decode(token.split(".")[2] + "==")[:12]
    # compact JSON, sealed under the current key with the kid in the associated data
    assert token == _token_of(
        b'{"seed":"Server-Seed_1","iat":1767225600,"reveal_after":1767225660}', keys, nonce
    )


def test_a_new_server_seed_is_43_base64url_characters_of_fresh_randomness() -> None:
    seeds = {sealing.new_server_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(len(seed) == 43 and sealing.SEED.fullmatch(seed) for seed in seeds)
