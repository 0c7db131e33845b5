"""Lambda handlers are loaded by file path from `functions/<name>/handler.py`, once per process."""

from __future__ import annotations

import pytest

from memo.local.functions import FUNCTIONS_DIR, load_handler, load_module


def test_every_deployed_function_has_a_loadable_handler() -> None:
    names = sorted(p.parent.name for p in FUNCTIONS_DIR.glob("*/handler.py"))
    assert "webhook" in names and "reminders" in names
    for name in names:
        assert callable(load_handler(name))


def test_a_handler_module_is_loaded_once() -> None:
    assert load_module("responder") is load_module("responder")
    assert load_module("responder").__file__ == str(FUNCTIONS_DIR / "responder" / "handler.py")


def test_a_missing_function_is_named() -> None:
    with pytest.raises(FileNotFoundError):
        load_handler("no_such_function")


def test_a_failed_load_is_not_kept_half_loaded() -> None:
    for _ in range(2):  # the second call fails the same way, not with a half-loaded module
        with pytest.raises(FileNotFoundError):
            load_module("no_such_function")
