"""The request and the app in hand, each taken from Flask's context once.

Flask's ``request`` and ``current_app`` are proxies: each attribute read through one looks
the object up in the context again, after first failing to find the attribute on the proxy
itself (an AttributeError made and thrown away: about a microsecond a read). Code on every
request's path takes the object here, once, and reads its attributes directly.
"""

from __future__ import annotations

from flask import Flask, Request, current_app, request


def current_request() -> Request:
    """The request being served (outside a request, the RuntimeError ``request`` raises)."""
    found: Request = request._get_current_object()  # type: ignore[attr-defined]
    return found


def this_app() -> Flask:
    """The app serving (outside an app context, the RuntimeError ``current_app`` raises)."""
    found: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    return found
