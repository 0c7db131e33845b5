"""Fault injection for the local stack: make chosen AWS calls fail the way AWS fails.

`faults.throttle(...)` answers matching calls with the error the SDK raises once its own retries are
spent (a ClientError, as botocore raises it); `faults.crash(...)` stops the Lambda on the spot, as a
timeout or an out-of-memory kill would, before the call happens. Every matching call is recorded.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from botocore.client import BaseClient
from botocore.exceptions import ClientError

WRITES = frozenset({"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"})


class LambdaCrash(BaseException):
    """The Lambda died here (timeout, OOM, lost host): nothing after this line ran."""


def tables_of(operation: str, params: dict[str, Any]) -> set[str]:
    if "TableName" in params:
        return {params["TableName"]}
    if operation == "BatchWriteItem":
        return set(params["RequestItems"])
    if operation == "TransactWriteItems":
        return {next(iter(item.values()))["TableName"] for item in params["TransactItems"]}
    return set()


@dataclass
class Rule:
    matches: Callable[[str, str, dict[str, Any]], bool]
    make: Callable[[str], BaseException]
    times: int  # how many matching calls fail; later ones go through
    skip: int = 0  # matching calls let through before the first failure
    thread: int | None = None  # only calls made on this thread (the test's: the turn, not a step)


@dataclass
class Faults:
    rules: list[Rule] = field(default_factory=list)
    seen: list[tuple[str, str]] = field(default_factory=list)
    fired: list[tuple[str, str]] = field(default_factory=list)
    writes: list[tuple[int, str, str]] = field(default_factory=list)

    def throttle(
        self, *, table: str, operations: frozenset[str] = WRITES, times: int = 1, skip: int = 0
    ) -> None:
        def error(operation: str) -> BaseException:
            return ClientError(
                {
                    "Error": {
                        "Code": "ProvisionedThroughputExceededException",
                        "Message": "The level of configured provisioned throughput for the table was exceeded.",
                    },
                    "ResponseMetadata": {"HTTPStatusCode": 400},
                },
                operation,
            )

        self.rules.append(Rule(_on_table(table, operations), error, times, skip))

    def crash(
        self,
        *,
        table: str | None = None,
        operations: frozenset[str] = WRITES,
        skip: int = 0,
        this_thread_only: bool = False,
    ) -> None:
        self.rules.append(
            Rule(
                _on_table(table, operations),
                lambda op: LambdaCrash(f"crashed before {op}"),
                1,
                skip,
                threading.get_ident() if this_thread_only else None,
            )
        )

    def writes_on_this_thread(self) -> list[tuple[str, str]]:
        me = threading.get_ident()
        return [(op, table) for thread, op, table in self.writes if thread == me]

    def _check(self, service: str, operation: str, params: dict[str, Any]) -> None:
        if service == "dynamodb" and operation in WRITES:
            tables = ",".join(sorted(tables_of(operation, params)))
            self.writes.append((threading.get_ident(), operation, tables))
        for rule in self.rules:
            if rule.times <= 0 or not rule.matches(service, operation, params):
                continue
            if rule.thread is not None and rule.thread != threading.get_ident():
                continue
            if rule.skip > 0:
                rule.skip -= 1
                continue
            rule.times -= 1
            self.fired.append((service, operation))
            raise rule.make(operation)


def _on_table(table: str | None, operations: frozenset[str]) -> Callable[[str, str, dict[str, Any]], bool]:
    def matches(service: str, operation: str, params: dict[str, Any]) -> bool:
        if service != "dynamodb" or operation not in operations:
            return False
        return table is None or any(table in name for name in tables_of(operation, params))

    return matches


@pytest.fixture
def faults() -> Iterator[Faults]:
    injected = Faults()
    original = getattr(BaseClient, "_make_api_call")  # noqa: B009 - the one place every call passes

    def call(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        service = client.meta.service_model.service_name
        injected.seen.append((service, operation))
        injected._check(service, operation, params)
        return original(client, operation, params)

    setattr(BaseClient, "_make_api_call", call)  # noqa: B010
    try:
        yield injected
    finally:
        setattr(BaseClient, "_make_api_call", original)  # noqa: B010
