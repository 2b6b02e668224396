"""Signed receipts: a game's log checked as a third party would, and every way to cheat it.

A third party needs nothing of ours: joserfc (JWS, Ed25519) and rfc8785 (canonical JSON)
verify a receipt with the keys from /.well-known/jwks.json.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask import Flask
from flask.testing import FlaskClient
from joserfc.errors import BadSignatureError
from joserfc.jwk import KeyParameters

from service import create_app
from service.receipts import checking, keys
from service.receipts.signing import check_signature
from tests.receipts_helpers import (
    GAME_SEED,
    SOLO,
    TURN,
    Doc,
    play,
    play_next,
    receipt_hash,
    roll_of,
    seeded_dice,
    third_party_check,
    verify,
    verify_dice,
)


@pytest.fixture()
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture()
def game_app(data_dir: Path) -> Flask:
    return create_app({"TESTING": True, "FIRECONTROL_DATA_DIR": str(data_dir)})


@pytest.fixture()
def game_client(game_app: Flask) -> FlaskClient:
    return game_app.test_client()


# --- a game, checked as a referee would ---------------------------------------------------


def test_a_seeded_game_verifies_with_third_party_libraries(game_client: FlaskClient) -> None:
    log = play(game_client)
    jwks = game_client.get("/.well-known/jwks.json").get_json()
    for before, entry in zip([None, *log], log, strict=False):
        header = third_party_check(jwks, entry)
        assert header == {"alg": "Ed25519", "kid": jwks["keys"][0]["kid"]}
        provenance = entry["provenance"]
        assert provenance["service"] == "fire-control"
        assert provenance["kid"] == header["kid"]
        assert provenance["request"]["path"] == f"{SOLO}/{entry['step']}"
        assert provenance["request"]["body"]["dice"]["seed"] == GAME_SEED
        if before is not None:
            assert provenance["request"]["body"]["prev"] == receipt_hash(before)
    report = verify(game_client, log)
    assert report["valid"] is True, report
    assert report["log"] == {
        "entries": len(TURN),
        "chain_unbroken": True,
        "starts_at_beginning": True,
        "nonces_consecutive": True,
        "one_seed": True,
        "one_ruleset": True,
        "supplied_entries": 0,
        "accept_supplied": False,
        "ends_with": {"index": len(TURN) - 1, "receipt_hash": receipt_hash(log[-1]), "nonce": 6},
        "continues_from": None,
        "problems": [],
        "codes": [],
    }
    assert all(e["signature_valid"] and e["dice_valid"] for e in report["entries"])
    assert [e["receipt_hash"] for e in report["entries"]] == [receipt_hash(e) for e in log]


def test_a_receipt_cannot_be_moved_onto_another_question(game_client: FlaskClient) -> None:
    log = play(game_client)
    jwks = game_client.get("/.well-known/jwks.json").get_json()
    moved = copy.deepcopy(log[3])
    moved["provenance"]["request"]["body"]["range"] = "Short"
    with pytest.raises(BadSignatureError):
        third_party_check(jwks, moved)
    also_moved = copy.deepcopy(log[3])
    also_moved["provenance"]["request"]["path"] = f"{SOLO}/torpedo"
    with pytest.raises(BadSignatureError):
        third_party_check(jwks, also_moved)
    report = verify(game_client, moved)
    assert report["valid"] is False and report["log"] is None
    assert report["entries"][0]["signature_valid"] is False


def test_a_removed_entry_is_reported(game_client: FlaskClient) -> None:
    log = play(game_client)
    report = verify(game_client, log[:2] + log[3:])
    assert report["valid"] is False
    assert all(e["signature_valid"] for e in report["entries"])
    assert report["log"]["chain_unbroken"] is False
    assert report["log"]["nonces_consecutive"] is False
    assert report["log"]["problems"] == [
        "entry 3's prev is not the hash of entry 2's receipt: "
        "an entry was removed, inserted, reordered or replayed",
        "entry 3: nonce 3 is missing before it",
    ]


def test_an_altered_entry_is_reported(game_client: FlaskClient) -> None:
    log = play(game_client)
    altered = copy.deepcopy(log)
    roll = altered[3]["rolls"][0]
    roll["values"] = [6] * len(roll["values"])
    roll["total"] = sum(roll["values"])
    report = verify(game_client, altered)
    assert report["valid"] is False
    entry = report["entries"][3]
    assert entry["signature_valid"] is False
    assert entry["dice_valid"] is False
    assert "the signature does not match the document: it was altered" in entry["problems"]
    # The receipt is the original one, so the chain itself still links.
    assert report["log"]["chain_unbroken"] is True
    assert [e["signature_valid"] for e in report["entries"]] == [
        True,
        True,
        True,
        False,
        True,
        True,
    ]


def test_an_altered_result_with_honest_dice_is_still_caught(game_client: FlaskClient) -> None:
    log = play(game_client)
    altered = copy.deepcopy(log[3])
    altered["result"]["straddle"] = not altered["result"]["straddle"]
    entry = verify(game_client, altered)["entries"][0]
    assert entry["signature_valid"] is False and entry["dice_valid"] is True


def test_a_replayed_entry_is_reported(game_client: FlaskClient) -> None:
    log = play(game_client)
    report = verify(game_client, log[:3] + [log[2]] + log[3:])
    assert report["valid"] is False
    assert all(e["signature_valid"] for e in report["entries"])
    assert "entry 4 repeats nonce 3" in report["log"]["problems"]
    assert report["log"]["chain_unbroken"] is False


def test_a_discarded_reroll_shows_as_a_gap(game_client: FlaskClient) -> None:
    """Fire at nonce 4, dislike it, fire again at nonce 5 chained to the same entry."""
    log = play(game_client)[:3]
    body = {**TURN[3][1], "prev": receipt_hash(log[-1])}
    game_client.post(f"{SOLO}/fire", json={**body, "dice": {"seed": GAME_SEED, "nonce": 4}})
    reroll = game_client.post(
        f"{SOLO}/fire", json={**body, "dice": {"seed": GAME_SEED, "nonce": 5}}
    ).get_json()
    report = verify(game_client, [*log, reroll])
    assert report["log"]["chain_unbroken"] is True
    assert report["log"]["nonces_consecutive"] is False
    assert report["log"]["problems"] == ["entry 4: nonce 4 is missing before it"]
    assert report["valid"] is False


def test_a_reroll_from_another_seed_shows(game_client: FlaskClient) -> None:
    log = play(game_client)[:3]
    body = {**TURN[3][1], "prev": receipt_hash(log[-1]), "dice": {"seed": "lucky", "nonce": 4}}
    other = game_client.post(f"{SOLO}/fire", json=body).get_json()
    report = verify(game_client, [*log, other])
    assert report["log"]["one_seed"] is False
    assert report["valid"] is False


def test_fresh_dice_in_a_log_show_as_another_seed(game_client: FlaskClient) -> None:
    first, second = (game_client.post(f"{SOLO}/weather", json={}).get_json() for _ in range(2))
    assert first["dice"]["seed_source"] == "server"
    report = verify(game_client, [first, second])
    assert report["log"]["one_seed"] is False


def test_supplied_dice_are_signed_but_not_rederivable(game_client: FlaskClient) -> None:
    body = {**TURN[4][1], "dice": {"values": [6, 4, 2]}}
    saved = game_client.post(f"{SOLO}/straddle", json=body).get_json()
    report = verify(game_client, saved)
    assert report["valid"] is True
    entry = report["entries"][0]
    assert entry["signature_valid"] is True and entry["dice_valid"] is None
    assert entry["problems"] == [
        "the player supplied these dice: they cannot be re-derived "
        "(only seeded rolls and revealed sealed rolls can)"
    ]
    assert entry["codes"] == ["supplied-dice"]


def test_the_plain_roll_is_signed_and_chains(game_client: FlaskClient) -> None:
    log = play(game_client)[:2]
    body = {"notation": "2d8+1d10", "dice": {"seed": GAME_SEED, "nonce": 3}}
    roll = game_client.post(
        "/v1/dice/roll", json={**body, "prev": receipt_hash(log[-1])}
    ).get_json()
    third_party_check(game_client.get("/.well-known/jwks.json").get_json(), roll)
    assert verify(game_client, [*log, roll])["valid"] is True


def test_odds_are_not_signed(game_client: FlaskClient) -> None:
    """Odds roll no dice: there is nothing a player could dispute, so no receipt."""
    odds = game_client.post(f"{SOLO}/fire/odds", json=TURN[3][1]).get_json()
    assert "receipt" not in odds and "provenance" not in odds


def test_a_foreign_receipt_is_refused(game_client: FlaskClient, tmp_path: Path) -> None:
    other = create_app({"TESTING": True, "FIRECONTROL_DATA_DIR": str(tmp_path / "elsewhere")})
    foreign = play(other.test_client())[0]
    entry = verify(game_client, foreign)["entries"][0]
    assert entry["signature_valid"] is False
    assert entry["problems"][0].startswith("the receipt names a key this service does not know")


@pytest.mark.parametrize(
    "body",
    [[], [1, 2], "a string", 7, None, [{}, 3]],
    ids=["empty", "numbers", "string", "number", "null", "mixed"],
)
def test_verify_takes_an_object_or_a_list_of_objects(game_client: FlaskClient, body: Any) -> None:
    response = game_client.post(
        "/v1/receipts/verify", data=json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 422
    assert response.get_json()["type"].endswith("#validation")


def test_verify_explains_what_is_not_a_response(game_client: FlaskClient) -> None:
    report = verify(game_client, [{"hello": "world"}, {"receipt": 7}])
    assert report["valid"] is False
    assert report["entries"][0]["problems"][0].startswith("no receipt")


# --- dice that do not re-derive: what the entry says ----------------------------------------


def test_dice_that_are_not_the_seeds_are_a_mismatch_naming_the_roll_and_both_dice(
    client: FlaskClient,
) -> None:
    """The fire's 2D6 shown as other faces: the entry names the roll by index and label,
    quotes the dice shown and the dice the seed and nonce give (the signature fails too:
    the dice are signed)."""
    log = play(client)[:4]
    fire = log[3]
    honest = fire["rolls"][0]["values"]
    fire["rolls"][0]["values"] = [6, 6]
    report = verify(client, log)
    entry = report["entries"][3]
    assert (entry["signature_valid"], entry["dice_valid"]) == (False, False)
    assert entry["codes"] == ["altered", "dice-mismatch"]
    assert entry["problems"][1] == (
        f'rolls[0] ("fire"): the response says [6, 6], the seed and nonce give {honest}'
    )
    assert report["valid"] is False
    assert (
        verify_dice.check(json.loads(json.dumps(log)))["entries"][3]["problems"]
        == entry["problems"][1:]
    )


def test_a_total_that_is_not_the_sum_of_honest_dice_is_a_total_mismatch(
    client: FlaskClient,
) -> None:
    log = play(client)[:4]
    log[3]["rolls"][0]["total"] += 1
    entry = verify(client, log)["entries"][3]
    assert (entry["signature_valid"], entry["dice_valid"]) == (False, False)
    assert entry["codes"] == ["altered", "total-mismatch"]
    assert entry["problems"][1] == 'rolls[0] ("fire"): the total is not the sum'


def test_the_checker_accepts_supplied_dice_only_when_told(client: FlaskClient) -> None:
    """checking.check's own default, not only the endpoint's query default: a caller that
    says nothing gets the strict verdict (dice rolled at the table count against a log)."""
    from service.http.signing.receipts import current_keys

    log = play(client)[:3]
    play_next(client, log, "fire", TURN[3][1], 4)
    table = {**TURN[3][1], "dice": {"values": [6, 6]}, "prev": receipt_hash(log[-1])}
    log.append(client.post(f"{SOLO}/fire", json=table).get_json())
    with client.application.app_context():
        found = current_keys()
    now = 1767225600
    strict = checking.check(log, found.signer.keys, found.seals, now, log=True)
    assert strict["log"] is not None
    assert strict["valid"] is False and strict["log"]["accept_supplied"] is False
    assert strict["log"]["codes"] == ["supplied-dice"]
    told = checking.check(log, found.signer.keys, found.seals, now, log=True, accept_supplied=True)
    assert told["log"] is not None
    assert told["valid"] is True and told["log"]["supplied_entries"] == 1
    entries = [
        checking.check_entry(i, doc, found.signer.keys, found.seals, now)
        for i, doc in enumerate(log)
    ]
    assert checking.check_log(entries)["codes"] == ["supplied-dice"]
    assert checking.check_log(entries, accept_supplied=True)["codes"] == []


def test_every_entry_with_supplied_dice_is_counted(client: FlaskClient) -> None:
    log = play(client)[:3]
    for _ in range(2):
        table = {**TURN[3][1], "dice": {"values": [6, 6]}, "prev": receipt_hash(log[-1])}
        log.append(client.post(f"{SOLO}/fire", json=table).get_json())
    report = verify(client, log)["log"]
    assert report["supplied_entries"] == 2
    assert report["codes"] == ["supplied-dice", "supplied-dice"]


def test_an_entry_whose_dice_name_no_seed_is_left_out_of_the_log_checks(
    client: FlaskClient,
) -> None:
    """Dice naming neither a seed nor a sealed seed (edited in): the entry says so (and its
    signature fails); the log checks have no seed to compare, so they leave it out rather
    than call it another seed."""
    log = play(client)[:3]
    log[2]["dice"] = {"nonce": 3}
    report = verify(client, log)
    assert report["entries"][2]["codes"] == ["altered", "no-dice"]
    assert report["log"]["codes"] == []
    assert report["valid"] is False


def test_a_sealed_game_whose_client_seed_changes_says_which_entry(client: FlaskClient) -> None:
    """One sealed seed, the players' client seed changed at the third roll: the dice are
    no longer the game's (one_seed false), and the log says where, with its code."""
    sealed = client.post("/v1/seeds", json={"reveal_in": 3600}).get_json()
    log = [sealed]
    for nonce, (step, inputs) in enumerate(TURN[:3], start=1):
        client_seed = "ajax" if nonce < 3 else "achilles"
        dice = {"sealed": sealed["sealed"], "client_seed": client_seed, "nonce": nonce}
        body = {**inputs, "dice": dice, "prev": receipt_hash(log[-1])}
        response = client.post(f"{SOLO}/{step}", json=body)
        assert response.status_code == 200, response.get_json()
        log.append(response.get_json())
    report = verify(client, log)["log"]
    assert report["codes"] == ["client-seed-changed"]
    assert report["problems"] == ["entry 4 changes the client seed"]
    assert report["one_seed"] is False
    standalone = verify_dice.check(json.loads(json.dumps(log)))["log"]
    assert (standalone["codes"], standalone["problems"]) == (report["codes"], report["problems"])


