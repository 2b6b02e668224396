"""The verifier cannot be fooled and is bounded; request bodies are I-JSON.

Each test is an attack or an input that passed (or answered 500) before.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from service import create_app
from service.http.fast.jsonbody import MAX_BODY_OBJECTS
from service.receipts import checking
from tests.receipts_helpers import (
    GAME_SEED,
    SOLO,
    TURN,
    Doc,
    play,
    play_next,
    receipt_hash,
    verify,
    verify_dice,
)

VERIFY = "/v1/receipts/verify"


@pytest.fixture()
def game_app(tmp_path: Path) -> Flask:
    return create_app({"TESTING": True, "FIRECONTROL_DATA_DIR": str(tmp_path / "data")})


@pytest.fixture()
def game_client(game_app: Flask) -> FlaskClient:
    return game_app.test_client()


def post_text(client: FlaskClient, path: str, text: str) -> Any:
    return client.post(path, data=text, content_type="application/json")


# --- I-JSON: a member named twice is refused everywhere ------------------------------------


def post_paths(client: FlaskClient) -> list[str]:
    spec = client.get("/openapi.json").get_json()
    paths = [path for path, item in spec["paths"].items() if "post" in item]
    assert len(paths) > 20
    return paths


def test_every_endpoint_refuses_a_member_named_twice(game_client: FlaskClient) -> None:
    for path in post_paths(game_client):
        path = path.replace("{ruleset}", "salvo-solo")
        answer = post_text(game_client, path, '{"dice": {"seed": "a", "seed": "b"}, "x": 1}')
        body = answer.get_json()
        assert answer.status_code == 400, (path, body)
        assert body["type"] == "/problems#malformed-request"
        assert body["errors"][0]["field"] == "dice.seed", path
        assert "'seed'" in body["errors"][0]["message"]


def test_the_forged_prefix_on_a_genuine_response_is_refused(game_client: FlaskClient) -> None:
    genuine = play(game_client)[3]
    text = json.dumps(genuine)
    forged = '{"result": {"straddle": true}, "rolls": [], ' + text[1:]
    answer = post_text(game_client, VERIFY, forged)
    assert answer.status_code == 400
    assert answer.get_json()["errors"][0]["field"] == "result"
    in_a_log = post_text(game_client, VERIFY, f"[{text}, {forged}]")
    assert in_a_log.get_json()["errors"][0]["field"] == "1.result"


@pytest.mark.parametrize(
    "text",
    # Deep lists: as deep in objects, the body opens more objects than its size allows,
    # refused before it is read (tests/test_refusals.py).
    [
        '{"a":' + "[" * 5000 + "1" + "]" * 5000 + "}",
        '{"a": ' + "9" * 5000 + "}",
        '{"a": 1,}',
        '{"a": "\xff"}',
    ],
    ids=["deep", "huge-integer", "malformed", "not-utf8"],
)
def test_undecodable_bodies_are_a_400_everywhere(game_client: FlaskClient, text: str) -> None:
    for path in (VERIFY, f"{SOLO}/fire", "/v1/seeds", "/v1/dice/roll"):
        data = text.encode("latin-1")
        answer = game_client.post(path, data=data, content_type="application/json")
        assert answer.status_code == 400, (path, answer.get_data(as_text=True))
        assert answer.get_json()["type"] == "/problems#malformed-request"


# --- bounded ------------------------------------------------------------------------------


def test_the_25_kb_attack_is_refused_cheaply_naming_the_limit(game_client: FlaskClient) -> None:
    body = {
        "rolls": [{"notation": "9999d9999"}] * 1000,
        "dice": {"mode": "seeded", "seed": "s", "nonce": 1},
        "receipt": "a..b",
    }
    answer = game_client.post(VERIFY, json=body)
    assert answer.status_code == 422
    assert len(answer.get_data()) < 1000
    detail = answer.get_json()["detail"]
    assert f"at most {checking.MAX_DOCUMENT_DICE} dice in all, not 9999000" in detail


def test_rolls_past_the_services_limits_are_reported_not_rederived(
    game_client: FlaskClient,
) -> None:
    for notation in ("1001d6", "2d1001", "1d1"):
        document = {
            "rolls": [{"notation": notation, "values": [1]}],
            "dice": {"mode": "seeded", "seed": "s", "nonce": 1},
        }
        entry = verify(game_client, document)["entries"][0]
        assert entry["codes"] == ["no-receipt", "limit"], notation
        assert entry["dice_valid"] is False


def test_a_log_has_at_most_so_many_entries(game_client: FlaskClient) -> None:
    answer = game_client.post(VERIFY, json=[{}] * (checking.MAX_LOG_ENTRIES + 1))
    assert answer.status_code == 422
    assert f"at most {checking.MAX_LOG_ENTRIES} entries" in answer.get_json()["detail"]


def test_problem_lists_are_capped_and_the_answer_stays_small(game_client: FlaskClient) -> None:
    values = list(range(7, 207))
    rolls = [{"label": "x" * 500, "notation": "1d6", "values": values}] * 40
    document = {"rolls": rolls, "dice": {"mode": "seeded", "seed": "s", "nonce": 1}}
    entry = verify(game_client, document)["entries"][0]
    assert len(entry["problems"]) == checking.MAX_ENTRY_PROBLEMS + 1
    assert entry["problems"][-1] == "... and 36 more"
    assert entry["codes"][-1] == "more"
    assert max(len(problem) for problem in entry["problems"]) < 300
    log = [{"provenance": {"request": {"body": {"prev": "0" * 64}}}}] * checking.MAX_LOG_ENTRIES
    answer = game_client.post(VERIFY, json=log)
    report = answer.get_json()["log"]
    assert len(report["problems"]) == checking.MAX_LOG_PROBLEMS + 1
    assert report["problems"][-1] == f"... and {checking.MAX_LOG_ENTRIES - 20} more"
    assert len(answer.get_data()) < 64 * 1024


def test_a_log_with_a_lone_surrogate_is_not_text_and_is_refused(game_client: FlaskClient) -> None:
    """I-JSON strings are Unicode text: the verifier is not asked to read what no service
    could have written; the 400 names the first member that holds one."""
    text = '{"rolls": [{"notation": "1d6", "values": [1]}], "ruleset": "\\udc00", '
    text += '"dice": {"mode": "seeded", "seed": "\\ud800", "nonce": 1}, "receipt": "\\ud800"}'
    answer = post_text(game_client, VERIFY, f"[{text}]")
    assert answer.status_code == 400
    assert answer.get_json()["errors"][0]["field"] == "0.ruleset"


# The limits of a document to verify, read by checking.document_limits itself.


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


# --- fooled no more ---------------------------------------------------------------------------


def roll(client: FlaskClient, dice: dict[str, Any], before: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"notation": "2d6", "dice": dice}
    if before is not None:
        body["prev"] = receipt_hash(before)
    answer = client.post("/v1/dice/roll", json=body)
    assert answer.status_code == 200
    result: dict[str, Any] = answer.get_json()
    return result


def test_supplied_dice_in_a_seeded_game_count_unless_the_referee_accepts_them(
    game_client: FlaskClient,
) -> None:
    first = roll(game_client, {"seed": GAME_SEED, "nonce": 1})
    table = roll(game_client, {"values": [6, 6]}, first)
    last = roll(game_client, {"seed": GAME_SEED, "nonce": 2}, table)
    report = verify(game_client, [first, table, last])
    assert report["valid"] is False
    assert report["log"]["codes"] == ["supplied-dice"]
    assert report["log"]["supplied_entries"] == 1
    accepted = game_client.post(f"{VERIFY}?accept_supplied=true", json=[first, table, last])
    assert accepted.get_json()["valid"] is True
    assert accepted.get_json()["log"]["supplied_entries"] == 1
    assert accepted.get_json()["log"]["accept_supplied"] is True


def test_a_log_with_its_head_cut_off_is_reported(game_client: FlaskClient) -> None:
    log = play(game_client)
    report = verify(game_client, log[2:])
    assert report["valid"] is False
    assert report["log"]["starts_at_beginning"] is False
    assert report["log"]["codes"] == ["cut-head", "cut-head"]
    late = play(game_client, seed="late", first_nonce=5)[:1]  # no prev, but nonce 5
    assert verify(game_client, late)["log"]["codes"] == ["cut-head"]


def test_the_answer_says_where_the_log_ends(game_client: FlaskClient) -> None:
    log = play(game_client)
    end = verify(game_client, log[:4])["log"]["ends_with"]
    assert end == {"index": 3, "receipt_hash": receipt_hash(log[3]), "nonce": 4}


@pytest.mark.parametrize("named_seed", [False, True], ids=["no-dice", "game-seed"])
def test_a_step_that_rolls_nothing_keeps_the_game_whole(
    game_client: FlaskClient, named_seed: bool
) -> None:
    log = play(game_client)[:3]
    body: dict[str, Any] = {"range": "Long", "player_action": "C", "enemy_action": "OB"}
    if named_seed:
        body["dice"] = {"seed": GAME_SEED, "nonce": 4}
    moved = game_client.post(
        f"{SOLO}/maneuver", json={**body, "prev": receipt_hash(log[-1])}
    ).get_json()
    assert moved["rolls"] == []
    nonce = 5 if named_seed else 4
    fire = {**TURN[3][1], "dice": {"seed": GAME_SEED, "nonce": nonce}, "prev": receipt_hash(moved)}
    after = game_client.post(f"{SOLO}/fire", json=fire).get_json()
    report = verify(game_client, [*log, moved, after])
    assert report["valid"] is True, report["log"]
    assert report["log"]["one_seed"] is True and report["log"]["nonces_consecutive"] is True


def test_the_limits_and_accept_supplied_are_documented(game_client: FlaskClient) -> None:
    operation = game_client.get("/openapi.json").get_json()["paths"][VERIFY]["post"]
    described = operation["description"]
    assert f"at most {checking.MAX_LOG_ENTRIES} entries" in described
    assert f"{checking.MAX_DOCUMENT_DICE} dice in a whole document" in described
    assert any(p["name"] == "accept_supplied" for p in operation["parameters"])
    docs = (Path(__file__).resolve().parent.parent / "docs" / "verifiable-rolls.md").read_text()
    assert f"at most\n{checking.MAX_LOG_ENTRIES} entries" in docs or (
        f"at most {checking.MAX_LOG_ENTRIES} entries" in docs
    )
    assert f"{checking.MAX_DOCUMENT_DICE} dice in all" in docs
    assert "a cut-off head" in docs and "cut at its tail passes every check" in docs


# --- a nonce's dice, once shown, are shown once ---------------------------------------------
# A step that rolls nothing (a maneuver) may carry the game's seed and a nonce; the next roll
# may then use that nonce or the next. But a maneuver under the nonce of the roll before it
# made the next roll's repeat of that nonce pass: the same dice shown twice, unflagged (now
# flagged by all three verifiers).

MANEUVER = {"range": "Long", "player_action": "C", "enemy_action": "OB"}


def _both_verdicts(client: FlaskClient, log: list[Doc]) -> tuple[Doc, Doc]:
    """The log part of POST /v1/receipts/verify's answer and of tools/verify_dice.py's."""
    service = verify(client, log)
    keys = verify_dice.load_keys(client.get("/.well-known/jwks.json").get_json())
    standalone = verify_dice.check(json.loads(json.dumps(log)), keys)
    assert (service["valid"], service["verdict"]) == (standalone["valid"], standalone["verdict"])
    return service["log"], standalone["log"]


def test_a_roll_replayed_behind_a_step_that_rolled_nothing_is_a_repeated_nonce(
    client: FlaskClient,
) -> None:
    log = play(client)[:4]  # nonces 1 to 4; the fire at 4
    play_next(client, log, "maneuver", MANEUVER, 4)  # rolls nothing, under the fire's nonce
    play_next(client, log, "fire", TURN[3][1], 4)  # the fire's dice again
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
    play_next(client, log, "maneuver", MANEUVER, maneuver)
    play_next(client, log, "fire", TURN[3][1], fire)
    for report in _both_verdicts(client, log):
        assert report["codes"] == []
        assert report["nonces_consecutive"] is True


def test_a_roll_going_back_to_an_earlier_nonce_breaks_the_nonces(client: FlaskClient) -> None:
    """Nonces 1 to 4, then a fire under nonce 2: an earlier nonce's dice used again, with no
    gap before it to give it away. nonces_consecutive is false (not merely falsy) and the
    log is not valid."""
    log = play(client)[:4]
    play_next(client, log, "fire", TURN[3][1], 2)
    report = verify(client, log)
    assert report["valid"] is False
    assert report["log"]["codes"] == ["nonce-back"]
    assert report["log"]["problems"] == ["entry 5 goes back from nonce 4 to 2"]
    assert report["log"]["nonces_consecutive"] is False
    assert [e["dice_valid"] for e in report["entries"]] == [True] * 5
    standalone = verify_dice.check(json.loads(json.dumps(log)))
    assert standalone["valid"] is False and standalone["log"]["codes"] == ["nonce-back"]


def test_missing_nonces_are_counted_in_words(client: FlaskClient) -> None:
    """One nonce missing is named; several are given as a range, first to last."""
    one = play(client)[:3]
    play_next(client, one, "fire", TURN[3][1], 5)
    several = play(client)[:3]
    play_next(client, several, "fire", TURN[3][1], 7)
    for log, words in [
        (one, "entry 4: nonce 4 is missing before it"),
        (several, "entry 4: nonces 4 to 6 are missing before it"),
    ]:
        report = verify(client, log)["log"]
        assert (report["codes"], report["problems"]) == (["nonce-gap"], [words])
        assert report["nonces_consecutive"] is False
        assert verify_dice.check(json.loads(json.dumps(log)))["log"]["problems"] == [words]


def test_a_log_whose_first_entry_points_back_does_not_start_the_game(client: FlaskClient) -> None:
    """The game began with a step that rolled nothing; the log handed over leaves it out, so
    its first entry carries a prev though its roll is nonce 1: the head was cut, and nothing
    else gives it away. starts_at_beginning is false (not merely falsy), the log invalid."""
    opening = client.post(f"{SOLO}/maneuver", json=MANEUVER).get_json()
    log = [opening]
    for nonce, (step, inputs) in enumerate(TURN[:3], start=1):
        play_next(client, log, step, inputs, nonce)
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
    standalone = verify_dice.check(json.loads(json.dumps(log)))["log"]
    assert (standalone["codes"], standalone["chain_unbroken"]) == (["chain-restart"], False)


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?",
        "?&",
        "?accept_supplied=true",
        "?accept_supplied=1&other=2",
        "?accept_supplied=true&accept_supplied=false",
        "?accept_supplied=",
        "?accept_supplied=maybe",
        "?other=yes",
    ],
)
def test_the_query_is_read_as_the_documented_arguments_read_it(game_app: Flask, query: str) -> None:
    """The verify view takes its query as flask-smorest's ``arguments`` would hand it (the
    parser with a fresh schema each call): the same arguments, or the same 422."""
    from flask_smorest import Blueprint
    from werkzeug.exceptions import UnprocessableEntity

    from service.http.endpoints.verify import VerifyQuerySchema, verify_query

    def read(load: Any) -> Any:
        with game_app.test_request_context(f"{VERIFY}{query}", method="POST"):
            try:
                return load()
            except UnprocessableEntity as refused:
                return refused.data["messages"]  # type: ignore[attr-defined]

    documented = read(lambda: Blueprint.ARGUMENTS_PARSER.parse(VerifyQuerySchema, location="query"))
    assert read(verify_query) == documented
    answer = game_app.test_client().post(f"{VERIFY}{query}", json={"receipt": "x"})
    if "accept_supplied" in documented:
        assert answer.status_code == 200
        assert answer.get_json()["valid"] is False
    else:
        assert answer.status_code == 422
        assert answer.get_json()["errors"] == [
            {"field": "query.accept_supplied", "message": "Not a valid boolean."}
        ]


# --- orjson's reading of a body, held to the decoder's -------------------------------------


def _same(first: Any, second: Any) -> bool:
    """Equal as values and as types (1, 1.0 and True apart; -0.0 apart from 0.0)."""
    if type(first) is not type(second):
        return False
    if isinstance(first, dict):
        return list(first) == list(second) and all(_same(first[k], second[k]) for k in first)
    if isinstance(first, list):
        return len(first) == len(second) and all(map(_same, first, second))
    if isinstance(first, float):
        return repr(first) == repr(second)
    return bool(first == second)


def _held_to_the_decoder(text: bytes) -> bool:
    """Whether orjson's reading was taken; when it was, it is the decoder's, whichever way
    a request or another reader decodes the body."""
    from service.http.fast import jsonbody

    taken = False
    for bounded, decoder in ((True, jsonbody._REQUEST_DECODER), (False, jsonbody._DECODER)):
        fast = jsonbody._read_by_orjson(text, bounded)
        if fast is jsonbody.UNPROVEN:
            continue
        taken = True
        assert _same(fast, jsonbody.decoded(text, decoder)), text[:200]
    return taken


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(codec="utf-8"), max_size=8)
    | st.sampled_from(["a:b", ":", '"', "\\", "\u00e9", "\U0001f600"])
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["a", "b", "c:", ":", "\u00e9"]), inner, max_size=4)
    ),
    max_leaves=20,
)


def _written(value: Any, style: int, twice: bool) -> str:
    """JSON text of ``value`` in one of several styles, maybe with the first member of
    every object given twice (once with another value)."""
    if isinstance(value, dict):
        members = [
            f"{json.dumps(k, ensure_ascii=style % 2 == 0)}: {_written(v, style, twice)}"
            for k, v in value.items()
        ]
        if twice and value:
            members.append(f"{json.dumps(next(iter(value)))}: 0")
        return "{" + ", ".join(members) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_written(item, style, twice) for item in value) + "]"
    return json.dumps(value, ensure_ascii=style % 2 == 0)


@settings(max_examples=400, deadline=None)
@given(value=_VALUES, style=st.integers(0, 3), twice=st.booleans())
def test_orjsons_reading_is_taken_only_as_the_decoder_reads(
    value: Any, style: int, twice: bool
) -> None:
    text = _written(value, style, twice)
    if style >= 2:
        text = text.replace(":", "\\u003a", 1) if '"' in text else text
    _held_to_the_decoder(text.encode())


@pytest.mark.parametrize(
    ("text", "taken"),
    [
        (b'{"a": 1, "b": [1, 2.5, -0.0, "x:y"], "c": {"d": null}}', True),
        (b'{"a": 1, "a": 2}', False),
        (b'{"a": {"b": 1, "b": 2}}', False),
        (b'{"a": 1, "a": 2, "\\u003a": 3}', False),  # an escaped colon for the dropped one
        (b'{"a:": 1, "a:": 2}', False),
        (b"[9223372036854775807, -9223372036854775808, 18446744073709551615]", False),
        (b"[18446744073709551616]", False),
        (b"[-9223372036854775809]", False),
        (b"[123456789012345678]", True),
        (b"[1234567890123456789]", False),
        (b"[-1234567890123456789.5]", False),
        (b"[0.12345678901234567890]", False),
        # 19 digits in a string are text, not a number: a hash in hex holds such runs
        (b'{"prev": "089142986945405072783b01"}', True),
        (rb'["1234567890123456789", "a\\"]', True),
        (rb'["a\\\"1", 1234567890123456789]', False),
        (rb'["\\", 1234567890123456789]', False),
        (rb'{"1234567890123456789": "\u00e9"}', True),
        # a run after a colon or a blank may be a number: the strings are emptied to see
        (b'{"h": "ab:1234567890123456789"}', True),
        (b"[ 1234567890123456789]", False),
        (b'{"a":\n1234567890123456789}', False),
        (b"[1e400]", False),
        (b"[NaN]", False),
        (b'["\\ud800"]', False),
        (b'["\\ud83d\\ude00"]', True),
        (b"\xef\xbb\xbf{}", False),
        (b'{"a": "\xff"}', False),
        (b"[" * 100 + b"]" * 100, True),
        (b"[" * 101 + b"]" * 101, False),
        (b"[" * 300 + b"]" * 300, False),
        (b'{"a":' * 99 + b"{}" + b"}" * 99, True),
        (json.dumps({f"x{i}": 0 for i in range(256)}).encode(), True),
        (json.dumps({f"x{i}": 0 for i in range(257)}).encode(), False),
        (json.dumps({"a": {f"x{i}": [i] for i in range(257)}}).encode(), False),
        # the shortest texts with 256 and 257 members, either side of the walk's threshold
        (b"[" + b"0," * 255 + b"0]", True),
        # a list of any length is taken, as the decoder takes it: only objects are bounded
        (b"[" + b"0," * 256 + b"0]", True),
        (b"[[" + b"0," * 256 + b"0]]", True),
        # a level of objects and strings only is measured whole: a long string is no object
        (json.dumps([{"a": 0}] * 600 + ["x" * 300]).encode(), True),
        (json.dumps(["x" * 300, {f"x{i}": 0 for i in range(257)}]).encode(), False),
        (json.dumps([0, {f"x{i}": 0 for i in range(257)}]).encode(), False),
        (json.dumps([[{}] * 300] * 2).encode(), True),
        (b"5", True),
        (b'"a"', True),
        (b"[]", True),
        (b"", False),
        (b"[1,]", False),
    ],
)
def test_orjsons_reading_of_edge_bodies(text: bytes, taken: bool) -> None:
    from service.http.fast import jsonbody

    assert (jsonbody._read_by_orjson(text, True) is not jsonbody.UNPROVEN) is taken
    _held_to_the_decoder(text)


def test_orjsons_reading_of_a_game_log_is_taken(game_client: FlaskClient) -> None:
    log = play(game_client)
    for text in (json.dumps(log), json.dumps(log, separators=(",", ":"))):
        assert _held_to_the_decoder(text.encode())
    answer = post_text(game_client, VERIFY, json.dumps(log))
    assert answer.status_code == 200 and answer.get_json()["valid"] is True


# --- the work of a whole log, counted off its bytes before any of it is done ---------------


def _verify_bytes(client: FlaskClient, body: bytes) -> Any:
    return client.post("/v1/receipts/verify", data=body, content_type="application/json")


@pytest.mark.parametrize(
    "body",
    [
        b"[" + b",".join([b"0"] * 500_000) + b"]",
        b"{" + b",".join(b'"%05x":0' % i for i in range(95_000)) + b"}",
        b"[" + b",".join([b'{"a":[' + b",".join([b"1"] * 3000) + b"]}"] * 100) + b"]",
    ],
    ids=["a-million-bytes-of-zeros", "one-object-of-95000-members", "100-entries-of-ones"],
)
def test_a_body_too_dear_to_check_is_refused_naming_the_work_and_the_split(
    client: FlaskClient, body: bytes
) -> None:
    answer = _verify_bytes(client, body)
    problem = answer.get_json()
    assert answer.status_code == 422, problem
    assert problem["type"].endswith("#limit")
    assert problem["errors"][0]["field"] == "(body)"
    assert "would take more work than one request may do" in problem["detail"]
    assert "verify the game in parts" in problem["detail"]
    assert "docs/verifiable-rolls.md, Checkpoints" in problem["detail"]
    assert len(answer.get_data()) <= 16 * 1024


def test_a_crowded_object_within_the_work_is_refused_as_the_decoder_refuses_it(
    client: FlaskClient,
) -> None:
    body = json.dumps([{f"x{i}": 0 for i in range(300)}]).encode()
    problem = _verify_bytes(client, body).get_json()
    assert problem["status"] == 422 and problem["type"].endswith("#limit")
    assert "at most 256 members, not 300" in problem["detail"]


def test_a_log_of_65000_empty_entries_is_refused_off_its_bytes(client: FlaskClient) -> None:
    """The route takes 1 MiB but no more than MAX_BODY_OBJECTS objects: 65,000 empty entries
    are refused before they are read, naming that limit; as many as it allows are read and
    refused for the log's length."""
    problem = _verify_bytes(client, b"[" + b",".join([b"{}"] * 65_000) + b"]").get_json()
    assert problem["status"] == 422 and problem["type"].endswith("#limit"), problem
    assert f"{MAX_BODY_OBJECTS} at most), not 65000" in problem["detail"]
    most = b"[" + b",".join([b"{}"] * MAX_BODY_OBJECTS) + b"]"
    problem = _verify_bytes(client, most).get_json()
    assert f"a log to verify holds at most 100 entries, not {MAX_BODY_OBJECTS}" in problem["detail"]


def test_a_long_log_with_an_entry_not_an_object_is_refused_for_its_shape_first(
    client: FlaskClient,
) -> None:
    problem = _verify_bytes(client, json.dumps([{}] * 200 + [5]).encode()).get_json()
    assert problem["status"] == 422 and problem["type"].endswith("#validation"), problem
    assert problem["errors"] == [
        {"field": "(body)", "message": "Must be an object or a list of objects."}
    ]


def test_a_long_list_is_read_by_orjson_as_the_decoder_reads_it() -> None:
    from service.http.fast import jsonbody

    text = b'[{"values": [' + b",".join([b"6"] * 1000) + b"]}]"
    assert jsonbody._read_by_orjson(text, True) == jsonbody.decoded(text) != jsonbody.UNPROVEN


def test_a_game_log_within_the_work_is_checked(game_client: FlaskClient) -> None:
    log = play(game_client)
    report = _verify_bytes(game_client, json.dumps(log).encode()).get_json()
    assert report["valid"] is True, report
