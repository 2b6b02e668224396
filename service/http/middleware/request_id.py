"""X-Request-Id: taken from the caller (a proxy, a client) or made here, always returned.
It also notes when the request came in, for the latency metric.

The id travels in the response header, so the server's access log (deploy/gunicorn.conf.py
logs it as ``request_id``) and the caller's logs can be joined on it. It wraps the WSGI app
rather than hooking into Flask so that every response carries it, the ones Flask answers
before routing included.
"""

from __future__ import annotations

import os
import random
import re
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


# An id names a request in logs and is no secret (a caller may choose its own), so it is
# 128 bits from a generator seeded from the system's randomness (os.urandom) in each
# process, seeded afresh in each forked worker so that no two share a sequence: a third of
# the CPU of asking the system for 16 bytes on every request.
_IDS = random.Random()
os.register_at_fork(after_in_child=_IDS.seed)
_bits = _IDS.getrandbits


def new_request_id() -> str:
    """32 lowercase hex digits, as ``secrets.token_hex(16)`` writes them."""
    return f"{_bits(128):032x}"


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
