"""Lambda's Python 3.13 runtime, rebuilt on this machine: a clean interpreter with only boto3, each
function's code where Lambda puts it (/var/task), its layers unpacked in order into one /opt, the
import path in Lambda's order, and the environment Lambda gives a function.

- The interpreter is a virtual environment of a Python 3.13 found on this machine (the one that
  compiles the layers' bytecode, `infra.lambdas.runtime_python`), holding boto3 and its dependencies
  at the versions of uv.lock, installed from their locked hashes: nothing else.
- The import path (`lambda_pythonpath`) is Lambda's: the function's directory, then the layers'
  `python/lib/python3.13/site-packages` and `python/`, then the runtime's own packages (boto3).
- The dependencies layer is built for Linux arm64. On another machine its native extensions cannot
  be loaded, so the functions run with the same locked requirements installed for this machine by
  the same pip command (`host_layer`), laid out exactly as the arm64 layer, bytecode included.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess  # nosec B404 - pip and venv with fixed argument lists, no shell
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.markers import Marker
from packaging.utils import canonicalize_name

# infra's modules load the CDK (seconds): each is imported by the function that needs it.

PYTHON_VERSION = "3.13"
LAMBDA_MACHINE = "aarch64"
# The packages Lambda's Python runtime ships, from which the check installs the locked closure.
RUNTIME_ROOT_PACKAGE = "boto3"
# Set by Lambda itself; a function's environment may not set them (CloudFormation rejects it).
RESERVED_VARIABLES = frozenset(
    {
        "_HANDLER",
        "_X_AMZN_TRACE_ID",
        "AWS_DEFAULT_REGION",
        "AWS_REGION",
        "AWS_EXECUTION_ENV",
        "AWS_LAMBDA_FUNCTION_NAME",
        "AWS_LAMBDA_FUNCTION_MEMORY_SIZE",
        "AWS_LAMBDA_FUNCTION_VERSION",
        "AWS_LAMBDA_INITIALIZATION_TYPE",
        "AWS_LAMBDA_LOG_GROUP_NAME",
        "AWS_LAMBDA_LOG_STREAM_NAME",
        "AWS_ACCESS_KEY",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_LAMBDA_RUNTIME_API",
        "LAMBDA_TASK_ROOT",
        "LAMBDA_RUNTIME_DIR",
    }
)


class RuntimeBuildError(RuntimeError):
    """The clean runtime or the host's dependencies layer could not be built."""


def host_machine() -> str:
    """This machine's name for its CPU as wheels tag it (`x86_64`, `aarch64`)."""
    machine = platform.machine().lower()
    return {"amd64": "x86_64", "arm64": "aarch64"}.get(machine, machine)


@dataclass(frozen=True)
class LockedPackage:
    name: str
    version: str
    hashes: tuple[str, ...]

    def requirement(self) -> str:
        return " \\\n    ".join([f"{self.name}=={self.version}", *(f"--hash={h}" for h in self.hashes)])


def locked_closure(lock: Mapping[str, Any], root: str, environment: Mapping[str, str]) -> list[LockedPackage]:
    """`root` and everything it depends on in a uv.lock (its `[[package]]` tables), dependencies
    whose markers do not hold in `environment` left out; each with every hash the lock has for it."""
    packages: dict[str, list[Mapping[str, Any]]] = {}
    for package in lock.get("package", []):
        packages.setdefault(canonicalize_name(str(package["name"])), []).append(package)
    found: dict[str, LockedPackage] = {}
    pending = [canonicalize_name(root)]
    while pending:
        name = pending.pop()
        if name in found:
            continue
        candidates = packages.get(name, [])
        if len(candidates) != 1:
            raise RuntimeBuildError(f"uv.lock has {len(candidates)} versions of {name}: cannot pick one")
        (package,) = candidates
        files = [*package.get("wheels", []), package.get("sdist") or {}]
        hashes = tuple(str(f["hash"]) for f in files if f.get("hash"))
        found[name] = LockedPackage(name, str(package["version"]), hashes)
        for dependency in package.get("dependencies", []):
            marker = dependency.get("marker")
            if marker is None or Marker(marker).evaluate(dict(environment)):
                pending.append(canonicalize_name(str(dependency["name"])))
    return sorted(found.values(), key=lambda p: p.name)


def runtime_requirements(lock_file: Path, machine: str) -> str:
    """The requirements file of what Lambda's runtime ships (boto3's closure), pinned and hashed."""
    from infra.layer_requirements import lambda_marker_environment

    lock = tomllib.loads(lock_file.read_text(encoding="utf-8"))
    environment = {**lambda_marker_environment(PYTHON_VERSION), "platform_machine": machine}
    return "\n".join(p.requirement() for p in locked_closure(lock, RUNTIME_ROOT_PACKAGE, environment)) + "\n"


