"""Python Lambda functions and their two layers, built the same way for every function.

- `SharedLayers`: the code layer (`layers/shared`: the `memo` and `caseplatform` packages, without the
  local runtime `memo.local`) and the dependencies layer: the runtime packages of `uv.lock` (what the
  tests ran with), exported by `uv export` with their hashes, minus what the Lambda runtime ships, and
  installed by `pip install --require-hashes --platform ...` on this machine. Docker is never used:
  the bundling image is a placeholder and a failed local build raises `LocalBundlingError`.
- Both layers ship their bytecode: every module compiled by the runtime's own Python (`python3.13`,
  found on this machine; its `.pyc` are what Lambda's runtime reads) into `__pycache__/*.cpython-313.pyc`,
  as unchecked hash-based `.pyc` (PEP 552): the asset's zip gives every file the same old time, which
  would make timestamp-checked `.pyc` stale, and a layer is never edited. A cold start then imports
  bytecode instead of compiling every module it imports.
- `MemoFunction`: one Lambda function with its own role (no managed policies), its own log group
  with retention, JSON logging, X-Ray active tracing, arm64, and the Powertools environment.
  Permissions are added by the caller with `grant_*` on the resource it needs.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess  # nosec B404 - runs pip with a fixed argument list, no shell
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from subprocess import run as run_compiler  # nosec B404 - the runtime's Python, fixed arguments, no shell
from typing import cast

import jsii
from aws_cdk import (
    Acknowledgment,
    AssetHashType,
    BundlingOptions,
    CfnRule,
    CfnRuleAssertion,
    DockerImage,
    Duration,
    Fn,
    ILocalBundling,
    Stack,
    Validations,
)
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.layer_requirements import (
    PYPROJECT,
    LocalBundlingError,
    layer_dependencies,
    layer_requirements,
    normalized_name,
)
from infra.settings import PROJECT_ROOT

# One runtime for every function and for the wheels of the dependencies layer.
PYTHON_RUNTIME = lambda_.Runtime.PYTHON_3_13
PYTHON_VERSION = "3.13"
ARCHITECTURE = lambda_.Architecture.ARM_64
# Lambda's Python 3.12+ runtimes run on Amazon Linux 2023 (glibc 2.34): every manylinux tag up to
# 2_34 runs there. Listed explicitly because pip does not expand `--platform` to older tags.
WHEEL_PLATFORMS = (
    "manylinux2014_aarch64",
    "manylinux_2_17_aarch64",
    "manylinux_2_28_aarch64",
    "manylinux_2_34_aarch64",
)
SHARED_LAYER_DIR = PROJECT_ROOT / "layers" / "shared"
DEPENDENCIES_LAYER_DIR = PROJECT_ROOT / "layers" / "dependencies"
FUNCTIONS_DIR = PROJECT_ROOT / "functions"
ASSET_EXCLUDES = ["**/__pycache__", "**/*.pyc", "**/*.egg-info", "**/.pytest_cache", "**/.mypy_cache"]
# The local runtime (moto, the HTTP server, the fake Step Functions) never runs in a Lambda.
SHARED_LAYER_EXCLUDES = [*ASSET_EXCLUDES, "python/memo/local"]
# Where Lambda mounts a layer: the paths compiled into the bytecode (tracebacks) are the runtime's.
LAYER_MOUNT = "/opt"
# The dependencies layer's description starts so (`infra.deploy_guard` finds the layer by it).
DEPENDENCIES_DESCRIPTION = "Memo third-party dependencies"
# The CloudFormation rule of an assembly synthesized without the built dependencies layer.
NOT_BUILT_RULE_ID = "DependenciesLayerNotBuilt"
NOT_BUILT_MESSAGE = (
    "This cloud assembly was synthesized with bundle=false: its dependencies layer is an empty "
    "placeholder and every function would fail on import. Synthesize it again with the layer built "
    "(make deploy, or cdk deploy without bundle=false)."
)
# Names of what the code layer's bundling never copies (ASSET_EXCLUDES, as names).
_NOT_SHIPPED = ("__pycache__", "*.pyc", "*.egg-info", ".pytest_cache", ".mypy_cache")

_APPLICATION_LOG_LEVELS: Mapping[str, lambda_.ApplicationLogLevel] = {
    "DEBUG": lambda_.ApplicationLogLevel.DEBUG,
    "INFO": lambda_.ApplicationLogLevel.INFO,
    "WARNING": lambda_.ApplicationLogLevel.WARN,
    "ERROR": lambda_.ApplicationLogLevel.ERROR,
}


def pip_install_command(target: str, requirements_file: str, python_version: str) -> list[str]:
    """The pip command that fills `target` with the Linux arm64 wheels for `python_version` of exactly
    the packages of `requirements_file`, each checked against its hashes."""
    platforms = [arg for platform in WHEEL_PLATFORMS for arg in ("--platform", platform)]
    return [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-compile",  # .pyc files of this machine's Python would be useless on the runtime
        *platforms,
        "--implementation",
        "cp",
        "--python-version",
        python_version,
        "--only-binary=:all:",
        "--no-deps",  # the file is the whole locked closure
        "--require-hashes",
        "--target",
        target,
        "--requirement",
        requirements_file,
    ]


@jsii.implements(ILocalBundling)
class PipLocalBundling:
    """Builds the dependencies layer with pip on the synthesizing machine.

    Returns True after a successful build; raises `LocalBundlingError` otherwise. It never returns
    False, because False would make CDK fall back to Docker.
    """

    def __init__(self, requirements: str, python_version: str) -> None:
        """`requirements`: the requirements file's text (`layer_requirements`)."""
        self.requirements = requirements
        self.python_version = python_version

    def try_bundle(self, output_dir: str, options: object = None) -> bool:
        """jsii calls this with the output directory and the BundlingOptions (unused here)."""
        target = Path(output_dir) / "python"
        with tempfile.TemporaryDirectory(prefix="memo-layer-") as scratch:
            requirements_file = Path(scratch) / "requirements.txt"
            requirements_file.write_text(self.requirements)
            command = pip_install_command(str(target), str(requirements_file), self.python_version)
            try:
                result = subprocess.run(  # noqa: S603 - fixed argument list, no shell  # nosec B603
                    command, capture_output=True, text=True, check=False
                )
            except OSError as error:
                raise LocalBundlingError(
                    f"could not run pip to build the dependencies layer: {error}"
                ) from error
        if result.returncode != 0:
            output = (result.stderr or result.stdout).strip()[-4000:]
            raise LocalBundlingError(
                "building the dependencies layer with pip failed (exit code "
                f"{result.returncode}); Docker is not used as a fallback. It needs network access to "
                "PyPI (or a configured index). To synthesize for tests without building layers (an "
                "assembly that cannot be deployed), pass `-c bundle=false -c placeholder_layer_for_tests=true`."
                f"\ncommand: {' '.join(command)}\npip says:\n{output}"
            )
        compile_layer(target, self.python_version)
        return True


