"""The review metrics as an MCP tool (`review_metrics`, stdio) and a CLI command (`hitl metrics`),
one answer for both: `{status, from_ms, to_ms, period_ms, adapter_id, count, items}`, an item per
(adapter, period) with `review_latency` and `clarification_turnaround` (`count`, `median_ms`,
`p90_ms`; the two null when nothing was measured)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from mcp.server import MCPServer
from mcp.types import CallToolResult

from caseplatform import answers
from caseplatform.errors import EnvelopeInvalid
from caseplatform.governance.metrics import Window, review_metrics
from caseplatform.service import CaseService

DAY_MS = 24 * 3600 * 1000
# The CLI's default window ends now and starts this long before.
DEFAULT_WINDOW_MS = 30 * DAY_MS
PERIODS = {"all": None, "day": DAY_MS, "week": 7 * DAY_MS}

METRICS_DESCRIPTION = (
    "Median and p90 review latency (submission to decision) and clarification turnaround (question "
    "to answer) per adapter and period, computed from the events written in [from_ms, to_ms); "
    "period_ms splits the window (default: one period), adapter_id keeps one adapter."
)


def metrics_answer(
    service: CaseService, *, from_ms: Any, to_ms: Any, period_ms: Any = None, adapter_id: Any = None
) -> dict[str, Any]:
    """The report's answer; arguments that are not whole numbers (or an adapter id that is not text)
    are ENVELOPE_INVALID."""
    window = Window(
        _whole(from_ms, "from_ms"),
        _whole(to_ms, "to_ms"),
        None if period_ms is None else _whole(period_ms, "period_ms"),
    )
    if adapter_id is not None and not isinstance(adapter_id, str):
        raise EnvelopeInvalid([{"path": "$.adapter_id", "message": "adapter_id must be text"}])
    rows = review_metrics(service.store, window, adapter_id=adapter_id)
    return answers.success(
        from_ms=window.from_ms,
        to_ms=window.to_ms,
        period_ms=window.period_ms,
        adapter_id=adapter_id,
        count=len(rows),
        items=[row.to_dict() for row in rows],
    )


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EnvelopeInvalid([{"path": f"$.{name}", "message": f"{name} must be a whole number of ms"}])
    return value


Answer = Callable[[str, Callable[[], dict[str, Any]]], CallToolResult]


def register_metrics_tools(server: MCPServer, answer: Answer, service: CaseService) -> None:
    """Add `review_metrics` to `server`; `answer(tool, produce)` turns the answer (or a domain error)
    into the tool result."""

    @server.tool(description=METRICS_DESCRIPTION)
    def review_metrics(
        from_ms: int, to_ms: int, period_ms: int | None = None, adapter_id: str | None = None
    ) -> CallToolResult:
        return answer(
            "review_metrics",
            lambda: metrics_answer(
                service, from_ms=from_ms, to_ms=to_ms, period_ms=period_ms, adapter_id=adapter_id
            ),
        )


def add_metrics_command(commands: Any) -> None:
    """`hitl metrics [--adapter A] [--from-ms N] [--to-ms N] [--period all|day|week]`."""
    metrics = commands.add_parser("metrics", help="review latency and clarification turnaround")
    metrics.add_argument("--adapter")
    metrics.add_argument(
        "--from-ms", type=int, help="window start, epoch ms (default: 30 days before --to-ms)"
    )
    metrics.add_argument("--to-ms", type=int, help="window end (exclusive), epoch ms (default: now)")
    metrics.add_argument(
        "--period", choices=sorted(PERIODS), default="all", help="split the window (default all)"
    )


def run_metrics_command(service: CaseService, args: argparse.Namespace) -> dict[str, Any]:
    to_ms = service.clock() if args.to_ms is None else args.to_ms
    from_ms = to_ms - DEFAULT_WINDOW_MS if args.from_ms is None else args.from_ms
    return metrics_answer(
        service, from_ms=from_ms, to_ms=to_ms, period_ms=PERIODS[args.period], adapter_id=args.adapter
    )