def for_machine(command: Sequence[str], platforms: Sequence[str], machine: str) -> list[str]:
    """`command` with each of its `platforms` (wheel platform tags) made `machine`'s."""
    return [arg.replace(LAMBDA_MACHINE, machine) if arg in platforms else arg for arg in command]


def host_pip_command(target: Path, requirements: Path, machine: str) -> list[str]:
    """The dependencies layer's own pip command (`infra.lambdas.pip_install_command`), for `machine`."""
    from infra.lambdas import WHEEL_PLATFORMS, pip_install_command

    return for_machine(
        pip_install_command(str(target), str(requirements), PYTHON_VERSION), WHEEL_PLATFORMS, machine
    )


def run(command: Sequence[str], what: str) -> None:
    result = subprocess.run(  # noqa: S603 - fixed argument lists, no shell  # nosec B603
        list(command), capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        output = (result.stderr or result.stdout).strip()[-3000:]
        raise RuntimeBuildError(f"{what} failed (exit code {result.returncode}):\n{output}")


def pip_install(target: Path, requirements: str, machine: str) -> None:
    """Install exactly `requirements` (pinned, hashed) into `target` as wheels for `machine`."""
    target.mkdir(parents=True, exist_ok=True)
    requirements_file = target.parent / f"{target.name}-requirements.txt"
    requirements_file.write_text(requirements, encoding="utf-8")
    run(host_pip_command(target, requirements_file, machine), f"pip install into {target}")


def clean_runtime(python: str, root: Path, lock_file: Path, machine: str) -> Path:
    """A virtual environment of `python` without pip, holding only boto3's locked closure; returns its
    interpreter."""
    run([python, "-m", "venv", "--without-pip", str(root)], "creating the clean Python")
    site = root / "lib" / f"python{PYTHON_VERSION}" / "site-packages"
    pip_install(site, runtime_requirements(lock_file, machine), machine)
    interpreter = root / "bin" / "python"
    # The runtime's boto3 comes with its bytecode: a cold start does not compile it.
    run([str(interpreter), "-m", "compileall", "-q", "-j", "0", str(site)], "compiling boto3")
    return interpreter


def host_layer(root: Path, requirements: str, machine: str) -> Path:
    """The dependencies layer for `machine`: `requirements` installed and compiled as the arm64 layer
    is; returns the layer's directory (holding `python/`)."""
    from infra.lambdas import compile_layer

    site = root / "python"
    pip_install(site, requirements, machine)
    compile_layer(site, PYTHON_VERSION)
    return root


def layer_conflicts(layers: Iterable[Path]) -> list[str]:
    """Files that more than one layer holds: the later layer's copy wins in /opt."""
    owners: dict[Path, Path] = {}
    conflicts = []
    for layer in layers:
        for path in sorted(p for p in layer.rglob("*") if p.is_file()):
            relative = path.relative_to(layer)
            if relative in owners:
                conflicts.append(f"{relative} is in {owners[relative].name} and {layer.name}")
            owners[relative] = layer
    return conflicts


def link_or_copy(source: str, destination: str) -> None:
    """A hard link where the file system allows it (no data copied), else a copy."""
    try:
        if os.path.lexists(destination):
            os.unlink(destination)  # a later layer's file replaces an earlier one's, as in /opt
        os.link(source, destination)
    except OSError:
        shutil.copy2(source, destination)


def unpack_layers(layers: Sequence[Path], opt: Path) -> None:
    """Layers extracted into /opt in the function's order, each over the ones before."""
    for layer in layers:
        shutil.copytree(layer, opt, copy_function=link_or_copy, dirs_exist_ok=True)


def lambda_pythonpath(task: Path, opt: Path) -> str:
    """PYTHONPATH as Lambda orders it: /var/task, then the layers' site-packages and python/ in /opt;
    the runtime's own packages (boto3) come after, from the interpreter's site-packages."""
    entries = [task, opt / "python" / "lib" / f"python{PYTHON_VERSION}" / "site-packages", opt / "python"]
    return ":".join(str(entry) for entry in entries)


def reserved_variables(environment: Mapping[str, object]) -> list[str]:
    return sorted(set(environment) & RESERVED_VARIABLES)


def bytecode_magic(python: str) -> bytes:
    """The magic number that starts the `.pyc` files `python` reads."""
    code = "import importlib.util, sys; sys.stdout.write(importlib.util.MAGIC_NUMBER.hex())"
    result = subprocess.run(  # noqa: S603 - a Python interpreter, fixed arguments  # nosec B603
        [python, "-c", code], capture_output=True, text=True, check=True
    )
    return bytes.fromhex(result.stdout.strip())
