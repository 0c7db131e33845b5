"""The CDK app (infra/application.py): bundling on or off by the `bundle` context key and who runs the app,
and cdk-nag's AwsSolutions checks always on, every acknowledgment named and needed."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from cdk_nag import AwsSolutionsChecks

from infra import lambdas
from infra.application import build_app, bundling_enabled
from infra.settings import BUNDLING_STACKS_CONTEXT_KEY

from .conftest import Synthesized


class RecordingPip:
    """Stands in for `subprocess.run(pip ...)`: records the command, installs nothing."""

    def __init__(self) -> None:
        self.commands: list[list[str]] = []

    def __call__(self, command: Sequence[str], **_kwargs: Any) -> subprocess.CompletedProcess[str]:
        self.commands.append(list(command))
        Path(command[command.index("--target") + 1]).mkdir(parents=True, exist_ok=True)
        return subprocess.CompletedProcess(list(command), 0, "", "")


@pytest.mark.parametrize(
    ("value", "run_by_cli", "expected"),
    [
        (None, False, False),  # python app.py / make synth: offline
        (None, True, True),  # cdk synth / cdk deploy: real layer
        ("auto", True, True),
        ("false", True, False),
        ("true", False, True),
        (True, False, True),
    ],
)
def test_bundle_flag(value: object, run_by_cli: bool, expected: bool) -> None:
    assert bundling_enabled(value, run_by_cli=run_by_cli) is expected


def test_build_app_skips_bundling_outside_the_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pip = RecordingPip()
    monkeypatch.setattr(lambdas.subprocess, "run", pip)
    app, _ = build_app(outdir=str(tmp_path), environ={})
    assert app.node.try_get_context(BUNDLING_STACKS_CONTEXT_KEY) == []
    assert pip.commands == []
    app, _ = build_app(outdir=str(tmp_path), environ={"CDK_OUTDIR": str(tmp_path)})
    assert app.node.try_get_context(BUNDLING_STACKS_CONTEXT_KEY) is None
    assert len(pip.commands) == 1  # run by the CLI: the layer is built (by the fake pip here)


# --- cdk-nag ---------------------------------------------------------------------------------------


def test_synth_passes_cdk_nag_with_no_unacknowledged_findings(synthesized: Synthesized) -> None:
    report = AwsSolutionsChecks().validate_scope(synthesized.stack)
    findings = [
        f"{violation.rule_name}: {[r.construct_path for r in violation.violating_resources]}"
        for violation in report.violations
    ]
    assert findings == []
    assert synthesized.synth_error is None, str(synthesized.synth_error)
    validation_report = json.loads((synthesized.outdir / "validation-report.json").read_text())
    assert [r for r in validation_report["pluginReports"] if r["pluginName"] == "AwsSolutions"] == []


def test_the_only_cdk_annotation_is_the_unbuilt_layer_warning(synthesized: Synthesized) -> None:
    """No CDK warnings or errors slip by; with bundling off, ops are told not to deploy the assembly."""
    validation_report = json.loads((synthesized.outdir / "validation-report.json").read_text())
    annotations = [
        (violation["ruleName"], violation["severity"], construct["constructPath"])
        for report in validation_report["pluginReports"]
        if report["pluginName"] == "Construct Annotations"
        for violation in report["violations"]
        for construct in violation["violatingConstructs"]
    ]
    assert annotations == [
        ("Annotation::memo:DependenciesLayerNotBuilt", "warning", "MemoStack/Layers/Dependencies")
    ]


def test_nag_plugin_is_registered_and_fails_synth_on_a_finding(variant: Synthesized) -> None:
    # The variant has its acknowledgments switched off: the same plugin must now stop the synthesis.
    assert variant.synth_error is not None
    assert "ValidationFailed" in str(variant.synth_error)
    assert "AwsSolutions-SMG4" in str(variant.synth_error)
    validation_report = json.loads((variant.outdir / "validation-report.json").read_text())
    assert any(
        r["pluginName"] == "AwsSolutions" and r["violations"] for r in validation_report["pluginReports"]
    )


def _acknowledgments(synth: Synthesized) -> dict[tuple[str, str], str]:
    metadata = json.loads((synth.outdir / f"{synth.stack.stack_name}.metadata.json").read_text())
    found: dict[tuple[str, str], str] = {}
    for path, entries in metadata.items():
        for entry in entries:
            if entry["type"] == "aws:cdk:acknowledged-rules":
                for rule, reason in entry["data"].items():
                    found[(path, rule.removeprefix("Annotation::"))] = reason
    return found


def test_every_acknowledgment_names_its_resource_and_gives_a_reason(synthesized: Synthesized) -> None:
    acknowledgments = _acknowledgments(synthesized)
    assert acknowledgments, "expected the documented acknowledgments"
    for (path, rule), reason in acknowledgments.items():
        assert path != f"/{synthesized.stack.stack_name}", f"{rule} is acknowledged for the whole stack"
        assert rule.startswith("AwsSolutions-"), rule
        assert len(reason) >= 40, f"{path} {rule}: reason too short: {reason!r}"


def test_every_acknowledgment_is_still_needed(synthesized: Synthesized, variant: Synthesized) -> None:
    """Without acknowledgments, exactly the acknowledged (resource, rule) pairs are reported."""
    report = AwsSolutionsChecks().validate_scope(variant.stack)
    reported = {
        (rule_path, violation.rule_name)
        for violation in report.violations
        for rule_path in (r.construct_path for r in violation.violating_resources)
    }
    for path, rule in _acknowledgments(synthesized):
        assert any(rp == rule and (vp or "").startswith(path.lstrip("/")) for vp, rp in reported), (
            f"acknowledgment {rule} on {path} is not needed any more"
        )
    acknowledged_rules = {rule for _, rule in _acknowledgments(synthesized)}
    assert {rule for _, rule in reported} == acknowledged_rules
