"""The work budget of each request (service/engine/budget.py), opened as the request comes
in and closed as it leaves. It wraps the WSGI app, so that every request has its own budget
whatever answers it: a view, a hook, an error handler."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...engine.budget import close_budget, open_budget
from .request_id import StartResponse, WSGIApp


class RequestBudget:
    """WSGI middleware: a fresh work budget for every request."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        token = open_budget()
        try:
            return self.app(environ, start_response)
        finally:
            close_budget(token)