@pytest.mark.parametrize(("first", "cut"), [(0, False), (1, False), (2, True)])
def test_a_game_starts_at_nonce_0_or_1_and_a_first_roll_at_2_is_a_cut_head(
    client: FlaskClient, first: int, cut: bool
) -> None:
    """The boundary of starts_at_beginning: a first roll at nonce 2 means nonce 1 was cut."""
    report = verify(client, play(client, first_nonce=first)[:2])["log"]
    assert report["starts_at_beginning"] is not cut
    if cut:
        assert report["codes"] == ["cut-head"]
        assert report["problems"] == [
            "entry 1's first roll has nonce 2: the log does not start at the beginning of the "
            "game (nonce 0 or 1 comes first)"
        ]


def test_an_entry_with_an_unreadable_nonce_does_not_end_the_log_checks(
    client: FlaskClient,
) -> None:
    """Entry 1's nonce edited into text: that entry is refused and leaves a hole in the
    count, and the entries after it are still checked (here a roll repeating nonce 3)."""
    log = play(client)[:3]
    play_next(client, log, "fire", TURN[3][1], 3)
    log[1]["dice"]["nonce"] = "2"
    report = verify(client, log)
    assert report["entries"][1]["codes"] == ["altered", "no-dice"]
    assert report["log"]["codes"] == ["nonce-gap", "nonce-repeat"]
    assert report["log"]["problems"] == [
        "entry 3: nonce 2 is missing before it",
        "entry 4 repeats nonce 3",
    ]


