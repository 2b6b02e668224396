"""RFC 8785 (JSON Canonicalization Scheme) bytes of a JSON value: what a receipt signs.

``rfc8785`` is the reference; for values made only of strings, integers within the
IEEE 754 safe range, booleans, null, lists and objects with ASCII keys, orjson with sorted
keys writes the very same bytes (compact, UTF-8, the same string escapes) some thirty
times faster. Any other value (a float, a non-ASCII key, a huge integer) goes to
``rfc8785``.
tests/test_receipts_canonical.py proves the two agree byte for byte.
"""

from __future__ import annotations

from typing import Any

import orjson
import rfc8785

SAFE_INTEGER = 2**53 - 1


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


def canonical_json(value: Any, *, fast: bool = True) -> bytes:
    """The RFC 8785 bytes of ``value``; ``fast=False`` always asks ``rfc8785``."""
    try:
        if fast and _plain(value):
            return _dumps(value)
        return rfc8785.dumps(value)
    except (rfc8785.CanonicalizationError, UnicodeEncodeError, TypeError) as error:
        # orjson.JSONEncodeError is a TypeError: a lone surrogate lands here too.
        raise CanonicalizationError(str(error)) from error
    except RecursionError:
        raise CanonicalizationError("nested too deep") from None
