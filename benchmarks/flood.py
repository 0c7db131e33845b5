"""A flood: 300 messages from one sender, as fast as the webhook takes them, on the local stack with
its poller running (as `make run` does) and the OpenAI planner answering from a local fake server.

Halfway through, a second user sends one message: how long it waits for its answer is the figure
the pace limit and the poller's fairness are for (target: under 5 s). Reported: how many times the
model was asked (one per turned message, never for a dropped one), the answers the flooding sender
got (the turned messages' and the one notice), and how long the whole flood took to go through.
The sender's pace is the deployed default (`MEMO_RATE_BURST`, `MEMO_RATE_PER_MINUTE`); messages are
stamped with the real time they are sent, as WhatsApp stamps them.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from benchmarks.harness import Row

if TYPE_CHECKING:
    from memo.local.stack import LocalStack

FLOOD = 300
SECOND_AT = FLOOD // 2
TIMEOUT_SECONDS = 300.0
PLANNER_ANSWER = {
    "intentType": "conversation",
    "confidence": 0.95,
    "riskLevel": "low",
    "needsApproval": False,
    "missingFields": [],
    "plan": [
        {
            "id": "s1",
            "capability": "general",
            "action": "reply",
            "constraints": [{"key": "kind", "value": "greeting"}],
            "changes": [],
            "dependsOn": [],
        }
    ],
    "routingSuggestions": [],
}


def _sending_times() -> Iterator[int]:
    while True:
        yield int(time.time())


def _until(done: Any, timeout: float = TIMEOUT_SECONDS) -> float:
    """Seconds until `done()` holds, looked at every 5 ms (the figures' resolution)."""
    start = time.perf_counter()
    while not done():
        if time.perf_counter() - start > timeout:
            raise TimeoutError("the flood did not go through in time")
        time.sleep(0.005)
    return time.perf_counter() - start


def _watch(done: Any, seconds: list[float]) -> threading.Thread:
    """From now, the seconds until `done()` holds, put in `seconds` by a thread (returned, started)."""

    def watch() -> None:
        seconds.append(_until(done))

    watcher = threading.Thread(target=watch, name="bench-flood-watch", daemon=True)
    watcher.start()
    return watcher


def _queue_empty(sqs: Any, url: str) -> bool:
    counts = sqs.get_queue_attributes(
        QueueUrl=url,
        AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
    )["Attributes"]
    return all(value == "0" for value in counts.values())


@contextmanager
def _deployed_pace(base_url: str) -> Iterator[None]:
    """The environment of the flood: the deployed default pace, the OpenAI planner at `base_url`."""
    saved = dict(os.environ)
    for name in ("MEMO_RATE_BURST", "MEMO_RATE_PER_MINUTE"):
        os.environ.pop(name, None)
    os.environ.update({"OPENAI_API_KEY": "sk-local-bench", "OPENAI_BASE_URL": base_url})
    # The flood's one notice logs a warning: kept out of the table.
    memo_logger = logging.getLogger("memo")
    level = memo_logger.level
    memo_logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        memo_logger.setLevel(level)
        os.environ.clear()
        os.environ.update(saved)


@dataclass
class Figures:
    sent_in: float = 0.0
    waited: float = 0.0
    through: float = 0.0
    answers: list[str] = field(default_factory=list)


def _flood(stack: LocalStack) -> Figures:
    """Post the flood (the second user's message halfway), measure, and wait for all of it."""
    from memo.local.aws import sqs_client
    from memo.local.whatsapp_user import WhatsAppUser
    from tests.support.webhook import post

    flooder = WhatsAppUser(wa_id="972500000401", _clock=_sending_times())  # type: ignore[arg-type]
    other = WhatsAppUser(wa_id="972500000402", _clock=_sending_times())  # type: ignore[arg-type]
    # Warm: the turn path imported and built, the model's client made (a cold start is `make
    # bench`'s coldstart section, not this one's).
    warm = WhatsAppUser(wa_id="972500000403")
    assert post(warm.payload(warm.text("hi")))["statusCode"] == 200
    _until(lambda: bool(stack.sink.messages(to=warm.wa_id)))
    figures, answered = Figures(), list[float]()
    started = time.perf_counter()
    watcher = None
    for n in range(FLOOD):
        assert post(flooder.payload(flooder.text(f"hey are you there {n}")))["statusCode"] == 200
        if n == SECOND_AT:
            assert post(other.payload(other.text("hi")))["statusCode"] == 200
            watcher = _watch(lambda: bool(stack.sink.messages(to=other.wa_id)), answered)
    figures.sent_in = time.perf_counter() - started
    assert watcher is not None and stack.resources is not None and stack.stepfunctions is not None
    watcher.join(TIMEOUT_SECONDS)
    (figures.waited,) = answered
    url = stack.resources.queue_url
    _until(lambda: _queue_empty(sqs_client(), url))
    stack.stepfunctions.wait_all()
    figures.through = time.perf_counter() - started
    figures.answers = [str(r.body) for r in stack.sink.messages(to=flooder.wa_id)]
    return figures


def run() -> list[Row]:
    from memo.local.stack import LocalStack
    from tests.support.fake_openai import FakeOpenAI, Reply

    with FakeOpenAI() as server, _deployed_pace(server.base_url):
        server.script(*[Reply.json(PLANNER_ANSWER)] * (FLOOD + 2))
        with LocalStack(start_poller=True) as stack:
            figures = _flood(stack)
        asks = len(server.requests) - 2  # not the warm turn's, nor the second user's
    notices = sum("give me a moment" in body for body in figures.answers)
    return [
        ("300 messages from one sender: sent in", f"{figures.sent_in:.1f}", "s"),
        ("flood: the model asked for the sender's messages (fake OpenAI planner)", str(asks), "requests"),
        (
            "flood: answers to the flooding sender (one notice among them)",
            f"{len(figures.answers)} ({notices})",
            "",
        ),
        ("flood: a second user's message, sent halfway, waits for its answer", f"{figures.waited:.2f}", "s"),
        ("flood: all 300 through the turn path", f"{figures.through:.1f}", "s"),
    ]
