"""Both layers ship bytecode the Lambda runtime reads: `.pyc` written by the runtime's own Python
(3.13), hash-based and unchecked, so a cold start imports instead of compiling, whatever file times the
asset's zip gives the files.

pip is never run (a fake fills the dependencies layer); the runtime's Python really compiles.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from aws_cdk import App, Stack

from infra import lambdas
from infra.lambdas import PYTHON_VERSION, LocalBundlingError, SharedLayers, compile_layer, runtime_python

TAG = "cpython-" + PYTHON_VERSION.replace(".", "")


def _has_runtime_python() -> bool:
    try:
        runtime_python()
    except LocalBundlingError:
        return False
    return True


# Deploying needs the Lambda runtime's Python (docs/deploy.md); a machine without it cannot compile
# the layers, and says so (the last test); these tests then have nothing to check.
needs_runtime_python = pytest.mark.skipif(
    not _has_runtime_python(),
    reason=f"no Python {PYTHON_VERSION} here: the layers' bytecode is compiled at deploy",
)
ZIP_TIME = 315532800  # 1980-01-01, the time every file of a CDK asset's zip carries


def _fake_pip(command: Sequence[str], **_kwargs: Any) -> subprocess.CompletedProcess[str]:
    target = Path(command[command.index("--target") + 1])
    for package in ("pydantic", "aws_lambda_powertools"):
        (target / package).mkdir(parents=True)
        (target / package / "__init__.py").write_text(f"NAME = {package!r}\n")
    return subprocess.CompletedProcess(list(command), 0, "", "")


@pytest.fixture(scope="module")
def assets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The synthesized code and dependencies layers (their `python/` directories)."""
    patch = pytest.MonkeyPatch()
    patch.setattr(lambdas.subprocess, "run", _fake_pip)
    try:
        app = App(outdir=str(tmp_path_factory.mktemp("cdk") / "out"))
        SharedLayers(Stack(app, "Layers"), "Layers")
        directory = Path(app.synth().directory)
    finally:
        patch.undo()
    found: dict[str, Path] = {}
    for asset in directory.glob("asset.*"):
        if (asset / "python" / "memo").is_dir():
            found["code"] = asset / "python"
        elif (asset / "python" / "pydantic").is_dir():
            found["dependencies"] = asset / "python"
    assert set(found) == {"code", "dependencies"}
    return found


def _runtime(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([runtime_python(), *args], capture_output=True, text=True, check=True, **kwargs)


@needs_runtime_python
def test_the_bytecode_is_compiled_by_the_lambda_runtimes_python() -> None:
    assert lambdas.PYTHON_RUNTIME.name == f"python{PYTHON_VERSION}"
    assert (
        _runtime("-c", "import sys; print('%d.%d' % sys.version_info[:2])").stdout.strip() == PYTHON_VERSION
    )


@needs_runtime_python
@pytest.mark.parametrize("layer", ["code", "dependencies"])
def test_every_module_of_the_layer_has_its_runtime_pyc_and_no_other(
    assets: dict[str, Path], layer: str
) -> None:
    site = assets[layer]
    sources = [path for path in site.rglob("*.py") if "__pycache__" not in path.parts]
    assert sources
    for source in sources:
        assert (source.parent / "__pycache__" / f"{source.stem}.{TAG}.pyc").is_file(), source
    compiled = list(site.rglob("*.pyc"))
    assert len(compiled) == len(sources)
    assert all(path.name.endswith(f".{TAG}.pyc") for path in compiled)  # nothing of this machine's Python


@needs_runtime_python
def test_the_code_layer_ships_no_local_runtime_nor_work_tree_caches(assets: dict[str, Path]) -> None:
    shipped = {path.relative_to(assets["code"]).as_posix() for path in assets["code"].rglob("*")}
    assert {"memo/wiring/ingress.py", f"memo/wiring/__pycache__/ingress.{TAG}.pyc"} <= shipped
    assert not [path for path in shipped if path.startswith("memo/local") or ".egg-info" in path]
    assert not [path for path in shipped if path.endswith(".pyc") and f".{TAG}." not in path]


@needs_runtime_python
def test_the_pyc_are_unchecked_hash_based_for_the_runtimes_magic_number(assets: dict[str, Path]) -> None:
    magic = _runtime("-c", "import importlib.util as u; print(u.MAGIC_NUMBER.hex())").stdout.strip()
    for path in [*assets["code"].rglob("*.pyc"), *assets["dependencies"].rglob("*.pyc")]:
        header = path.read_bytes()[:8]
        assert header[:4].hex() == magic, path
        assert int.from_bytes(header[4:8], "little") == 0b01, path  # PEP 552: hash-based, source unchecked


@needs_runtime_python
def test_the_runtime_imports_the_layer_from_its_bytecode_with_the_zips_file_times(
    assets: dict[str, Path], tmp_path: Path
) -> None:
    """As Lambda sees the layer: mounted read-only at /opt/python, every file dated 1980. The runtime's
    Python imports the bytecode (its source is replaced here by a module that would fail) and writes
    nothing; the code objects name the files where Lambda mounts them."""
    site = tmp_path / "python"
    shutil.copytree(assets["code"], site)
    (site / "memo" / "errors.py").write_text("raise RuntimeError('compiled from the source')\n")
    for path in site.rglob("*"):
        os.utime(path, (ZIP_TIME, ZIP_TIME))
    before = sorted(site.rglob("*"))
    env = {**os.environ, "PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONPYCACHEPREFIX", None)
    probe = "import memo.errors as e; print(e.ConfigurationError.http_status, e.ConfigurationError.__init__.__code__.co_filename)"
    out = _runtime("-c", probe, env=env, cwd=tmp_path).stdout.split()
    assert out == ["500", str(site / "memo" / "errors.py")]  # the runtime names the file it found
    assert sorted(site.rglob("*")) == before
    # Compiled as mounted (/opt/python), not as staged: the same sources give the same layer.
    compiled = (assets["code"] / "memo" / "__pycache__" / f"errors.{TAG}.pyc").read_bytes()
    assert b"/opt/python/memo/errors.py" in compiled
    assert str(assets["code"]).encode() not in compiled


@needs_runtime_python
def test_a_module_the_runtime_cannot_compile_fails_the_build(tmp_path: Path) -> None:
    site = tmp_path / "python"
    (site / "pkg").mkdir(parents=True)
    (site / "pkg" / "__init__.py").write_text("def broken(:\n")
    with pytest.raises(LocalBundlingError, match="compileall says"):
        compile_layer(site)


def test_without_the_runtimes_python_the_build_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEMO_LAMBDA_PYTHON", raising=False)
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(LocalBundlingError, match=r"no Python 3\.99 found.*MEMO_LAMBDA_PYTHON"):
        runtime_python("3.99")
    # The interpreter named by MEMO_LAMBDA_PYTHON must say it is that version.
    monkeypatch.setenv("MEMO_LAMBDA_PYTHON", sys.executable)
    with pytest.raises(LocalBundlingError, match=r"3\.99"):
        runtime_python.__wrapped__("3.99")
