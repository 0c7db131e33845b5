"""Webhook figures: cold import against the floor, ingress and a small-talk turn per message."""

from __future__ import annotations

import json
import os
from typing import Any

from benchmarks.harness import ApiCalls, Row, best_imports, modules_after, modules_of, ms, timed

FLOOR = "import boto3, aws_lambda_powertools"
# For comparison: what importing pydantic alone adds to the floor. The ingress path (settings, payload,
# queued messages) does without it; the turn path's models and settings are imported by its first batch.
PYDANTIC = f"{FLOOR}; from pydantic import BaseModel"
HANDLER = (
    "import importlib.util as u; s = u.spec_from_file_location('h', 'functions/webhook/handler.py'); "
    "m = u.module_from_spec(s); s.loader.exec_module(m)"
)
# A cold start is the import and the first request (benchmarks/coldstart.py): the handler's first
# signed POST against the floor doing the same minimal work (secret, signature, JSON, enqueue).
FIRST_POST = "import benchmarks.coldstart as c; c.handler_first_post()"
FLOOR_FIRST_POST = "import benchmarks.coldstart as c; c.floor_first_post()"
MESSAGES = 40


def run() -> list[Row]:
    (
        (floor, floor_cpu),
        (models, models_cpu),
        (cold, cold_cpu),
        (post, post_cpu),
        (floor_post, floor_post_cpu),
    ) = best_imports(FLOOR, PYDANTIC, HANDLER, FIRST_POST, FLOOR_FIRST_POST)
    (floor_src, floor_src_cpu), (cold_src, cold_src_cpu) = best_imports(FLOOR, HANDLER, source=True)
    rows: list[Row] = [
        ("floor: import boto3, aws_lambda_powertools (best of 7, interleaved)", f"{floor * 1000:.0f}", "ms"),
        ("webhook handler cold import (best of 7, interleaved)", f"{cold * 1000:.0f}", "ms"),
        ("webhook handler cold import / floor", f"{cold / floor:.2f}", "x"),
        ("webhook handler cold import / floor, CPU time", f"{cold_cpu / floor_cpu:.2f}", "x"),
        (
            "floor + pydantic's BaseModel alone / floor (not imported by the ingress)",
            f"{models / floor:.2f}",
            "x",
        ),
        ("floor + pydantic's BaseModel alone / floor, CPU time", f"{models_cpu / floor_cpu:.2f}", "x"),
        (
            "cold start: import + first signed POST, the floor doing the same (secret, signature, enqueue)",
            f"{floor_post * 1000:.0f}",
            "ms",
        ),
        (
            "cold start: webhook handler import + its first signed POST (best of 7)",
            f"{post * 1000:.0f}",
            "ms",
        ),
        ("cold start: handler import + first POST / the floor's", f"{post / floor_post:.2f}", "x"),
        (
            "cold start: handler import + first POST / the floor's, CPU time",
            f"{post_cpu / floor_post_cpu:.2f}",
            "x",
        ),
        ("from source (layers without .pyc): floor", f"{floor_src * 1000:.0f}", "ms"),
        ("from source (layers without .pyc): webhook handler cold import", f"{cold_src * 1000:.0f}", "ms"),
        ("from source (layers without .pyc): handler / floor", f"{cold_src / floor_src:.2f}", "x"),
        (
            "from source (layers without .pyc): handler / floor, CPU time",
            f"{cold_src_cpu / floor_src_cpu:.2f}",
            "x",
        ),
        ("modules imported by the handler module", str(modules_after(HANDLER)), "modules"),
        ("of which beyond the floor", str(modules_after(HANDLER, after=FLOOR)), "modules"),
        (
            "modules of the cold start (import + first POST) beyond the floor doing the same",
            _beyond_floor_post(),
            "modules",
        ),
    ]
    rows.extend(_per_message())
    return rows


def _beyond_floor_post() -> str:
    floor = set(modules_of(FLOOR_FIRST_POST))
    return str(len([name for name in modules_of(FIRST_POST) if name not in floor]))


def _per_message() -> list[Row]:
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    from memo.ingress.webhook import sign
    from memo.local.context import LocalLambdaContext
    from memo.local.events import http_api_event
    from memo.local.functions import load_handler
    from memo.local.stack import LocalStack
    from memo.local.whatsapp_user import WhatsAppUser

    with LocalStack(start_poller=False) as stack:
        handler = load_handler("webhook")
        secret = os.environ["WHATSAPP_APP_SECRET"]
        assert stack.poller is not None
        user = WhatsAppUser(wa_id="972500000099")
        warm = json.dumps(user.payload(user.text("hi"))).encode()
        handler(
            http_api_event(
                "POST", "/webhook", headers={"X-Hub-Signature-256": sign(warm, secret)}, body=warm
            ),
            LocalLambdaContext(),
        )
        stack.poller.drain()  # warm: first turn pays the lazy imports

        ingress_calls, turn_calls = ApiCalls(), ApiCalls()
        ingress_samples: list[float] = []
        turn_samples: list[float] = []
        for i in range(MESSAGES):
            body = json.dumps(user.payload(user.text(f"thanks {i}"))).encode()
            event = http_api_event(
                "POST", "/webhook", headers={"X-Hub-Signature-256": sign(body, secret)}, body=body
            )

            def ingress(event: dict[str, Any] = event) -> None:
                assert handler(event, LocalLambdaContext())["statusCode"] == 200

            with ingress_calls.counting():
                ingress_samples += timed(ingress, 1)
            # The turn: one SQS batch holding this message, handled by the same Lambda handler.
            with turn_calls.counting():
                turn_samples += timed(lambda: stack.poller.drain(max_batches=1) if stack.poller else None, 1)
        sqs_receive = sum(v for k, v in turn_calls.calls.items() if k.startswith("sqs:"))
    return [
        ("ingress: wall time per webhook POST (moto)", ms(ingress_samples), "ms"),
        ("ingress: AWS calls per message", f"{ingress_calls.total / MESSAGES:.1f}", "calls"),
        ("small-talk turn: wall time per message (moto, local sink)", ms(turn_samples), "ms"),
        (
            "small-talk turn: AWS calls per message (handler)",
            f"{(turn_calls.total - sqs_receive) / MESSAGES:.1f}",
            "calls",
        ),
        ("small-talk turn: calls by operation", _ops(turn_calls, MESSAGES), ""),
    ]


def _ops(calls: ApiCalls, per: int) -> str:
    return ", ".join(
        f"{name} {count / per:g}"
        for name, count in sorted(calls.calls.items())
        if not name.startswith("sqs:")
    )
