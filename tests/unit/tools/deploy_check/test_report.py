"""What the deploy check prints: every failure, named, and the exit status that says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.deploy_check.checks import LayerReport
from tools.deploy_check.containers import Invocation
from tools.deploy_check.report import Clock, Outcome, print_report
from tools.deploy_check.scenario import Step
from tools.deploy_check.sizes import FunctionSizes, LayerSizes


def _outcome(**changes: object) -> Outcome:
    values: dict[str, object] = {
        "machine": "x86_64",
        "python": "/usr/bin/python3.13",
        "layer": LayerReport(44, 8, 12, []),
        "layer_modules": 4484,
        "problems": [],
        "lint": [],
        "steps": [Step("webhook", "GET /webhook", Invocation(True, {"statusCode": 200}, None, 12.0), None)],
        "containers": {},
        "described": {},
        "function_sizes": [FunctionSizes("webhook", 800, 600, 120 * 1024 * 1024, 2, 1660)],
        "layer_sizes": [LayerSizes("dependencies", 118 * 1024 * 1024, 34 * 1024 * 1024)],
        "xray_segments": 3,
        "graph_messages": 2,
        "logs": Path("build/deploy-check/logs"),
    }
    return Outcome(**(values | changes))  # type: ignore[arg-type]


def test_a_clean_run_passes_and_says_the_layer_was_built_for_this_machine(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert print_report(_outcome(), Clock()) == 0
    printed = capsys.readouterr().out
    assert "this machine is x86_64" in printed and printed.rstrip().endswith("deploy check passed")


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        (
            {"problems": ["code layer: it ships memo.local (the local runtime)"]},
            "code layer: it ships memo.local",
        ),
        ({"lint": ["t.json:1:1:1:1:E3002:bad property"]}, "cfn-lint: t.json:1:1:1:1:E3002:bad property"),
        (
            {
                "steps": [
                    Step(
                        "review",
                        "GET /review",
                        Invocation(True, {"statusCode": 404}, None, 1.0),
                        "answered 404",
                    )
                ]
            },
            "review GET /review: answered 404",
        ),
        (
            {"function_sizes": [FunctionSizes("webhook", 800, 600, 300 * 1024 * 1024, 2, 1660)]},
            "webhook: 300.0 MB unzipped with its layers (limit 250 MB)",
        ),
    ],
)
def test_every_failure_is_listed_and_fails_the_run(
    changes: dict[str, object], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert print_report(_outcome(**changes), Clock()) == 1
    assert f"  - {said}" in capsys.readouterr().out
