"""docs/rulings.md is what tools/rulings_doc.py writes from the rulings the service serves."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from service.rulesets import REGISTERED

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "rulings.md"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rulings_doc", ROOT / "tools" / "rulings_doc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_page_is_current() -> None:
    page = PAGE.read_text(encoding="utf-8")
    assert page == _generator().render(), "docs/rulings.md is out of date: run make rulings"


def test_the_page_names_every_ruling_and_reading_of_every_ruleset() -> None:
    page = PAGE.read_text(encoding="utf-8")
    for name in REGISTERED:
        ruleset = importlib.import_module(f"service.rulesets.{name}").RULESET
        assert f"(`{ruleset.id}`)" in page
        for ruling in ruleset.rulings:
            assert f'<a id="{ruleset.id}-{ruling.id}"></a>' in page
            for reading in ruling.readings:
                assert f"| `{reading.id}` |" in page, (ruleset.id, ruling.id, reading.id)


def test_every_ruling_with_readings_says_which_the_wording_supports() -> None:
    for name in REGISTERED:
        for ruling in importlib.import_module(f"service.rulesets.{name}").RULESET.optional:
            assert ruling.wording, ruling.id


def test_check_mode_fails_on_a_stale_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    generator = _generator()
    stale = tmp_path / "rulings.md"
    stale.write_text("# Rulings\n", encoding="utf-8")
    monkeypatch.setattr(generator, "PAGE", stale)
    monkeypatch.setattr(generator, "ROOT", tmp_path)
    assert generator.main(["--check"]) == 1
    assert generator.main([]) == 0
    assert generator.main(["--check"]) == 0
    assert stale.read_text(encoding="utf-8") == PAGE.read_text(encoding="utf-8")
