"""What goes into the dependencies layer: the runtime packages of `uv.lock`, for the Lambda runtime.

`layer_requirements` runs `uv export` over the lock (the project's own dependencies, no dependency
group, without the packages the Lambda runtime ships), keeps the packages whose environment markers
hold on Lambda (Linux arm64 CPython), and writes each as `name==version` with every hash the lock
holds for it. pip installs exactly that file with `--require-hashes --no-deps`
(`infra.lambdas.pip_install_command`), so the layer holds the versions the tests ran with.

`layer_dependencies` lists the direct dependencies of pyproject.toml (the layer's description).
"""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path
from subprocess import run as run_uv  # nosec B404 - uv with a fixed argument list, no shell

from packaging.markers import default_environment
from packaging.requirements import Requirement

from infra.settings import PROJECT_ROOT

# Shipped by the Lambda Python runtime; not packaged, also when another dependency pulls them in.
RUNTIME_PROVIDED = frozenset({"boto3", "botocore", "s3transfer"})
PYPROJECT = PROJECT_ROOT / "pyproject.toml"

_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


class LocalBundlingError(RuntimeError):
    """The dependencies layer could not be built on this machine (Docker is never tried)."""


def normalized_name(requirement: str) -> str:
    """The package name of a requirement, normalized (lower case, runs of `-_.` as one `-`)."""
    match = _NAME.match(requirement)
    if not match:
        raise ValueError(f"cannot read a package name from requirement {requirement!r}")
    return re.sub(r"[-_.]+", "-", match.group(1)).lower()


def layer_dependencies(pyproject: Path = PYPROJECT) -> list[str]:
    """`[project].dependencies` of pyproject.toml without the packages the Lambda runtime provides."""
    with pyproject.open("rb") as handle:
        project = tomllib.load(handle)["project"]
    requirements: list[str] = project.get("dependencies", [])
    return [r for r in requirements if normalized_name(r) not in RUNTIME_PROVIDED]


def lambda_marker_environment(python_version: str) -> dict[str, str]:
    """What environment markers are evaluated against: Lambda's Linux arm64 CPython `python_version`."""
    return {
        **{key: str(value) for key, value in default_environment().items()},
        "implementation_name": "cpython",
        "implementation_version": f"{python_version}.0",
        "os_name": "posix",
        "platform_machine": "aarch64",
        "platform_python_implementation": "CPython",
        "platform_system": "Linux",
        "python_full_version": f"{python_version}.0",
        "python_version": python_version,
        "sys_platform": "linux",
    }


def uv_export_command(project: Path = PROJECT_ROOT) -> list[str]:
    """`uv export` of the lock's runtime packages (no dependency group, not the project itself), each
    pinned with its hashes, without the packages the Lambda runtime provides."""
    return [
        _uv_binary(),
        "export",
        "--project",
        str(project),
        "--frozen",
        "--no-default-groups",
        "--no-emit-project",
        "--format",
        "requirements-txt",
        "--no-header",
        "--no-annotate",
        *(arg for name in sorted(RUNTIME_PROVIDED) for arg in ("--no-emit-package", name)),
    ]


def _uv_binary() -> str:
    try:
        from uv import find_uv_bin  # the `uv` package of the cdk group

        return str(find_uv_bin())
    except (ImportError, FileNotFoundError):
        found = shutil.which("uv")
        if found is None:
            raise LocalBundlingError(
                "uv is needed to export the dependencies layer's requirements from uv.lock: "
                "run `make setup` (it installs the cdk group) or put uv on the PATH."
            ) from None
        return found


def layer_requirements(project: Path, python_version: str) -> str:
    """The dependencies layer's requirements file: the runtime packages of `project`'s uv.lock for the
    Lambda runtime (markers evaluated for it, then dropped), one `name==version` each with its hashes."""
    command = uv_export_command(project)
    try:
        result = run_uv(  # noqa: S603 - fixed argument list, no shell  # nosec B603
            command, capture_output=True, text=True, check=False
        )
    except OSError as error:
        raise LocalBundlingError(f"could not run uv to export uv.lock: {error}") from error
    if result.returncode != 0:
        raise LocalBundlingError(
            f"`uv export` of uv.lock failed (exit code {result.returncode}); is uv.lock there and up to "
            f"date (`uv lock`)?\ncommand: {' '.join(command)}\nuv says:\n{result.stderr.strip()[-4000:]}"
        )
    environment = lambda_marker_environment(python_version)
    lines = []
    for entry in _requirement_entries(result.stdout):
        requirement, *hashes = entry.split(" --hash=")
        parsed = Requirement(requirement)
        if parsed.marker is None or parsed.marker.evaluate(environment):
            pin = f"{parsed.name}{parsed.specifier}"
            lines.append(" \\\n    ".join([pin, *(f"--hash={digest.strip()}" for digest in hashes)]))
    return "\n".join(lines) + "\n"


def _requirement_entries(text: str) -> list[str]:
    """The requirements of a requirements file, one line each (continuations joined, comments out)."""
    joined = re.sub(r"\\\n\s*", " ", text)
    return [line.strip() for line in joined.splitlines() if line.strip() and not line.strip().startswith("#")]
