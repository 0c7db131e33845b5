"""The functions' layers and how they are built (infra/lambdas.py): how pip is called, that Docker is
never the fallback, and the bytecode both layers ship: `.pyc` written by the runtime's own Python
(3.13), hash-based and unchecked, so a cold start imports instead of compiling, whatever file times the
asset's zip gives the files.

pip is never run: `subprocess.run` is replaced by a fake that records the command and writes what pip
would have written; the runtime's Python really compiles.
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
from infra.lambdas import (
    PYTHON_VERSION,
    LocalBundlingError,
    PipLocalBundling,
    SharedLayers,
    compile_layer,
    pip_install_command,
    runtime_python,
)
from infra.layer_requirements import layer_requirements
from infra.settings import BUNDLING_STACKS_CONTEXT_KEY, PROJECT_ROOT


class FakePip:
    """Stands in for `subprocess.run(pip ...)`; fills the --target directory like pip would."""

    def __init__(self, returncode: int = 0, stderr: str = "") -> None:
        self.returncode = returncode
        self.stderr = stderr
        self.commands: list[list[str]] = []
        self.requirements: list[str] = []  # the requirements file of each command

    def __call__(self, command: Sequence[str], **_kwargs: Any) -> subprocess.CompletedProcess[str]:
        self.commands.append(list(command))
        if self.returncode == 0:
            target = Path(command[command.index("--target") + 1])
            self.requirements.append(Path(command[command.index("--requirement") + 1]).read_text())
            for package in ("pydantic", "aws_lambda_powertools"):
                (target / package).mkdir(parents=True)
                (target / package / "__init__.py").write_text("")
        return subprocess.CompletedProcess(list(command), self.returncode, "", self.stderr)


def _layers_stack(context: dict[str, Any], outdir: Path, pyproject: Path | None = None) -> App:
    app = App(context=context, outdir=str(outdir))
    stack = Stack(app, "Layers")
    SharedLayers(stack, "Layers", **({"pyproject": pyproject} if pyproject else {}))
    return app


def _warnings(app: App) -> list[str]:
    return [
        str(entry.data).split("[ack: Annotation::")[-1].rstrip("]")
        for construct in app.node.find_all()
        for entry in construct.node.metadata
        if entry.type == "aws:cdk:warning"
    ]


def test_pip_command_installs_exactly_the_hashed_requirements_as_linux_arm64_wheels() -> None:
    command = pip_install_command("/out/python", "/tmp/requirements.txt", "3.13")
    assert command[1:4] == ["-m", "pip", "install"]
    assert "manylinux2014_aarch64" in command
    assert command[command.index("--implementation") + 1] == "cp"
    assert command[command.index("--python-version") + 1] == "3.13"
    assert {"--only-binary=:all:", "--no-deps", "--require-hashes"} <= set(command)
    assert command[command.index("--target") + 1] == "/out/python"
    assert command[-2:] == ["--requirement", "/tmp/requirements.txt"]
    assert lambdas.PYTHON_RUNTIME.name == f"python{lambdas.PYTHON_VERSION}"


def test_bundling_builds_the_layer_locally_from_the_locked_requirements(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pip = FakePip()
    monkeypatch.setattr(lambdas.subprocess, "run", pip)
    app = _layers_stack({}, tmp_path / "out")
    assembly = app.synth()

    assert len(pip.commands) == 1
    # What pip installs is the lock's runtime packages (tests/infra/test_layer_requirements.py).
    assert pip.requirements == [layer_requirements(PROJECT_ROOT, lambdas.PYTHON_VERSION)]
    staged = [p for p in Path(assembly.directory).glob("asset.*") if (p / "python").is_dir()]
    installed = {p.name for s in staged for p in (s / "python").iterdir()}
    assert {"pydantic", "aws_lambda_powertools"} <= installed
    assert _warnings(app) == []  # a built layer is deployable: no "not built" warning


def test_failed_local_bundling_raises_a_clear_error_instead_of_using_docker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lambdas.subprocess, "run", FakePip(returncode=1, stderr="No matching distribution"))
    with pytest.raises(RuntimeError) as failure:
        _layers_stack({}, tmp_path / "out")
    message = str(failure.value)
    assert "Docker is not used" in message
    assert "No matching distribution" in message
    assert "-c bundle=false" in message


def test_local_bundling_reports_pip_that_cannot_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing(*_args: Any, **_kwargs: Any) -> None:
        raise FileNotFoundError("python")

    monkeypatch.setattr(lambdas.subprocess, "run", missing)
    with pytest.raises(lambdas.LocalBundlingError, match="could not run pip"):
        PipLocalBundling("pydantic==2.0\n", "3.13").try_bundle(str(tmp_path))


def test_bundling_is_skipped_when_the_bundling_stacks_context_is_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pip = FakePip(returncode=1, stderr="must not run")
    monkeypatch.setattr(lambdas.subprocess, "run", pip)
    app = _layers_stack({BUNDLING_STACKS_CONTEXT_KEY: []}, tmp_path / "out")
    app.synth()
    assert pip.commands == []
    assert _warnings(app) == ["memo:DependenciesLayerNotBuilt"]


def test_the_code_layer_ships_memo_and_caseplatform_without_the_local_runtime(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lambdas.subprocess, "run", FakePip())
    assembly = _layers_stack({}, tmp_path / "out").synth()
    code = [
        asset / "python"
        for asset in Path(assembly.directory).glob("asset.*")
        if (asset / "python" / "memo").is_dir()
    ]
    assert len(code) == 1
    shipped = {path.relative_to(code[0]).as_posix() for path in code[0].rglob("*")}
    assert {"memo/wiring/webhook.py", "caseplatform/service.py", "memo/settings.py"} <= shipped
    assert not [path for path in shipped if path.startswith("memo/local")]
    # Only the runtime's own bytecode (tests/infra/test_layer_bytecode.py), none of this work tree's.
    assert not [path for path in shipped if path.endswith(".pyc") and ".cpython-313." not in path]
    assert (PROJECT_ROOT / "layers/shared/python/memo/local/stack.py").is_file()  # excluded, not absent


# --- bytecode --------------------------------------------------------------------------------------


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


def _fake_pip_with_modules(command: Sequence[str], **_kwargs: Any) -> subprocess.CompletedProcess[str]:
    target = Path(command[command.index("--target") + 1])
    for package in ("pydantic", "aws_lambda_powertools"):
        (target / package).mkdir(parents=True)
        (target / package / "__init__.py").write_text(f"NAME = {package!r}\n")
    return subprocess.CompletedProcess(list(command), 0, "", "")


@pytest.fixture(scope="module")
def assets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The synthesized code and dependencies layers (their `python/` directories)."""
    patch = pytest.MonkeyPatch()
    patch.setattr(lambdas.subprocess, "run", _fake_pip_with_modules)
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