# --- which seed a log's entry rolls from --------------------------------------------------------


def _log_codes(*documents: Doc) -> tuple[list[str], list[str], bool]:
    """The log checks of these documents, chained by prev (the receipts' hashes stand in)."""
    entries = []
    for index, document in enumerate(documents):
        if index:
            document = {**document, "provenance": {"request": {"body": {"prev": f"h{index - 1}"}}}}
        entries.append(checking.Entry(index, document, receipt_hash=f"h{index}"))
    report = checking.check_log(entries)
    codes: list[str] = [*report["codes"]]
    return codes, report["problems"], report["one_seed"]


def _log_roll(dice: Doc) -> Doc:
    return {"dice": dice, "rolls": [roll_of("1d6", [1])]}


def test_a_seeded_roll_from_another_seed_is_another_seed() -> None:
    assert _log_codes(
        _log_roll(seeded_dice("a", 1)),
        _log_roll(seeded_dice("a", 2)),
        _log_roll(seeded_dice("b", 3)),
    ) == (
        ["another-seed"],
        [
            "entry 3 rolls from another seed than the game's first: a roll from another seed "
            "stands in for one of the game's"
        ],
        False,
    )
    assert _log_codes(_log_roll(seeded_dice("a", 1)), _log_roll(seeded_dice("a", 2)))[2] is True


