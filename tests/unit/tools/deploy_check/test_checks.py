"""The checks that need nothing running: the layers' contents and cfn-lint's command."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from tools.deploy_check.checks import (
    CFN_LINT_IGNORED,
    cfn_lint_command,
    code_layer_problems,
    dependencies_layer_report,
    modules_without_bytecode,
)
from tools.deploy_check.wheels import Runtime

MAGIC = importlib.util.MAGIC_NUMBER


def _code_layer(root: Path, *, local: bool = False, bytecode: bool = True) -> Path:
    for package in ("memo", "caseplatform"):
        (root / "python" / package / "__pycache__").mkdir(parents=True)
        (root / "python" / package / "__init__.py").write_text("")
        if bytecode:
            (root / "python" / package / "__pycache__" / "__init__.cpython-313.pyc").write_bytes(
                MAGIC + b"\0" * 12
            )
    if local:
        (root / "python" / "memo" / "local").mkdir()
    return root


def test_the_code_layer_ships_memo_and_caseplatform_with_bytecode(tmp_path: Path) -> None:
    assert code_layer_problems(_code_layer(tmp_path)) == []


def test_a_code_layer_with_the_local_runtime_or_without_its_packages_is_named(tmp_path: Path) -> None:
    assert code_layer_problems(_code_layer(tmp_path / "a", local=True)) == [
        "it ships memo.local (the local runtime)"
    ]
    assert code_layer_problems(tmp_path / "empty") == ["no memo package", "no caseplatform package"]


def test_a_layer_without_bytecode_has_every_module_listed(tmp_path: Path) -> None:
    site = _code_layer(tmp_path, bytecode=False) / "python"
    assert modules_without_bytecode(site, MAGIC) == (2, ["caseplatform/__init__.py", "memo/__init__.py"])


def test_modules_without_the_runtimes_bytecode_are_listed(tmp_path: Path) -> None:
    site = _code_layer(tmp_path) / "python"
    (site / "memo" / "late.py").write_text("")
    (site / "memo" / "stale.py").write_text("")
    (site / "memo" / "__pycache__" / "stale.cpython-313.pyc").write_bytes(b"\x00\x00\r\n" + b"\0" * 12)
    assert modules_without_bytecode(site, MAGIC) == (4, ["memo/late.py", "memo/stale.py"])


def test_an_empty_dependencies_layer_is_a_placeholder_that_must_not_deploy(tmp_path: Path) -> None:
    (tmp_path / "python").mkdir()
    report = dependencies_layer_report(tmp_path, Runtime("aarch64"))
    assert report.problems == ["the dependencies layer is empty (a placeholder): it must not be deployed"]


def test_cfn_lint_runs_beside_this_python_with_its_ignores_named(tmp_path: Path) -> None:
    command = cfn_lint_command(tmp_path / "t.json", ["us-east-1", "eu-west-1"])
    assert Path(command[0]).name == "cfn-lint"
    assert command[command.index("--regions") + 1 : command.index("--ignore-checks")] == [
        "us-east-1",
        "eu-west-1",
    ]
    assert command[-1] == str(tmp_path / "t.json") and set(CFN_LINT_IGNORED) <= set(command)
