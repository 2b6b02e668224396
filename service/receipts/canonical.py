"""RFC 8785 (JSON Canonicalization Scheme) bytes of a JSON value: what a receipt signs.

``rfc8785`` is the reference. orjson with sorted keys writes the very same bytes (compact,
UTF-8, the same string escapes) some thirty times faster for values made of strings,
integers within the IEEE 754 safe range, booleans, null, lists, objects with ASCII keys,
and floats that orjson writes as RFC 8785 does (``12.5``, ``0.25``, ``3e-9``: both write
the shortest digits that read back as the float, but RFC 8785 writes ``1.0`` as ``1`` and
``1e16`` in full). Any other value (such a float, a non-ASCII key, a huge integer) goes to
``rfc8785``.

Which way a value goes is read off orjson's own output, without a walk of the value in
Python: orjson refuses an integer past the safe range (``OPT_STRICT_INTEGER``) and every
type that is not JSON's own (dataclasses, dates and subclasses are passed through to a
refusal); output that is all ASCII has ASCII keys; a float always writes a ``.`` or an
``e`` right after the digits that start a value (``0.5``, ``1e-7``), so each float is
found in the output and its text compared with what ``rfc8785`` writes for it (once per
distinct text); and orjson writes NaN and the infinities as ``null``: for output with a
``null``, the value's pickle is searched for the bytes such a float pickles to, and a
value whose pickle has them is read back and compared with the value (C code all), which
a NaN or an infinity never equals. Output that fails a test is checked the slow way,
member by member, as before.
tests/test_receipts_canonical.py proves the two agree byte for byte.
"""

from __future__ import annotations

import functools
import pickle
import re
from typing import Any

import orjson
import rfc8785

SAFE_INTEGER = 2**53 - 1
_STRICT = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_STRICT_INTEGER
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)
# How orjson writes a float: digits, then one of these; a value starts after these bytes.
_FLOAT_MARKS = (b".", b"e+", b"e-")
_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_ZERO = ord("0")
_DIGIT_THEN_MARK = tuple(b"0" + mark for mark in _FLOAT_MARKS)
_MINUS = ord("-")
_VALUE_START = frozenset(b":[,")
# A JSON number, as far as its grammar reads (a real one ends where this match does).
_NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_PICKLE = 5


# What pickle writes for a float (protocol 2 and later): BINFLOAT, then its IEEE 754 bytes,
# big-endian. A NaN or an infinity has every exponent bit set: a first byte of 0x7f or 0xff
# (the sign), and a second whose high four bits are set. Text cannot hide a false negative
# here (every float is written so), and a string that spells these bytes merely sends the
# value to the read-back below.
_NOT_FINITE = re.compile(rb"G[\x7f\xff][\xf0-\xff]")


def _finite(value: Any, written: bytes) -> bool:
    """False if ``value`` holds NaN or an infinity, which orjson writes as ``null``.

    Output without ``null`` holds neither; otherwise the value's pickle (C code, about half
    the cost of reading the output back) is searched for the bytes a non-finite float is
    written as, and only a value whose pickle has them is read back and compared with the
    value (``None`` equals no float)."""
    if b"null" not in written:
        return True
    try:
        if not _NOT_FINITE.search(pickle.dumps(value, _PICKLE)):
            return True
    except (pickle.PicklingError, TypeError, ValueError, RecursionError):
        pass  # not a plain value: the read-back decides
    return bool(orjson.loads(written) == value)


@functools.lru_cache(maxsize=1024)
def _canonical_number(token: bytes) -> bool:
    """True if ``token``, a number as orjson writes it, is also how RFC 8785 writes that
    number (``12.5``, ``3e-9``; not ``1.0``, ``-0.0`` or ``1e+16``). orjson writes the
    shortest digits that read back as the float, so the float the token reads as is the
    value's own, and ``rfc8785`` decides how that float is written."""
    try:
        return rfc8785.dumps(float(token)) == token
    except (ValueError, rfc8785.CanonicalizationError):
        return False  # not a number after all: text that looks like one


def _floats_canonical(written: bytes) -> bool:
    """True if every float in orjson's output is written as RFC 8785 writes it. orjson
    writes every finite float with a ``.`` or an exponent (``1e+21``, ``5e-324``) right
    after the digits it starts with: with every digit written as ``0`` (one C pass), each
    mark right after a digit is found by a byte search (a ``.`` ending a sentence is not),
    and the bytes right before it say where the number starts (a float only if its digits
    start a value, not text such as ``"v1.4"``). The number there, as far as JSON's number
    grammar reads, must be written the canonical way. Text that merely looks like a number
    (``"a,1.5"``) is checked the same way: harmless when it passes, the slow path when not."""
    zeros = written.translate(_AS_ZERO)
    for found in _DIGIT_THEN_MARK:
        at = zeros.find(found)
        while at != -1:
            start = at  # the last digit before the mark: where does the number start?
            while start and zeros[start - 1] == _ZERO:
                start -= 1
            if start and zeros[start - 1] == _MINUS:
                start -= 1
            if not start or zeros[start - 1] in _VALUE_START:
                number = _NUMBER.match(written, start)
                if number is None or not _canonical_number(number.group()):
                    return False
            at = zeros.find(found, at + 1)
    return True


def _dumps(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


class CanonicalizationError(ValueError):
    """The value has no RFC 8785 form (NaN, an integer past 2^53, text that is not Unicode)."""


def _plain(value: Any) -> bool:
    """True when orjson's sorted output is already canonical for this value.

    Every signed answer walks its whole document here: an object's strings, booleans,
    null and integers (most of an answer) are checked where they are found, without a
    call each.
    """
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str or not key.isascii():
                return False
            inner = type(item)
            if inner is str or inner is bool or item is None:
                continue
            if inner is int:
                if not -SAFE_INTEGER <= item <= SAFE_INTEGER:
                    return False
                continue
            if not _plain(item):
                return False
        return True
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return bool(-SAFE_INTEGER <= value <= SAFE_INTEGER)
    if kind is list:
        return all(_plain(item) for item in value)
    return False


def _written(value: Any) -> bytes | None:
    """orjson's sorted bytes of ``value`` when they are its RFC 8785 form, read off the
    output (see above); None when the value must be checked member by member."""
    try:
        written = orjson.dumps(value, option=_STRICT)
    except TypeError:  # orjson.JSONEncodeError: a huge integer, a foreign type, a surrogate
        return None
    if written.isascii() and _floats_canonical(written) and _finite(value, written):
        return written
    return None


def canonical_json(value: Any, *, fast: bool = True) -> bytes:
    """The RFC 8785 bytes of ``value``; ``fast=False`` always asks ``rfc8785``."""
    if fast:
        written = _written(value)
        if written is not None:
            return written
    try:
        if fast and _plain(value):
            return _dumps(value)
        return rfc8785.dumps(value)
    except (rfc8785.CanonicalizationError, UnicodeEncodeError, TypeError) as error:
        # orjson.JSONEncodeError is a TypeError: a lone surrogate lands here too.
        raise CanonicalizationError(str(error)) from error
    except RecursionError:
        raise CanonicalizationError("nested too deep") from None
