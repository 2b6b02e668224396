"""Rulesets as data, health, and the human docs; none of it rolls dice."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, TypedDict

from flask import Flask, Response
from flask_smorest import Blueprint, abort
from flask_swagger_ui import get_swaggerui_blueprint
from marshmallow import fields

from ...engine.catalog import RulesetDetail, RulesetList, RulesetSummary
from ...engine.errors import PROBLEM_KINDS, ProblemKind
from ...engine.ruleset import Ruleset
from ...engine.typed import Fixed
from ..document.components import camel, component, ref
from ..document.derive import result_schema
from ..document.shapes import merged, shape_of
from ..fast.answers import json_response
from ..fast.context import this_app
from .contract import RulesetAPI
from .envelope import RULESET_ID, named

REFEREE = "The referee's page, [/referee](/referee), checks a game log in the browser."
ops = Blueprint("operations", __name__, description=f"Liveness and readiness. {REFEREE}")


# The catalog's answers are the engine's types (engine/catalog.py; a ruling and its readings
# are shapes of engine/ruleset.py); a ruleset's id is documented as the app's ``RulesetId``.
RulesetSummarySchema = named(
    "RulesetSummary", result_schema(RulesetSummary), {"id": RULESET_ID.field(required=True)}
)
RulesetListSchema = named(
    "RulesetList",
    result_schema(RulesetList),
    {"rulesets": fields.List(fields.Nested(RulesetSummarySchema), required=True)},
)
RulesetDetailSchema = named(
    "RulesetDetail", result_schema(RulesetDetail), {"id": RULESET_ID.field(required=True)}
)


def _answers(kind: str, member: str, items: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """``oneOf`` the rulesets' answers, told apart by ``ruleset``: each answer is a component
    ``<Ruleset><kind>Response`` with ``ruleset`` (its id) and ``member`` (its own schema)."""
    mapping = {}
    for ruleset, schema in items.items():
        name = component(
            f"{camel(ruleset)}{kind}Response",
            {
                "type": "object",
                "properties": {"ruleset": {"type": "string", "const": ruleset}, member: schema},
                "required": ["ruleset", member],
                "additionalProperties": False,
            },
        )
        mapping[ruleset] = ref(name)["$ref"]
    return {
        "oneOf": [{"$ref": target} for target in mapping.values()],
        "discriminator": {"propertyName": "ruleset", "mapping": mapping},
    }


def _ship_shapes(prefix: str, items: Any, refs: Mapping[str, str]) -> dict[str, Any]:
    """One component for a ruleset's ships, or one per ``kind`` told apart by it."""
    kinds: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        kinds.setdefault(str(item.get("kind", "")), []).append(shape_of(item, refs))
    if len(kinds) == 1:
        return ref(component(f"{prefix}ShipInfo", merged(next(iter(kinds.values())))))
    mapping = {}
    for kind, shapes in kinds.items():
        shape = merged(shapes)
        shape["properties"]["kind"] = {"type": "string", "const": kind}
        name = component(f"{prefix}{camel(kind.replace(' ', '-'))}Info", shape)
        mapping[kind] = ref(name)["$ref"]
    return {
        "oneOf": [{"$ref": target} for target in mapping.values()],
        "discriminator": {"propertyName": "kind", "mapping": mapping},
    }


