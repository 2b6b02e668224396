"""The canonical JSON a receipt signs is RFC 8785, byte for byte, fast path or not."""

from __future__ import annotations

import datetime as dt
import enum
import json
import marshal
import struct
from dataclasses import dataclass
from typing import Any

import orjson
import pytest
import rfc8785
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from service.receipts.canonical import (
    CanonicalizationError,
    _marshal_not_finite,
    _plain,
    _written,
    canonical_json,
)


@dataclass
class Ship:
    name: str


def fast_bytes(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def both(value: Any) -> None:
    try:
        expected = rfc8785.dumps(value)
    except (rfc8785.CanonicalizationError, UnicodeEncodeError):
        with pytest.raises(CanonicalizationError):
            canonical_json(value)
        return
    assert canonical_json(value) == expected
    assert canonical_json(value, fast=False) == expected


scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**60), max_value=2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
    | st.sampled_from(["Nürnburg", "\x7f", "\x1f", "\u2028", '"\\', "\U0001f600", "\ue000"])
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(values)
def test_any_json_value_gives_the_rfc8785_bytes(value: Any) -> None:
    both(value)


@pytest.mark.parametrize(
    "value",
    [
        1.0,
        {"p": 0.1},
        1e21,
        {"é": 1, "e": 2},
        {"\ue000": 1, "\U0001f600": 2},
        2**53,
        -(2**53),
    ],
    ids=["integral-float", "float", "big-float", "accented-key", "astral-key", "2^53", "-2^53"],
)
def test_values_where_plain_json_differs_take_the_slow_path(value: Any) -> None:
    assert not _plain(value)
    both(value)


def test_plain_json_would_be_wrong_for_those_values() -> None:
    """Why the fast path must step aside: sorted-key json.dumps is not RFC 8785 here."""
    assert fast_bytes(1.0) != rfc8785.dumps(1.0)
    astral = {"\ue000": 1, "\U0001f600": 2}
    assert fast_bytes(astral) != rfc8785.dumps(astral)  # UTF-16 order, not code points


def every_example(app: Flask) -> list[tuple[str, dict[str, Any]]]:
    client = app.test_client()
    document = client.get("/openapi.json").get_json()
    answers = []
    for path, item in document["paths"].items():
        post = item.get("post")
        if post:
            example = post["requestBody"]["content"]["application/json"]["example"]
            response = client.post(path, json=example)
            assert response.status_code == 200, (path, response.get_json())
            answers.append((path, response.get_json()))
    return answers


def test_every_real_response_gives_the_rfc8785_bytes(app: Flask) -> None:
    answers = every_example(app)
    signed = [body for _, body in answers if "receipt" in body]
    assert len(signed) >= 10
    for path, body in answers:
        content = {name: value for name, value in body.items() if name != "receipt"}
        assert canonical_json(content) == rfc8785.dumps(content), path
    # Most resolutions are only integers, strings and booleans: they take the fast path.
    # Some carry floats (a 13.5-inch calibre, an Elo expectation): those took rfc8785 above.
    # The advisor's answer carries chances as floats: it is the one salvo-solo exception.
    solo = [
        body
        for path, body in answers
        if "/salvo-solo/" in path and "receipt" in body and not path.endswith("/advice")
    ]
    assert solo and all(_plain(body) for body in solo)
    assert sum(map(_plain, signed)) >= len(signed) // 2
    # Odds carry floats (p): they would not, and are not signed anyway.
    odds = [body for path, body in answers if path.endswith("/odds")]
    assert odds and not any(_plain(body) for body in odds)


def test_a_response_with_text_beyond_ascii_and_a_float_in_its_request(app: Flask) -> None:
    body = {"notation": "2d8+1d10", "dice": {"seed": "Nürnburg ⚓ 🚢", "nonce": 3.0}}
    saved = app.test_client().post("/v1/dice/roll", json=body).get_json()
    content = {name: value for name, value in saved.items() if name != "receipt"}
    assert not _plain(content)
    assert canonical_json(content) == rfc8785.dumps(content)
    del content["provenance"]["request"]["body"]["dice"]["nonce"]
    assert _plain(content)
    assert canonical_json(content) == rfc8785.dumps(content) == fast_bytes(content)


plain_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet=st.characters(max_codepoint=127)), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(plain_values)
def test_the_fast_path_itself_writes_the_rfc8785_bytes(value: Any) -> None:
    try:
        expected = rfc8785.dumps(value)
    except (rfc8785.CanonicalizationError, UnicodeEncodeError):
        return  # a lone surrogate: covered above
    assert _plain(value)
    assert canonical_json(value) == expected


