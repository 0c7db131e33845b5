"""The dependencies layer runs on Lambda's arm64 CPython 3.13, or the check says which part does not."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tools.deploy_check.wheels import (
    Runtime,
    binary_problems,
    distributions,
    elf_machine,
    misfits,
    same_distributions,
    wheel_tags,
)

ARM = Runtime("aarch64")


def _elf(machine: int, little: bool = True) -> bytes:
    order = "little" if little else "big"
    return b"\x7fELF" + bytes([2, 1 if little else 2]) + b"\0" * 12 + machine.to_bytes(2, order) + b"\0" * 40


def _install(site: Path, name: str, version: str, *tags: str) -> None:
    dist_info = site / f"{name}-{version}.dist-info"
    dist_info.mkdir(parents=True)
    (dist_info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (dist_info / "WHEEL").write_text("Wheel-Version: 1.0\n" + "".join(f"Tag: {tag}\n" for tag in tags))


@pytest.mark.parametrize(
    "tag",
    [
        "py3-none-any",
        "py2.py3-none-any",
        "cp313-cp313-manylinux_2_17_aarch64",
        "cp313-cp313-manylinux2014_aarch64",
        "cp313-cp313-manylinux_2_34_aarch64",
        "cp311-abi3-manylinux_2_28_aarch64",
    ],
)
def test_wheels_lambda_arm64_python_3_13_loads_fit(tmp_path: Path, tag: str) -> None:
    _install(tmp_path, "fits", "1.0", tag)
    assert misfits(distributions(tmp_path), ARM) == []


@pytest.mark.parametrize(
    "tag",
    [
        "cp313-cp313-manylinux_2_17_x86_64",  # another machine
        "cp312-cp312-manylinux_2_17_aarch64",  # another CPython
        "cp313-cp313-manylinux_2_35_aarch64",  # a newer glibc than Amazon Linux 2023's 2.34
        "cp313-cp313-musllinux_1_2_aarch64",  # musl, not glibc
        "cp313-cp313-macosx_11_0_arm64",
        "cp314-abi3-manylinux_2_17_aarch64",  # a stable ABI newer than 3.13
    ],
)
def test_a_wheel_the_runtime_cannot_load_is_named(tmp_path: Path, tag: str) -> None:
    _install(tmp_path, "misfit", "2.0", tag)
    (problem,) = misfits(distributions(tmp_path), ARM)
    assert problem.startswith("misfit 2.0 (") and "aarch64" in problem


def test_a_distribution_without_wheel_tags_does_not_pass(tmp_path: Path) -> None:
    _install(tmp_path, "untagged", "1.0")
    assert len(misfits(distributions(tmp_path), ARM)) == 1


def test_compressed_tag_sets_are_expanded() -> None:
    assert {str(t) for t in wheel_tags("Tag: py2.py3-none-any\n")} == {"py2-none-any", "py3-none-any"}


@given(machine=st.integers(min_value=0, max_value=0xFFFF), little=st.booleans())
def test_the_elf_machine_is_read_in_the_files_byte_order(machine: int, little: bool) -> None:
    found = elf_machine(_elf(machine, little))
    assert found == {62: "x86_64", 183: "aarch64"}.get(machine, f"e_machine {machine}")


def test_what_is_not_elf_has_no_machine() -> None:
    assert elf_machine(b"#!/bin/sh\n" + b"\0" * 20) is None
    assert elf_machine(b"\x7fELF") is None


def test_shared_objects_of_another_machine_or_cpython_are_named(tmp_path: Path) -> None:
    (tmp_path / "good").mkdir()
    (tmp_path / "good" / "_ok.cpython-313-aarch64-linux-gnu.so").write_bytes(_elf(183))
    (tmp_path / "good" / "_rust.abi3.so").write_bytes(_elf(183))
    (tmp_path / "good.libs").mkdir()
    (tmp_path / "good.libs" / "libffi-1a2b.so.8.1.0").write_bytes(_elf(183))
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "_x86.cpython-313-x86_64-linux-gnu.so").write_bytes(_elf(62))
    (tmp_path / "bad" / "_old.cpython-312-aarch64-linux-gnu.so").write_bytes(_elf(183))
    problems = binary_problems(tmp_path, ARM)
    assert problems == [
        "bad/_old.cpython-312-aarch64-linux-gnu.so: an extension for cpython-312-aarch64-linux-gnu",
        "bad/_x86.cpython-313-x86_64-linux-gnu.so: built for x86_64, not aarch64",
        "bad/_x86.cpython-313-x86_64-linux-gnu.so: an extension for cpython-313-x86_64-linux-gnu",
    ]


def test_two_layers_with_the_same_pins_hold_the_same_distributions(tmp_path: Path) -> None:
    arm, host = tmp_path / "arm", tmp_path / "host"
    _install(arm, "pydantic_core", "2.50.5", "cp313-cp313-manylinux_2_17_aarch64")
    _install(host, "pydantic_core", "2.50.5", "cp313-cp313-manylinux_2_17_x86_64")
    assert same_distributions(distributions(arm), distributions(host)) == []
    _install(host, "extra", "1.0", "py3-none-any")
    assert same_distributions(distributions(arm), distributions(host)) == ["only in the second: extra 1.0"]
