"""One synthesis of the real app per test session (synth takes seconds), shared by the infra tests.

The app is built by the same `build_app` as `app.py`, with bundling off (no pip, no network, no
Docker): the test-only placeholder layer, whose assembly carries the rule that refuses deployment. Synthesis runs the cdk-nag validation plugin; if it fails, the failure is kept for the nag
test to report and the template written before validation is still inspected by the other tests.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aws_cdk import App, Validations
from aws_cdk.assertions import Template

from infra.application import BUNDLE_CONTEXT_KEY, PLACEHOLDER_LAYER_CONTEXT_KEY, STACK_NAME, build_app
from infra.stack import MemoStack

TEST_ONLY_PLACEHOLDER: Mapping[str, Any] = {
    BUNDLE_CONTEXT_KEY: "false",
    PLACEHOLDER_LAYER_CONTEXT_KEY: "true",
}
# Context that changes every default, used by the variant synthesis. Except `reminder_schedule_group`:
# the executor's acknowledgment names the group's schedules, and the variant's findings are compared
# with the default synthesis's acknowledgments (test_schedule_group_name_comes_from_context covers it).
OVERRIDES: Mapping[str, Any] = {
    **TEST_ONLY_PLACEHOLDER,
    "whatsapp_api_base_url": "https://graph.example.test/v99.0",
    "planner_model": "planner-x",
    "interpreter_model": "interpreter-y",
    "hitl_ttl_seconds": "600",
    "default_timezone": "Asia/Jerusalem",
    "log_level": "DEBUG",
    "log_retention_days": "90",
    "alarm_email": "ops@example.test",
    "webhook_reserved_concurrency": "20",
    "escalation_reserve_concurrency": "true",
    "turn_batch_size": "3",
    "turn_max_concurrency": "5",
    "api_throttle_rate_limit": "7",
    "api_throttle_burst_limit": "9",
    "reminder_template_name": "memo_reminder_v2",
    "reminder_template_languages": "en=en_US,he=he",
    "reminder_retry_attempts": "7",
    "reminder_max_event_age_seconds": "900",
    "whatsapp_phone_number_id": "1234567890",
    "review_domain_prefix": "memo-review-staging",
    "review_policy": '{"rules": [{"action": "delete", "min_items": 3}], "approval_ttl_seconds": 900, '
    '"timeout_seconds": 7200}',
}


@dataclass
class Synthesized:
    app: App
    stack: MemoStack
    outdir: Path
    template: Template
    template_json: dict[str, Any]
    synth_error: Exception | None

    def resources(self, resource_type: str) -> dict[str, dict[str, Any]]:
        return {
            logical_id: resource
            for logical_id, resource in self.template_json["Resources"].items()
            if resource["Type"] == resource_type
        }

    def logical_id(self, construct: Any) -> str:
        return str(self.stack.resolve(construct.node.default_child.logical_id))


def synthesize(outdir: Path, context: Mapping[str, Any] | None = None) -> Synthesized:
    app, stack = build_app(
        context={**TEST_ONLY_PLACEHOLDER, **(context or {})}, outdir=str(outdir), environ={}
    )
    error: Exception | None = None
    try:
        app.synth()
    except RuntimeError as exc:  # ValidationFailed from the cdk-nag plugin; reported by the nag test
        error = exc
    template_json = json.loads((outdir / f"{STACK_NAME}.template.json").read_text())
    return Synthesized(app, stack, outdir, Template.from_json(template_json), template_json, error)


@pytest.fixture(scope="session")
def synthesized(tmp_path_factory: pytest.TempPathFactory) -> Synthesized:
    return synthesize(tmp_path_factory.mktemp("cdk.out"))


@pytest.fixture(scope="session")
def variant(tmp_path_factory: pytest.TempPathFactory) -> Synthesized:
    """The app with every context setting overridden and every nag acknowledgment switched off.

    Used to check that settings reach the template, and that each acknowledgment in the code is
    still needed (its finding shows up without it).
    """
    patcher = pytest.MonkeyPatch()
    patcher.setattr(Validations, "acknowledge", lambda self, *rules: None)
    try:
        # Acknowledgments are recorded while constructs are built, so the patch can end with synth.
        return synthesize(tmp_path_factory.mktemp("cdk.out.variant"), OVERRIDES)
    finally:
        patcher.undo()


class InstallingPip:
    """Stands in for `subprocess.run(pip install ...)`: writes, for every requirement of the file it is
    given, the distribution's `.dist-info` directory and its package, as pip would (nothing fetched)."""

    def __call__(self, command: Sequence[str], **_kwargs: Any) -> subprocess.CompletedProcess[str]:
        target = Path(command[command.index("--target") + 1])
        requirements = Path(command[command.index("--requirement") + 1]).read_text()
        for line in requirements.splitlines():
            name, _, version = line.split(" ")[0].partition("==")
            if version:
                (target / f"{name.replace('-', '_')}-{version}.dist-info").mkdir(parents=True)
                (target / name.replace("-", "_")).mkdir(exist_ok=True)
        return subprocess.CompletedProcess(list(command), 0, "", "")


@pytest.fixture(scope="session")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The app synthesized as `cdk deploy` does (layers bundled), pip and the bytecode compiler faked:
    the cloud assembly's directory."""
    from infra import lambdas

    outdir = tmp_path_factory.mktemp("cdk.out.bundled")
    with pytest.MonkeyPatch.context() as patcher:
        patcher.setattr(lambdas.subprocess, "run", InstallingPip())
        patcher.setattr(lambdas, "compile_layer", lambda *_args: None)
        app, _ = build_app(outdir=str(outdir), environ={"CDK_OUTDIR": str(outdir)})
        app.synth()
    return outdir


INFRA_DIR = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`--dist loadgroup`, as `make test` runs it) every infra test goes to one
    worker, so the CDK kernel starts and the app is synthesized once per run instead of once per
    worker. Without xdist the mark does nothing."""
    for item in items:
        if INFRA_DIR in item.path.parents:
            item.add_marker(pytest.mark.xdist_group("infra"))