@functools.cache
def runtime_python(version: str = PYTHON_VERSION) -> str:
    """The path of a Python `version` interpreter on this machine (the Lambda runtime's): what compiles
    the layers' bytecode, since a `.pyc` is read only by the Python version that wrote it.

    Looked for as MEMO_LAMBDA_PYTHON, `python<version>` on the PATH, then pyenv's installed versions;
    each candidate is run and must say it is `version`. None: `LocalBundlingError`."""
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    candidates = [
        os.environ.get("MEMO_LAMBDA_PYTHON"),
        shutil.which(f"python{version}"),
        *sorted(str(path) for path in pyenv.glob(f"versions/{version}*/bin/python{version}")),
        f"/usr/bin/python{version}",
        f"/usr/local/bin/python{version}",
    ]
    for candidate in dict.fromkeys(c for c in candidates if c):
        try:
            said = run_compiler(  # noqa: S603 - a Python interpreter, fixed arguments  # nosec B603
                [candidate, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                capture_output=True,
                text=True,
                check=False,
                timeout=60,
            )
        except (OSError, subprocess.SubprocessError):
            continue
        if said.returncode == 0 and said.stdout.strip() == version:
            return candidate
    raise LocalBundlingError(
        f"no Python {version} found to compile the layers' bytecode for the Lambda runtime (python{version}): "
        f"install it, put python{version} on the PATH or set MEMO_LAMBDA_PYTHON. To synthesize without "
        "building layers (for tests: an assembly that cannot be deployed), pass `-c bundle=false -c "
        "placeholder_layer_for_tests=true`."
    )


def compile_command(python: str, site: Path) -> list[str]:
    """compileall over a layer's `python/` directory: unchecked hash-based `.pyc`, paths as mounted."""
    return [
        python,
        "-m",
        "compileall",
        "-q",
        "-j",
        "0",
        "--invalidation-mode",
        "unchecked-hash",
        "-s",
        str(site.parent),
        "-p",
        LAYER_MOUNT,
        str(site),
    ]


def compile_layer(site: Path, python_version: str = PYTHON_VERSION) -> None:
    """Write the bytecode of every module under `site` for the Lambda runtime's Python."""
    command = compile_command(runtime_python(python_version), site)
    try:
        result = run_compiler(  # noqa: S603 - fixed argument list, no shell  # nosec B603
            command, capture_output=True, text=True, check=False
        )
    except OSError as error:
        raise LocalBundlingError(
            f"could not run Python {python_version} to compile the layer: {error}"
        ) from error
    if result.returncode != 0:
        output = (result.stdout + result.stderr).strip()[-4000:]
        raise LocalBundlingError(
            f"compiling the layer's bytecode with Python {python_version} failed (exit code {result.returncode})."
            f"\ncommand: {' '.join(command)}\ncompileall says:\n{output}"
        )


@jsii.implements(ILocalBundling)
class CodeLocalBundling:
    """Builds the code layer on the synthesizing machine: `layers/shared/python` without the local
    runtime and without this machine's caches, then its bytecode for the Lambda runtime's Python."""

    def __init__(self, source: Path, python_version: str) -> None:
        self.source = source
        self.python_version = python_version

    def try_bundle(self, output_dir: str, options: object = None) -> bool:
        site = Path(output_dir) / "python"
        local_runtime = self.source / "python" / "memo" / "local"
        not_shipped = shutil.ignore_patterns(*_NOT_SHIPPED)

        def ignore(directory: str, names: list[str]) -> set[str]:
            ignored = set(not_shipped(directory, names))
            if Path(directory) == local_runtime.parent:
                ignored.add(local_runtime.name)
            return ignored

        shutil.copytree(self.source / "python", site, ignore=ignore, dirs_exist_ok=True)
        compile_layer(site, self.python_version)
        return True


class SharedLayers(Construct):
    """The code layer and the dependencies layer that every Memo function uses."""

    def __init__(self, scope: Construct, construct_id: str, *, pyproject: Path = PYPROJECT) -> None:
        super().__init__(scope, construct_id)
        # Bundled (copied, then compiled for the runtime's Python) when the stack's assets are built;
        # without bundling (the test-only `-c bundle=false`, or a CLI command that builds no asset such
        # as `cdk destroy`) the source alone.
        code_bundling = (
            BundlingOptions(
                image=DockerImage.from_registry("unused-local-bundling-only"),
                local=cast(ILocalBundling, CodeLocalBundling(SHARED_LAYER_DIR, PYTHON_VERSION)),
            )
            if Stack.of(self).bundling_required
            else None
        )
        self.code = lambda_.LayerVersion(
            self,
            "Code",
            description="Memo shared code: the memo and caseplatform packages",
            code=lambda_.Code.from_asset(
                str(SHARED_LAYER_DIR),
                exclude=SHARED_LAYER_EXCLUDES,
                bundling=code_bundling,
                asset_hash_type=AssetHashType.OUTPUT if code_bundling else None,
            ),
            compatible_runtimes=[PYTHON_RUNTIME],
            compatible_architectures=[ARCHITECTURE],
        )
        requirements = layer_dependencies(pyproject)
        # Exported from uv.lock only when the layer is built: an unbuilt layer needs no requirements.
        locked = (
            layer_requirements(pyproject.parent, PYTHON_VERSION) if Stack.of(self).bundling_required else ""
        )
        self.dependencies = lambda_.LayerVersion(
            self,
            "Dependencies",
            description=f"{DEPENDENCIES_DESCRIPTION}: " + ", ".join(normalized_name(r) for r in requirements),
            code=lambda_.Code.from_asset(
                str(DEPENDENCIES_LAYER_DIR),
                # The output decides the hash: the layer changes exactly when the installed packages do.
                asset_hash_type=AssetHashType.OUTPUT,
                bundling=BundlingOptions(
                    # Required by the API, never pulled or run: PipLocalBundling always builds or raises.
                    image=DockerImage.from_registry("unused-local-bundling-only"),
                    # jsii hands the options over as one positional struct, not as the keyword
                    # arguments of the generated ILocalBundling protocol, hence the cast.
                    local=cast(ILocalBundling, PipLocalBundling(locked, PYTHON_VERSION)),
                ),
            ),
            compatible_runtimes=[PYTHON_RUNTIME],
            compatible_architectures=[ARCHITECTURE],
        )

        if not Stack.of(self).bundling_required:
            self._refuse_deployment()

    def _refuse_deployment(self) -> None:
        """The layer is a placeholder (its source directory, nothing installed): say so, and make
        CloudFormation refuse any create or update of the stack from this assembly. A rule's
        assertion is checked before any resource changes, and this one never holds."""
        Validations.of(self.dependencies).add_warning(
            "memo:DependenciesLayerNotBuilt",
            "Bundling is off (`-c bundle=false`): the dependencies layer is a placeholder and this cloud "
            "assembly cannot be deployed (its CloudFormation rule fails).",
        )
        CfnRule(
            self,
            NOT_BUILT_RULE_ID,
            assertions=[
                CfnRuleAssertion(
                    assert_=Fn.condition_equals("dependencies-layer-placeholder", "dependencies-layer-built"),
                    assert_description=NOT_BUILT_MESSAGE,
                )
            ],
        )

    @property
    def layers(self) -> list[lambda_.ILayerVersion]:
        return [self.dependencies, self.code]


@dataclass(frozen=True)
class FunctionDefaults:
    """What every function of the stack shares."""

    layers: Sequence[lambda_.ILayerVersion]
    log_retention: logs.RetentionDays
    log_level: str = "INFO"
    metrics_namespace: str = "Memo"


class MemoFunction(Construct):
    """A Python Lambda function from `functions/<name>/handler.py` with entry `handler`.

    `function`, `role` and `log_group` are exposed so the caller can grant access (`table.grant_*`,
    `queue.grant_*`), add event sources and alarms. The role starts with no permissions beyond
    writing its own log group and X-Ray segments.
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        name: str,
        defaults: FunctionDefaults,
        description: str,
        environment: Mapping[str, str] | None = None,
        memory_size: int = 512,
        timeout: Duration | None = None,
        reserved_concurrency: int | None = None,
    ) -> None:
        super().__init__(scope, construct_id)
        code_dir = FUNCTIONS_DIR / name
        if not (code_dir / "handler.py").is_file():
            raise FileNotFoundError(f"{code_dir / 'handler.py'} does not exist")

        self.log_group = logs.LogGroup(self, "Logs", retention=defaults.log_retention)
        self.role = iam.Role(
            self,
            "Role",
            assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
            description=f"Memo {name} function",
        )
        self.log_group.grant_write(self.role)

        env = {
            "POWERTOOLS_SERVICE_NAME": f"memo-{name}",
            "POWERTOOLS_METRICS_NAMESPACE": defaults.metrics_namespace,
            "LOG_LEVEL": defaults.log_level,
            **(environment or {}),
        }
        self.function = lambda_.Function(
            self,
            "Function",
            description=description,
            runtime=PYTHON_RUNTIME,
            architecture=ARCHITECTURE,
            handler="handler.handler",
            code=lambda_.Code.from_asset(str(code_dir), exclude=ASSET_EXCLUDES),
            layers=list(defaults.layers),
            role=self.role,
            memory_size=memory_size,
            timeout=timeout or Duration.seconds(30),
            reserved_concurrent_executions=reserved_concurrency,
            tracing=lambda_.Tracing.ACTIVE,
            logging_format=lambda_.LoggingFormat.JSON,
            application_log_level_v2=_APPLICATION_LOG_LEVELS[defaults.log_level],
            system_log_level_v2=lambda_.SystemLogLevel.WARN,
            log_group=self.log_group,
            environment=env,
        )
        self._acknowledge_findings()

    def _acknowledge_findings(self) -> None:
        """The cdk-nag findings every function has, and why they stay."""
        Validations.of(self.role).acknowledge(
            Acknowledgment(
                id="AwsSolutions-IAM5[Resource::*]",
                reason="X-Ray PutTraceSegments/PutTelemetryRecords (active tracing) have no resource-level "
                "permissions; they are the only statements on Resource '*'.",
            )
        )
        Validations.of(self.function).acknowledge(
            Acknowledgment(
                id="AwsSolutions-L1",
                reason=f"Pinned to {PYTHON_VERSION}: the dependencies layer's wheels are built for exactly "
                "this runtime; moving to a newer one is a deliberate change with its own test run.",
            )
        )
