"""flask-smorest's Api, made to speak RFC 9457 problem details everywhere."""

from __future__ import annotations

import functools
import hashlib
import http
import inspect
from collections.abc import Callable
from typing import Any

import flask_smorest
from apispec import BasePlugin
from flask import Response, current_app, json, request
from flask_smorest.utils import prepare_response
from marshmallow import Schema, ValidationError, missing
from webargs.flaskparser import abort
from werkzeug.exceptions import HTTPException

from ...engine.errors import FALLBACK_KIND, KIND_OF_STATUS
from ..signing.receipts import PREFER_COMPONENT, PREFER_PARAMETER
from .context import current_request
from .jsonbody import MalformedBody
from .loading import Load, planned
from .problems import PROBLEM_MIMETYPE, ProblemSchema, flatten, problem, schema_problem_detail

_PARSER = flask_smorest.Blueprint.ARGUMENTS_PARSER


@_PARSER.location_loader("json")
def _load_json(request: Any, schema: Any) -> Any:
    """Bodies are decoded by the one I-JSON decoder (service/http/fast/jsonbody.py), through
    Flask's ``request.get_json`` so the decoded body is cached for the receipt too; a body
    that does not decode (malformed, too deep, a number too long, a repeated member name)
    is a 400 problem naming where."""
    if not request.is_json:
        return missing
    return request.get_json()


def json_arguments(schema: Schema, load: Load) -> Any:
    """The request body loaded by ``schema`` (through ``load``, its planned load), as
    flask-smorest's ``arguments`` decorator (webargs, ``json`` location) loads it: the same
    data, and the same 422 on a ValidationError (its messages under ``json``, as webargs
    nests them)."""
    try:
        data = _load_json(current_request(), schema)
        return load({} if data is missing else data)
    except ValidationError as error:
        error.messages = {"json": error.messages}
        abort(
            _PARSER.DEFAULT_VALIDATION_STATUS,
            exc=error,
            messages=error.messages,
            schema=schema,
            headers=None,
        )


def plainly(schema: Schema) -> Callable[[Callable[..., Any]], Callable[[], Response]]:
    """Serve a view decorated with flask-smorest's ``arguments(schema)`` (JSON body) and
    ``response`` as a plain function: the document is generated from the decorators as
    before, while a request calls the view itself with ``json_arguments(schema, load)``,
    ``load`` being the schema's planned load (service/http/fast/loading.py).

    On every request each of flask-smorest's decorators (``doc``, ``response``,
    ``arguments``) and webargs' parser adds a wrapper with its own look-ups; a view that
    returns its own ready Response needs none of them (docs/performance.md).
    """

    load = planned(schema)  # service/http/fast/loading.py

    def decorator(documented: Callable[..., Any]) -> Callable[[], Response]:
        view = inspect.unwrap(documented)

        def plain() -> Response:
            answer: Response = view(json_arguments(schema, load))
            return answer

        # Its name (the endpoint), docstring and flask-smorest's documentation (_apidoc).
        return functools.update_wrapper(plain, documented)

    return decorator


# The error answers, each a named response component (stable names, whatever Python calls
# the status), with the headers it carries.
ERROR_RESPONSES = {
    400: ("BadRequest", "The body is not JSON, or repeats a member name (I-JSON)."),
    404: ("NotFound", "No such path or ruleset."),
    405: ("MethodNotAllowed", "The path does not take this method: see Allow."),
    409: ("Conflict", "Not yet: a sealed seed is revealed only after its reveal_after time."),
    413: ("ContentTooLarge", "The body is over the size limit."),
    415: ("UnsupportedMediaType", "The body is not sent as application/json."),
    422: (
        "UnprocessableContent",
        "The body does not match the schema (`errors` names each member), breaks a rule of "
        "the game, does not fit the dice, or crosses a documented limit.",
    ),
    429: ("TooManyRequests", "Too many requests from one address (the proxy in front)."),
}
DEFAULT_ERROR = "Error"
# Every operation: 405 and 429; a POST also 400, 413, 415, 422; a path with a parameter 404.
EVERY_OPERATION = (405, 429)
EVERY_POST = (400, 413, 415, 422)

HEADERS: dict[str, dict[str, Any]] = {
    "RequestId": {
        "description": "The request's id: the caller's X-Request-Id if it is 1 to 128 plain "
        "characters (letters, digits, ._:/+=@-), else one the service made; also in its logs.",
        "schema": {"type": "string", "example": "4f1c9e27b3d05a8612ab34cd56ef7890"},
    },
    "Allow": {
        "description": "The methods the path takes.",
        "schema": {"type": "string", "example": "POST, OPTIONS"},
    },
    "RetryAfter": {
        "description": "Seconds to wait before trying again.",
        "schema": {"type": "integer", "minimum": 0, "example": 1},
    },
}


