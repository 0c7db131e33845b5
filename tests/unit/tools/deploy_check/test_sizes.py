"""Each function's sizes against Lambda's quotas: at the limit passes, past it fails by name."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tools.deploy_check.sizes import (
    ENVIRONMENT_LIMIT,
    LAYERS_LIMIT,
    UNZIPPED_LIMIT,
    ZIPPED_LIMIT,
    FunctionSizes,
    LayerSizes,
    environment_bytes,
    size_table,
    tree_bytes,
    zip_bytes,
)


def _function(**changes: int) -> FunctionSizes:
    values = {
        "code_bytes": 1000,
        "code_zipped": 500,
        "layer_bytes": 100 * 1024 * 1024,
        "layers": 2,
        "environment": 900,
    }
    return FunctionSizes(name="webhook", **(values | changes))


def test_quotas_are_lambdas() -> None:
    assert (UNZIPPED_LIMIT, ZIPPED_LIMIT, LAYERS_LIMIT, ENVIRONMENT_LIMIT) == (
        262_144_000,
        52_428_800,
        5,
        4096,
    )


@pytest.mark.parametrize(
    "changes",
    [
        {"code_bytes": 0, "layer_bytes": UNZIPPED_LIMIT},
        {"code_zipped": ZIPPED_LIMIT},
        {"layers": LAYERS_LIMIT},
        {"environment": ENVIRONMENT_LIMIT},
    ],
)
def test_a_function_at_a_quota_passes(changes: dict[str, int]) -> None:
    assert _function(**changes).breaches() == []


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        (
            {"code_bytes": 1, "layer_bytes": UNZIPPED_LIMIT},
            "webhook: 250.0 MB unzipped with its layers (limit 250 MB)",
        ),
        ({"code_zipped": ZIPPED_LIMIT + 1}, "webhook: code 50.0 MB zipped (limit 50 MB)"),
        ({"layers": LAYERS_LIMIT + 1}, "webhook: 6 layers (limit 5)"),
        ({"environment": ENVIRONMENT_LIMIT + 1}, "webhook: 4097 bytes of environment (limit 4096)"),
    ],
)
def test_a_function_past_a_quota_is_named_with_the_quota(changes: dict[str, int], said: str) -> None:
    assert _function(**changes).breaches() == [said]


def test_a_layer_past_the_zipped_quota_is_named() -> None:
    assert LayerSizes("dependencies", 1, ZIPPED_LIMIT).breaches() == []
    assert LayerSizes("dependencies", 1, ZIPPED_LIMIT + 1).breaches() == [
        "layer dependencies: 50.0 MB zipped (limit 50 MB)"
    ]


@given(st.dictionaries(st.text(min_size=1, max_size=20), st.text(max_size=40), max_size=8))
def test_the_environment_is_measured_as_its_json_in_utf8(variables: dict[str, str]) -> None:
    assert environment_bytes(variables) == len(
        json.dumps(variables, separators=(",", ":"), ensure_ascii=False).encode()
    )


def test_tree_and_zip_sizes(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n" * 1000)
    (tmp_path / "b.txt").write_bytes(b"\0" * 10)
    assert tree_bytes(tmp_path) == 6000 + 10
    zipped = zip_bytes(tmp_path)
    assert 0 < zipped < 6000
    archive = tmp_path.parent / "check.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as handle:
        handle.write(tmp_path / "pkg" / "a.py", "pkg/a.py")
        handle.write(tmp_path / "b.txt", "b.txt")
    assert abs(zipped - archive.stat().st_size) < 64


def test_the_table_has_the_limits_a_row_per_function_and_layer() -> None:
    lines = size_table([_function()], [LayerSizes("dependencies", 118 * 1024 * 1024, 34 * 1024 * 1024)])
    assert lines[0].split() == [
        "function",
        "code+layers",
        "unzipped",
        "code",
        "zipped",
        "layers",
        "environment",
    ]
    assert lines[2].split() == ["(limit)", "250", "MB", "50", "MB", "5", "4096", "B"]
    assert lines[3].split() == [
        "webhook",
        "100.0",
        "MB",
        "(40%)",
        "0.5",
        "KB",
        "(0%)",
        "2",
        "900",
        "B",
        "(22%)",
    ]
    assert lines[4].split() == ["layer", "dependencies", "118.0", "MB", "34.0", "MB", "(68%)"]
