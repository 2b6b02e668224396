"""The names the rulesets' api.py import from here, now in document/fields.py.

Kept until each ruleset imports them from the package itself (service/rulesets).
"""

from __future__ import annotations

from .document.fields import BoundedList, StrictBoolean, StrictInteger, count, inches

__all__ = ["BoundedList", "StrictBoolean", "StrictInteger", "count", "inches"]
