"""Receipts guards: when a pending Salvo! turn and the request after it count as one turn,
and what a sealed seed's token holds.

``finishes_pending_turn`` decides whether the second call of a turn left ``result.pending``
finishes it (the same request plus ``player_action``, its rolls beginning with the pending
answer's) or is something else. A mutation run of the receipts module found none of its
refusals tested one by one; each test below changes exactly one thing in a finishing pair
and expects the answer to flip to False.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import importlib.util
import json
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from flask.testing import FlaskClient

from service.receipts import canonical, checking, sealing
from service.receipts import keys as keys_module
from service.receipts.checking import finishes_pending_turn, left_pending
from service.receipts.keys import SealKeys, new_signing_key, signing_keys
from service.receipts.signing import Signer, check_signature
from service.startup import StartupError
from tests.receipts_helpers import (
    GAME_SEED,
    SOLO,
    TURN,
    play,
    receipt_hash,
    record_moves,
    verify,
)

Doc = dict[str, Any]
VERIFIER = Path(__file__).resolve().parent.parent / "tools" / "verify_dice.py"

OPENING = [
    {"label": "initiative: player", "notation": "1d6", "values": [2], "total": 2},
    {"label": "initiative: enemy", "notation": "1d6", "values": [5], "total": 5},
]
BODY = {
    "player": {"ship": "cruiser", "speed": 4},
    "enemy": {"ship": "destroyer", "speed": 5},
    "dice": {"seed": "game-seed", "nonce": 7},
}


DICE = {"mode": "seeded", "seed": "game-seed", "nonce": 7, "seed_source": "client"}
READINGS = {"straddle-21-plus": "as-20", "initiative-in-turn": "player-reacts"}


def pending() -> Doc:
    """The first call: no player_action, the enemy has the initiative, the turn waits."""
    return {
        "ruleset": "salvo-solo",
        "step": "turn",
        "result": {"pending": {"waiting_for": "player_action"}},
        "rolls": copy.deepcopy(OPENING),
        "dice": dict(DICE),
        "rules": dict(READINGS),
        "provenance": {"request": {"body": {**copy.deepcopy(BODY), "prev": "receipt-1"}}},
    }


def finishing() -> Doc:
    """The second call: the same body plus player_action (its prev names the first call),
    rolling the same opening dice again and then the rest of the turn."""
    more = {"label": "enemy action", "notation": "1d6", "values": [4], "total": 4}
    body = {**copy.deepcopy(BODY), "player_action": "fire", "prev": "receipt-2"}
    return {
        "ruleset": "salvo-solo",
        "step": "turn",
        "result": {"hits": 1},
        "rolls": [*copy.deepcopy(OPENING), more],
        "dice": dict(DICE),
        "rules": dict(READINGS),
        "provenance": {"request": {"body": body}},
    }


def test_the_same_request_with_player_action_and_the_same_dice_finishes_the_turn() -> None:
    before, after = pending(), finishing()
    assert left_pending(before)
    assert finishes_pending_turn(before, after) is True
    # prev differs between the two calls by nature: it is set aside, whatever it holds
    del after["provenance"]["request"]["body"]["prev"]
    assert finishes_pending_turn(before, after) is True


def test_the_readings_in_force_and_the_dice_shown_are_compared_not_the_request_text() -> None:
    """rules left out, partly given or spelled out are the same turn (the answers' rules
    echo is compared); fresh dice are finished with the seed and nonce the pending answer
    names (only who chose the seed differs between the answers)."""
    before, after = pending(), finishing()
    after["provenance"]["request"]["body"]["rules"] = dict(READINGS)
    before["provenance"]["request"]["body"]["rules"] = {"straddle-21-plus": "as-20"}
    assert finishes_pending_turn(before, after) is True
    del before["provenance"]["request"]["body"]["dice"]  # fresh dice: the service's seed
    before["dice"]["seed_source"] = "server"
    after["provenance"]["request"]["body"]["dice"] = {"seed": "game-seed", "nonce": 7}
    assert finishes_pending_turn(before, after) is True


def _set(path: str, value: Any) -> Callable[[Doc], None]:
    keys = path.split(".")

    def change(doc: Doc) -> None:
        target = doc
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value

    return change


def _drop(path: str) -> Callable[[Doc], None]:
    keys = path.split(".")

    def change(doc: Doc) -> None:
        target = doc
        for key in keys[:-1]:
            target = target[key]
        del target[keys[-1]]

    return change


# (which document, what changes in it): each makes the pair not one turn.
NOT_ONE_TURN: dict[str, tuple[str, Callable[[Doc], None]]] = {
    "pending from another ruleset": ("before", _set("ruleset", "salvo-grid")),
    "finish from another ruleset": ("after", _set("ruleset", "fleet-action")),
    "pending from another step": ("before", _set("step", "fire")),
    "finish from another step": ("after", _set("step", "fire")),
    "pending answer had no result": ("before", _drop("result")),
    "pending answer's result is not an object": ("before", _set("result", ["pending"])),
    "nothing was pending": ("before", _set("result", {"hits": 0})),
    "pending is not an object": ("before", _set("result.pending", True)),
    "pending answer without provenance": ("before", _drop("provenance")),
    "finish without provenance": ("after", _drop("provenance")),
    "pending provenance not an object": ("before", _set("provenance", "signed")),
    "finish provenance not an object": ("after", _set("provenance", ["request"])),
    "pending provenance without the request": ("before", _drop("provenance.request")),
    "finish provenance without the request": ("after", _drop("provenance.request")),
    "pending request not an object": ("before", _set("provenance.request", "POST")),
    "finish request not an object": ("after", _set("provenance.request", 3)),
    "pending request without a body": ("before", _drop("provenance.request.body")),
    "finish request without a body": ("after", _drop("provenance.request.body")),
    "pending body not an object": ("before", _set("provenance.request.body", "{}")),
    "finish body not an object": ("after", _set("provenance.request.body", [1])),
    "the pending call already had player_action": (
        "before",
        _set("provenance.request.body.player_action", "fire"),
    ),
    "the second call has no player_action": (
        "after",
        _drop("provenance.request.body.player_action"),
    ),
    "the second call changes another member": (
        "after",
        _set("provenance.request.body.enemy", {"ship": "destroyer", "speed": 6}),
    ),
    "the second call drops a member": ("after", _drop("provenance.request.body.enemy")),
    "the second call adds a member": ("after", _set("provenance.request.body.weather", "Fair")),
    "the second answer shows other dice": ("after", _set("dice.nonce", 8)),
    "the second answer shows another seed": ("after", _set("dice.seed", "another")),
    "the second answer shows no dice": ("after", _drop("dice")),
    "the second answer reads a ruling otherwise": (
        "after",
        _set("rules.straddle-21-plus", "no-effect"),
    ),
    "the pending answer's rolls are not a list": ("before", _set("rolls", {"0": OPENING[0]})),
    "the pending answer has no rolls member": ("before", _drop("rolls")),
    "the second answer's rolls are not a list": ("after", _set("rolls", "2,5,4")),
    "the second answer has no rolls member": ("after", _drop("rolls")),
    "the second answer rolls other opening dice": (
        "after",
        lambda doc: doc["rolls"][0].update(values=[3], total=3),
    ),
    "the second answer rolls the opening in another order": (
        "after",
        lambda doc: doc["rolls"].insert(0, doc["rolls"].pop(1)),
    ),
}


@pytest.mark.parametrize("case", NOT_ONE_TURN, ids=list(NOT_ONE_TURN))
def test_a_pair_that_differs_from_one_turn_is_not_one_turn(case: str) -> None:
    which, change = NOT_ONE_TURN[case]
    before, after = pending(), finishing()
    change(before if which == "before" else after)
    assert finishes_pending_turn(before, after) is False


def test_the_second_answer_rolling_fewer_dice_than_the_opening_is_not_one_turn() -> None:
    before, after = pending(), finishing()
    after["rolls"] = after["rolls"][:1]
    assert finishes_pending_turn(before, after) is False


@pytest.mark.parametrize("other", [None, "turn", ["turn"], 7])
def test_documents_that_are_not_objects_are_not_one_turn(other: Any) -> None:
    assert finishes_pending_turn(other, finishing()) is False
    assert finishes_pending_turn(pending(), other) is False


# --- sealed seeds: the documentation's example token, the client seed's binding -------------
# seal_example runs at import (service/http/seeds.py builds the API document's example token
# with it), before mutmut sets which mutant runs: only a test that calls it sees a mutant.

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


# --- a pending turn thrown away: what the log check says ------------------------------------

SOLO_TURN = "/v1/rulesets/salvo-solo/turn"
SOLO_START = {
    "turn": 1,
    "weather": "Fair",
    "range": "Long",
    "player": {"ship": "Ajax"},
    "enemy": {"ship": "Graf Spee"},
}


def test_a_pending_turn_thrown_away_is_reported_in_words_and_breaks_the_nonces(
    client: FlaskClient,
) -> None:
    """A turn answered pending, then the game going on at the next nonce as if it had not
    been asked: the log check says which entry threw which turn away, and the nonces are
    not consecutive (false, not merely falsy: the report is JSON for third parties)."""
    seed, pending = next(
        (seed, response.get_json())
        for seed in (f"thrown-away-{n}" for n in range(60))
        for response in [
            client.post(SOLO_TURN, json={"state": SOLO_START, "dice": {"seed": seed, "nonce": 1}})
        ]
        if response.status_code == 200
    )
    assert "pending" in pending["result"]
    skipped = client.post(
        SOLO_TURN,
        json={
            "state": SOLO_START,
            "player_action": "OB",
            "dice": {"seed": seed, "nonce": 2},
            "prev": receipt_hash(pending),
        },
    )
    assert skipped.status_code == 200, skipped.get_json()
    report = verify(client, [pending, skipped.get_json()])["log"]
    assert report["codes"] == ["pending-unfinished"]
    assert report["problems"] == [
        "entry 2 does not finish the turn entry 1 left pending (the same request with "
        "player_action and the dice pending.dice names): that turn was thrown away"
    ]
    assert report["nonces_consecutive"] is False
    assert (report["chain_unbroken"], report["one_seed"]) == (True, True)


# --- a nonce's dice, once shown, are shown once ---------------------------------------------
# A step that rolls nothing (a maneuver) may carry the game's seed and a nonce; the next roll
# may then use that nonce or the next. But a maneuver under the nonce of the roll before it
# made the next roll's repeat of that nonce pass: the same dice shown twice, unflagged (found
# reading a surviving mutant of _nonce_step; fixed in all three verifiers).

_spec = importlib.util.spec_from_file_location("verify_dice_guards", VERIFIER)
assert _spec is not None and _spec.loader is not None
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)

MANEUVER = {"range": "Long", "player_action": "C", "enemy_action": "OB"}


def _then(client: FlaskClient, log: list[Doc], step: str, body: Doc, nonce: int) -> None:
    dice = {"seed": GAME_SEED, "nonce": nonce}
    body = {**body, "dice": dice, "prev": receipt_hash(log[-1])}
    response = client.post(f"{SOLO}/{step}", json=body)
    assert response.status_code == 200, response.get_json()
    log.append(response.get_json())


def _both_verdicts(client: FlaskClient, log: list[Doc]) -> tuple[Doc, Doc]:
    """The log part of POST /v1/receipts/verify's answer and of tools/verify_dice.py's."""
    service = verify(client, log)
    keys = tool.load_keys(client.get("/.well-known/jwks.json").get_json())
    standalone = tool.check(json.loads(json.dumps(log)), keys)
    assert (service["valid"], service["verdict"]) == (standalone["valid"], standalone["verdict"])
    return service["log"], standalone["log"]


def test_a_roll_replayed_behind_a_step_that_rolled_nothing_is_a_repeated_nonce(
    client: FlaskClient,
) -> None:
    log = play(client)[:4]  # nonces 1 to 4; the fire at 4
    _then(client, log, "maneuver", MANEUVER, 4)  # rolls nothing, under the fire's nonce
    _then(client, log, "fire", TURN[3][1], 4)  # the fire's dice again
    assert log[5]["rolls"] == log[3]["rolls"] and log[4]["rolls"] == []
    for report in _both_verdicts(client, log):
        assert report["codes"] == ["nonce-repeat"]
        assert report["problems"] == ["entry 6 repeats nonce 4"]
        assert report["nonces_consecutive"] is False
        assert (report["chain_unbroken"], report["one_seed"]) == (True, True)


@pytest.mark.parametrize(("maneuver", "fire"), [(4, 4), (3, 4)], ids=["next", "last"])
def test_a_step_that_rolled_nothing_takes_no_dice_from_the_count(
    client: FlaskClient, maneuver: int, fire: int
) -> None:
    """A maneuver under the next nonce, the roll after it under the same one; or a maneuver
    under the last roll's nonce, the roll after it under the next: no dice were shown twice."""
    log = play(client)[:3]  # nonces 1 to 3
    _then(client, log, "maneuver", MANEUVER, maneuver)
    _then(client, log, "fire", TURN[3][1], fire)
    for report in _both_verdicts(client, log):
        assert report["codes"] == []
        assert report["nonces_consecutive"] is True


