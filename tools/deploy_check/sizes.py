"""Each function's sizes against Lambda's quotas, and the table that reports them.

- 250 MB unzipped: the function's code and all its layers, as unpacked (262,144,000 bytes).
- 50 MB zipped: a deployment package uploaded directly; `cdk deploy` uploads to S3, where only the
  unzipped quota applies, but a package under it can also be updated without S3.
- 5 layers per function.
- 4 KB of environment variables: measured as their JSON object (keys, values, quotes and
  separators), with the values resolved as CloudFormation would resolve them.
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

MB = 1024 * 1024
UNZIPPED_LIMIT = 250 * MB
ZIPPED_LIMIT = 50 * MB
LAYERS_LIMIT = 5
ENVIRONMENT_LIMIT = 4 * 1024


def tree_bytes(path: Path) -> int:
    """The bytes of every file under `path` (a file: its own)."""
    if path.is_file():
        return path.stat().st_size
    return sum((Path(root) / name).stat().st_size for root, _dirs, files in os.walk(path) for name in files)


def zip_bytes(path: Path) -> int:
    """The size of `path` zipped as an asset is (deflate, every file)."""
    with tempfile.TemporaryFile() as scratch:
        with zipfile.ZipFile(scratch, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    file = Path(root) / name
                    archive.write(file, file.relative_to(path))
        scratch.seek(0, os.SEEK_END)
        return scratch.tell()


def environment_bytes(variables: Mapping[str, str]) -> int:
    """The environment as Lambda stores it: a JSON object of strings, in UTF-8."""
    return len(json.dumps(dict(variables), separators=(",", ":"), ensure_ascii=False).encode())


@dataclass(frozen=True)
class FunctionSizes:
    name: str
    code_bytes: int
    code_zipped: int
    layer_bytes: int  # all its layers, unzipped
    layers: int
    environment: int

    @property
    def unzipped(self) -> int:
        return self.code_bytes + self.layer_bytes

    def breaches(self) -> list[str]:
        found = []
        if self.unzipped > UNZIPPED_LIMIT:
            found.append(f"{self.name}: {_mb(self.unzipped)} unzipped with its layers (limit 250 MB)")
        if self.code_zipped > ZIPPED_LIMIT:
            found.append(f"{self.name}: code {_mb(self.code_zipped)} zipped (limit 50 MB)")
        if self.layers > LAYERS_LIMIT:
            found.append(f"{self.name}: {self.layers} layers (limit {LAYERS_LIMIT})")
        if self.environment > ENVIRONMENT_LIMIT:
            found.append(f"{self.name}: {self.environment} bytes of environment (limit 4096)")
        return found


@dataclass(frozen=True)
class LayerSizes:
    name: str
    unzipped: int
    zipped: int

    def breaches(self) -> list[str]:
        if self.zipped > ZIPPED_LIMIT:
            return [f"layer {self.name}: {_mb(self.zipped)} zipped (limit 50 MB)"]
        return []


def _mb(size: int) -> str:
    return f"{size / MB:.1f} MB"


def _share(size: int, limit: int) -> str:
    return f"{100 * size / limit:.0f}%"


def size_table(functions: Sequence[FunctionSizes], layers: Sequence[LayerSizes]) -> list[str]:
    """One row per function, then one per layer: size, and its share of the quota."""
    rows = [
        ("function", "code+layers unzipped", "code zipped", "layers", "environment"),
        ("(limit)", "250 MB", "50 MB", str(LAYERS_LIMIT), "4096 B"),
    ]
    for f in functions:
        rows.append(
            (
                f.name,
                f"{_mb(f.unzipped)} ({_share(f.unzipped, UNZIPPED_LIMIT)})",
                f"{f.code_zipped / 1024:.1f} KB ({_share(f.code_zipped, ZIPPED_LIMIT)})",
                str(f.layers),
                f"{f.environment} B ({_share(f.environment, ENVIRONMENT_LIMIT)})",
            )
        )
    for layer in layers:
        rows.append(
            (
                f"layer {layer.name}",
                _mb(layer.unzipped),
                f"{_mb(layer.zipped)} ({_share(layer.zipped, ZIPPED_LIMIT)})",
                "",
                "",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return lines
