"""RFC 9457 problem details: the one place every client error is shaped. No ``from
__future__ import annotations``: the schema reads the types at run time."""

from typing import Annotated, Any, TypedDict

import orjson
from flask import Flask, Response

from ...engine.errors import RuleError
from ...engine.typed import Doc, Limits
from ..document.derive import result_schema

PROBLEM_TYPE_PREFIX = "/problems#"
PROBLEM_MIMETYPE = "application/problem+json"
# A refusal stays small whatever the body held: `errors` lists at most this many members and
# `detail` quotes the first few of them, then says how many there were in all.
MAX_FIELD_ERRORS = 20
DETAIL_QUOTES = 3


class FieldError(TypedDict):
    field: Annotated[str, Doc("Dotted path of the member")]
    message: str


class Problem(TypedDict):
    """A problem details object (RFC 9457)."""

    type: Annotated[str, Doc("Problem type (a URI reference)")]
    title: str
    status: int
    detail: str
    errors: Annotated[
        list[FieldError],
        Limits(most=MAX_FIELD_ERRORS),
        Doc(
            f"The bad members, at most {MAX_FIELD_ERRORS}; `detail` says how many there were "
            "when there were more"
        ),
    ]


ProblemSchema = result_schema(Problem)


def flatten(messages: Any, prefix: str = "") -> list[FieldError]:
    """marshmallow's nested error messages as a flat list of (field, message)."""
    out: list[FieldError] = []
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


def schema_problem_detail(errors: list[FieldError]) -> str:
    """The ``detail`` of a body that does not match the schema: the first few errors, and
    how many there were when ``errors`` lists only the first ``MAX_FIELD_ERRORS``."""
    quoted = "; ".join(f"{e['field']}: {e['message']}" for e in errors[:DETAIL_QUOTES])
    detail = f"The request does not match the schema: {quoted}"
    more = len(errors) - DETAIL_QUOTES
    if more > 0:
        listed = min(len(errors), MAX_FIELD_ERRORS)
        detail += f"; and {more} more ({len(errors)} in all, `errors` lists {listed})"
    return detail


def problem(
    status: int,
    kind: str,
    title: str,
    detail: str,
    errors: list[FieldError] | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    body: Problem = {
        "type": PROBLEM_TYPE_PREFIX + kind,
        "title": title,
        "status": status,
        "detail": detail,
        "errors": (errors or [])[:MAX_FIELD_ERRORS],
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


def init_app(app: Flask) -> None:
    """A rule the request breaks (``RuleError``) answers 422, a problem naming the field."""

    @app.errorhandler(RuleError)
    def rule_error(error: RuleError) -> Response:
        errors: list[FieldError] = (
            [{"field": error.field, "message": error.detail}] if error.field else []
        )
        return problem(422, error.kind, error.title, error.detail, errors)
