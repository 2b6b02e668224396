"""The companion: ``GET /play`` plays Salvo! and SALVO in the browser, and rolls dice.

Plain HTML, CSS and JavaScript modules from ``service/static/play/``, served by the service
itself under the referee's page's policy (no CDN, no build step, its own origin only).
The page is an app like any other: every call it makes is a documented operation of the
public API, and it keeps each game's log in the browser, saves it as a file and hands it
to the referee's page. Like ``/referee`` it stays out of the OpenAPI document.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response

from .referee import files_in, serve

FOLDER = Path(__file__).resolve().parents[2] / "static" / "play"
FILES = files_in(FOLDER)

blp = Blueprint("play", __name__)


@blp.get("/play")
def page() -> Response:
    """The page itself."""
    return serve(FILES, "index.html")


@blp.get("/play/<string:name>")
def asset(name: str) -> Response:
    """Its modules and style sheet."""
    return serve(FILES, name)
