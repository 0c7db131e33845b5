"""The deploy guard (infra/deploy_guard.py, run by `make deploy` before `cdk deploy --app cdk.out`):
an assembly whose dependencies layer was not built is refused, a built one passes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from infra import deploy_guard
from infra.application import STACK_NAME
from infra.lambdas import DEPENDENCIES_DESCRIPTION
from infra.layer_requirements import layer_dependencies, normalized_name

from .conftest import Synthesized


def test_the_test_only_assembly_is_refused_for_its_rule_and_its_empty_layer(
    synthesized: Synthesized, capsys: pytest.CaptureFixture[str]
) -> None:
    found = deploy_guard.problems(synthesized.outdir)
    assert len(found) == 2
    assert "DependenciesLayerNotBuilt" in found[0] and "bundle=false" in found[0]
    assert "was not built" in found[1]
    assert deploy_guard.main([str(synthesized.outdir), STACK_NAME]) == 1
    assert capsys.readouterr().err.count("not deployable:") == 2


def test_an_assembly_synthesized_as_cdk_deploy_does_passes(
    bundled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert deploy_guard.problems(bundled) == []
    assert deploy_guard.main([str(bundled)]) == 0
    assert "deployable" in capsys.readouterr().out


def _layer_site(assembly: Path) -> Path:
    template = json.loads((assembly / f"{STACK_NAME}.template.json").read_text())
    assets = json.loads((assembly / f"{STACK_NAME}.assets.json").read_text())
    (key,) = [
        r["Properties"]["Content"]["S3Key"]
        for r in template["Resources"].values()
        if str(r["Properties"].get("Description", "")).startswith(DEPENDENCIES_DESCRIPTION)
    ]
    return assembly / assets["files"][key.removesuffix(".zip")]["source"]["path"] / "python"


def test_a_built_layer_missing_a_dependency_is_refused(bundled: Path, tmp_path: Path) -> None:
    """pip that installed nothing (or not everything) leaves a layer without the packages: refused,
    with the missing ones named."""
    copy = tmp_path / "cdk.out"
    shutil.copytree(bundled, copy, ignore=shutil.ignore_patterns("asset.*"))
    site = _layer_site(bundled)
    shutil.copytree(site.parent, _layer_site(copy).parent)
    pydantic = [p for p in _layer_site(copy).iterdir() if p.name.startswith("pydantic-")]
    assert len(pydantic) == 1
    shutil.rmtree(pydantic[0])
    (found,) = deploy_guard.problems(copy)
    assert "lacks pydantic" in found


def _assembly(tmp_path: Path, asset: dict[str, Any] | None, key: str = "abc.zip") -> Path:
    layer = {
        "Type": "AWS::Lambda::LayerVersion",
        "Properties": {"Description": f"{DEPENDENCIES_DESCRIPTION}: x", "Content": {"S3Key": key}},
    }
    (tmp_path / f"{STACK_NAME}.template.json").write_text(json.dumps({"Resources": {"Layer": layer}}))
    files = {"abc": asset} if asset else {}
    (tmp_path / f"{STACK_NAME}.assets.json").write_text(json.dumps({"files": files}))
    return tmp_path


@pytest.mark.parametrize(
    ("asset", "problem"),
    [
        (None, "is not in the asset manifest"),
        ({"source": {"path": "asset.abc"}}, "no python/ staged"),  # not staged at all
        ({"source": {"path": "/elsewhere/layers/dependencies"}}, "no python/ staged"),  # the placeholder
    ],
)
def test_a_layer_that_was_never_staged_is_refused(
    tmp_path: Path, asset: dict[str, Any] | None, problem: str
) -> None:
    (found,) = deploy_guard.problems(_assembly(tmp_path, asset))
    assert problem in found


def test_every_direct_dependency_must_be_installed(tmp_path: Path) -> None:
    assembly = _assembly(tmp_path, {"source": {"path": "asset.abc"}})
    site = assembly / "asset.abc" / "python"
    names = [normalized_name(r) for r in layer_dependencies()]
    assert "tzdata" in names  # zoneinfo's database: the runtime image has none
    for name in names:
        (site / f"{name.replace('-', '_')}-1.0.dist-info").mkdir(parents=True)
    assert deploy_guard.problems(assembly) == []
    shutil.rmtree(site / "tzdata-1.0.dist-info")
    (found,) = deploy_guard.problems(assembly)
    assert found.endswith("lacks tzdata: it was not built")


def test_no_assembly_and_bad_arguments(tmp_path: Path) -> None:
    (found,) = deploy_guard.problems(tmp_path)
    assert "no synthesized MemoStack" in found
    assert deploy_guard.main([]) == 2
    assert deploy_guard.main([str(tmp_path)]) == 1