def _sealed_dice(commitment: str, nonce: int) -> Doc:
    return {"mode": "sealed", "commitment": commitment, "client_seed": "c", "nonce": nonce}


@pytest.mark.parametrize("sealed_first", [True, False], ids=["seal-answer", "roll"])
def test_a_sealed_roll_under_another_commitment_is_another_seed(sealed_first: bool) -> None:
    """The game's seed is the sealing answer's commitment (or the first sealed roll's)."""
    first = [{"commitment": "c1"}] if sealed_first else []
    rolls = [_log_roll(_sealed_dice("c1", 1)), _log_roll(_sealed_dice("c2", 2))]
    index = len(first) + 1
    assert _log_codes(*first, *rolls) == (
        ["another-seed"],
        [
            f"entry {index + 1} rolls from another commitment than the game's first: a roll from "
            "another seed stands in for one of the game's"
        ],
        False,
    )
    same = [{"commitment": "c1"}, _log_roll(_sealed_dice("c1", 1))]
    assert _log_codes(*same) == ([], [], True)


# --- keys ----------------------------------------------------------------------------------


def test_two_apps_on_one_data_folder_share_one_key(data_dir: Path) -> None:
    first = create_app({"TESTING": True, "FIRECONTROL_DATA_DIR": str(data_dir)})
    second = create_app({"TESTING": True, "FIRECONTROL_DATA_DIR": str(data_dir)})
    first_keys = first.test_client().get("/.well-known/jwks.json").get_json()
    assert second.test_client().get("/.well-known/jwks.json").get_json() == first_keys
    signed_by_first = play(first.test_client())
    assert verify(second.test_client(), signed_by_first)["valid"] is True


