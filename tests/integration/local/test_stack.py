"""The local stack sets up its AWS, wires every Lambda's runtime to its environment and clock, and on
stop puts the environment back exactly as it found it."""

from __future__ import annotations

from datetime import datetime

from memo.local.stack import LocalStack
from memo.wiring.escalation import EscalationRuntime
from memo.wiring.reply import ReplyRuntime
from memo.wiring.review import ReviewRuntime
from memo.wiring.webhook import WebhookRuntime
from tests.support.clock import TEST_NOW


def test_the_stack_wires_its_runtimes_and_restores_the_environment() -> None:
    environ = {"KEPT": "1", "WHATSAPP_APP_SECRET": "mine"}
    before = dict(environ)

    def clock() -> datetime:
        return TEST_NOW

    with LocalStack(environ=environ, start_poller=False, clock=clock) as stack:
        assert stack.resources is not None
        assert environ["TURN_QUEUE_URL"] == stack.resources.queue_url
        assert environ["WHATSAPP_API_BASE_URL"].startswith(f"{stack.base_url}/graph/")
        assert environ["WHATSAPP_APP_SECRET"] == "mine"  # what was set is kept
        assert ReplyRuntime.current().clock is clock
        assert WebhookRuntime.current().settings.turn_queue_url == stack.resources.queue_url
        # Agents' notices and the retention job's archive, as deployed.
        assert ReviewRuntime.current().settings.event_bus == stack.resources.event_bus_name
        assert EscalationRuntime.current().settings.archive_bucket == stack.resources.archive_bucket
    assert environ == before
    assert ReplyRuntime.current().clock is not clock  # forgotten with the stack


def test_a_bus_and_a_bucket_already_configured_are_kept() -> None:
    environ = {"HITL_EVENT_BUS_NAME": "my-bus", "HITL_ARCHIVE_BUCKET": "my-archive"}
    with LocalStack(environ=environ, start_poller=False):
        assert ReviewRuntime.current().settings.event_bus == "my-bus"
        assert EscalationRuntime.current().settings.archive_bucket == "my-archive"
