"""The names the rulesets' api.py import from here, now in endpoints/contract.py.

Kept until each ruleset imports them from the package itself (service/rulesets).
"""

from __future__ import annotations

from .endpoints.contract import RulesetAPI, load

__all__ = ["RulesetAPI", "load"]