def test_a_roll_going_back_to_an_earlier_nonce_breaks_the_nonces(client: FlaskClient) -> None:
    """Nonces 1 to 4, then a fire under nonce 2: an earlier nonce's dice used again, with no
    gap before it to give it away. nonces_consecutive is false (not merely falsy) and the
    log is not valid."""
    log = play(client)[:4]
    _then(client, log, "fire", TURN[3][1], 2)
    report = verify(client, log)
    assert report["valid"] is False
    assert report["log"]["codes"] == ["nonce-back"]
    assert report["log"]["problems"] == ["entry 5 goes back from nonce 4 to 2"]
    assert report["log"]["nonces_consecutive"] is False
    assert [e["dice_valid"] for e in report["entries"]] == [True] * 5
    standalone = tool.check(json.loads(json.dumps(log)))
    assert standalone["valid"] is False and standalone["log"]["codes"] == ["nonce-back"]


def test_missing_nonces_are_counted_in_words(client: FlaskClient) -> None:
    """One nonce missing is named; several are given as a range, first to last."""
    one = play(client)[:3]
    _then(client, one, "fire", TURN[3][1], 5)
    several = play(client)[:3]
    _then(client, several, "fire", TURN[3][1], 7)
    for log, words in [
        (one, "entry 4: nonce 4 is missing before it"),
        (several, "entry 4: nonces 4 to 6 are missing before it"),
    ]:
        report = verify(client, log)["log"]
        assert (report["codes"], report["problems"]) == (["nonce-gap"], [words])
        assert report["nonces_consecutive"] is False
        assert tool.check(json.loads(json.dumps(log)))["log"]["problems"] == [words]


