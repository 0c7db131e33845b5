"""The dependencies layer: what goes in, how pip is called, and that Docker is never the fallback.

These tests never run pip: `subprocess.run` is replaced by a fake that records the command and
writes what pip would have written.
"""

from __future__ import annotations

import subprocess
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from aws_cdk import App, Stack

from infra import lambdas
from infra.application import build_app, bundling_enabled
from infra.lambdas import PipLocalBundling, SharedLayers, layer_dependencies, pip_install_command
from infra.settings import BUNDLING_STACKS_CONTEXT_KEY, PROJECT_ROOT


class FakePip:
    """Stands in for `subprocess.run(pip ...)`; fills the --target directory like pip would."""

    def __init__(self, returncode: int = 0, stderr: str = "") -> None:
        self.returncode = returncode
        self.stderr = stderr
        self.commands: list[list[str]] = []

    def __call__(self, command: Sequence[str], **_kwargs: Any) -> subprocess.CompletedProcess[str]:
        self.commands.append(list(command))
        if self.returncode == 0:
            target = Path(command[command.index("--target") + 1])
            for package in ("pydantic", "botocore", "s3transfer", "aws_lambda_powertools"):
                (target / package).mkdir(parents=True)
                (target / package / "__init__.py").write_text("")
            (target / "botocore-1.35.0.dist-info").mkdir()
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


def test_layer_dependencies_are_the_project_dependencies_minus_what_lambda_provides() -> None:
    with (PROJECT_ROOT / "pyproject.toml").open("rb") as handle:
        declared = tomllib.load(handle)["project"]["dependencies"]
    deps = layer_dependencies()
    assert [d for d in declared if not d.lower().startswith(("boto3", "botocore"))] == deps
    assert any(d.startswith("aws-lambda-powertools") for d in deps)
    assert not any(d.lower().startswith(("boto3", "botocore")) for d in deps)


def test_layer_dependencies_normalize_names(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[project]\ndependencies = ["Boto3>=1", "botocore", "S3Transfer", "pydantic[email]>=2"]\n'
    )
    assert layer_dependencies(pyproject) == ["pydantic[email]>=2"]


def test_pip_command_targets_linux_arm64_wheels_for_the_lambda_python() -> None:
    command = pip_install_command("/out/python", ["pydantic>=2"], "3.13")
    assert command[1:4] == ["-m", "pip", "install"]
    assert "manylinux2014_aarch64" in command
    assert command[command.index("--implementation") + 1] == "cp"
    assert command[command.index("--python-version") + 1] == "3.13"
    assert "--only-binary=:all:" in command
    assert command[command.index("--target") + 1] == "/out/python"
    assert command[-1] == "pydantic>=2"
    assert lambdas.PYTHON_RUNTIME.name == f"python{lambdas.PYTHON_VERSION}"


def test_bundling_builds_the_layer_locally_and_drops_runtime_packages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pip = FakePip()
    monkeypatch.setattr(lambdas.subprocess, "run", pip)
    app = _layers_stack({}, tmp_path / "out")
    assembly = app.synth()

    assert len(pip.commands) == 1
    assert pip.commands[0][-len(layer_dependencies()) :] == layer_dependencies()
    staged = [p for p in Path(assembly.directory).glob("asset.*") if (p / "python").is_dir()]
    installed = {p.name for s in staged for p in (s / "python").iterdir()}
    assert {"pydantic", "aws_lambda_powertools"} <= installed
    assert not installed & {"botocore", "s3transfer", "botocore-1.35.0.dist-info"}
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
        PipLocalBundling(["pydantic"], "3.13").try_bundle(str(tmp_path))


def test_bundling_is_skipped_when_the_bundling_stacks_context_is_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pip = FakePip(returncode=1, stderr="must not run")
    monkeypatch.setattr(lambdas.subprocess, "run", pip)
    app = _layers_stack({BUNDLING_STACKS_CONTEXT_KEY: []}, tmp_path / "out")
    app.synth()
    assert pip.commands == []
    assert _warnings(app) == ["memo:DependenciesLayerNotBuilt"]


@pytest.mark.parametrize(
    ("value", "run_by_cli", "expected"),
    [
        (None, False, False),  # python app.py / make synth: offline
        (None, True, True),  # cdk synth / cdk deploy: real layer
        ("auto", True, True),
        ("false", True, False),
        ("true", False, True),
        (True, False, True),
    ],
)
def test_bundle_flag(value: object, run_by_cli: bool, expected: bool) -> None:
    assert bundling_enabled(value, run_by_cli=run_by_cli) is expected


def test_build_app_skips_bundling_outside_the_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pip = FakePip()
    monkeypatch.setattr(lambdas.subprocess, "run", pip)
    app, _ = build_app(outdir=str(tmp_path), environ={})
    assert app.node.try_get_context(BUNDLING_STACKS_CONTEXT_KEY) == []
    assert pip.commands == []
    app, _ = build_app(outdir=str(tmp_path), environ={"CDK_OUTDIR": str(tmp_path)})
    assert app.node.try_get_context(BUNDLING_STACKS_CONTEXT_KEY) is None
    assert len(pip.commands) == 1  # run by the CLI: the layer is built (by the fake pip here)


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
