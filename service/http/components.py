"""The names the rulesets' api.py import from here, now in document/components.py.

Kept until each ruleset imports them from the package itself (service/rulesets).
"""

from __future__ import annotations

from .document.components import EnumType, pattern_component

__all__ = ["EnumType", "pattern_component"]