def test_a_log_whose_first_entry_points_back_does_not_start_the_game(client: FlaskClient) -> None:
    """The game began with a step that rolled nothing; the log handed over leaves it out, so
    its first entry carries a prev though its roll is nonce 1: the head was cut, and nothing
    else gives it away. starts_at_beginning is false (not merely falsy), the log invalid."""
    opening = client.post(f"{SOLO}/maneuver", json=MANEUVER).get_json()
    log = [opening]
    for nonce, (step, inputs) in enumerate(TURN[:3], start=1):
        _then(client, log, step, inputs, nonce)
    report = verify(client, log[1:])
    assert report["valid"] is False
    assert report["log"]["codes"] == ["cut-head"]
    assert report["log"]["problems"] == [
        "entry 1 carries a prev: the log does not start at the beginning of the game "
        "(its first entries are missing)"
    ]
    assert report["log"]["starts_at_beginning"] is False
    assert verify(client, log)["valid"] is True  # the whole log


def test_an_entry_without_a_prev_restarts_the_chain(client: FlaskClient) -> None:
    """A roll asked without prev in the middle of a game (a game spliced from two, or an
    entry made apart and slipped in): the chain is not unbroken, whatever else holds."""
    log = play(client)[:3]
    fire = {**TURN[3][1], "dice": {"seed": GAME_SEED, "nonce": 4}}
    log.append(client.post(f"{SOLO}/fire", json=fire).get_json())
    report = verify(client, log)
    assert report["valid"] is False
    assert report["log"]["codes"] == ["chain-restart"]
    assert report["log"]["problems"] == ["entry 4 carries no prev: the chain starts again"]
    assert report["log"]["chain_unbroken"] is False
    assert (report["log"]["nonces_consecutive"], report["log"]["one_seed"]) == (True, True)
    standalone = tool.check(json.loads(json.dumps(log)))["log"]
    assert (standalone["codes"], standalone["chain_unbroken"]) == (["chain-restart"], False)


# --- a receipt's signature: each way it fails, its code and words ---------------------------
# check_signature is reached by every verify test, but most of its refusals by none: each
# test below makes one of them happen on a document signed here, with a key made here.

SIGNING_KEYS = signing_keys({"keys": [new_signing_key()]})
SIGNER = Signer(SIGNING_KEYS, "fire-control")


