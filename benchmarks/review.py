"""Review API figures: latency of the queue listing and of a decision, and DynamoDB requests per call.

The review Lambda's resolver runs in-process with API Gateway v2 events carrying the JWT claims the
authorizer would pass (as deployed), over the DynamoDB case store on moto and over SQLite.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.harness import ApiCalls, Row

OPEN_CASES = 50
DECISIONS = 30
CLAIMS = {"sub": "op-1", "name": "Olive Operator", "cognito:groups": "[reviewers:lgv_troubleshooting]"}


def run() -> list[Row]:
    rows: list[Row] = []
    for store in ("dynamodb", "sqlite"):
        with _service(store) as cases:
            rows += _measure(store, cases)
    return rows


@contextmanager
def _service(store: str) -> Iterator[Any]:
    from caseplatform.service import build_case_service

    if store == "sqlite":
        from caseplatform.stores.sqlite import SqliteCaseStore

        with tempfile.TemporaryDirectory() as tmp:
            sqlite = SqliteCaseStore(Path(tmp) / "hitl.db")
            try:
                yield _seeded(build_case_service(sqlite))
            finally:
                sqlite.close()
        return
    import boto3
    from moto import mock_aws

    from caseplatform.stores.dynamodb import DynamoCaseStore
    from memo import tables

    os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        client.create_table(**tables.CASES.create_table_kwargs("bench-cases"))
        yield _seeded(build_case_service(DynamoCaseStore("bench-cases", client)))


def _seeded(cases: Any) -> Any:
    from caseplatform.review.approvals import ensure_review_adapters

    cases.ensure_default_adapters()
    ensure_review_adapters(cases)
    return cases


def _measure(store: str, cases: Any) -> list[Row]:
    from caseplatform.review.api import ApiConfig, build_app
    from caseplatform.review.approvals import ReviewService
    from memo.local.context import LocalLambdaContext
    from memo.local.events import http_api_event

    app = build_app(lambda: ReviewService(cases), ApiConfig(dev_secret=None))
    ids = [_submit(cases, i) for i in range(OPEN_CASES + DECISIONS)]

    def call(method: str, path: str, body: Any = None) -> dict[str, Any]:
        raw = b"" if body is None else json.dumps(body).encode()
        event = http_api_event(method, path, headers={"content-type": "application/json"}, body=raw)
        event["requestContext"]["authorizer"] = {"jwt": {"claims": CLAIMS, "scopes": None}}
        return app.resolve(event, LocalLambdaContext())  # type: ignore[arg-type]

    queue_calls, decision_calls = ApiCalls(), ApiCalls()
    with queue_calls.counting():
        queue = _timed(lambda: _ok(call("GET", "/review/cases")), 20)
    decisions = iter(ids[OPEN_CASES:])
    with decision_calls.counting():
        decide = _timed(
            lambda: _ok(
                call(
                    "POST",
                    f"/review/cases/{next(decisions)}/approve",
                    {"request_id": f"r-{time.monotonic_ns()}"},
                )
            ),
            DECISIONS,
        )
    rows: list[Row] = [
        (
            f"{store}: queue listing ({OPEN_CASES + DECISIONS} open cases), median",
            f"{statistics.median(queue) * 1000:.1f}",
            "ms",
        ),
        (f"{store}: approve decision, median", f"{statistics.median(decide) * 1000:.1f}", "ms"),
    ]
    if store == "dynamodb":
        rows += [
            ("dynamodb: requests per queue listing", f"{queue_calls.total / 20:.1f}", "requests"),
            (
                "dynamodb: requests per approve decision",
                f"{decision_calls.total / DECISIONS:.1f}",
                "requests",
            ),
        ]
    return rows


def _submit(cases: Any, i: int) -> str:
    event, _ = cases.submit_case(
        adapter_id="lgv_troubleshooting",
        case_type="incident",
        title=f"LGV-{i:02d} navigation fault",
        summary="Recommend reloading the reflector map",
        payload={
            "symptom": "LGV stops before dock 3",
            "site": "Plant Haifa",
            "lgv_id": f"LGV-{i:02d}",
            "services_checked": ["nav-service"],
            "connection_path": [f"LGV-{i:02d}", "fleet-manager"],
            "evidence": ["nav-service restarted 3 times"],
            "missing_data": [],
            "proposed_next_action": "Reload the reflector map",
        },
        submitter={"name": "lgv-chatbot", "role": "agent", "id": "agent:lgv"},
        request_id=f"bench-submit-{i}",
    )
    return str(event.case_id)


def _ok(answer: dict[str, Any]) -> None:
    if int(answer["statusCode"]) != 200:
        raise RuntimeError(f"review API answered {answer['statusCode']}: {answer.get('body')}")


def _timed(fn: Callable[[], None], repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples
