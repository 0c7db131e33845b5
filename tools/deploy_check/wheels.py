"""What the dependencies layer holds, checked against the Lambda runtime it is built for.

Each installed distribution (`*.dist-info`) keeps the tags of the wheel it came from (`WHEEL`). A
distribution fits the runtime when one of its tags is among the tags pip itself accepts for CPython
3.13 on manylinux up to glibc 2.34 for the runtime's machine (`packaging.tags`, as pip computes
them); each shared object in the layer must also be an ELF file for that machine, and an extension
module built for one CPython must be built for 3.13.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from email.parser import HeaderParser
from pathlib import Path

from packaging.tags import Tag, compatible_tags, cpython_tags, parse_tag

# Lambda's Python 3.12+ runtimes run on Amazon Linux 2023: glibc 2.34.
GLIBC = (2, 34)
OLDEST_MANYLINUX = 17  # manylinux2014 is manylinux_2_17
# ELF e_machine values (the ELF specification's).
ELF_MACHINES = {62: "x86_64", 183: "aarch64"}
_EXTENSION_ABI = re.compile(r"\.cpython-(?P<version>\d+)-(?P<platform>[^.]+)\.so$")


@dataclass(frozen=True)
class Runtime:
    """The machine and CPython version a layer must run on."""

    machine: str  # "aarch64" (Lambda arm64) or "x86_64"
    python: tuple[int, int] = (3, 13)

    @property
    def platforms(self) -> list[str]:
        newest = [f"manylinux_{GLIBC[0]}_{minor}_{self.machine}" for minor in range(GLIBC[1], 16, -1)]
        return [*newest, f"manylinux2014_{self.machine}"]

    def supported_tags(self) -> frozenset[Tag]:
        version = f"{self.python[0]}{self.python[1]}"
        return frozenset(
            [
                *cpython_tags(self.python, abis=[f"cp{version}"], platforms=self.platforms),
                *compatible_tags(self.python, interpreter=f"cp{version}", platforms=self.platforms),
            ]
        )


@dataclass(frozen=True)
class Distribution:
    name: str
    version: str
    tags: frozenset[Tag]

    @property
    def pure(self) -> bool:
        return all(tag.platform == "any" for tag in self.tags)

    def describe(self) -> str:
        return f"{self.name} {self.version} ({', '.join(sorted(str(tag) for tag in self.tags))})"


def wheel_tags(wheel_file_text: str) -> frozenset[Tag]:
    """The tags of a `.dist-info/WHEEL` file (compressed tag sets expanded)."""
    headers = HeaderParser().parsestr(wheel_file_text)
    return frozenset(tag for line in headers.get_all("Tag") or [] for tag in parse_tag(line.strip()))


def distributions(site: Path) -> list[Distribution]:
    """Every distribution installed in `site`, with the tags of its wheel."""
    found = []
    for dist_info in sorted(site.glob("*.dist-info")):
        metadata = HeaderParser().parsestr((dist_info / "METADATA").read_text(encoding="utf-8"))
        wheel = dist_info / "WHEEL"
        tags = wheel_tags(wheel.read_text(encoding="utf-8")) if wheel.is_file() else frozenset()
        found.append(Distribution(str(metadata["Name"]), str(metadata["Version"]), tags))
    return found


def misfits(found: Iterable[Distribution], runtime: Runtime) -> list[str]:
    """The distributions none of whose tags `runtime` accepts (or with no tags at all)."""
    supported = runtime.supported_tags()
    return [
        f"{d.describe()} does not run on CPython {runtime.python[0]}.{runtime.python[1]} {runtime.machine}"
        for d in found
        if not d.tags & supported
    ]


def elf_machine(header: bytes) -> str | None:
    """The machine of an ELF file from its first 20 bytes; None if it is not an ELF file."""
    if len(header) < 20 or header[:4] != b"\x7fELF":
        return None
    machine = int.from_bytes(header[18:20], "little" if header[5] == 1 else "big")
    return ELF_MACHINES.get(machine, f"e_machine {machine}")


def shared_objects(site: Path) -> Iterator[Path]:
    for path in sorted(site.rglob("*")):
        if path.is_file() and (path.name.endswith(".so") or ".so." in path.name):
            yield path


def binary_problems(site: Path, runtime: Runtime) -> list[str]:
    """Shared objects built for another machine, and extension modules built for another CPython."""
    problems = []
    version = f"{runtime.python[0]}{runtime.python[1]}"
    for path in shared_objects(site):
        with path.open("rb") as handle:
            machine = elf_machine(handle.read(20))
        where = path.relative_to(site)
        if machine != runtime.machine:
            problems.append(f"{where}: built for {machine or 'no ELF machine'}, not {runtime.machine}")
        abi = _EXTENSION_ABI.search(path.name)
        if abi and (abi["version"] != version or runtime.machine not in abi["platform"]):
            problems.append(f"{where}: an extension for cpython-{abi['version']}-{abi['platform']}")
    return problems


def same_distributions(one: Iterable[Distribution], other: Iterable[Distribution]) -> list[str]:
    """What differs between two layers' (name, version) sets, one line each."""
    left = {(d.name.lower(), d.version) for d in one}
    right = {(d.name.lower(), d.version) for d in other}
    return [f"only in the first: {n} {v}" for n, v in sorted(left - right)] + [
        f"only in the second: {n} {v}" for n, v in sorted(right - left)
    ]