def _b64json(value: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()


def _signed(**members: Any) -> Doc:
    provenance = SIGNER.provenance("/v1/dice/roll", {"notation": "1d6"}, now=1767225600)
    return SIGNER.sign({"ruleset": None, "step": "roll", "provenance": provenance, **members})


def _checked(document: Doc) -> tuple[bool, str | None, str | None, str | None]:
    found = check_signature(SIGNING_KEYS, document)
    return found.valid, found.kid, found.code, found.problem


def test_a_receipt_signed_by_the_key_it_names_over_the_document_holds() -> None:
    document = _signed(result={"total": 4})
    assert _checked(document) == (True, SIGNING_KEYS.kid, None, None)
    head = document["receipt"].split(".")[0]
    assert json.loads(base64.urlsafe_b64decode(head + "==")) == {
        "alg": "Ed25519",
        "kid": SIGNING_KEYS.kid,
    }
    assert document["provenance"] == {
        "service": "fire-control",
        "kid": SIGNING_KEYS.kid,
        "issued_at": "2026-01-01T00:00:00Z",
        "request": {"path": "/v1/dice/roll", "body": {"notation": "1d6"}},
    }


NO_RECEIPT = "no receipt: `receipt` must be a detached JWS (header..sig)"


@pytest.mark.parametrize(
    "receipt",
    [None, 7, "", "abc", "a.b.c", "a..", "..b", "a..b..c", "a..b\n", "a..b=", ["a..b"]],
)
def test_a_receipt_that_is_not_a_detached_jws_is_no_receipt(receipt: Any) -> None:
    document = {**_signed(), "receipt": receipt}
    assert _checked(document) == (False, None, "no-receipt", NO_RECEIPT)
    del document["receipt"]
    assert _checked(document) == (False, None, "no-receipt", NO_RECEIPT)


BAD_HEADER = "the receipt's header is not an Ed25519 JWS header"


@pytest.mark.parametrize(
    "head",
    [
        "bm90LWpzb24",  # "not-json"
        _b64json(["alg", "Ed25519"]),
        _b64json({"kid": "x"}),
        _b64json({"alg": "EdDSA", "kid": "x"}),
        _b64json({"alg": "none", "kid": "x"}),
        _b64json({"alg": "ed25519", "kid": "x"}),
        "_-_-",
    ],
)
def test_a_header_that_is_not_ed25519_is_a_bad_header(head: str) -> None:
    document = _signed()
    signature = document["receipt"].split("..")[1]
    document["receipt"] = f"{head}..{signature}"
    assert _checked(document) == (False, None, "bad-header", BAD_HEADER)


@pytest.mark.parametrize(
    ("kid", "shown"),
    [
        ("retired-long-ago", '"retired-long-ago"'),
        (None, "null"),
        (5, "5"),
        (["k"], '["k"]'),
        ("k" * 80, '"' + "k" * 59),
        ("Schlüssel", '"Schl\\u00fcssel"'),  # escaped: the answer stays ASCII
        ("\ud800", '"\\ud800"'),  # a lone surrogate has no UTF-8 form: escaped, never raw
    ],
)
def test_a_receipt_naming_a_key_not_in_the_set_is_an_unknown_key(kid: Any, shown: str) -> None:
    document = _signed()
    signature = document["receipt"].split("..")[1]
    document["receipt"] = f"{_b64json({'alg': 'Ed25519', 'kid': kid})}..{signature}"
    assert _checked(document) == (
        False,
        None,
        "unknown-key",
        f"the receipt names a key this service does not know: {shown}",
    )


def test_a_document_with_no_canonical_form_is_refused_before_the_signature() -> None:
    document = {**_signed(), "result": {"total": float("nan")}}
    valid, kid, code, problem = _checked(document)
    assert (valid, kid, code) == (False, SIGNING_KEYS.kid, "no-canonical-form")
    assert problem is not None and problem.startswith("the document has no RFC 8785 form (")
    big = {**_signed(), "result": {"total": 2**60}}
    assert _checked(big)[2] == "no-canonical-form"


ALTERED = "the signature does not match the document: it was altered"


def test_any_change_to_the_signed_document_is_altered() -> None:
    document = _signed(result={"total": 4})
    changes: list[Callable[[Doc], None]] = [
        _set("result.total", 5),
        _set("provenance.issued_at", "2026-01-01T00:00:01Z"),
        _set("provenance.request.path", "/v1/rulesets/salvo-solo/fire"),
        _set("step", "fire"),
        _set("extra", None),
        _drop("ruleset"),
    ]
    for change in changes:
        edited = copy.deepcopy(document)
        change(edited)
        assert _checked(edited) == (False, SIGNING_KEYS.kid, "altered", ALTERED)
    other = Signer(signing_keys({"keys": [new_signing_key()]}), "fire-control")
    head = document["receipt"].split("..")[0]
    own = other.sign({k: v for k, v in document.items() if k != "receipt"})["receipt"]
    for signature in (own.split("..")[1], "Zm9yZ2Vk"):  # another key's, and none at all
        forged = {**document, "receipt": f"{head}..{signature}"}
        assert _checked(forged) == (False, SIGNING_KEYS.kid, "altered", ALTERED)


PROVENANCE_KID = "the provenance names another key than the receipt"


@pytest.mark.parametrize(
    "provenance",
    [{"kid": "another"}, {}, None, "signed", ["kid"]],
)
def test_a_provenance_naming_another_key_than_the_receipt_is_refused(provenance: Any) -> None:
    """Signed by this key over a document whose provenance names another key (or none):
    the signature holds, but the answer does not say which key made it."""
    document = SIGNER.sign({"step": "roll", "provenance": provenance})
    assert _checked(document) == (False, SIGNING_KEYS.kid, "provenance-kid", PROVENANCE_KID)


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
        tool.check(json.loads(json.dumps(log)))["entries"][3]["problems"] == entry["problems"][1:]
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
    from service.http.receipts import current_keys

    log = play(client)[:3]
    _then(client, log, "fire", TURN[3][1], 4)
    table = {**TURN[3][1], "dice": {"values": [6, 6]}, "prev": receipt_hash(log[-1])}
    log.append(client.post(f"{SOLO}/fire", json=table).get_json())
    with client.application.app_context():
        found = current_keys()
    now = 1767225600
    strict = checking.check(log, found.signer.keys, found.seals, now, log=True)
    assert strict["valid"] is False and strict["log"]["accept_supplied"] is False
    assert strict["log"]["codes"] == ["supplied-dice"]
    told = checking.check(log, found.signer.keys, found.seals, now, log=True, accept_supplied=True)
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
    standalone = tool.check(json.loads(json.dumps(log)))["log"]
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
    _then(client, log, "fire", TURN[3][1], 3)
    log[1]["dice"]["nonce"] = "2"
    report = verify(client, log)
    assert report["entries"][1]["codes"] == ["altered", "no-dice"]
    assert report["log"]["codes"] == ["nonce-gap", "nonce-repeat"]
    assert report["log"]["problems"] == [
        "entry 3: nonce 2 is missing before it",
        "entry 4 repeats nonce 3",
    ]


@pytest.mark.parametrize("length", range(1, 13))
def test_a_header_of_any_length_is_read_whatever_padding_it_lacks(length: int) -> None:
    """BASE64URL drops the padding; the reader puts back what each length needs (a kid an
    operator chooses gives headers of every length, 12 kids cover every remainder)."""
    document = _signed()
    signature = document["receipt"].split("..")[1]
    kid = "k" * length
    document["receipt"] = f"{_b64json({'alg': 'Ed25519', 'kid': kid})}..{signature}"
    assert _checked(document)[2:] == (
        "unknown-key",
        f'the receipt names a key this service does not know: "{kid}"',
    )


# --- one entry's dice: each way _check_dice reads them, its code, words and dice_valid --------
# Documents signed here (so only the dice speak) and checked by check_entry directly: no app,
# no request, so these run first and end a mutant of the dice checks in milliseconds.

SEALS = SealKeys("guard", {"guard": bytes(range(32))})
NOW = 1767225600  # 2026-01-01T00:00:00Z
SERVER_SEED = "Server-Seed_1"
SERVER_COMMITMENT = "99f68f1b30a23a99379ca9aaae52d90b7765ca106360d1bfb87f5376acc0bb93"
NO_DICE = "`dice` names no seeded, sealed or supplied dice with a nonce"
ROLLS_MISSING = "`rolls` is missing: there are no dice to re-derive"
_ABSENT: Any = object()


def _roll(notation: Any, values: list[int], label: str = "x") -> Doc:
    return {"label": label, "notation": notation, "values": values, "total": sum(values)}


def _rolled(dice: Any = _ABSENT, rolls: Any = _ABSENT, body: Any = None, **members: Any) -> Doc:
    """A document signed by SIGNER holding these dice and rolls (a member left out when
    _ABSENT), its request body ``body``."""
    document: Doc = {"ruleset": None, "step": "roll", **members}
    if dice is not _ABSENT:
        document["dice"] = dice
    if rolls is not _ABSENT:
        document["rolls"] = rolls
    document["provenance"] = SIGNER.provenance("/v1/dice/roll", body, now=NOW)
    return SIGNER.sign(document)


def _entry(document: Any, now: int = NOW, index: int = 0) -> Doc:
    return checking.check_entry(index, document, SIGNING_KEYS, SEALS, now).as_dict()


def _dice_verdict(document: Any, now: int = NOW) -> tuple[bool, bool | None, list[str], list[str]]:
    entry = _entry(document, now)
    return entry["signature_valid"], entry["dice_valid"], entry["codes"], entry["problems"]


def _seeded(seed: Any = "guard-seed", nonce: Any = 3) -> Doc:
    return {"mode": "seeded", "seed": seed, "nonce": nonce}


HONEST = [_roll("2d6", [2, 1], "fire"), _roll("1d20", [4], "d20")]  # guard-seed, nonce 3


def test_honest_seeded_dice_re_derive() -> None:
    assert _dice_verdict(_rolled(_seeded(), HONEST)) == (True, True, [], [])


def test_a_document_without_dice_or_rolls_has_no_dice_to_check() -> None:
    """The answer that sealed a seed, a manoeuvre: dice_valid null (nothing to prove), and
    no problem."""
    assert _dice_verdict(_rolled()) == (True, None, [], [])
    assert _dice_verdict(_rolled(None, None)) == (True, None, [], [])


def test_rolls_without_dice_name_no_dice() -> None:
    assert _dice_verdict(_rolled(rolls=HONEST)) == (True, False, ["no-dice"], [NO_DICE])


@pytest.mark.parametrize("rolls", [_ABSENT, None, {"0": HONEST[0]}, "2d6"])
def test_seeded_dice_without_a_list_of_rolls_are_rolls_missing(rolls: Any) -> None:
    assert _dice_verdict(_rolled(_seeded(), rolls)) == (
        True,
        False,
        ["rolls-missing"],
        [ROLLS_MISSING],
    )


@pytest.mark.parametrize("nonce", [None, 1, _ABSENT])
def test_supplied_dice_are_named_and_neither_valid_nor_invalid(nonce: Any) -> None:
    dice: Doc = {"mode": "supplied", "values": [2, 1]}
    if nonce is not _ABSENT:
        dice["nonce"] = nonce
    assert _dice_verdict(_rolled(dice, HONEST[:1])) == (
        True,
        None,
        ["supplied-dice"],
        [
            "the player supplied these dice: they cannot be re-derived "
            "(only seeded rolls and revealed sealed rolls can)"
        ],
    )


@pytest.mark.parametrize(
    "dice",
    [
        {"mode": "bogus", "seed": "guard-seed", "nonce": 3},
        {"mode": "SEEDED", "seed": "guard-seed", "nonce": 3},
        {"seed": "guard-seed", "nonce": 3},
        {"mode": "seeded", "seed": "guard-seed"},
        {"mode": "sealed", "client_seed": "ajax"},
        _seeded(nonce=-1),
        _seeded(nonce=True),
        _seeded(nonce="3"),
        _seeded(nonce=3.0),
        "seeded",
        ["seeded", "guard-seed", 3],
    ],
)
def test_dice_naming_no_mode_or_no_whole_nonce_are_no_dice(dice: Any) -> None:
    assert _dice_verdict(_rolled(dice, HONEST)) == (True, False, ["no-dice"], [NO_DICE])


def test_a_nonce_past_2_53_minus_1_is_no_dice() -> None:
    # unsigned: such a number has no RFC 8785 form, so no receipt can sign it
    entry = _entry({"dice": _seeded(nonce=2**53), "rolls": HONEST})
    assert (entry["dice_valid"], entry["codes"][1:], entry["problems"][1:]) == (
        False,
        ["no-dice"],
        [NO_DICE],
    )


@pytest.mark.parametrize(
    ("seed", "nonce", "rolls"),
    [
        ("g", 0, [_roll("1d2", [1]), _roll("1d1000", [609])]),  # nonce 0, 2 and 1000 sides
        ("g" * 256, 2**53 - 1, [_roll("3d6", [1, 5, 2])]),  # the longest seed, the last nonce
    ],
    ids=["smallest", "largest"],
)
def test_the_edges_of_what_the_service_rolls_re_derive(seed: str, nonce: int, rolls: Any) -> None:
    assert _dice_verdict(_rolled(_seeded(seed, nonce), rolls)) == (True, True, [], [])


def _limit(dice: int) -> str:
    return (
        f"the rolls declare {dice} dice, some of more than 1000 sides or fewer than 2, past "
        "what the service rolls (1000 dice a request, 2 to 1000 sides): no answer of this "
        "service"
    )


def test_a_thousand_dice_re_derive_and_one_more_is_past_the_limit() -> None:
    from service.engine.dice import byte_stream, die_from_stream

    stream = byte_stream("guard-seed", 3)  # the engine's dice (not mutated with receipts)
    values = [die_from_stream(stream, 2) for _ in range(1000)]
    rolls = [_roll("600d2", values[:600]), _roll("400d2", values[600:])]
    assert _dice_verdict(_rolled(_seeded(), rolls)) == (True, True, [], [])
    rolls = [_roll("600d2", values[:600]), _roll("401d2", [*values[600:], 1])]
    assert _dice_verdict(_rolled(_seeded(), rolls)) == (True, False, ["limit"], [_limit(1001)])


@pytest.mark.parametrize(("notation", "dice"), [("1d1", 1), ("2d1001", 2), ("1001d6", 1001)])
def test_rolls_past_what_the_service_rolls_are_a_limit(notation: str, dice: int) -> None:
    rolls = [HONEST[0], _roll(notation, [1])]
    assert _dice_verdict(_rolled(_seeded(), rolls)) == (
        True,
        False,
        ["limit"],
        [_limit(dice + 2)],
    )


@pytest.mark.parametrize(
    ("roll", "shown"),
    [
        (_roll("2x6", [2, 1]), '"2x6"'),
        (_roll("0d6", []), '"0d6"'),
        (_roll(26, [2, 1]), "26"),
        ({"values": [2, 1]}, "null"),
        ("2d6", "null"),
        (_roll("2d6é", [2, 1]), '"2d6\\u00e9"'),
        (_roll("d" * 58, [1]), '"' + "d" * 58 + '"'),  # 60 characters quoted: shown whole
        (_roll("d" * 59, [1]), '"' + "d" * 56 + "..."),  # 61: cut to 60 with an ellipsis
    ],
)
def test_a_roll_whose_notation_cannot_be_read_is_named_by_index(roll: Any, shown: str) -> None:
    rolls = [HONEST[0], roll]
    assert _dice_verdict(_rolled(_seeded(), rolls)) == (
        True,
        False,
        ["notation"],
        [f"rolls[1]: cannot read the notation {shown}"],
    )


def _bad_seed(what: str) -> str:
    return (
        f"the {what} is not 1 to 256 characters of Unicode text (a lone surrogate escape has "
        "no UTF-8 form): no answer of this service"
    )


@pytest.mark.parametrize("seed", ["", "g" * 257, 7, None, ["guard-seed"]])
def test_a_seed_the_service_never_takes_is_a_bad_seed(seed: Any) -> None:
    assert _dice_verdict(_rolled(_seeded(seed), HONEST)) == (
        True,
        False,
        ["bad-seed"],
        [_bad_seed("seed")],
    )


def test_a_lone_surrogate_seed_is_a_bad_seed() -> None:
    # no signature: a lone surrogate has no canonical form, so the document cannot be signed
    document = {"dice": _seeded("\ud800"), "rolls": HONEST}
    entry = checking.check_entry(0, document, SIGNING_KEYS, SEALS, NOW)
    assert entry.dice_valid is False
    assert entry.found[1:] == [("bad-seed", _bad_seed("seed"))]


# sealed dice: a token sealed here with SEALS, revealed at NOW


def _sealed_roll(
    *,
    token: Any = _ABSENT,
    client_seed: Any = "ajax",
    commitment: str = SERVER_COMMITMENT,
    values: list[int] | None = None,
) -> Doc:
    if token is _ABSENT:
        token = sealing.seal(SEALS, SERVER_SEED, NOW - 3600, NOW)
    dice = {"mode": "sealed", "commitment": commitment, "client_seed": client_seed, "nonce": 2}
    body: Doc = {"notation": "2d6", "dice": {"client_seed": client_seed, "nonce": 2}}
    if token is not None:
        body["dice"]["sealed"] = token
    return _rolled(dice, [_roll("2d6", values or [6, 4])], body)


def test_sealed_dice_re_derive_from_the_moment_of_the_reveal() -> None:
    assert _dice_verdict(_sealed_roll(), now=NOW) == (True, True, [], [])
    assert _dice_verdict(_sealed_roll(), now=NOW + 1) == (True, True, [], [])


def test_sealed_dice_before_the_reveal_are_not_yet_checkable() -> None:
    assert _dice_verdict(_sealed_roll(), now=NOW - 1) == (
        True,
        None,
        ["sealed-not-yet-checkable"],
        ["sealed until 2026-01-01T00:00:00Z: the dice can be re-derived then"],
    )


def test_sealed_dice_that_are_not_the_seeds_are_a_mismatch() -> None:
    assert _dice_verdict(_sealed_roll(values=[6, 5])) == (
        True,
        False,
        ["dice-mismatch"],
        ['rolls[0] ("x"): the response says [6, 5], the seed and nonce give [6, 4]'],
    )
    # the same dice under another client seed are not that seed's dice
    assert _dice_verdict(_sealed_roll(client_seed="hector"))[1:3] == (False, ["dice-mismatch"])


def test_a_sealed_roll_whose_commitment_is_not_the_tokens_seed_is_refused() -> None:
    other = hashlib.sha256(b"another seed").hexdigest()
    assert _dice_verdict(_sealed_roll(commitment=other)) == (
        True,
        False,
        ["sealed-commitment"],
        ["the sealed seed does not match the commitment"],
    )


@pytest.mark.parametrize("token", [None, 5, ["fcs1.guard.x"]])
def test_a_sealed_roll_whose_request_carries_no_token_is_refused(token: Any) -> None:
    assert _dice_verdict(_sealed_roll(token=token)) == (
        True,
        False,
        ["sealed-token"],
        ["a sealed roll whose request does not carry its token"],
    )


FOREIGN = (
    "this sealed token was not made by this service, or was altered: ask POST /v1/seeds for a "
    "new one"
)


def test_a_sealed_roll_whose_token_is_not_ours_says_why() -> None:
    token = sealing.seal(SEALS, SERVER_SEED, NOW - 3600, NOW)
    elsewhere = sealing.seal(SealKeys("guard", {"guard": bytes(32)}), SERVER_SEED, NOW, NOW)
    for bad in (token[:-2] + ("AA" if token[-2:] != "AA" else "BB"), elsewhere, "fcs1.x"):
        assert _dice_verdict(_sealed_roll(token=bad)) == (True, False, ["sealed-token"], [FOREIGN])
    odd = sealing._seal("guard", SEALS.current, bytes(12), {"seed": "s", "iat": 0})
    assert _dice_verdict(_sealed_roll(token=odd)) == (
        True,
        False,
        ["sealed-token"],
        [
            "this sealed token was not made by this service: it does not hold the seed, iat "
            "and reveal_after members alone; ask POST /v1/seeds for a new one"
        ],
    )


@pytest.mark.parametrize("client_seed", ["", "a" * 257, 3, None])
def test_a_sealed_roll_with_a_client_seed_the_service_never_takes_is_a_bad_seed(
    client_seed: Any,
) -> None:
    assert _dice_verdict(_sealed_roll(client_seed=client_seed)) == (
        True,
        False,
        ["bad-seed"],
        [_bad_seed("client seed")],
    )


# --- one entry as the report shows it ---------------------------------------------------------


@pytest.mark.parametrize("document", [["dice"], None, "receipt", 7])
def test_an_entry_that_is_not_an_object_is_not_a_response(document: Any) -> None:
    assert _entry(document, index=4) == {
        "index": 4,
        "ruleset": None,
        "step": None,
        "signature_valid": False,
        "dice_valid": None,
        "receipt_hash": None,
        "problems": ["not a response document (a JSON object)"],
        "codes": ["not-a-response"],
    }


def test_an_entry_shows_its_receipts_hash_its_ruleset_and_step() -> None:
    document = _rolled(_seeded(), HONEST, ruleset="salvo-solo", step="fire")
    assert _entry(document, index=2) == {
        "index": 2,
        "ruleset": "salvo-solo",
        "step": "fire",
        "signature_valid": True,
        "dice_valid": True,
        "receipt_hash": hashlib.sha256(document["receipt"].encode()).hexdigest(),
        "problems": [],
        "codes": [],
    }


@pytest.mark.parametrize("receipt", [7, None, ["a..b"]])
def test_an_entry_whose_receipt_is_no_text_has_no_hash(receipt: Any) -> None:
    entry = _entry({**_rolled(_seeded(), HONEST), "receipt": receipt})
    assert (entry["receipt_hash"], entry["codes"], entry["dice_valid"]) == (
        None,
        ["no-receipt"],
        True,
    )


@pytest.mark.parametrize(
    ("name", "shown"),
    [("r" * 64, "r" * 64), ("r" * 65, "r" * 64), (5, None), (["fire"], None), ("\udc00", None)],
)
def test_an_entrys_ruleset_and_step_are_shown_cut_to_64_and_only_as_text(
    name: Any, shown: str | None
) -> None:
    entry = _entry({"ruleset": name, "step": name})
    assert (entry["ruleset"], entry["step"]) == (shown, shown)


@pytest.mark.parametrize(
    ("found", "more"), [(5, None), (6, "... and 1 more"), (8, "... and 3 more")]
)
def test_an_entrys_problems_are_capped_at_five(found: int, more: str | None) -> None:
    entry = checking.Entry(0, {})
    for number in range(found):
        entry.add(f"code-{number}", f"problem {number}")
    shown = entry.as_dict()
    kept = min(found, 5)
    assert shown["problems"] == [f"problem {n}" for n in range(kept)] + ([more] if more else [])
    assert shown["codes"] == [f"code-{n}" for n in range(kept)] + (["more"] if more else [])


# --- the limits of a document to verify ---------------------------------------------------------


def test_declared_dice_counts_only_the_notations_it_can_read() -> None:
    rolls = [{"notation": "3d6"}, {"notation": "12d20"}, {"notation": "bad"}, "2d6", {}]
    assert checking.declared_dice({"rolls": rolls}) == 15
    assert checking.declared_dice({"rolls": {"notation": "3d6"}}) == 0
    assert checking.declared_dice({"rolls": [{"notation": 3}]}) == 0
    assert checking.declared_dice([{"notation": "3d6"}]) == 0


def test_a_log_of_100_entries_is_checked_and_101_is_refused_naming_the_limit() -> None:
    assert checking.document_limits([{}] * 100) is None
    refused = checking.document_limits([{}] * 101)
    assert refused is not None and refused.field == "(body)"
    assert refused.detail == (
        "a log to verify holds at most 100 entries, not 101: verify a longer game in parts"
    )


def test_a_document_of_10000_dice_is_checked_and_10001_is_refused_naming_the_limit() -> None:
    ten = [{"rolls": [{"notation": "1000d6"}]}] * 10
    assert checking.document_limits(ten) is None
    refused = checking.document_limits([*ten, {"rolls": [{"notation": "1d6"}]}])
    assert refused is not None and refused.field == "(body)"
    assert refused.detail == (
        "a document to verify holds at most 10000 dice in all, not 10001 "
        "(a request rolls at most 1000 dice of 2 to 1000 sides)"
    )


# --- which seed a log's entry rolls from --------------------------------------------------------


def _log_codes(*documents: Doc) -> tuple[list[str], list[str], bool]:
    """The log checks of these documents, chained by prev (the receipts' hashes stand in)."""
    entries = []
    for index, document in enumerate(documents):
        if index:
            document = {**document, "provenance": {"request": {"body": {"prev": f"h{index - 1}"}}}}
        entries.append(checking.Entry(index, document, receipt_hash=f"h{index}"))
    report = checking.check_log(entries)
    return report["codes"], report["problems"], report["one_seed"]


def _log_roll(dice: Doc) -> Doc:
    return {"dice": dice, "rolls": [_roll("1d6", [1])]}


def test_a_seeded_roll_from_another_seed_is_another_seed() -> None:
    assert _log_codes(
        _log_roll(_seeded("a", 1)), _log_roll(_seeded("a", 2)), _log_roll(_seeded("b", 3))
    ) == (
        ["another-seed"],
        [
            "entry 3 rolls from another seed than the game's first: a roll from another seed "
            "stands in for one of the game's"
        ],
        False,
    )
    assert _log_codes(_log_roll(_seeded("a", 1)), _log_roll(_seeded("a", 2)))[2] is True


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


# --- a sealed token opened: each thing it must hold, refused in its own words ---------------
# The example key is public, so anyone can seal anything: each member is checked on opening.
# Tokens are sealed here under SEALS, straight from the bytes, so each case is one fault.


def _token_of(plain: bytes, keys: SealKeys = SEALS, nonce: bytes = bytes(range(12))) -> str:
    sealed = AESGCM(keys.current).encrypt(nonce, plain, f"fc-sealed-seed-v1.{keys.kid}".encode())
    return f"fcs1.{keys.kid}." + base64.urlsafe_b64encode(nonce + sealed).rstrip(b"=").decode()


def _content_of(**members: Any) -> bytes:
    content = {"seed": "s", "iat": NOW, "reveal_after": NOW, **members}
    return json.dumps({k: v for k, v in content.items() if v is not _ABSENT}).encode()


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
        (_content_of(seed=_ABSENT), MEMBERS_ALONE),
        (_content_of(iat=_ABSENT), MEMBERS_ALONE),
        (_content_of(reveal_after=_ABSENT), MEMBERS_ALONE),
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


# --- the canonical form a receipt signs ------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        "text",
        "",
        True,
        False,
        None,
        0,
        2**53 - 1,
        -(2**53 - 1),
        [],
        {},
        {"b": [1, "x", None, True], "a": {"c": -3}},
        [[{"k": "v"}], "é"],
    ],
)
def test_values_orjson_writes_as_rfc8785_take_the_fast_path(value: Any) -> None:
    assert canonical._plain(value) is True


