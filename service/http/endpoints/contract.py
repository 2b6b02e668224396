"""What a ruleset gives the service, in one place: ``RulesetAPI``.

Each ruleset folder's ``api.py`` names one, ``API``; ``create_app`` serves the ones its
``RULESETS`` setting lists (by default ``service.rulesets.registered()``: the folders
service/rulesets names in ``REGISTERED``). The HTTP layer never reads that registry: an
app hands each part the rulesets it serves. docs/rulesets.md says what goes where.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_smorest import Blueprint

from ...engine.ruleset import Ruleset


@dataclass(frozen=True, kw_only=True)
class RulesetAPI:
    """A ruleset as the service serves it.

    Required:

    * ``ruleset``: the engine's ``Ruleset`` (its id, title, source, description and steps;
      tables, ships and rulings default to none);
    * ``blueprint``: its steps' endpoints under ``/v1/rulesets/<id>``, made by
      ``register_steps`` (service/http/endpoints/steps.py);
    * ``results``: each step's name to the TypedDict its resolver returns (results.py).

    Optional, for GET ``/tables`` and ``/ships``, whose schemas are worked out from the data
    (service/http/document/shapes.py):

    * ``ship_component``: the component of one ship, where a request can send a ship card
      back inline (the listing is then an array of it);
    * ``shape_refs``: members of the tables and ships data that name a component of their
      own (member name to component name).
    """

    ruleset: Ruleset
    blueprint: Blueprint
    results: Mapping[str, Any]
    ship_component: str | None = None
    shape_refs: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        ruleset = self.ruleset
        prefix = f"/v1/rulesets/{ruleset.id}"
        if self.blueprint.url_prefix != prefix:
            raise ValueError(
                f"ruleset {ruleset.id!r}: its blueprint serves {self.blueprint.url_prefix!r}, "
                f"not {prefix!r}"
            )
        steps = [step.name for step in ruleset.steps]
        if sorted(self.results) != sorted(steps):
            raise ValueError(
                f"ruleset {ruleset.id!r}: typed results for {sorted(self.results)}, steps "
                f"{sorted(steps)}"
            )

    @property
    def id(self) -> str:
        return self.ruleset.id


def load(module: str) -> RulesetAPI:
    """The ``API`` of a ruleset's HTTP module (``service.rulesets.<name>.api``)."""
    found = getattr(importlib.import_module(module), "API", None)
    if not isinstance(found, RulesetAPI):
        raise TypeError(f"{module} names no API (a RulesetAPI)")
    return found
