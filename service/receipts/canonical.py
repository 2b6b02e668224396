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
``null``, the value's marshal (or pickle) is searched for the bytes such a float is
written as, and a value whose bytes have them is read back and compared with the value (C
code all), which a NaN or an infinity never equals. Output that fails a test is checked the
slow way, member by member, as before.
tests/test_receipts_canonical.py proves the two agree byte for byte.
"""

from __future__ import annotations

import functools
import marshal
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
# How orjson writes a float: digits, then a mark (``.``, ``e+`` or ``e-``), each found by
# the search named with it, the fastest over an answer's text: a lone byte is looked for
# at memory speed, and a ``+`` is rare where an ``e`` is not; ``-`` is common (dates,
# names), so ``e-`` is looked for whole. A value starts after the bytes of _VALUE_START.
_MARK_SEARCHES = ((b".", b"."), (b"+", b"e+"), (b"e-", b"e-"))
_DIGITS = frozenset(b"0123456789")
_MINUS = ord("-")
_VALUE_START = frozenset(b":[,")
# A JSON number, as far as its grammar reads (a real one ends where this match does).
_NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


# What marshal writes for a float (version 2 and later): TYPE_BINARY_FLOAT (``g``, or
# ``\xe7`` with the flag of an object referred to again), then its IEEE 754 bytes,
# little-endian; and pickle (protocol 2 and later): BINFLOAT (``G``), then the bytes
# big-endian. A NaN or an infinity has every exponent bit set: a sign byte of 0x7f or 0xff
# next to one whose high four bits are set. Nothing can hide a false negative here (every
# float object is written so), and other bytes that spell these merely send the value to
# the read-back below. Each pattern starts with one byte, which the regex engine skips
# ahead to: one pattern for both type bytes, starting with a set of bytes, is tried at
# every position, and took longer than the read-back it saves.
_NOT_FINITE_AFTER_TYPE = rb".{6}[\xf0-\xff][\x7f\xff]"  # the float's bytes, little-endian
_MARSHAL_FLOAT_NOT_FINITE, _MARSHAL_REFERRED_NOT_FINITE = (
    re.compile(re.escape(kind) + _NOT_FINITE_AFTER_TYPE, re.DOTALL) for kind in (b"g", b"\xe7")
)
_PICKLE_NOT_FINITE = re.compile(rb"G[\x7f\xff][\xf0-\xff]")


def _marshal_not_finite(data: bytes) -> bool:
    """Whether marshal's ``data`` may hold a NaN or an infinity (never False where it does)."""
    return (
        _MARSHAL_FLOAT_NOT_FINITE.search(data) is not None
        or _MARSHAL_REFERRED_NOT_FINITE.search(data) is not None
    )


def _finite(value: Any, written: bytes) -> bool:
    """False if ``value`` holds NaN or an infinity, which orjson writes as ``null``.

    Output without ``null`` holds neither; otherwise the value's marshal (C code: with the
    search, a half to nine tenths of the cost of reading the output back, and half that of
    its pickle, which keeps a memo of every string) is searched for the bytes a non-finite
    float is written as; a value marshal refuses (an enum, which orjson writes as its
    value) is pickled and searched so. Only a value whose bytes have them, or that neither
    writes, is read back and compared with the value (``None`` equals no float)."""
    if b"null" not in written:
        return True
    try:
        if not _marshal_not_finite(marshal.dumps(value, 4)):
            return True
    except ValueError:  # a type marshal does not write
        try:
            if not _PICKLE_NOT_FINITE.search(pickle.dumps(value, 5)):
                return True
        except (pickle.PicklingError, TypeError, ValueError, RecursionError):
            pass  # not a plain value: the read-back decides
    except RecursionError:
        pass
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
    after the digits it starts with: each mark is found by a byte search (an answer holds
    few), one that is not right after a digit (a ``.`` ending a sentence) is passed over,
    and the digits before it say where the
    number starts (a float only if its digits start a value, not text such as ``"v1.4"``).
    The number there, as far as JSON's number grammar reads, must be written the canonical
    way. Text that merely looks like a number (``"a,1.5"``) is checked the same way:
    harmless when it passes, the slow path when not."""
    for searched, mark in _MARK_SEARCHES:
        found = written.find(searched)
        while found != -1:
            at = found + len(searched) - len(mark)  # where the mark would start
            start = at  # after the digits before the mark, if any: where do they start?
            while start > 0 and written[start - 1] in _DIGITS:
                start -= 1
            if start != at and written.startswith(mark, at):
                if start and written[start - 1] == _MINUS:
                    start -= 1
                if not start or written[start - 1] in _VALUE_START:
                    number = _NUMBER.match(written, start)
                    if number is None or not _canonical_number(number.group()):
                        return False
            found = written.find(searched, found + 1)
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


def _whole_floats_as_ints(value: Any) -> Any:
    """``value`` with every integral float within the safe range as the int it equals.

    RFC 8785 writes a number by its value: ``10.0`` and ``10`` alike as ``10`` (for an
    integral float within 2^53, the shortest digits that read back, padded with zeros, are
    its integer's digits; ``-0.0`` is ``0``), where orjson writes the float ``10.0``. An
    answer that echoes one such float (a fleet-action ship ``moved`` 10.0) would otherwise
    be written whole by ``rfc8785``, ten times slower; with them as ints, orjson's output
    is taken or refused by the same tests as any other value's."""
    kind = type(value)
    if kind is dict:
        return {name: _whole_floats_as_ints(item) for name, item in value.items()}
    if kind is list:
        return [_whole_floats_as_ints(item) for item in value]
    if kind is float and value.is_integer() and -SAFE_INTEGER <= value <= SAFE_INTEGER:
        return int(value)
    return value


def _written_whole(value: Any) -> bytes | None:
    """``_written`` of ``value`` with its integral floats as ints (the same RFC 8785 bytes)."""
    try:
        return _written(_whole_floats_as_ints(value))
    except RecursionError:
        return None


def canonical_json(value: Any, *, fast: bool = True) -> bytes:
    """The RFC 8785 bytes of ``value``; ``fast=False`` always asks ``rfc8785``."""
    if fast:
        written = _written(value)
        if written is None:
            written = _written_whole(value)
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
