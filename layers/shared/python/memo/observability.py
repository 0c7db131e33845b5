"""The one observability module: Powertools Logger, Tracer and Metrics, plus PII masking.

Log with keyword fields (`logger.info("HITL_CREATED", extra={...})` or `append_keys`), never f-strings.
Phone numbers are masked by `mask_phone`; secrets are never logged.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.logging.formatter import LambdaPowertoolsFormatter
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.metrics.functions import is_metrics_disabled

if TYPE_CHECKING:  # the ingress's cold start imports no more of Powertools than it runs
    from aws_lambda_powertools.logging.types import PowertoolsLogRecord

SERVICE = "memo"
NAMESPACE = "Memo"

# What Lambda's context adds to every line that the log group already says: each function logs to
# its own group, so its name, ARN and memory size are known there; `cold_start` is kept when true.
CONTEXT_IN_THE_GROUP = ("function_name", "function_arn", "function_memory_size")


class CompactFormatter(LambdaPowertoolsFormatter):
    """Powertools' JSON lines without what the log group or the event already says (CloudWatch Logs
    bills every byte ingested; this was about 280 bytes of each line): the function's name, ARN and
    memory size, `cold_start` when false, and on an INFO line its source location and X-Ray trace id
    (its event name, the message, is unique, and `traceId` and the request id join the lines of a
    turn; a warning or an error keeps both, to find the code and open the trace)."""

    def serialize(self, log: dict[str, Any] | PowertoolsLogRecord) -> str:
        log = dict(log)
        for key in CONTEXT_IN_THE_GROUP:
            log.pop(key, None)
        if log.get("cold_start") is False:
            del log["cold_start"]
        if log.get("level") in ("DEBUG", "INFO"):
            log.pop("location", None)
            log.pop("xray_trace_id", None)
        return super().serialize(log)


logger = Logger(service=SERVICE, logger_formatter=CompactFormatter())
metrics = Metrics(namespace=NAMESPACE, service=SERVICE)


@cache
def get_tracer() -> Tracer:
    """The Powertools Tracer, built on first use: importing the X-Ray SDK costs ~140 ms, which the
    webhook's ingress path (Meta waits for its 200) does not pay; its turn path does."""
    return Tracer(service=SERVICE)


def __getattr__(name: str) -> Any:
    # `from memo.observability import tracer` still works for handlers that trace every invocation.
    if name == "tracer":
        return get_tracer()
    raise AttributeError(name)


def mask_phone(value: str | None) -> str:
    """`972501234567` -> `97250*****67`: enough to correlate, not enough to dial."""
    if not value:
        return ""
    digits = value.strip()
    if len(digits) <= 4:
        return "*" * len(digits)
    keep_head = min(5, len(digits) // 3)
    return digits[:keep_head] + "*" * (len(digits) - keep_head - 2) + digits[-2:]


def count(name: str, value: float = 1, **dimensions: str) -> None:
    """Add a count metric; dimensions stay low-cardinality (never a user id).

    Nothing is kept while metrics are disabled (the local stack, tests): Powertools would otherwise
    accumulate the values it never flushes and print them once 100 pile up, into the terminal chat.
    """
    if is_metrics_disabled():
        return
    if dimensions:
        for key, dim in dimensions.items():
            metrics.add_dimension(name=key, value=dim)
    metrics.add_metric(name=name, unit=MetricUnit.Count, value=value)


def bind_turn(trace_id: str, thread_id: str, **extra: Any) -> None:
    """Put traceId and threadId (masked) on every log line of the current turn.

    Thread-local keys: the local stack runs ingress and turns on different threads of one process.
    """
    logger.thread_safe_append_keys(traceId=trace_id, threadId=mask_phone(thread_id), **extra)


def bind_hitl(hitl_id: str) -> None:
    logger.thread_safe_append_keys(hitlId=hitl_id)


def unbind_turn() -> None:
    logger.thread_safe_remove_keys(["traceId", "threadId", "hitlId"])
