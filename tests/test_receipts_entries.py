"""One entry of a log, checked alone: its signature, its dice, and how the report shows it.

The documents are signed here with a key made here and checked by check_signature and
check_entry directly: each test makes one fault happen and reads the code and words it gets.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import typing
from collections.abc import Callable
from typing import Any

import pytest

from service.receipts import checking, sealing
from service.receipts.answers import EntryCode
from service.receipts.keys import SealKeys, new_signing_key, signing_keys
from service.receipts.signing import Signer, check_signature
from tests.receipts_helpers import (
    ABSENT,
    NOW,
    SEALS,
    Doc,
    drop_at,
    roll_of,
    seeded_dice,
    set_at,
)

# --- a receipt's signature: each way it fails, its code and words ---------------------------
# Each test below makes one of check_signature's refusals happen on a document signed here,
# with a key made here.

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
        set_at("result.total", 5),
        set_at("provenance.issued_at", "2026-01-01T00:00:01Z"),
        set_at("provenance.request.path", "/v1/rulesets/salvo-solo/fire"),
        set_at("step", "fire"),
        set_at("extra", None),
        drop_at("ruleset"),
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
# Documents signed here (so only the dice speak) and checked by check_entry directly, with no
# app and no request: each case is one fault in one entry's dice.

SERVER_SEED = "Server-Seed_1"
SERVER_COMMITMENT = "99f68f1b30a23a99379ca9aaae52d90b7765ca106360d1bfb87f5376acc0bb93"
NO_DICE = "`dice` names no seeded, sealed or supplied dice with a nonce"
ROLLS_MISSING = "`rolls` is missing: there are no dice to re-derive"


def _rolled(dice: Any = ABSENT, rolls: Any = ABSENT, body: Any = None, **members: Any) -> Doc:
    """A document signed by SIGNER holding these dice and rolls (a member left out when
    ABSENT), its request body ``body``."""
    document: Doc = {"ruleset": None, "step": "roll", **members}
    if dice is not ABSENT:
        document["dice"] = dice
    if rolls is not ABSENT:
        document["rolls"] = rolls
    document["provenance"] = SIGNER.provenance("/v1/dice/roll", body, now=NOW)
    return SIGNER.sign(document)


def _entry(document: Any, now: int = NOW, index: int = 0) -> Doc:
    return dict(checking.check_entry(index, document, SIGNING_KEYS, SEALS, now).as_dict())


def _dice_verdict(document: Any, now: int = NOW) -> tuple[bool, bool | None, list[str], list[str]]:
    entry = _entry(document, now)
    return entry["signature_valid"], entry["dice_valid"], entry["codes"], entry["problems"]


HONEST = [roll_of("2d6", [2, 1], "fire"), roll_of("1d20", [4], "d20")]  # guard-seed, nonce 3


def test_honest_seeded_dice_re_derive() -> None:
    assert _dice_verdict(_rolled(seeded_dice(), HONEST)) == (True, True, [], [])


def test_a_document_without_dice_or_rolls_has_no_dice_to_check() -> None:
    """The answer that sealed a seed, a manoeuvre: dice_valid null (nothing to prove), and
    no problem."""
    assert _dice_verdict(_rolled()) == (True, None, [], [])
    assert _dice_verdict(_rolled(None, None)) == (True, None, [], [])


def test_rolls_without_dice_name_no_dice() -> None:
    assert _dice_verdict(_rolled(rolls=HONEST)) == (True, False, ["no-dice"], [NO_DICE])


@pytest.mark.parametrize("rolls", [ABSENT, None, {"0": HONEST[0]}, "2d6"])
def test_seeded_dice_without_a_list_of_rolls_are_rolls_missing(rolls: Any) -> None:
    assert _dice_verdict(_rolled(seeded_dice(), rolls)) == (
        True,
        False,
        ["rolls-missing"],
        [ROLLS_MISSING],
    )


@pytest.mark.parametrize("nonce", [None, 1, ABSENT])
def test_supplied_dice_are_named_and_neither_valid_nor_invalid(nonce: Any) -> None:
    dice: Doc = {"mode": "supplied", "values": [2, 1]}
    if nonce is not ABSENT:
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
        seeded_dice(nonce=-1),
        seeded_dice(nonce=True),
        seeded_dice(nonce="3"),
        seeded_dice(nonce=3.0),
        "seeded",
        ["seeded", "guard-seed", 3],
    ],
)
def test_dice_naming_no_mode_or_no_whole_nonce_are_no_dice(dice: Any) -> None:
    assert _dice_verdict(_rolled(dice, HONEST)) == (True, False, ["no-dice"], [NO_DICE])


def test_a_nonce_past_2_53_minus_1_is_no_dice() -> None:
    # unsigned: such a number has no RFC 8785 form, so no receipt can sign it
    entry = _entry({"dice": seeded_dice(nonce=2**53), "rolls": HONEST})
    assert (entry["dice_valid"], entry["codes"][1:], entry["problems"][1:]) == (
        False,
        ["no-dice"],
        [NO_DICE],
    )


@pytest.mark.parametrize(
    ("seed", "nonce", "rolls"),
    [
        ("g", 0, [roll_of("1d2", [1]), roll_of("1d1000", [609])]),  # nonce 0, 2 and 1000 sides
        ("g" * 256, 2**53 - 1, [roll_of("3d6", [1, 5, 2])]),  # the longest seed, the last nonce
    ],
    ids=["smallest", "largest"],
)
def test_the_edges_of_what_the_service_rolls_re_derive(seed: str, nonce: int, rolls: Any) -> None:
    assert _dice_verdict(_rolled(seeded_dice(seed, nonce), rolls)) == (True, True, [], [])


def _limit(dice: int) -> str:
    return (
        f"the rolls declare {dice} dice, some of more than 1000 sides or fewer than 2, past "
        "what the service rolls (1000 dice a request, 2 to 1000 sides): no answer of this "
        "service"
    )


def test_a_thousand_dice_re_derive_and_one_more_is_past_the_limit() -> None:
    from service.engine.dice import byte_stream, die_from_stream

    stream = byte_stream("guard-seed", 3)  # the engine's own dice, as the service rolls them
    values = [die_from_stream(stream, 2) for _ in range(1000)]
    rolls = [roll_of("600d2", values[:600]), roll_of("400d2", values[600:])]
    assert _dice_verdict(_rolled(seeded_dice(), rolls)) == (True, True, [], [])
    rolls = [roll_of("600d2", values[:600]), roll_of("401d2", [*values[600:], 1])]
    assert _dice_verdict(_rolled(seeded_dice(), rolls)) == (True, False, ["limit"], [_limit(1001)])


@pytest.mark.parametrize(("notation", "dice"), [("1d1", 1), ("2d1001", 2), ("1001d6", 1001)])
def test_rolls_past_what_the_service_rolls_are_a_limit(notation: str, dice: int) -> None:
    rolls = [HONEST[0], roll_of(notation, [1])]
    assert _dice_verdict(_rolled(seeded_dice(), rolls)) == (
        True,
        False,
        ["limit"],
        [_limit(dice + 2)],
    )


@pytest.mark.parametrize(
    ("roll", "shown"),
    [
        (roll_of("2x6", [2, 1]), '"2x6"'),
        (roll_of("0d6", []), '"0d6"'),
        (roll_of(26, [2, 1]), "26"),
        ({"values": [2, 1]}, "null"),
        ("2d6", "null"),
        (roll_of("2d6é", [2, 1]), '"2d6\\u00e9"'),
        (roll_of("d" * 58, [1]), '"' + "d" * 58 + '"'),  # 60 characters quoted: shown whole
        (roll_of("d" * 59, [1]), '"' + "d" * 56 + "..."),  # 61: cut to 60 with an ellipsis
    ],
)
def test_a_roll_whose_notation_cannot_be_read_is_named_by_index(roll: Any, shown: str) -> None:
    rolls = [HONEST[0], roll]
    assert _dice_verdict(_rolled(seeded_dice(), rolls)) == (
        True,
        False,
        ["notation"],
        [f"rolls[1]: cannot read the notation {shown}"],
    )


@pytest.mark.parametrize(
    "notation", ["1d6", "1d6\n", "1234567d1234567", "1234567d1234567\n", "12345678d1234567"]
)
def test_a_notation_is_read_by_its_pattern_however_long(notation: str) -> None:
    """Read once and remembered, or read afresh past the length a notation can have: as the
    pattern reads it (its ``$`` lets a final line end through), and again the same."""
    match = checking.NOTATION.match(notation)
    expected = (int(match.group(1)), int(match.group(2))) if match else None
    assert checking.read_notation(notation) == expected
    assert checking.read_notation(notation) == expected
    assert checking.declared_dice({"rolls": [{"notation": notation}] * 2}) == (
        2 * expected[0] if expected else 0
    )


def _bad_seed(what: str) -> str:
    return (
        f"the {what} is not 1 to 256 characters of Unicode text (a lone surrogate escape has "
        "no UTF-8 form): no answer of this service"
    )


@pytest.mark.parametrize("seed", ["", "g" * 257, 7, None, ["guard-seed"]])
def test_a_seed_the_service_never_takes_is_a_bad_seed(seed: Any) -> None:
    assert _dice_verdict(_rolled(seeded_dice(seed), HONEST)) == (
        True,
        False,
        ["bad-seed"],
        [_bad_seed("seed")],
    )


def test_a_lone_surrogate_seed_is_a_bad_seed() -> None:
    # no signature: a lone surrogate has no canonical form, so the document cannot be signed
    document = {"dice": seeded_dice("\ud800"), "rolls": HONEST}
    entry = checking.check_entry(0, document, SIGNING_KEYS, SEALS, NOW)
    assert entry.dice_valid is False
    assert entry.found[1:] == [("bad-seed", _bad_seed("seed"))]


# sealed dice: a token sealed here with SEALS, revealed at NOW


def _sealed_roll(
    *,
    token: Any = ABSENT,
    client_seed: Any = "ajax",
    commitment: str = SERVER_COMMITMENT,
    values: list[int] | None = None,
) -> Doc:
    if token is ABSENT:
        token = sealing.seal(SEALS, SERVER_SEED, NOW - 3600, NOW)
    dice = {"mode": "sealed", "commitment": commitment, "client_seed": client_seed, "nonce": 2}
    body: Doc = {"notation": "2d6", "dice": {"client_seed": client_seed, "nonce": 2}}
    if token is not None:
        body["dice"]["sealed"] = token
    return _rolled(dice, [roll_of("2d6", values or [6, 4])], body)


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
    document = _rolled(seeded_dice(), HONEST, ruleset="salvo-solo", step="fire")
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
    entry = _entry({**_rolled(seeded_dice(), HONEST), "receipt": receipt})
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
    # Real codes, each of the fixed set an entry's problem is named by.
    codes = [code for code in typing.get_args(typing.get_args(EntryCode)[0]) if code != "more"]
    for number in range(found):
        entry.add(codes[number], f"problem {number}")
    shown = entry.as_dict()
    kept = min(found, 5)
    assert shown["problems"] == [f"problem {n}" for n in range(kept)] + ([more] if more else [])
    assert shown["codes"] == codes[:kept] + (["more"] if more else [])