@settings(max_examples=400, deadline=None)
@given(
    st.recursive(
        scalars
        | st.floats()
        | st.sampled_from(["a,1.5", ":2e5", "[3.", "09:30:00Z", "3e5f"])
        | st.integers(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=20,
    )
)
def test_what_orjson_writes_is_taken_only_when_it_is_the_rfc8785_bytes(value: Any) -> None:
    """NaN, infinities, integers of any size and text that looks like a number included."""
    written = _written(value)
    if written is not None:
        assert written == rfc8785.dumps(value)
    both(value)


@pytest.mark.parametrize(
    "value",
    [
        1.0,
        -0.0,
        [1, 2, 1e16],
        {"a": [1, {"b": 2.0}]},
        {"a": None, "p": float("nan")},
        [None, float("inf")],
        {"é": 1},
        {"name": "Nürnburg"},
        2**53,
        {"a": [-(2**53)]},
        {"when": dt.date(2026, 12, 2)},
        {"ship": Ship("Ajax")},
        {"looks": "a,1.0"},
        ["x", ":2e+5"],
        ["x", ",-3e-5", "+"],
    ],
    ids=[
        "integral-float",
        "negative-zero",
        "float-written-in-full",
        "integral-float-deep",
        "nan-beside-null",
        "infinity-beside-null",
        "accented-key",
        "accented-text",
        "2^53",
        "-2^53-in-list",
        "date",
        "dataclass",
        "text-like-an-integral-float",
        "text-like-an-exponent",
        "text-like-a-negative-exponent",
    ],
)
def test_output_that_may_not_be_canonical_is_checked_member_by_member(value: Any) -> None:
    assert _written(value) is None
    both(value)


@pytest.mark.parametrize(
    "value",
    [
        {"roll_next": None, "total": 12, "label": "straddle"},
        {"issued_at": "2026-11-30T09:30:00Z", "prev": "3e5f0a", "nonce": 9007199254740991},
        [[], {}, "", 0, -7, True, False],
        {"note": "Roll 2. Then 3 hits. Range 10.", "v": "v1.4", "at": "-2.5", "n": [10, -3]},
        ["e+", "1e", "x1e+5", "0. 5", ".5"],
        {"range": 12.5, "calibre": 13.5, "expected_score": 0.3125, "roll": None},
        [-0.5, [1, 2, 3e-9], {"a": None, "p": 0.25}, 1e21, 5e-324, 1.5e-7, -1e300, 0.1],
        {"looks": "a,1.5", "and": ":01.5", "huge": "[1e400", "dots": ",1.1.1.1"},
        {"signs": "+", "at-the-end": "2e+", "lone": "e-", "after-a-word": "fire-e-2", "n": -1},
    ],
)
def test_plain_output_is_taken_as_orjson_writes_it(value: Any) -> None:
    assert _written(value) == rfc8785.dumps(value) == canonical_json(value)


@settings(max_examples=1000, deadline=None)
@given(
    st.lists(
        st.floats(allow_nan=False, allow_infinity=False)
        | st.floats(min_value=-1e6, max_value=1e6).map(lambda f: round(f, 3))
        | st.none(),
        min_size=1,
        max_size=6,
    )
)
def test_floats_take_the_fast_path_exactly_when_orjson_writes_them_canonically(
    value: list[float | None],
) -> None:
    """Every float orjson writes as RFC 8785 does is taken as written; any other is not."""
    canonical = rfc8785.dumps(value)
    assert _written(value) == (canonical if orjson.dumps(value) == canonical else None)
    assert canonical_json(value) == canonical


NOT_FINITE = {
    "nan": float("nan"),
    "negative-nan": -float("nan"),
    "nan-with-a-payload": struct.unpack(">d", bytes.fromhex("7ff0000000000001"))[0],
    "negative-nan-with-a-payload": struct.unpack(">d", bytes.fromhex("fff8dead0000beef"))[0],
    "infinity": float("inf"),
    "negative-infinity": -float("inf"),
}


@pytest.mark.parametrize("shape", ["member", "deep", "repeated", "among-plain-floats"])
@pytest.mark.parametrize("name", NOT_FINITE)
def test_no_nan_or_infinity_hides_behind_the_null_orjson_writes(name: str, shape: str) -> None:
    """orjson writes NaN and the infinities as ``null``: beside a real null, anywhere in the
    value, they are still found, and the value has no canonical form."""
    bad = NOT_FINITE[name]
    value: Any = {
        "member": {"a": None, "p": bad},
        "deep": {"roll": None, "rolls": [{"values": [1, 2, [None, {"p": bad}]]}]},
        "repeated": [None, bad, bad, {"q": bad}],
        "among-plain-floats": {"a": None, "p": [0.5, bad, -1e300]},
    }[shape]
    assert _written(value) is None
    with pytest.raises(CanonicalizationError):
        canonical_json(value)


class Colour(enum.Enum):
    RED = "red"


def test_a_value_marshal_refuses_is_searched_by_its_pickle() -> None:
    """orjson writes an enum as its value, and marshal refuses it: its pickle is searched
    instead, and a NaN beside it is still found."""
    value = {"roll": None, "colour": Colour.RED}
    assert _written(value) == b'{"colour":"red","roll":null}'
    assert _written({**value, "p": float("nan")}) is None


@pytest.mark.parametrize(
    "number",
    # Integers that, before -4096, marshal to the bytes a non-finite float is written as: a
    # float's type byte ("g", or "\xe7" for one referred to again), six bytes, "\xff\xff".
    [int.from_bytes(b"g\x01\x02\x03", "little"), int.from_bytes(b"\xe7\x00\x00\x00", "little")],
)
def test_an_integer_that_marshals_like_an_infinity_is_still_taken_as_written(number: int) -> None:
    value = {"roll": None, "n": [None, number, -4096]}
    # the read-back decides, and takes it
    assert _marshal_not_finite(marshal.dumps(value, 4))
    assert _written(value) == rfc8785.dumps(value) == canonical_json(value)


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
    assert _plain(value) is True


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
    assert _plain(value) is False


def test_the_canonical_form_sorts_members_and_writes_no_space() -> None:
    value = {"b": 1, "a": [True, None, "é"], "c": {"z": 0, "y": 1}}
    expected = '{"a":[true,null,"é"],"b":1,"c":{"y":1,"z":0}}'.encode()
    assert canonical_json(value) == expected
    assert canonical_json(value, fast=False) == expected
    assert canonical_json({"n": 1.0, "m": 1e21}) == b'{"m":1e+21,"n":1}'


def test_a_plain_value_is_written_by_orjson_without_asking_rfc8785(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fast path is the default: every receipt is signed over such a value."""

    def refuse(value: Any) -> bytes:
        raise AssertionError("rfc8785 asked for a plain value")

    monkeypatch.setattr(rfc8785, "dumps", refuse)  # the module canonical.py calls
    assert canonical_json({"b": [1, "é"], "a": None}) == '{"a":null,"b":[1,"é"]}'.encode()
    with pytest.raises(AssertionError):
        canonical_json({"a": 1}, fast=False)


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
    with pytest.raises(CanonicalizationError) as caught:
        canonical_json(value)
    assert str(caught.value) == reason


def test_a_value_nested_past_the_recursion_limit_has_no_canonical_form() -> None:
    value: Any = 1
    for _ in range(100_000):
        value = [value]
    with pytest.raises(CanonicalizationError) as caught:
        canonical_json(value)
    assert str(caught.value) == "nested too deep"


@pytest.mark.parametrize(
    "value",
    [
        {"moved": 10.0, "ship": "A1"},
        [1.0, -0.0, 2.0**53 - 1, -(2.0**53 - 1), 0.5],
        {"deep": [{"calibre": 12.0, "p": 0.25}]},
    ],
    ids=["echoed-move", "integral-floats", "integral-float-deep"],
)
def test_integral_floats_are_written_by_orjson_as_rfc8785_writes_them(
    value: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An answer echoing ``10.0`` gets the RFC 8785 bytes without ``rfc8785`` writing them
    (ten times slower): the integral float goes out as the integer it equals."""
    expected = rfc8785.dumps(value)
    dumps = rfc8785.dumps

    def number_only(written: Any) -> bytes:
        # A float's own text is asked of rfc8785 (``_canonical_number``); never the value.
        assert type(written) is float, "rfc8785 asked to write the value"
        return dumps(written)

    monkeypatch.setattr(rfc8785, "dumps", number_only)
    assert canonical_json(value) == expected


def test_an_integral_float_past_the_safe_range_is_still_written_by_rfc8785() -> None:
    value = {"big": 2.0**60}
    assert canonical_json(value) == rfc8785.dumps(value) == b'{"big":1152921504606847000}'
