"""The fixed sets the referee's page reads, written out as a JavaScript module.

The page's checker (service/static/referee/verify.js) runs in the browser, and on its own
(a saved page, a test's JavaScript runtime): it cannot import Python, nor wait for the
service's document before it checks. So the sets it needs are written, from their one
definition (service/engine/dice_modes.py, service/receipts/answers.py), into
``service/static/referee/fixed.js``; tests/test_fixed_sets.py writes the module again and
fails when the file differs. To write it:

    python -m service.receipts.referee_fixed
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..engine.dice_modes import DiceMode
from ..engine.typed import values

MODULE = Path(__file__).resolve().parents[1] / "static" / "referee" / "fixed.js"


def _name(value: str) -> str:
    return value.upper().replace("-", "_")


def module() -> str:
    """The text of ``fixed.js``."""
    lines = [
        "// Written by `python -m service.receipts.referee_fixed` from the service's one",
        "// definition of these sets (service/engine, service/receipts); do not edit:",
        "// tests/test_fixed_sets.py writes it again and fails when this file differs.",
        "",
        "// DiceMode: how an answer's dice were obtained.",
    ]
    lines += [f"export const {_name(mode)} = {json.dumps(mode)};" for mode in values(DiceMode)]
    return "\n".join(lines) + "\n"


def main() -> None:  # pragma: no cover - a maintainer's command; the test writes the text
    MODULE.write_text(module(), encoding="utf-8")
    sys.stdout.write(f"wrote {MODULE.name}\n")


if __name__ == "__main__":  # pragma: no cover
    main()
