"""The one JSON decoder of request bodies: I-JSON (RFC 7493), so a body means one thing.

Python's ``json`` (and orjson) keep the last of two members with the same name, silently,
while another reader may keep the first: a forged ``"result"`` prepended to a genuine,
signed response would be read one way by a person and the other way by a verifier. RFC
8785, which receipts sign, is defined over I-JSON, which forbids duplicate names. So every
body is decoded here, with an ``object_pairs_hook`` that refuses a repeated name at any
depth, and a body that cannot be decoded (malformed, nested past the decoder's depth, an
integer of more than 4300 digits, a repeated name) is a 400 problem naming the member.

``init_app`` makes this the decoder of Flask's JSON provider (``request.get_json``), and
``service/http/api.py`` has webargs load bodies through ``request.get_json`` too, so a
request is decoded once and the same way by every reader.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask, Request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import BadRequest


class BodyError(ValueError):
    """The body is not an I-JSON text; ``field`` names where (``(body)`` for the whole)."""

    def __init__(self, message: str, field: str = "(body)") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class DuplicateMember(BodyError):
    pass


class _Repeated(Exception):
    pass


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _Repeated
    return found


# Made once: json.loads with a hook builds a new decoder on every call (a few microseconds).
# Bodies are UTF-8 (RFC 8259 section 8.1): other bytes are a 400, not a guess.
_DECODER = json.JSONDecoder(object_pairs_hook=_unique)


class _Pairs(list):  # type: ignore[type-arg]
    """An object kept as its list of members, to find where a name repeats."""


def _where(value: Any, path: tuple[str, ...]) -> tuple[str, ...] | None:
    if isinstance(value, _Pairs):
        seen: set[str] = set()
        for name, item in value:
            if name in seen:
                return (*path, name)
            seen.add(name)
            inner = _where(item, (*path, name))
            if inner is not None:
                return inner
    elif isinstance(value, list):
        for index, item in enumerate(value):
            inner = _where(item, (*path, str(index)))
            if inner is not None:
                return inner
    return None


def _duplicate(text: str | bytes) -> DuplicateMember:
    """The error for a body known to repeat a name: decoded again (only on this rare path)
    keeping every member, to name the first repeated one by its dotted path."""
    try:
        where = _where(json.loads(text, object_pairs_hook=_Pairs), ())
    except (RecursionError, ValueError):  # pragma: no cover - the first pass got this far
        where = None
    field = ".".join(where) if where else "(body)"
    named = f" {where[-1]!r}" if where else ""
    return DuplicateMember(
        f"Duplicate member name{named}: an object names it twice. Request bodies are I-JSON "
        "(RFC 7493): each name at most once in an object.",
        field,
    )


def loads(text: str | bytes) -> Any:
    """``json.loads`` that refuses a repeated member name; every failure is a BodyError."""
    try:
        return _DECODER.decode(text if isinstance(text, str) else text.decode("utf-8"))
    except _Repeated:
        raise _duplicate(text) from None
    except RecursionError:
        raise BodyError("Invalid JSON body: nested too deep.") from None
    except ValueError as error:  # malformed, not UTF-8, or an integer of over 4300 digits
        raise BodyError(f"Invalid JSON body: {_reason(error)}") from None


def _reason(error: ValueError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} (line {error.lineno}, column {error.colno})."
    if isinstance(error, UnicodeDecodeError):
        return "the body is not UTF-8 text."
    return "a number too long."


class IJsonProvider(DefaultJSONProvider):
    """Flask's JSON provider, decoding with ``loads`` above (encoding is Flask's own)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)


class MalformedBody(BadRequest):
    """A 400 whose ``data`` the problem handler (service/http/api.py) turns into ``errors``."""

    def __init__(self, error: BodyError) -> None:
        super().__init__(error.message)
        self.data = {"messages": {error.field: [error.message]}, "message": error.message}


class IJsonRequest(Request):
    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        if isinstance(e, BodyError):
            raise MalformedBody(e)
        return super().on_json_loading_failed(e)


def init_app(app: Flask) -> None:
    app.json = IJsonProvider(app)
    app.json.sort_keys = False
    app.request_class = IJsonRequest
