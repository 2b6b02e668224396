"""X-Request-Id: taken from the caller (a proxy, a client) or made here, always returned.
It also notes when the request came in, for the latency metric.

The id travels in the response header, so the server's access log (deploy/gunicorn.conf.py
logs it as ``request_id``) and the caller's logs can be joined on it. It wraps the WSGI app
rather than hooking into Flask so that every response carries it, the ones Flask answers
before routing included.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

HEADER = "X-Request-Id"
ENVIRON_KEY = "HTTP_X_REQUEST_ID"
# When the request reached the app (time.perf_counter()), for the latency metric.
STARTED = "fire_control.started"

# A caller's id is kept only if it is short and plain: an id made of anything else could
# smuggle control characters or a whole fake line into somebody's logs.
_ACCEPTED = re.compile(r"[A-Za-z0-9._:/+=@-]{1,128}").fullmatch

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def new_request_id() -> str:
    return secrets.token_hex(16)


class RequestId:
    """WSGI middleware: the request's id in ``environ`` and in the response header."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        environ[STARTED] = time.perf_counter()
        given = environ.get(ENVIRON_KEY)
        request_id = given if given and _ACCEPTED(given) else new_request_id()
        environ[ENVIRON_KEY] = request_id

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            headers.append((HEADER, request_id))
            return start_response(status, headers, exc_info)

        return self.app(environ, start)
