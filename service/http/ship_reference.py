"""The names the rulesets' api.py import from here, now in endpoints/ship_reference.py.

Kept until each ruleset imports them from the package itself (service/rulesets).
"""

from __future__ import annotations

from .endpoints.ship_reference import ship_reference

__all__ = ["ship_reference"]
