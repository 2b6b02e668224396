"""CORS: one fixed policy, so browser and mobile apps on any origin can call the service.

The service holds no cookies or credentials, so every origin is allowed (`*`), and the
headers a client may need to read (`Allow`, `X-Request-Id`) are exposed. flask-cors did
this first, but matching its configurable resources and origins on every response cost a
quarter of a plain request's CPU (about 140k instructions of 570k on /healthz, measured
with callgrind); this policy has nothing to match, so it is a few headers added to every
answer where the server starts it (WSGI ``start_response``), reading the request from the
WSGI environ: no Flask hook and no request-context look-up. No view sets these headers
itself, so adding them is setting them.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from .request_id import StartResponse, WSGIApp

EXPOSED = "Allow, X-Request-Id"
PREFLIGHT_MAX_AGE = "86400"
ALL_ORIGINS = [("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", EXPOSED)]


def _allowed(headers: list[tuple[str, str]]) -> str:
    # Flask's automatic OPTIONS answer already lists the path's methods.
    return next((value for name, value in headers if name.lower() == "allow"), "GET, POST, OPTIONS")


class Cors:
    """WSGI middleware: the policy's headers on every answer, a preflight's too."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        if (
            environ.get("REQUEST_METHOD", "").upper() != "OPTIONS"
            or "HTTP_ACCESS_CONTROL_REQUEST_METHOD" not in environ
        ):

            def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
                headers.extend(ALL_ORIGINS)
                return start_response(status, headers, exc_info)

            return self.app(environ, start)

        asked = environ.get("HTTP_ACCESS_CONTROL_REQUEST_HEADERS")

        def preflight(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            policy = [*ALL_ORIGINS, ("Access-Control-Allow-Methods", _allowed(headers))]
            if asked:
                policy.append(("Access-Control-Allow-Headers", asked))
            policy.append(("Access-Control-Max-Age", PREFLIGHT_MAX_AGE))
            # Before the Content-Length werkzeug writes last for an empty answer: the
            # headers in the order they have always come.
            at = len(headers) - (bool(headers) and headers[-1][0].lower() == "content-length")
            headers[at:at] = policy
            return start_response(status, headers, exc_info)

        return self.app(environ, preflight)


def init_app(app: Flask) -> None:
    app.wsgi_app = Cors(app.wsgi_app)  # type: ignore[method-assign]