def _catalog(served: Sequence[RulesetAPI]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The tables and ships answers of the rulesets an app serves, typed per ruleset.

    A ruleset may name the component of one ship (``ship_component``, the card a request
    can send back inline) and the components its data's members refer to (``shape_refs``);
    the rest is the shape of the data itself (service/http/document/shapes.py): no ships, an empty
    list.
    """
    tables: dict[str, dict[str, Any]] = {}
    ships: dict[str, dict[str, Any]] = {}
    for api in served:
        found, refs, prefix = api.ruleset, api.shape_refs, camel(api.id)
        tables[found.id] = ref(component(f"{prefix}Tables", shape_of(found.tables, refs)))
        if api.ship_component is not None:
            ships[found.id] = {"type": "array", "items": ref(api.ship_component)}
        elif found.ships:
            ships[found.id] = {"type": "array", "items": _ship_shapes(prefix, found.ships, refs)}
        else:
            ships[found.id] = shape_of(found.ships)
    return _answers("Tables", "tables", tables), _answers("Ships", "ships", ships)


RULESET_PARAMETER = {
    "in": "path",
    "name": "ruleset",
    "required": True,
    "description": "A ruleset id (another is a 404)",
    "schema": ref(RULESET_ID.name),
}

HealthStatus = Annotated[
    Literal["ok", "ready", "starting"],
    Fixed(
        "HealthStatus",
        "ok: the process answers (/healthz); ready or starting: whether every ruleset is "
        "loaded (/readyz).",
    ),
]


class Health(TypedDict):
    status: HealthStatus


HealthSchema = result_schema(Health)


# The rulesets an app serves live with the app (``app.extensions``, beside its keys), not in
# a module global that every app of the process would share.
EXTENSION = "fire-control.rulesets"


def register_ruleset(app: Flask, ruleset: Ruleset) -> None:
    app.extensions.setdefault(EXTENSION, {})[ruleset.id] = ruleset


def rulesets() -> dict[str, Ruleset]:
    """The rulesets the current app serves, by id."""
    found: dict[str, Ruleset] = this_app().extensions.get(EXTENSION, {})
    return found


def _ruleset(ruleset: str) -> Ruleset:
    found = rulesets().get(ruleset)
    if found is None:
        abort(404, message=f"no ruleset {ruleset!r}; see /v1/rulesets")
    assert found is not None
    return found


def rulesets_blueprint(served: Sequence[RulesetAPI]) -> Blueprint:
    """GET /v1/rulesets and each ruleset's data, documented for the rulesets ``served``:
    made by each ``create_app``, so an app serving other rulesets documents its own."""
    blp = Blueprint(
        "rulesets",
        __name__,
        url_prefix="/v1/rulesets",
        description="The rulesets, their steps, tables, ships and rulings.",
    )
    tables_answer, ships_answer = _catalog(served)
    first = served[0].ruleset

    @blp.get("")
    @blp.doc(operationId="listRulesets")
    @blp.response(
        200, RulesetListSchema, example={"rulesets": [api.ruleset.summary() for api in served]}
    )
    def list_rulesets() -> Response:
        """Every ruleset

        Each ruleset with its title, source and the steps it offers.
        """
        return json_response({"rulesets": [r.summary() for r in rulesets().values()]})

    @blp.get("/<string:ruleset>", parameters=[RULESET_PARAMETER])
    @blp.doc(operationId="getRuleset")
    @blp.response(200, RulesetDetailSchema, example=first.detail())
    def get_ruleset(ruleset: str) -> Response:
        """One ruleset: its steps and rulings

        Every step with what it resolves and the dice it rolls, and every ruling this service
        made where the rule text is silent or contradicts itself.
        """
        return json_response(_ruleset(ruleset).detail())

    @blp.get("/<string:ruleset>/tables", parameters=[RULESET_PARAMETER])
    @blp.doc(operationId="getRulesetTables")
    @blp.response(200, tables_answer, example={"ruleset": first.id, "tables": first.tables})
    def get_tables(ruleset: str) -> Response:
        """A ruleset's tables, as data

        The very data the engine resolves with, so an app can draw the tables.
        """
        found = _ruleset(ruleset)
        return json_response({"ruleset": found.id, "tables": found.tables})

    @blp.get("/<string:ruleset>/ships", parameters=[RULESET_PARAMETER])
    @blp.doc(operationId="getRulesetShips")
    @blp.response(200, ships_answer, example={"ruleset": first.id, "ships": list(first.ships[:2])})
    def get_ships(ruleset: str) -> Response:
        """A ruleset's ship cards or ship classes

        Every ship a request may name by name.
        """
        found = _ruleset(ruleset)
        return json_response({"ruleset": found.id, "ships": list(found.ships)})

    return blp


@ops.get("/healthz")
@ops.doc(operationId="getHealth")
@ops.response(200, HealthSchema, example={"status": "ok"})
def healthz() -> Response:
    """Alive

    The process answers.
    """
    return json_response({"status": "ok"})


@ops.get("/readyz")
@ops.doc(operationId="getReadiness")
@ops.response(200, HealthSchema, example={"status": "ready"})
def readyz() -> Response:
    """Ready to serve

    Every ruleset is loaded.
    """
    return json_response({"status": "ready" if rulesets() else "starting"})


def _problem_entry(kind: ProblemKind) -> str:
    statuses = ", ".join(str(status) for status in kind.statuses)
    text = re.sub(r"`([^`]*)`", r"<code>\1</code>", html.escape(kind.text, quote=False))
    return f'<dt id="{kind.id}">{kind.id} ({statuses})</dt><dd>{text}</dd>'


def problems_page() -> str:
    """The ``/problems`` page: every kind of the one table (service/engine/errors.py)."""
    own = "\n".join(_problem_entry(kind) for kind in PROBLEM_KINDS if not kind.sidecar)
    sidecar = "\n".join(_problem_entry(kind) for kind in PROBLEM_KINDS if kind.sidecar)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">\n'
        "<title>Fire Control: problem types</title></head><body><h1>Problem types</h1>\n"
        "<p>Every client error is <code>application/problem+json</code> (RFC 9457).</p><dl>\n"
        f"{own}\n</dl><p>From the nginx sidecar in front of the service:</p><dl>\n"
        f"{sidecar}\n</dl></body></html>"
    )


PROBLEMS_PAGE = problems_page()


def init_docs(app: Flask) -> None:
    """Swagger UI served from the service itself: it works with no internet."""
    app.register_blueprint(
        get_swaggerui_blueprint("/docs", "/openapi.json", config={"app_name": "Fire Control API"})
    )

    @app.get("/problems")
    def problems() -> Response:
        return Response(PROBLEMS_PAGE, mimetype="text/html")
