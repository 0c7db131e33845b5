"""Counting what AWS bills, while the local stack runs a scenario: `make cost` (benchmarks/cost.py).

Everything is counted at the point AWS would bill it:
- every botocore call the Lambdas make (DynamoDB capacity units by DynamoDB's item-size rule, SQS
  FIFO requests, Secrets Manager calls, EventBridge events, SNS publishes);
- every Lambda invocation and its wall time, by wrapping the handlers the local stack loads;
- every byte the functions log (Powertools writes JSON lines to stdout, as Lambda captures them);
- every Step Functions execution's state transitions (`StateEntered` events of its history) and
  its duration.
"""

from __future__ import annotations

import io
import math
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass, field, fields
from typing import Any

from botocore.client import BaseClient

from benchmarks.harness import item_size

KB, READ_UNIT = 1024, 4096
# Calls the local harness makes that are no Lambda's: the test driver polling Step Functions, and
# moto's own Lambda invocations for Step Functions tasks (counted as invocations instead).
WRITES = frozenset({"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"})
HARNESS_CALLS = frozenset(
    {
        ("stepfunctions", "DescribeExecution"),
        ("stepfunctions", "ListExecutions"),
        ("stepfunctions", "GetExecutionHistory"),
        ("lambda", "Invoke"),
    }
)


@dataclass
class Usage:
    """What one scenario used, in the units AWS bills."""

    http_requests: float = 0
    lambda_invocations: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    lambda_seconds: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    sqs_requests: float = 0
    write_units: float = 0
    read_units: float = 0
    executions: float = 0
    waiting_executions: float = 0  # those that waited for an operator (Standard only)
    transitions: float = 0
    quick_execution_transitions: float = 0  # transitions of executions that never waited
    quick_execution_seconds: float = 0
    scheduler_invocations: float = 0
    events_published: float = 0
    sns_publishes: float = 0
    log_bytes: float = 0
    secrets_calls: float = 0
    replies: float = 0

    def scaled(self, factor: float) -> Usage:
        out = Usage()
        for spec in fields(self):
            value = getattr(self, spec.name)
            if isinstance(value, dict):
                setattr(out, spec.name, defaultdict(float, {k: v * factor for k, v in value.items()}))
            else:
                setattr(out, spec.name, value * factor)
        return out

    def __add__(self, other: Usage) -> Usage:
        out = Usage()
        for spec in fields(self):
            mine, theirs = getattr(self, spec.name), getattr(other, spec.name)
            if isinstance(mine, dict):
                setattr(
                    out,
                    spec.name,
                    defaultdict(float, {k: mine.get(k, 0) + theirs.get(k, 0) for k in {*mine, *theirs}}),
                )
            else:
                setattr(out, spec.name, mine + theirs)
        return out

    @property
    def traces(self) -> float:
        """X-Ray traces recorded (every request sampled: an upper bound at low traffic): one per request
        that enters from outside a trace: an HTTP request, a queue batch, a schedule, an execution
        (its Lambda tasks join the execution's trace)."""
        entering = sum(n for name, n in self.lambda_invocations.items() if not name.startswith("sfn:"))
        return entering + self.executions


def write_units(operation: str, params: dict[str, Any], peek: Callable[[str, dict[str, Any]], int]) -> float:
    """Write request units of one write: 1 per started KB of the larger of the item before and after
    (`peek(table, key)` reads a stored item's size), doubled in a transaction."""
    if operation == "PutItem":
        return _kb(max(item_size(params["Item"]), peek(params["TableName"], _key_of(params))))
    if operation in ("UpdateItem", "DeleteItem"):
        return _kb(peek(params["TableName"], params["Key"]))
    if operation == "BatchWriteItem":
        return sum(
            _kb(item_size(request["PutRequest"]["Item"])) if "PutRequest" in request else 1.0
            for requests in params["RequestItems"].values()
            for request in requests
        )
    if operation == "TransactWriteItems":
        units = 0.0
        for entry in params["TransactItems"]:
            ((kind, spec),) = entry.items()
            size = item_size(spec["Item"]) if kind == "Put" else peek(spec["TableName"], spec["Key"])
            units += 2 * _kb(size)
        return units
    return 0.0


