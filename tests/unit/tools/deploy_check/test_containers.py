"""A function's execution environment: Lambda's bootstrap loop in its own process, a clean
environment, one init and warm invocations, function errors reported as Lambda reports them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tools.deploy_check import containers
from tools.deploy_check.assembly import LambdaFunction
from tools.deploy_check.containers import Container, Sandbox, lambda_environment, trace_header

HANDLER = """
import json, os, time

def handler(event, context):
    if event.get("raise"):
        raise ValueError("bad event")
    if event.get("sleep"):
        time.sleep(event["sleep"])
    if event.get("not_json"):
        return {1, 2}
    return {
        "event": event,
        "function": context.function_name,
        "remaining_ms": context.get_remaining_time_in_millis(),
        "trace": os.environ["_X_AMZN_TRACE_ID"],
        "env": sorted(os.environ),
        "cwd": os.getcwd(),
    }
"""


def _container(tmp_path: Path, handler: str = HANDLER, timeout: int = 30) -> Container:
    task, opt, home, runtime = (tmp_path / n for n in ("task", "opt", "home", "runtime"))
    for directory in (task, opt / "python", home, runtime):
        directory.mkdir(parents=True)
    (task / "handler.py").write_text(handler)
    bootstrap = runtime / "bootstrap.py"
    bootstrap.write_text((Path(containers.__file__).with_name("bootstrap.py")).read_text())
    sandbox = Sandbox(Path(sys.executable), bootstrap, task, opt, home)
    function = LambdaFunction("Fn", "webhook", task, (), "handler.handler", 256, timeout, {}, None)
    environment = lambda_environment(
        function, physical_name="Memo-Fn", region="us-east-1", sandbox=sandbox, log_group="/lg"
    )
    container = Container(function, sandbox, {**environment, "OWN": "1"}, tmp_path / "fn.log")
    container.start("arn:aws:lambda:us-east-1:123456789012:function:Memo-Fn")
    return container


def test_a_warm_environment_answers_each_invocation_with_its_own_trace(tmp_path: Path) -> None:
    container = _container(tmp_path)
    try:
        first, second = container.invoke({"n": 1}), container.invoke({"n": 2})
    finally:
        container.stop()
    assert container.init["error"] is None and container.init["ms"] > 0
    assert first.ok and first.response["event"] == {"n": 1} and second.response["event"] == {"n": 2}
    assert first.response["function"] == "Memo-Fn" and 0 < first.response["remaining_ms"] <= 30_000
    assert first.response["trace"] != second.response["trace"] and first.response["trace"].startswith(
        "Root=1-"
    )
    assert first.response["cwd"] == str(tmp_path / "task")


def test_the_function_sees_lambdas_variables_and_its_own_nothing_of_this_shell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEVELOPER_SECRET", "x")
    container = _container(tmp_path)
    try:
        seen = set(container.invoke({}).response["env"])
    finally:
        container.stop()
    assert {"OWN", "AWS_LAMBDA_FUNCTION_NAME", "LAMBDA_TASK_ROOT", "_HANDLER", "_X_AMZN_TRACE_ID"} <= seen
    assert "DEVELOPER_SECRET" not in seen and "VIRTUAL_ENV" not in seen


@pytest.mark.parametrize(
    ("event", "error_type"), [({"raise": True}, "ValueError"), ({"not_json": True}, "TypeError")]
)
def test_a_function_error_is_reported_with_its_type_and_the_environment_stays_warm(
    tmp_path: Path, event: dict[str, bool], error_type: str
) -> None:
    container = _container(tmp_path)
    try:
        failed, after = container.invoke(event), container.invoke({})
    finally:
        container.stop()
    assert not failed.ok and failed.error is not None and failed.error["errorType"] == error_type
    assert failed.summary().startswith(f"{error_type}: ")
    assert after.ok


def test_a_handler_that_does_not_import_is_an_init_error(tmp_path: Path) -> None:
    container = _container(tmp_path, handler="import no_such_module\n")
    try:
        invocation = container.invoke({})
    finally:
        container.stop()
    assert container.init["error"]["errorType"] == "ModuleNotFoundError"
    assert not invocation.ok and not container.running


def test_an_invocation_past_the_functions_timeout_ends_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(containers, "GRACE_SECONDS", 0.2)
    container = _container(tmp_path, timeout=1)
    invocation = container.invoke({"sleep": 30})
    assert not invocation.ok and invocation.error == {
        "errorType": "Sandbox.Timedout",
        "errorMessage": "timed out",
    }
    assert not container.running


def test_describe_says_where_modules_came_from(tmp_path: Path) -> None:
    container = _container(tmp_path)
    try:
        container.invoke({})
        described = container.describe()
    finally:
        container.stop()
    assert described["origins"]["handler"] == str(tmp_path / "task" / "handler.py")
    assert described["sys_path"][0] == str(tmp_path / "task")
    assert described["layer_modules"] == 0


def test_a_trace_header_is_a_sampled_xray_header() -> None:
    root, parent, sampled = trace_header().split(";")
    assert root.startswith("Root=1-") and len(root.split("-")[2]) == 24
    assert parent.startswith("Parent=") and sampled == "Sampled=1"
