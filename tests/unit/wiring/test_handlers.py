"""Every Lambda handler is wiring only, and no code a Lambda runs imports the local runtime."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
HANDLERS = sorted((ROOT / "functions").glob("*/handler.py"))
SHARED = ROOT / "layers" / "shared" / "python"


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_there_are_seven_handlers() -> None:
    assert [path.parent.name for path in HANDLERS] == [
        "escalation",
        "executor",
        "reminders",
        "responder",
        "review",
        "review_submit",
        "webhook",
    ]


@pytest.mark.parametrize("handler", HANDLERS, ids=lambda path: path.parent.name)
def test_a_handler_is_short_wiring_over_its_runtime(handler: Path) -> None:
    assert len(handler.read_text(encoding="utf-8").splitlines()) < 40
    imports = _imports(handler)
    assert not {name for name in imports if name.split(".")[0] in {"boto3", "botocore", "os"}}
    assert any(name.startswith("memo.wiring.") for name in imports)
    assert "pydantic" not in imports and "functools" not in imports  # no settings, no caches


def test_no_lambda_code_imports_the_local_runtime() -> None:
    shipped = [*HANDLERS, *(path for path in SHARED.rglob("*.py") if "memo/local" not in path.as_posix())]
    offenders = [
        path.relative_to(ROOT).as_posix()
        for path in shipped
        if any(name == "memo.local" or name.startswith("memo.local.") for name in _imports(path))
    ]
    assert offenders == []