def _header(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/headers/{name}"}


def _response(status: int | str) -> dict[str, str]:
    name = DEFAULT_ERROR if status == "default" else ERROR_RESPONSES[int(status)][0]
    return {"$ref": f"#/components/responses/{name}"}


class ContractPlugin(BasePlugin):
    """Every operation documents its error answers as named responses (not only under
    `default`) and every answer its X-Request-Id header."""

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **_: Any
    ) -> None:
        for method, operation in (operations or {}).items():
            responses: dict[Any, Any] = operation.setdefault("responses", {})
            statuses = list(EVERY_OPERATION)
            if method == "post":
                statuses.extend(EVERY_POST)
            if path and "{" in path:
                statuses.append(404)
            for status in list(responses):
                if isinstance(responses[status], str):  # flask-smorest's own names
                    responses[status] = _response(status)
            for status in statuses:
                if str(status) not in responses and status not in responses:
                    responses[str(status)] = _response(status)
            for response in responses.values():
                if "$ref" not in response:
                    response.setdefault("headers", {})["X-Request-Id"] = _header("RequestId")


class Api(flask_smorest.Api):
    """Errors are problem+json, documented as such, and keep their headers (Allow on 405)."""

    ERROR_SCHEMA = ProblemSchema

    def __init__(self, app: Any = None, **kwargs: Any) -> None:
        kwargs.setdefault("spec_kwargs", {"extra_plugins": [ContractPlugin()]})
        self._served_document: tuple[bytes, str] | None = None
        super().__init__(app, **kwargs)

    def _openapi_json(self) -> Response:
        """``GET /openapi.json``: the same bytes as flask-smorest's, serialised once per
        worker instead of on every request (about 40 ms of CPU each: the document cannot
        change once ``create_app`` has registered every blueprint), with a strong ETag so a
        client, the docs page or a cache revalidates for nothing (304)."""
        if self._served_document is None:
            body = json.dumps(self.spec.to_dict(), indent=2, sort_keys=False).encode()
            self._served_document = (body, hashlib.sha256(body).hexdigest()[:32])
        body, etag = self._served_document
        response = current_app.response_class(body, mimetype="application/json")
        response.set_etag(etag)
        response.headers["Cache-Control"] = "no-cache"
        response.make_conditional(request)  # a 304 with no body when the ETag matches
        return response

    def _register_responses(self) -> None:
        for name, schema in HEADERS.items():
            self.spec.components.header(name, schema)
        self.spec.components.parameter(PREFER_PARAMETER, "header", PREFER_COMPONENT)
        answers = {status: named for status, named in ERROR_RESPONSES.items()}
        for status, (name, description) in answers.items():
            headers = {"X-Request-Id": _header("RequestId")}
            if status == 405:
                headers["Allow"] = _header("Allow")
            if status == 429:
                headers["Retry-After"] = _header("RetryAfter")
            self._error_response(name, description, headers)
        self._error_response(
            DEFAULT_ERROR,
            "Any other error (500, 502, 503 with Retry-After, ...), as a problem.",
            {"X-Request-Id": _header("RequestId")},
        )

    def _error_response(self, name: str, description: str, headers: dict[str, Any]) -> None:
        response: dict[str, Any] = {"description": description, "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_MIMETYPE)
        response["headers"] = headers
        self.spec.components.response(name, response)

    def _register_pagination_header(self) -> None:
        """No endpoint pages its answers: no PaginationMetadata in the document."""

    def handle_http_exception(self, error: HTTPException) -> Response:
        status = error.code or 500
        data = getattr(error, "data", None) or {}
        errors = flatten(data["messages"]) if "messages" in data else []
        # webargs nests messages under the request location ("json"); drop that level.
        for item in errors:
            if item["field"].startswith("json."):
                item["field"] = item["field"][len("json.") :]
            elif item["field"] == "json":
                item["field"] = "(body)"
        detail = data.get("message") or error.description or http.HTTPStatus(status).phrase
        if errors and not isinstance(error, MalformedBody):
            detail = schema_problem_detail(errors)
        headers = dict(error.get_headers())
        headers.pop("Content-Type", None)
        headers.update(data.get("headers") or {})
        title = (
            http.HTTPStatus(status).phrase
            if status in http.HTTPStatus._value2member_map_
            else "Error"
        )
        if status >= 500:
            detail = "The server could not resolve this request."
        kind = KIND_OF_STATUS.get(status, FALLBACK_KIND)
        return problem(status, kind, title, detail, errors, headers)
