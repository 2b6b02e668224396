"""The names the rulesets' api.py import from here, now in endpoints/steps.py.

Kept until each ruleset imports them from the package itself (service/rulesets).
"""

from __future__ import annotations

from .endpoints.steps import NoInputs, StepHTTP, inputs, no_input, register_steps

__all__ = ["NoInputs", "StepHTTP", "inputs", "no_input", "register_steps"]
