"""Fire Control: a stateless rules-resolution service for naval wargames.

``create_app`` is the WSGI factory (``service:create_app``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from flask import Flask, Request
from flask.sessions import NullSession, SecureCookieSession, SecureCookieSessionInterface

from .http.document.api import documented
from .http.document.components import COMPONENTS
from .http.endpoints import dice_api, meta, play, referee, seeds
from .http.endpoints.contract import RulesetAPI
from .http.endpoints.envelope import RULESET_ID
from .http.endpoints.verify import SIGNED_ANSWER, VERIFY_BODY_BYTES, signed_answer
from .http.fast import jsonbody, problems
from .http.fast.api import Api
from .http.middleware import cors, metrics, request_id
from .http.middleware.budget import RequestBudget
from .http.signing import receipts
from .rulesets.api import registered
from .startup import StartupError

MAX_BODY_BYTES = 64 * 1024
VERIFY_ENDPOINT = "receipts.verify"

DEFAULTS: Mapping[str, Any] = {
    "API_TITLE": "Fire Control",
    # Minor: 1.6.0 writes each shape once, tells apps what they draw and may do, serves
    # the companion page and reads rpg-dice-roller's notation.
    # Minor: 1.5.0 bounds every request by one work budget, rights the last wrong answers,
    # gives the defaults the texts decide and draws every odds picture whole.
    # Patch: 1.4.2 and 1.4.1 change no answer (cheaper loads, receipts and rules; PyNaCl
    # signs).
    # Minor: 1.4.0 adds the miniatures' turns and their odds, rich dice notation and its
    # odds, and minimal answers; 1.3.0 bounds every refusal, verifies whole games and gives
    # the heat map a margin (CHANGELOG.md); 1.2.0 added rule options, the pending turn,
    # odds, advice and the heat map; 1.1.0 renamed and typed components on the wire of 1.0.0.
    "API_VERSION": "1.6.0",
    "OPENAPI_VERSION": "3.1.0",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    "MAX_CONTENT_LENGTH": MAX_BODY_BYTES,
    "API_SPEC_OPTIONS": {
        "info": {
            "description": "Naval wargame rules resolved as a service: every step of four "
            "rulesets, seeded and reproducible or with the player's own dice, every answer "
            "showing its whole arithmetic. Errors are RFC 9457 problem details. Bodies are "
            f"limited to {MAX_BODY_BYTES} bytes ({VERIFY_BODY_BYTES} for "
            "POST /v1/receipts/verify, which takes whole game logs).",
            "license": {
                "name": "Proprietary: no licence has been granted for this service yet",
                "identifier": "LicenseRef-Proprietary",
            },
        },
        "servers": [{"url": "/", "description": "The service that serves this document"}],
        # No authentication: every operation is open (an empty list says so).
        "security": [],
    },
}


class NoSessions(SecureCookieSessionInterface):
    """The service keeps no sessions (no secret key, no cookie), so Flask gives every
    request a null session, made anew each time: the same null session here, made once.
    It refuses every change, so there is nothing in it to share. With a secret key set,
    sessions are Flask's own signed cookies."""

    _null = NullSession()

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if not app.secret_key:
            return self._null
        return super().open_session(app, request)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the WSGI app. ``config`` overrides the defaults (tests use it).

    ``RULESETS``: the rulesets the app serves (``RulesetAPI``s), by default every one
    service/rulesets registers; a test adds its own beside them. Everything that names a
    ruleset (the catalog, seals and game headers, the document) is given this app's set,
    here, once: nothing in service/http reads the registry.
    """
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    served = _served(app.config.get("RULESETS"))
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.session_interface = NoSessions()
    jsonbody.init_app(app)  # request bodies are I-JSON: one decoder for every reader
    jsonbody.require_json(app, {VERIFY_ENDPOINT: VERIFY_BODY_BYTES})  # every POST body
    problems.init_app(app)  # a broken rule is a 422 problem naming its field
    api = documented(app)  # the OpenAPI document, its fields written the service's way

    api.register_blueprint(meta.ops)
    api.register_blueprint(meta.rulesets_blueprint(served))
    api.register_blueprint(dice_api.blp)
    receipts.init_app(app)
    api.register_blueprint(receipts.blp)  # the key set, and the verify route (endpoints/verify.py)
    for blueprint in seeds.blueprints([ruleset.ruleset for ruleset in served]):
        api.register_blueprint(blueprint)
    for ruleset in served:
        meta.register_ruleset(app, ruleset.ruleset)
        api.register_blueprint(ruleset.blueprint)

    for name, schema in _documented(api, served):
        api.spec.components.schema(name, schema)
    meta.init_docs(app)
    app.register_blueprint(referee.blp)  # GET /referee: checks a game log in the browser
    app.register_blueprint(play.blp)  # GET /play: the companion, plays the games in the browser
    metrics.init_app(app)
    cors.init_app(app)
    app.wsgi_app = RequestBudget(app.wsgi_app)  # type: ignore[method-assign]
    app.wsgi_app = request_id.RequestId(app.wsgi_app)  # type: ignore[method-assign]
    return app


def _served(setting: Sequence[RulesetAPI] | None) -> tuple[RulesetAPI, ...]:
    served = registered() if setting is None else tuple(setting)
    ids = [ruleset.id for ruleset in served]
    if not served:
        raise StartupError(
            "RULESETS", "serves no ruleset", "name each ruleset to serve (service/rulesets)"
        )
    twice = sorted({id_ for id_ in ids if ids.count(id_) > 1})
    if twice:
        raise StartupError(
            "RULESETS",
            f"serves ruleset id {', '.join(map(repr, twice))} twice (of {ids}): one app "
            "serves one ruleset by each id",
            "name each ruleset to serve once (service/rulesets)",
        )
    return served


_REF = re.compile(r'"#/components/schemas/([^"]+)"')


def _documented(api: Api, served: Sequence[RulesetAPI]) -> list[tuple[str, dict[str, Any]]]:
    """The named components (service/http/document/components.py) this app's operations use, by
    name. Components are made as modules are imported, for every ruleset the process has
    loaded: an app documents those its own rulesets reach, ``RulesetId`` lists them and
    ``SignedAnswer`` names their steps' answers."""
    known = {**COMPONENTS}
    known[RULESET_ID.name] = RULESET_ID.members([r.id for r in served])
    known[SIGNED_ANSWER] = signed_answer([r.ruleset for r in served])
    todo = set(_REF.findall(json.dumps(api.spec.to_dict())))
    used: set[str] = set()
    while todo:
        name = todo.pop()
        if name in used or name not in known:
            continue
        used.add(name)
        todo |= set(_REF.findall(json.dumps(known[name])))
    return sorted((name, schema) for name, schema in known.items() if name in used)
