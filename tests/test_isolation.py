"""The test suite keeps out of the repository: keys made by test apps go to temporary folders."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask

from service import create_app
from service.receipts import keys

ROOT = Path(__file__).resolve().parent.parent


def test_an_app_built_in_a_test_makes_its_keys_outside_the_repository() -> None:
    app = create_app({"TESTING": True})
    assert app.test_client().get("/.well-known/jwks.json").status_code == 200
    made = keys.data_file({}, keys.SIGNING)
    assert made.is_file()
    assert not made.resolve().is_relative_to(ROOT), made


def test_each_test_and_each_module_has_a_data_folder_of_its_own(app: Flask) -> None:
    here = Path(os.environ["FIRECONTROL_DATA_DIR"])
    assert not here.resolve().is_relative_to(ROOT)
    assert here.name.startswith("test-")
    # The session app, and apps built while a module is imported, use other folders.
    assert Path(app.config["FIRECONTROL_DATA_DIR"]) != here
    assert Path(MODULE_FOLDER).name.startswith("module-") and Path(MODULE_FOLDER) != here


MODULE_FOLDER = os.environ["FIRECONTROL_DATA_DIR"]
