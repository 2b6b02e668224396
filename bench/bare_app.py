"""The ceiling: a bare Flask app with one JSON route, served with the very same gunicorn
settings as the service (`gunicorn -c deploy/gunicorn.conf.py bench.bare_app:app`).

Whatever the service does beyond this is validation, rules, signing and metrics.
"""

from __future__ import annotations

from flask import Flask, jsonify
from flask.typing import ResponseReturnValue

app = Flask(__name__)


@app.route("/json", methods=["GET", "POST"])
def json_route() -> ResponseReturnValue:
    return jsonify(status="ok")
