"""The size limits `make lint` holds the code to: a module over 500 lines or a function over 60 fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.check_sizes import FUNCTION_LINES, MODULE_LINES, main


def _function(name: str, lines: int, indent: str = "") -> str:
    body = "".join(f"{indent}    x{i} = {i}\n" for i in range(lines - 2))
    return f"{indent}def {name}() -> int:\n{body}{indent}    return 0\n"


def test_the_repository_holds_its_limits() -> None:
    assert main([]) == 0


@pytest.mark.parametrize("lines", [FUNCTION_LINES - 1, FUNCTION_LINES])
def test_a_function_at_the_limit_passes(tmp_path: Path, lines: int) -> None:
    (tmp_path / "ok.py").write_text(_function("fine", lines))
    assert main([str(tmp_path)]) == 0


def test_a_function_past_the_limit_fails_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "long.py").write_text("import os\n\n\n" + _function("too_long", FUNCTION_LINES + 1))
    assert main([str(tmp_path)]) == 1
    assert f"long.py:4: function too_long is {FUNCTION_LINES + 1} lines (limit {FUNCTION_LINES})" in (
        capsys.readouterr().out
    )


def test_a_method_past_the_limit_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "cls.py").write_text("class Big:\n" + _function("method", FUNCTION_LINES + 5, indent="    "))
    assert main([str(tmp_path)]) == 1
    assert "function method" in capsys.readouterr().out


def test_a_module_at_the_limit_passes_and_one_line_more_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = tmp_path / "big.py"
    module.write_text("".join(f"x{i} = {i}\n" for i in range(MODULE_LINES)))
    assert main([str(tmp_path)]) == 0
    module.write_text("".join(f"x{i} = {i}\n" for i in range(MODULE_LINES + 1)))
    assert main([str(tmp_path)]) == 1
    assert f"big.py:1: module is {MODULE_LINES + 1} lines (limit {MODULE_LINES})" in capsys.readouterr().out


def test_generated_and_virtualenv_folders_are_not_measured(tmp_path: Path) -> None:
    for skipped in (".venv", "cdk.out", "__pycache__"):
        (tmp_path / skipped).mkdir()
        (tmp_path / skipped / "huge.py").write_text(_function("huge", FUNCTION_LINES * 3))
    assert main([str(tmp_path)]) == 0