def test_rotation_keeps_old_receipts_verifiable(data_dir: Path) -> None:
    before = create_app({"TESTING": True, "FIRECONTROL_DATA_DIR": str(data_dir)})
    old_log = play(before.test_client())
    old_kid = old_log[0]["provenance"]["kid"]

    new_kid = keys.rotate(data_dir / "signing-keys.json", keys.SIGNING)
    after = create_app({"TESTING": True, "FIRECONTROL_DATA_DIR": str(data_dir)}).test_client()
    jwks = after.get("/.well-known/jwks.json").get_json()
    assert [key["kid"] for key in jwks["keys"]] == [new_kid, old_kid]

    new_log = play(after, first_nonce=len(TURN) + 1)
    assert {entry["provenance"]["kid"] for entry in new_log} == {new_kid}
    for entry in old_log + new_log:
        third_party_check(jwks, entry)
    # One game, signed across a rotation, chained by hand at the seam.
    seam = after.post(
        f"{SOLO}/weather",
        json={"dice": {"seed": GAME_SEED, "nonce": 7}, "prev": receipt_hash(old_log[-1])},
    ).get_json()
    assert verify(after, [*old_log, seam])["valid"] is True

    retired = json.loads((data_dir / "signing-keys.json").read_text())["keys"][1]
    assert "d" not in retired, "a retired signing key keeps only its public part"


