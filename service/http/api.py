"""flask-smorest's Api, made to speak RFC 9457 problem details everywhere."""

from __future__ import annotations

import http
from typing import Any

import flask_smorest
from flask import Response
from flask_smorest.utils import prepare_response
from marshmallow import missing
from werkzeug.exceptions import HTTPException

from .jsonbody import MalformedBody
from .problems import PROBLEM_MIMETYPE, ProblemSchema, flatten, problem

_KINDS = {
    400: "malformed-request",
    404: "not-found",
    405: "method-not-allowed",
    413: "body-too-large",
    415: "unsupported-media-type",
    422: "validation",
}


_PARSER = flask_smorest.Blueprint.ARGUMENTS_PARSER


@_PARSER.location_loader("json")
def _load_json(request: Any, schema: Any) -> Any:
    """Bodies are decoded by the one I-JSON decoder (service/http/jsonbody.py), through
    Flask's ``request.get_json`` so the decoded body is cached for the receipt too; a body
    that does not decode (malformed, too deep, a number too long, a repeated member name)
    is a 400 problem naming where."""
    if not request.is_json:
        return missing
    return request.get_json()


class Api(flask_smorest.Api):
    """Errors are problem+json, documented as such, and keep their headers (Allow on 405)."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_MIMETYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_MIMETYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)

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
            detail = "The request does not match the schema: " + "; ".join(
                f"{e['field']}: {e['message']}" for e in errors
            )
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
        return problem(status, _KINDS.get(status, "error"), title, detail, errors, headers)
