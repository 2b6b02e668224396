"""RFC 9457 problem details: the one place every client error is shaped."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from marshmallow import Schema, fields

PROBLEM_TYPE_PREFIX = "/problems#"
PROBLEM_MIMETYPE = "application/problem+json"


class FieldErrorSchema(Schema):
    field = fields.String(required=True, metadata={"description": "Dotted path of the member"})
    message = fields.String(required=True)


class ProblemSchema(Schema):
    """A problem details object (RFC 9457)."""

    type = fields.String(required=True, metadata={"description": "Problem type (a URI reference)"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    errors = fields.List(fields.Nested(FieldErrorSchema), required=True)


def flatten(messages: Any, prefix: str = "") -> list[dict[str, str]]:
    """marshmallow's nested error messages as a flat list of (field, message)."""
    out: list[dict[str, str]] = []
    if isinstance(messages, dict):
        for key, inner in messages.items():
            name = str(key) if key != "_schema" else ""
            path = f"{prefix}.{name}" if prefix and name else (name or prefix)
            out.extend(flatten(inner, path))
    elif isinstance(messages, list):
        for item in messages:
            out.extend(flatten(item, prefix))
    else:
        out.append({"field": prefix or "(body)", "message": str(messages)})
    return out


def problem(
    status: int,
    kind: str,
    title: str,
    detail: str,
    errors: list[dict[str, str]] | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    body = {
        "type": PROBLEM_TYPE_PREFIX + kind,
        "title": title,
        "status": status,
        "detail": detail,
        "errors": errors or [],
    }
    try:
        payload = orjson.dumps(body)
    except TypeError:
        # A lone surrogate escape ("\ud800") is valid JSON but no Unicode text, and a field
        # name can echo it: answer with U+FFFD in its place rather than fail.
        payload = orjson.dumps(_scrub(body))
    response = Response(payload, status=status, mimetype=PROBLEM_MIMETYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _scrub(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, dict):
        return {_scrub(k): _scrub(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    return value
