"""The dependencies layer's requirements (infra/layer_requirements.py): what deploys is what was tested.

The layer's requirements file must be the runtime packages of uv.lock, read here straight from the
lock: the project's own dependencies and theirs, for Lambda's Linux arm64 CPython, without what the
Lambda runtime ships, each pinned to the locked version with every hash the lock holds for it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from packaging.markers import Marker
from packaging.requirements import Requirement

from infra.lambdas import PYTHON_VERSION
from infra.layer_requirements import RUNTIME_PROVIDED, layer_dependencies, layer_requirements
from infra.settings import PROJECT_ROOT

# Lambda's Python runtime, as the markers of the lock's packages see it.
LAMBDA = {
    "implementation_name": "cpython",
    "os_name": "posix",
    "platform_machine": "aarch64",
    "platform_python_implementation": "CPython",
    "platform_system": "Linux",
    "python_full_version": f"{PYTHON_VERSION}.0",
    "python_version": PYTHON_VERSION,
    "sys_platform": "linux",
}


def _on_lambda(dependency: dict[str, Any]) -> bool:
    marker = dependency.get("marker")
    return marker is None or Marker(marker).evaluate({**LAMBDA, "extra": ""})


def _locked_runtime_packages(lock: dict[str, Any]) -> dict[str, tuple[str, set[str]]]:
    """name -> (version, hashes) of the project's dependencies and theirs, as the lock resolved them."""
    by_name: dict[str, list[dict[str, Any]]] = {}
    for package in lock["package"]:
        by_name.setdefault(package["name"], []).append(package)

    def locked(dependency: dict[str, Any]) -> dict[str, Any]:
        candidates = [
            p for p in by_name[dependency["name"]] if p["version"] == dependency.get("version", p["version"])
        ]
        assert len(candidates) == 1, dependency
        return candidates[0]

    (project,) = by_name["memo"]
    found: dict[str, dict[str, Any]] = {}
    followed: set[tuple[str, str]] = set()  # (package, extra or "")
    pending = [d for d in project["dependencies"] if _on_lambda(d)]
    while pending:
        dependency = pending.pop()
        package = locked(dependency)
        found[package["name"]] = package
        for extra in ["", *dependency.get("extra", [])]:
            if (package["name"], extra) not in followed:
                followed.add((package["name"], extra))
                requires = (
                    package.get("optional-dependencies", {}).get(extra, [])
                    if extra
                    else package.get("dependencies", [])
                )
                pending += [d for d in requires if _on_lambda(d)]
    return {
        name: (
            package["version"],
            {
                entry["hash"]
                for entry in [package.get("sdist", {}), *package.get("wheels", [])]
                if "hash" in entry
            },
        )
        for name, package in found.items()
        if name not in RUNTIME_PROVIDED
    }


def _requirements(text: str) -> dict[str, tuple[str, set[str]]]:
    entries = re.sub(r"\\\n\s*", " ", text).splitlines()
    pinned: dict[str, tuple[str, set[str]]] = {}
    for entry in entries:
        requirement, *hashes = entry.split(" --hash=")
        parsed = Requirement(requirement)
        (specifier,) = parsed.specifier
        assert specifier.operator == "==" and parsed.marker is None, entry
        pinned[parsed.name] = (specifier.version, {h.strip() for h in hashes})
    return pinned


def test_the_layer_requirements_are_the_locks_runtime_packages_with_their_hashes() -> None:
    lock = tomllib.loads((PROJECT_ROOT / "uv.lock").read_text())
    expected = _locked_runtime_packages(lock)
    actual = _requirements(layer_requirements(PROJECT_ROOT, PYTHON_VERSION))

    assert actual == expected
    assert {"pydantic", "aws-lambda-powertools", "aws-xray-sdk", "openai"} <= set(actual)  # extras too
    # zoneinfo's database: Lambda's runtime image has no /usr/share/zoneinfo, and users name their zone.
    assert "tzdata" in actual
    assert all(hashes for _version, hashes in actual.values())
    # Neither the development and CDK groups, nor what the runtime ships, nor other platforms' packages.
    assert not {"pytest", "moto", "aws-cdk-lib", "uv", "pip"} & set(actual)
    assert not set(actual) & RUNTIME_PROVIDED
    assert "pywin32" not in actual


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