def private_material(data_dir: Path) -> list[str]:
    signing = json.loads((data_dir / "signing-keys.json").read_text())["keys"]
    seal = json.loads((data_dir / "seal-keys.json").read_text())["keys"]
    return [key["d"] for key in signing if "d" in key] + [key["k"] for key in seal]


def test_private_keys_never_appear_in_any_response(
    game_client: FlaskClient, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    log = play(game_client)
    sealed = game_client.post("/v1/seeds", json={"reveal_in": 3600}).get_json()
    bodies = [json.dumps(log), json.dumps(sealed)]
    for method, path, body in [
        ("get", "/.well-known/jwks.json", None),
        ("get", "/openapi.json", None),
        ("get", "/metrics", None),
        ("get", "/v1/rulesets", None),
        ("post", "/v1/receipts/verify", log),
        ("post", "/v1/seeds/reveal", {"sealed": sealed["sealed"]}),
        ("post", "/v1/seeds/reveal", {"sealed": sealed["sealed"][:-4] + "AAAA"}),
        ("post", f"{SOLO}/fire", {"range": "Nowhere"}),
    ]:
        response = getattr(game_client, method)(path, json=body)
        bodies.append(response.get_data(as_text=True))
    secrets = private_material(data_dir)
    assert len(secrets) == 2
    everything = "\n".join(bodies) + caplog.text
    assert all(secret not in everything for secret in secrets)
    assert '"d"' not in game_client.get("/.well-known/jwks.json").get_data(as_text=True)


def test_a_card_named_with_a_lone_surrogate_is_refused_where_it_is(
    game_client: FlaskClient,
) -> None:
    card = {
        "name": "\\ud800",
        "type": "CA",
        "guns": 8,
        "broadside": 1,
        "stern": 1,
        "bow": 1,
        "flotation": 5,
        "turret": 5,
        "speed": 10,
        "armor": 3,
        "nation": "UK",
    }
    text = json.dumps({"ship": {"card": card}, "hits": "F"}).replace("\\\\ud800", "\\ud800")
    response = game_client.post(f"{SOLO}/damage", data=text, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["field"] == "ship.card.name"


def test_an_integral_float_in_the_request_is_signed_canonically(game_client: FlaskClient) -> None:
    """StrictInteger takes 1.0 as 1; the body is signed as RFC 8785 writes it (1)."""
    body = {"notation": "1d6", "dice": {"seed": GAME_SEED, "nonce": 1.0}}
    saved = game_client.post("/v1/dice/roll", json=body).get_json()
    assert saved["provenance"]["request"]["body"]["dice"]["nonce"] == 1.0
    third_party_check(game_client.get("/.well-known/jwks.json").get_json(), saved)
    assert verify(game_client, saved)["valid"] is True


def test_a_document_nested_too_deep_to_sign_is_reported_not_a_500(
    game_client: FlaskClient,
) -> None:
    receipt = play(game_client)[0]["receipt"]
    for depth in range(850, 1000, 10):  # around where canonicalisation runs out of stack
        deep = '{"a":' * depth + "1" + "}" * depth
        text = f'{{"receipt": "{receipt}", "result": {deep}}}'
        response = game_client.post(
            "/v1/receipts/verify", data=text, content_type="application/json"
        )
        assert response.status_code in (200, 400), depth  # too deep to decode: 400
    nested: dict[str, Any] = {}
    for _ in range(5000):
        nested = {"a": nested}
    keys_now = game_client.application.extensions["fire-control.receipts"].signer.keys
    checked = check_signature(keys_now, {"receipt": receipt, "result": nested})
    assert checked.problem == "the document has no RFC 8785 form (nested too deep)"


def test_the_receipt_is_exactly_what_joserfc_would_sign(game_app: Flask) -> None:
    from joserfc import jws

    from service.http.signing.receipts import current_keys
    from service.receipts.canonical import canonical_json

    response = (
        game_app.test_client()
        .post(
            f"{SOLO}/straddle",
            json={
                "firer": {"ship": "Ajax"},
                "target": {"ship": "Graf Spee"},
                "range": "Long",
                "guns_bearing": "bow",
                "dice": {"seed": "same-bytes", "nonce": 1},
            },
        )
        .get_json()
    )
    with game_app.app_context():
        signing = current_keys().signer.keys
    unsigned = {k: v for k, v in response.items() if k != "receipt"}
    token = jws.serialize_compact(
        {"alg": "Ed25519", "kid": signing.kid},
        canonical_json(unsigned),
        signing.current,
        algorithms=["Ed25519"],
    )
    head, _, signature = token.split(".")
    assert response["receipt"] == f"{head}..{signature}"


def test_the_service_and_joserfc_agree_on_every_receipt(game_app: Flask) -> None:
    """The service checks a receipt with the header it writes by joserfc's Ed25519 algorithm
    over the signing input it puts together itself; joserfc's whole deserialize_compact
    must give the same verdict for that receipt, and for every other one."""
    from joserfc import jws
    from joserfc.errors import JoseError

    from service.http.signing.receipts import current_keys
    from service.receipts.canonical import canonical_json

    log = play(game_app.test_client())
    with game_app.app_context():
        signing = current_keys().signer.keys
    kid = signing.kid

    def resigned(document: Doc, header: dict[str, Any]) -> Doc:
        unsigned = {k: v for k, v in document.items() if k != "receipt"}
        token = jws.serialize_compact(
            header, canonical_json(unsigned), signing.current, algorithms=["Ed25519"]
        )
        head, _, signature = token.split(".")
        return {**unsigned, "receipt": f"{head}..{signature}"}

    def flipped(document: Doc) -> Doc:
        head, _, signature = document["receipt"].partition("..")
        first = "B" if signature[0] == "A" else "A"
        return {**document, "receipt": f"{head}..{first}{signature[1:]}"}

    def signature(document: Doc, raw: bytes) -> Doc:
        head = document["receipt"].split("..")[0]
        spelled = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
        return {**document, "receipt": f"{head}..{spelled}"}

    def raw(document: Doc) -> bytes:
        spelled = document["receipt"].split("..")[1]
        return base64.urlsafe_b64decode(spelled + "=" * (-len(spelled) % 4))

    order = 2**252 + 27742317777372353535851937790883648493  # L, the group's order
    r, s = raw(log[0])[:32], int.from_bytes(raw(log[0])[32:], "little")
    identity = (1).to_bytes(32, "little")  # the neutral point: of order 1
    order_two = ((1 << 255) - 20).to_bytes(32, "little")  # (0, -1): of order 2

    def neutral_r(document: Doc) -> Doc:
        """A true signature by the key whose R is the neutral point (nonce r = 0): OpenSSL
        takes it, libsodium refuses a small-order R; the service must say what OpenSSL says."""
        private = signing.current.private_key
        assert isinstance(private, Ed25519PrivateKey)
        seed = private.private_bytes_raw()
        digest = bytearray(hashlib.sha512(seed).digest()[:32])
        digest[0] &= 248
        digest[31] = (digest[31] & 127) | 64
        secret = int.from_bytes(digest, "little")
        public = signing.public[kid].public_key.public_bytes_raw()
        head = document["receipt"].split("..")[0]
        unsigned = {k: v for k, v in document.items() if k != "receipt"}
        signed = head.encode() + b"." + base64.urlsafe_b64encode(canonical_json(unsigned))
        signed = signed.rstrip(b"=")
        k = int.from_bytes(hashlib.sha512(identity + public + signed).digest(), "little")
        return signature(document, identity + (k * secret % order).to_bytes(32, "little"))

    altered = copy.deepcopy(log[0])
    altered["rolls"][0]["values"][0] = 7 - altered["rolls"][0]["values"][0]
    documents = [
        *log,
        altered,
        flipped(log[1]),
        resigned(log[0], {"alg": "Ed25519", "kid": kid, "typ": "JWT"}),
        resigned(log[0], {"alg": "Ed25519", "kid": kid, "b64": False, "crit": ["b64"]}),
        resigned(log[0], {"kid": kid, "alg": "Ed25519"}),
        signature(log[0], r + (s + order).to_bytes(32, "little")),  # S not below L
        signature(log[0], identity + (0).to_bytes(32, "little")),  # small-order R
        signature(log[0], order_two + s.to_bytes(32, "little")),
        signature(log[0], identity + s.to_bytes(32, "little")),
        signature(log[0], raw(log[0])[:63]),  # a byte short
        signature(log[0], raw(log[0]) + b"\0"),  # a byte long
        signature(log[0], bytes(64)),
        neutral_r(log[2]),
    ]
    verdicts = []
    for document in documents:
        unsigned = {k: v for k, v in document.items() if k != "receipt"}
        try:
            jws.deserialize_compact(
                document["receipt"],
                signing.public[kid],
                algorithms=["Ed25519"],
                payload=canonical_json(unsigned),
            )
            joserfc_holds = True
        except JoseError:
            joserfc_holds = False
        checked = check_signature(signing, document)
        assert checked.valid is joserfc_holds, (document["receipt"], checked)
        verdicts.append(joserfc_holds)
    assert verdicts == [True] * len(log) + [False, False, True, True, True] + [False] * 7 + [True]


@pytest.mark.parametrize("parameters", [{"use": "enc"}, {"alg": "EdDSA"}])
def test_a_key_not_for_ed25519_signatures_verifies_no_receipt_however_often_asked(
    game_app: Flask, parameters: KeyParameters
) -> None:
    """The service's check of a key (its use and its alg) is made once per key; a key that
    fails it is refused on every receipt, not remembered as good, and a good key after it
    still verifies."""
    from joserfc.jwk import OKPKey

    from service.http.signing.receipts import current_keys

    document = play(game_app.test_client())[0]
    with game_app.app_context():
        signing = current_keys().signer.keys
    kid = signing.kid
    public = OKPKey.import_key(signing.public[kid].as_dict(private=False), parameters)
    wrong = keys.SigningKeys(signing.current, kid, {kid: public})
    for _ in range(2):
        checked = check_signature(wrong, document)
        assert (checked.valid, checked.code) == (False, "altered")
        assert check_signature(signing, document).valid