@pytest.mark.parametrize(
    "value",
    [
        2**53,
        -(2**53),
        1.0,
        [1, 0.5],
        {"a": 1.5},
        {"é": 1},
        {1: "one"},
        {"a": [1, {"b": 2.0}]},
        (1, 2),
        b"bytes",
    ],
)
def test_values_orjson_would_write_otherwise_do_not(value: Any) -> None:
    assert canonical._plain(value) is False


def test_the_canonical_form_sorts_members_and_writes_no_space() -> None:
    value = {"b": 1, "a": [True, None, "é"], "c": {"z": 0, "y": 1}}
    expected = '{"a":[true,null,"é"],"b":1,"c":{"y":1,"z":0}}'.encode()
    assert canonical.canonical_json(value) == expected
    assert canonical.canonical_json(value, fast=False) == expected
    assert canonical.canonical_json({"n": 1.0, "m": 1e21}) == b'{"m":1e+21,"n":1}'


def test_a_plain_value_is_written_by_orjson_without_asking_rfc8785(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fast path is the default: every receipt is signed over such a value."""

    def refuse(value: Any) -> bytes:
        raise AssertionError("rfc8785 asked for a plain value")

    monkeypatch.setattr(rfc8785, "dumps", refuse)  # the module canonical.py calls
    assert canonical.canonical_json({"b": [1, "é"], "a": None}) == '{"a":null,"b":[1,"é"]}'.encode()
    with pytest.raises(AssertionError):
        canonical.canonical_json({"a": 1}, fast=False)


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (float("nan"), "nan is not representable in JCS"),
        ({"a": float("inf")}, "inf is not representable in JCS"),
        (2**60, "1152921504606846976 exceeds safe integer domain for JSON floats"),
        ("\ud800", "str is not valid UTF-8: surrogates not allowed"),
    ],
)
def test_a_value_with_no_canonical_form_says_why(value: Any, reason: str) -> None:
    with pytest.raises(canonical.CanonicalizationError) as caught:
        canonical.canonical_json(value)
    assert str(caught.value) == reason


def test_a_value_nested_past_the_recursion_limit_has_no_canonical_form() -> None:
    value: Any = 1
    for _ in range(100_000):
        value = [value]
    with pytest.raises(canonical.CanonicalizationError) as caught:
        canonical.canonical_json(value)
    assert str(caught.value) == "nested too deep"


# --- where the keys come from: each setting, each refusal in its own words ------------------


def _ed25519(kid: str | None = None, private: bool = True) -> Doc:
    member = keys_module.new_signing_key()
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
    found = keys_module.signing_keys({"keys": [retired, unnamed, later]})
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
    assert keys_module.signing_keys(later).kid == "later"  # a single JWK is a set of one


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
    with pytest.raises(keys_module.KeyConfigError) as caught:
        keys_module.signing_keys({"keys": [first, second]})
    assert str(caught.value) == message


def test_a_signing_set_of_public_keys_only_cannot_sign() -> None:
    with pytest.raises(keys_module.KeyConfigError) as caught:
        keys_module.signing_keys({"keys": [_ed25519("a", private=False)]})
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
    for read, what in [(keys_module.signing_keys, "signing"), (keys_module.seal_keys, "seal")]:
        with pytest.raises(keys_module.KeyConfigError) as caught:
            read(document)
        assert str(caught.value) == message.format(what=what)


def _oct(raw: bytes, kid: str | None = None) -> Doc:
    member = {"kty": "oct", "k": base64.urlsafe_b64encode(raw).rstrip(b"=").decode()}
    return member if kid is None else {**member, "kid": kid}


def test_a_seal_set_seals_with_its_first_key_and_opens_with_every_one() -> None:
    first, unnamed = bytes(range(32)), bytes(range(32, 64))
    found = keys_module.seal_keys({"keys": [_oct(first, "a"), _oct(unnamed)]})
    named = _thumbprint({"k": _oct(unnamed)["k"], "kty": "oct"})[:16]
    assert found == SealKeys("a", {"a": first, named: unnamed})
    assert (
        keys_module.seal_keys(_oct(first)).kid
        == _thumbprint({"k": _oct(first)["k"], "kty": "oct"})[:16]
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
    with pytest.raises(keys_module.KeyConfigError) as caught:
        keys_module.seal_keys({"keys": [_oct(bytes(32), "a"), second]})
    assert str(caught.value) == "seal key 2 is not a 256-bit (oct) key"


def test_a_seal_kid_used_twice_is_named() -> None:
    with pytest.raises(keys_module.KeyConfigError) as caught:
        keys_module.seal_keys({"keys": [_oct(bytes(32), "a"), _oct(bytes(range(32)), "a")]})
    assert str(caught.value) == "seal key 2: kid 'a' is used twice"


def test_a_setting_comes_from_the_config_first_then_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FC_GUARD", "from-env")
    assert keys_module.setting({"FC_GUARD": "from-config"}, "FC_GUARD") == "from-config"
    assert keys_module.setting({"FC_GUARD": 5}, "FC_GUARD") == "5"
    assert keys_module.setting({}, "FC_GUARD") == "from-env"
    assert keys_module.setting({"FC_GUARD": None}, "FC_GUARD") == "from-env"
    assert keys_module.setting({"FC_GUARD": ""}, "FC_GUARD") is None  # set empty: unset
    monkeypatch.setenv("FC_GUARD", "")
    assert keys_module.setting({}, "FC_GUARD") is None
    monkeypatch.delenv("FC_GUARD")
    assert keys_module.setting({"OTHER": "x"}, "FC_GUARD") is None


def test_the_data_folder_is_configured_or_var(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FIRECONTROL_DATA_DIR", raising=False)
    assert keys_module.data_file({}, keys_module.SIGNING) == Path("var/signing-keys.json")
    assert keys_module.data_file({}, keys_module.SEAL) == Path("var/seal-keys.json")
    config = {"FIRECONTROL_DATA_DIR": "/srv/fc"}
    assert keys_module.data_file(config, keys_module.SEAL) == Path("/srv/fc/seal-keys.json")


def test_a_new_key_set_is_made_in_a_private_folder_and_never_over_another(
    tmp_path: Path,
) -> None:
    path = tmp_path / "deep" / "data" / "seal-keys.json"
    keys_module._write_new(path, {"keys": ["first"]})
    assert json.loads(path.read_text(encoding="utf-8")) == {"keys": ["first"]}
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    keys_module._write_new(path, {"keys": ["second"]})  # already there: kept, no error
    assert json.loads(path.read_text(encoding="utf-8")) == {"keys": ["first"]}
    assert [p.name for p in path.parent.iterdir()] == ["seal-keys.json"]
    beside = tmp_path / "signing-keys.json"  # its folder already exists
    keys_module._write_new(beside, {"keys": ["third"]})
    assert json.loads(beside.read_text(encoding="utf-8")) == {"keys": ["third"]}


def test_a_new_key_set_is_written_beside_its_place_then_linked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """os.link is atomic and refuses to replace only within one file system."""
    links = record_moves(monkeypatch, "link")
    path = tmp_path / "keys" / "signing-keys.json"
    keys_module._write_new(path, {"keys": []})
    [(source, target)] = links
    assert target == path and source.parent == path.parent


@pytest.mark.parametrize("kind", [keys_module.SIGNING, keys_module.SEAL])
def test_a_key_set_is_made_on_first_start_in_the_data_folder(tmp_path: Path, kind: str) -> None:
    config = {"FIRECONTROL_DATA_DIR": str(tmp_path / "data")}
    document = keys_module.key_document(config, kind)
    assert json.loads(keys_module.data_file(config, kind).read_text()) == document
    [member] = document["keys"]
    assert member["kty"] == ("OKP" if kind == keys_module.SIGNING else "oct")
    assert keys_module.key_document(config, kind) == document  # made once


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
    seal = keys_module.SEAL
    assert keys_module.key_document({**data, **from_file, **inline}, seal) == {"keys": ["inline"]}
    assert keys_module.key_document({**data, **from_file}, seal) == {"keys": ["from-file"]}
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("kind", [keys_module.SIGNING, keys_module.SEAL])
def test_keys_that_cannot_be_read_say_from_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    for name in (f"FIRECONTROL_{kind}_KEYS", f"FIRECONTROL_{kind}_KEYS_FILE"):
        monkeypatch.delenv(name, raising=False)
    lower = kind.lower()
    form = "Ed25519 (OKP)" if kind == keys_module.SIGNING else "256-bit (oct)"
    remedy = f"give a JSON Web Key Set of {form} keys (python -m service.receipts new {lower} "
    remedy += "prints one)"
    missing = tmp_path / "missing.json"
    with pytest.raises(StartupError) as caught:
        keys_module.key_document({f"FIRECONTROL_{kind}_KEYS_FILE": str(missing)}, kind)
    assert str(caught.value) == (
        f"FIRECONTROL_{kind}_KEYS_FILE: the {lower} keys cannot be read from '{missing}': "
        f"No such file or directory; mount the {lower} key set there, or correct the path"
    )
    assert not missing.exists()  # a configured file is never made
    with pytest.raises(StartupError) as caught:
        keys_module.key_document({f"FIRECONTROL_{kind}_KEYS": "{keys"}, kind)
    assert str(caught.value) == f"FIRECONTROL_{kind}_KEYS: its value is not JSON; {remedy}"
    mounted = tmp_path / "mounted.json"
    mounted.write_text("{keys", encoding="utf-8")
    with pytest.raises(StartupError) as caught:
        keys_module.key_document({f"FIRECONTROL_{kind}_KEYS_FILE": str(mounted)}, kind)
    assert str(caught.value) == f"FIRECONTROL_{kind}_KEYS_FILE: '{mounted}' is not JSON; {remedy}"
    data = tmp_path / "data"
    data.mkdir()
    made = keys_module.data_file({"FIRECONTROL_DATA_DIR": str(data)}, kind)
    made.write_text("{keys")
    with pytest.raises(StartupError) as caught:
        keys_module.key_document({"FIRECONTROL_DATA_DIR": str(data)}, kind)
    assert str(caught.value) == f"FIRECONTROL_DATA_DIR: '{made}' is not JSON; {remedy}"


def test_new_keys_are_whole_and_named_by_their_thumbprint() -> None:
    signing = keys_module.new_signing_key()
    assert set(signing) == {"kty", "crv", "x", "d", "kid"} and signing["crv"] == "Ed25519"
    assert signing["kid"] == _thumbprint({"crv": "Ed25519", "kty": "OKP", "x": signing["x"]})
    seal = keys_module.new_seal_key()
    assert set(seal) == {"kty", "k", "kid"} and seal["kty"] == "oct"
    assert len(base64.urlsafe_b64decode(seal["k"] + "=")) == 32
    assert seal["kid"] == _thumbprint({"k": seal["k"], "kty": "oct"})[:16]


@pytest.mark.parametrize("case", [None, *NOT_ONE_TURN], ids=["one turn", *NOT_ONE_TURN])
def test_the_standalone_verifier_tells_one_turn_as_the_service_does(case: str | None) -> None:
    before, after = pending(), finishing()
    if case is not None:
        which, change = NOT_ONE_TURN[case]
        change(before if which == "before" else after)
    assert tool.finishes_pending_turn(before, after) is finishes_pending_turn(before, after)
