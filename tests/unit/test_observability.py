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