def read_units(operation: str, params: dict[str, Any], response: dict[str, Any]) -> float:
    """Read request units: 1 per started 4 KB read strongly consistent, half that eventually
    consistent, double in a transaction; a query or scan is billed on the sum of its items."""
    consistent = 1.0 if params.get("ConsistentRead") else 0.5
    if operation == "GetItem":
        return consistent * _blocks(item_size(response.get("Item") or {}))
    if operation in ("Query", "Scan"):
        return consistent * _blocks(sum(item_size(item) for item in response.get("Items", [])))
    if operation == "BatchGetItem":
        items = [item for table in response.get("Responses", {}).values() for item in table]
        return sum(consistent * _blocks(item_size(item)) for item in items)
    if operation == "TransactGetItems":
        return sum(2 * _blocks(item_size(r.get("Item") or {})) for r in response.get("Responses", []))
    return 0.0


def _kb(size: int) -> float:
    return float(max(1, math.ceil(size / KB)))


def _blocks(size: int) -> float:
    return float(max(1, math.ceil(size / READ_UNIT)))


def _key_of(params: dict[str, Any]) -> dict[str, Any]:
    item = params["Item"]
    return {name: item[name] for name in ("pk", "sk") if name in item}


class _CountingStream(io.TextIOBase):
    """Where the functions' stdout goes during a measurement: counted, not shown."""

    def __init__(self) -> None:
        self.bytes = 0

    def write(self, text: str) -> int:
        self.bytes += len(text.encode())
        return len(text)


class Meter:
    """Counts a scenario's billable use while `measuring()` is open; `usage` holds the total."""

    def __init__(self) -> None:
        self.usage = Usage()
        self._stream = _CountingStream()

    @property
    def stdout(self) -> io.TextIOBase:
        """Install before the handlers are loaded: Powertools binds its log handler to this stream."""
        return self._stream

    def timed(self, name: str, handler: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        """`handler` counted as one Lambda invocation of `name` per call, with its wall time."""

        def invoke(event: Any, context: Any) -> Any:
            with self.invocation(name):
                return handler(event, context)

        invoke.metered = True  # type: ignore[attr-defined]
        return invoke

    @contextmanager
    def invocation(self, name: str) -> Iterator[None]:
        """One Lambda invocation of `name`: counted, with its wall time."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.usage.lambda_invocations[name] += 1
            self.usage.lambda_seconds[name] += time.perf_counter() - start

    @contextmanager
    def measuring(self) -> Iterator[Usage]:
        original = getattr(BaseClient, "_make_api_call")  # noqa: B009 - botocore's one call path

        def counted(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
            service = client.meta.service_model.service_name
            if service != "dynamodb" or operation not in WRITES:
                response = original(client, operation, params)
                self._count(service, operation, params, response)
                return response

            def peek(table: str, key: dict[str, Any]) -> int:
                found = original(client, "GetItem", {"TableName": table, "Key": key, "ConsistentRead": True})
                return item_size(found.get("Item") or {})

            # An update is billed on the item it leaves (peeked after), the others on what they
            # replace or remove (peeked before).
            before = 0.0 if operation == "UpdateItem" else write_units(operation, params, peek)
            response = original(client, operation, params)
            self.usage.write_units += before or write_units(operation, params, peek)
            return response

        usage, start_bytes = self.usage, self._stream.bytes
        setattr(BaseClient, "_make_api_call", counted)  # noqa: B010
        try:
            with redirect_stdout(self._stream):  # EMF metrics are printed; they are log bytes too
                yield usage
        finally:
            setattr(BaseClient, "_make_api_call", original)  # noqa: B010
            usage.log_bytes += self._stream.bytes - start_bytes

    def _count(self, service: str, operation: str, params: dict[str, Any], response: dict[str, Any]) -> None:
        usage = self.usage
        if (service, operation) in HARNESS_CALLS:
            return
        if service == "dynamodb":
            usage.read_units += read_units(operation, params, response)
        elif service == "sqs":
            empty_poll = operation == "ReceiveMessage" and not response.get("Messages")
            usage.sqs_requests += 0 if empty_poll else 1
        elif service == "secretsmanager":
            usage.secrets_calls += 1
        elif service == "events" and operation == "PutEvents":
            usage.events_published += len(params.get("Entries", []))
        elif service == "sns" and operation == "Publish":
            usage.sns_publishes += 1
