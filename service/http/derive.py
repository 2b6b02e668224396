"""The names the rulesets' api.py import from here, now in document/derive.py.

Kept until each ruleset imports them from the package itself (service/rulesets).
"""

from __future__ import annotations

from .document.derive import same_shape

__all__ = ["same_shape"]
