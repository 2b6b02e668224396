"""JSON answers: the bytes every JSON endpoint sends (orjson, no Flask JSON provider)."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response


def json_response(body: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(body), status=status, mimetype="application/json")
