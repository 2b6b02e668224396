"""The referee's page: ``GET /referee`` checks a game log in the browser.

Plain HTML, CSS and JavaScript modules from ``service/static/referee/``, served by the
service itself (no CDN, no build step), so the page works with no internet. Every check
runs in the browser (WebCrypto); the page calls the service only for the public keys
(``/.well-known/jwks.json``, unless the referee pastes a saved set), for which steps have
an ``/odds`` (``/v1/rulesets/{ruleset}``) and for the ``/odds`` of each signed entry's
request (how lucky a roll was: once per distinct request, a bounded number per log), and
works without any of them.

The page is not an API operation: like ``/docs`` and ``/problems`` it stays out of the
OpenAPI document.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort

FOLDER = Path(__file__).resolve().parents[2] / "static" / "referee"
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".png": "image/png",
}
# The page loads its own files and calls its own origin only; it frames nothing and is
# framed by nobody.
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

blp = Blueprint("referee", __name__)


def files_in(folder: Path) -> dict[str, Path]:
    """A page's files by name, read from its folder once (nothing else is served)."""
    return {path.name: path for path in folder.iterdir() if path.suffix in TYPES}


FILES = files_in(FOLDER)


def serve(files: dict[str, Path], name: str) -> Response:
    """One of a page's files, under the page's policy; any other name is a 404."""
    path = files.get(name)
    if path is None:
        abort(404)
    answer = Response(path.read_bytes(), content_type=TYPES[path.suffix])
    answer.headers["Content-Security-Policy"] = POLICY
    answer.headers["X-Content-Type-Options"] = "nosniff"
    answer.headers["Referrer-Policy"] = "no-referrer"
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@blp.get("/referee")
def page() -> Response:
    """The page itself."""
    return serve(FILES, "index.html")


@blp.get("/referee/<string:name>")
def asset(name: str) -> Response:
    """Its modules, style sheet and pictures."""
    return serve(FILES, name)
