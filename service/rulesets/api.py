"""The HTTP face of the registry: every registered ruleset's ``RulesetAPI``, which
``create_app`` serves unless its ``RULESETS`` setting names others. Nothing in service/http
reads the registry; an app hands each part the rulesets it serves."""

from __future__ import annotations

from ..http.endpoints.contract import RulesetAPI, load
from . import REGISTERED


def registered() -> tuple[RulesetAPI, ...]:
    """The rulesets of this service: every folder ``REGISTERED`` names, in its order."""
    return tuple(load(f"{__package__}.{name}.api") for name in REGISTERED)
