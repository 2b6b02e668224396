"""The dice modes (and the other fixed sets of the receipts) are defined once: the service
reads them from there, and the two verifiers that cannot import it are checked against it.

The referee's page reads ``service/static/referee/fixed.js``, written from the one
definition (service/receipts/referee_fixed.py); tools/verify_dice.py, standalone, spells
the modes itself, and is held to them here.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from flask import Flask

from service.engine.dice_modes import SEALED, SEEDED, SUPPLIED, DiceMode
from service.engine.typed import fixed_set, values
from service.receipts import answers, referee_fixed

ROOT = Path(__file__).resolve().parents[1]
VERIFIER = ROOT / "tools" / "verify_dice.py"

_spec = importlib.util.spec_from_file_location("verify_dice_fixed", VERIFIER)
assert _spec is not None and _spec.loader is not None
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)


def test_the_referee_pages_module_is_the_one_written_from_the_fixed_sets() -> None:
    written = referee_fixed.MODULE.read_text(encoding="utf-8")
    assert written == referee_fixed.module(), "run: python -m service.receipts.referee_fixed"


def test_the_referee_pages_module_exports_every_dice_mode_by_name() -> None:
    exported = dict(
        re.findall(r'^export const (\w+) = "([^"]*)";$', referee_fixed.module(), re.MULTILINE)
    )
    assert exported == {"SEEDED": "seeded", "SUPPLIED": "supplied", "SEALED": "sealed"}
    assert tuple(exported.values()) == values(DiceMode)


def test_the_referee_pages_checker_spells_no_dice_mode_of_its_own() -> None:
    for name in ("verify.js", "explain.js"):
        text = (referee_fixed.MODULE.parent / name).read_text(encoding="utf-8")
        assert 'from "./fixed.js"' in text
        spelled = re.findall(r'mode"?\)? [!=]== "(\w+)"', text)
        assert spelled == [], (name, spelled)


def test_the_standalone_verifier_spells_the_dice_modes_as_the_service_does() -> None:
    assert values(DiceMode) == (tool.SEEDED, tool.SUPPLIED, tool.SEALED)
    assert values(DiceMode) == (SEEDED, SUPPLIED, SEALED)


def test_the_document_names_the_dice_modes_and_the_checkpoint_modes_as_defined(
    app: Flask,
) -> None:
    schemas = app.test_client().get("/openapi.json").get_json()["components"]["schemas"]
    for alias in (DiceMode, answers.CheckpointSeedMode, answers.Verdict):
        marker, members = fixed_set(alias)
        assert schemas[marker.name]["enum"] == list(members)
        assert schemas[marker.name]["description"] == marker.description
    assert set(values(answers.CheckpointSeedMode)) <= set(values(DiceMode))
