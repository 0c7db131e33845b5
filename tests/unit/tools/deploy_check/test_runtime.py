"""Lambda's runtime rebuilt here: boto3's locked closure, the layers in /opt, the import path's order."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.deploy_check.runtime import (
    RuntimeBuildError,
    for_machine,
    lambda_pythonpath,
    layer_conflicts,
    locked_closure,
    reserved_variables,
    unpack_layers,
)

ENVIRONMENT = {"python_version": "3.13", "python_full_version": "3.13.0", "sys_platform": "linux"}


def _package(name: str, version: str, *dependencies: dict[str, str]) -> dict[str, object]:
    return {
        "name": name,
        "version": version,
        "dependencies": list(dependencies),
        "wheels": [{"url": f"https://x/{name}.whl", "hash": f"sha256:{name}wheel"}],
        "sdist": {"url": f"https://x/{name}.tar.gz", "hash": f"sha256:{name}sdist"},
    }


LOCK = {
    "package": [
        _package("boto3", "1.44.8", {"name": "botocore"}, {"name": "s3transfer"}),
        _package("botocore", "1.44.8", {"name": "urllib3", "marker": "python_full_version >= '3.10'"}),
        _package("s3transfer", "0.19.3", {"name": "botocore"}),
        _package("urllib3", "2.8.0"),
        _package("Old_Thing", "1.0"),
        _package("pydantic", "2.14.4"),
    ]
}


def test_the_runtimes_packages_are_boto3_and_its_closure_pinned_with_every_hash() -> None:
    closure = locked_closure(LOCK, "boto3", ENVIRONMENT)
    assert [(p.name, p.version) for p in closure] == [
        ("boto3", "1.44.8"),
        ("botocore", "1.44.8"),
        ("s3transfer", "0.19.3"),
        ("urllib3", "2.8.0"),
    ]
    assert closure[0].requirement() == (
        "boto3==1.44.8 \\\n    --hash=sha256:boto3wheel \\\n    --hash=sha256:boto3sdist"
    )


def test_a_dependency_whose_marker_does_not_hold_is_left_out() -> None:
    old_python = {**ENVIRONMENT, "python_full_version": "3.9.0"}
    assert "urllib3" not in {p.name for p in locked_closure(LOCK, "boto3", old_python)}


def test_a_package_locked_at_two_versions_is_refused_rather_than_guessed() -> None:
    lock = {"package": [*LOCK["package"], _package("urllib3", "1.26.0")]}
    with pytest.raises(RuntimeBuildError, match="2 versions of urllib3"):
        locked_closure(lock, "boto3", ENVIRONMENT)


def test_the_hosts_pip_command_is_the_layers_with_only_the_platform_tags_changed() -> None:
    platforms = ("manylinux2014_aarch64", "manylinux_2_34_aarch64")
    command = [
        "pip",
        "install",
        "--platform",
        platforms[0],
        "--platform",
        platforms[1],
        "--target",
        "/x/aarch64",
    ]
    assert for_machine(command, platforms, "x86_64") == [
        "pip",
        "install",
        "--platform",
        "manylinux2014_x86_64",
        "--platform",
        "manylinux_2_34_x86_64",
        "--target",
        "/x/aarch64",  # not a platform tag: kept
    ]


def test_pythonpath_is_lambdas_order_function_first_then_the_layers() -> None:
    assert lambda_pythonpath(Path("/var/task"), Path("/opt")).split(":") == [
        "/var/task",
        "/opt/python/lib/python3.13/site-packages",
        "/opt/python",
    ]


def test_layers_unpack_in_order_and_a_file_in_two_layers_is_reported(tmp_path: Path) -> None:
    code, deps, opt = tmp_path / "code", tmp_path / "deps", tmp_path / "opt"
    for layer, text in ((code, "code"), (deps, "deps")):
        (layer / "python" / "pkg").mkdir(parents=True)
        (layer / "python" / "pkg" / "shared.py").write_text(text)
        (layer / "python" / f"only_{text}.py").write_text(text)
    unpack_layers([code, deps], opt)
    assert (opt / "python" / "pkg" / "shared.py").read_text() == "deps"  # the later layer wins
    assert (opt / "python" / "only_code.py").is_file() and (opt / "python" / "only_deps.py").is_file()
    assert (code / "python" / "pkg" / "shared.py").read_text() == "code"  # the layers are untouched
    assert layer_conflicts([code, deps]) == ["python/pkg/shared.py is in code and deps"]


def test_a_function_may_not_set_lambdas_reserved_variables() -> None:
    assert reserved_variables({"AWS_REGION": "x", "_HANDLER": "y", "TABLE": "z"}) == [
        "AWS_REGION",
        "_HANDLER",
    ]
