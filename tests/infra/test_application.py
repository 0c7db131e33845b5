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
from infra.application import (
    BUNDLE_CONTEXT_KEY,
    PLACEHOLDER_LAYER_CONTEXT_KEY,
    STACK_NAME,
    UnbuiltLayerRefused,
    build_app,
    bundling_enabled,
    context_from_argv,
)
from infra.lambdas import NOT_BUILT_MESSAGE, NOT_BUILT_RULE_ID
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
    ("value", "expected"),
    [
        (None, True),  # python app.py / make synth and cdk synth / cdk deploy alike: the real layer
        ("auto", True),
        ("", True),
        ("true", True),
        (True, True),
        ("false", False),
        (False, False),
    ],
)
def test_bundle_flag(value: object, expected: bool) -> None:
    assert bundling_enabled(value) is expected


def test_build_app_builds_the_layer_whoever_runs_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pip = RecordingPip()
    monkeypatch.setattr(lambdas.subprocess, "run", pip)
    for environ in ({}, {"CDK_OUTDIR": str(tmp_path)}):  # python app.py, then the CDK CLI
        app, _ = build_app(outdir=str(tmp_path / str(len(pip.commands))), environ=environ)
        assert app.node.try_get_context(BUNDLING_STACKS_CONTEXT_KEY) is None
    assert len(pip.commands) == 2  # built both times (by the fake pip here)


@pytest.mark.parametrize("placeholder", [None, "false", False])
def test_a_synth_without_the_built_layer_is_refused_unless_it_says_it_is_for_tests(
    tmp_path: Path, placeholder: object
) -> None:
    """`make synth` then `cdk deploy --app cdk.out` once shipped an empty dependencies layer (every
    function failing on import) behind a warning. Now no such assembly is written unless the
    test-only flag asks for it."""
    context: dict[str, object] = {BUNDLE_CONTEXT_KEY: "false"}
    if placeholder is not None:
        context[PLACEHOLDER_LAYER_CONTEXT_KEY] = placeholder
    with pytest.raises(UnbuiltLayerRefused, match=PLACEHOLDER_LAYER_CONTEXT_KEY):
        build_app(context=context, outdir=str(tmp_path), environ={})
    assert not (tmp_path / f"{STACK_NAME}.template.json").exists()


def test_the_test_only_assembly_carries_a_rule_that_fails_every_deployment(synthesized: Synthesized) -> None:
    """CloudFormation checks a template's rules before it changes any resource; this one never holds,
    so even `cdk deploy --app <this assembly>` (or the template uploaded by hand) stops with why."""
    rules = {k: v for k, v in synthesized.template_json["Rules"].items() if NOT_BUILT_RULE_ID in k}
    ((rule_id, rule),) = rules.items()
    assert rule_id.startswith("Layers")  # the layers construct's, next to the layer it is about
    (assertion,) = rule["Assertions"]
    assert "RuleCondition" not in rule  # it applies to every create and update
    left, right = assertion["Assert"]["Fn::Equals"]
    assert isinstance(left, str) and isinstance(right, str) and left != right  # never holds
    assert assertion["AssertDescription"] == NOT_BUILT_MESSAGE
    assert "bundle=false" in NOT_BUILT_MESSAGE and len(NOT_BUILT_MESSAGE) <= 1024


def test_a_built_assembly_carries_no_such_rule(bundled: Path) -> None:
    template = json.loads((bundled / f"{STACK_NAME}.template.json").read_text())
    assert set(template["Rules"]) == {"CheckBootstrapVersion"}  # CDK's own, nothing of ours


@pytest.mark.parametrize(
    ("argv", "context"),
    [
        ([], {}),
        (
            ["-c", "bundle=false", "--context", f"{PLACEHOLDER_LAYER_CONTEXT_KEY}=true"],
            {
                "bundle": "false",
                PLACEHOLDER_LAYER_CONTEXT_KEY: "true",
            },
        ),
        (["-c", 'review_policy={"a": "b=c"}'], {"review_policy": '{"a": "b=c"}'}),
    ],
)
def test_app_py_takes_context_as_the_cdk_cli_does(argv: list[str], context: dict[str, str]) -> None:
    assert context_from_argv(argv) == context


@pytest.mark.parametrize("argv", [["bundle=false"], ["-c"], ["-c", "bundle"], ["--verbose", "x=y"]])
def test_app_py_refuses_anything_else(argv: list[str]) -> None:
    with pytest.raises(SystemExit, match="usage"):
        context_from_argv(argv)


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
    """No CDK warnings or errors slip by; with bundling off, the synthesis says the assembly cannot be
    deployed (its rule fails: test_the_test_only_assembly_carries_a_rule_that_fails_every_deployment)."""
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
