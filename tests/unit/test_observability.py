"""Metrics: nothing piles up, and nothing is printed, while they are disabled (the local chat)."""

from __future__ import annotations

import pytest

from memo.observability import count, metrics


def test_disabled_metrics_never_print_however_many_are_counted(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "true")
    metrics.clear_metrics()

    for _ in range(150):  # Powertools prints a blob at 100 values even when disabled
        count("TurnsProcessed")

    assert capsys.readouterr().out == ""
    assert metrics.metric_set == {}


def test_enabled_metrics_are_kept_for_the_handlers_flush(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "false")
    metrics.clear_metrics()
    try:
        count("TurnsProcessed")
        count("TurnsProcessed")
        assert metrics.metric_set["TurnsProcessed"]["Value"] == [1.0, 1.0]
    finally:
        metrics.clear_metrics()


def _line(level: int, *, cold_start: bool, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    import json
    import logging

    from memo.observability import CompactFormatter

    monkeypatch.setenv("_X_AMZN_TRACE_ID", "Root=1-6749a3e1-0a1b2c3d4e5f60718293a4b5;Parent=1;Sampled=1")
    formatter = CompactFormatter()
    formatter.append_keys(
        cold_start=cold_start,
        function_name="memo-webhook",
        function_arn="arn:aws:lambda:us-east-1:123456789012:function:memo-webhook",
        function_memory_size=1024,
        function_request_id="req-1",
    )
    record = logging.LogRecord("memo", level, __file__, 7, "TURN_DONE", None, None, func="run")
    return dict(json.loads(formatter.format(record)))


@pytest.mark.parametrize("cold_start", [True, False])
def test_an_info_line_carries_only_what_the_log_group_does_not_say(
    cold_start: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    import logging

    line = _line(logging.INFO, cold_start=cold_start, monkeypatch=monkeypatch)
    assert line["message"] == "TURN_DONE" and line["function_request_id"] == "req-1"
    assert not {"function_name", "function_arn", "function_memory_size", "location", "xray_trace_id"} & set(
        line
    )
    assert ("cold_start" in line) is cold_start


def test_a_warning_keeps_its_location_and_trace(monkeypatch: pytest.MonkeyPatch) -> None:
    import logging

    line = _line(logging.WARNING, cold_start=False, monkeypatch=monkeypatch)
    assert line["location"] == "run:7"
    assert line["xray_trace_id"] == "1-6749a3e1-0a1b2c3d4e5f60718293a4b5"
    assert "function_arn" not in line
