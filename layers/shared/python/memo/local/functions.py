"""Load the Lambda handlers by file path, exactly as Lambda does (`handler.py` at its asset's root)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[5]
FUNCTIONS_DIR = REPO_ROOT / "functions"

Handler = Callable[[dict[str, Any], Any], Any]


def load_module(name: str) -> ModuleType:
    module_name = f"memo_function_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    path = FUNCTIONS_DIR / name / "handler.py"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(f"no Lambda handler at {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]  # a failed load is not kept half-loaded for the next call
        raise
    return module


def load_handler(name: str) -> Handler:
    handler: Handler = load_module(name).handler
    return handler
