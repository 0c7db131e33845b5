"""Drive a WhatsApp conversation through the webhook handler (signed payloads) and the FIFO poller."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from memo.local.chat import ShownChoice, render
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.webhook import post


@dataclass
class Conversation:
    stack: LocalStack
    user: WhatsAppUser
    choices: list[ShownChoice] = field(default_factory=list)
    seen: int = -1

    def deliver(self, *messages: dict[str, Any]) -> list[str]:
        response = post(self.user.payload(*messages))
        assert response["statusCode"] == 200, response
        assert self.stack.poller is not None
        self.stack.poller.drain()
        if self.stack.stepfunctions is not None:
            self.stack.stepfunctions.wait_all()  # plans run on Step Functions; the responder replies
        return self.replies()

    def replies(self) -> list[str]:
        records = self.stack.sink.messages(to=self.user.wa_id, after=self.seen)
        if records:
            self.seen = records[-1].index
        texts = []
        for record in records:
            text, choices = render(record.body)
            if choices:
                self.choices = choices
            if _only_undo(choices):
                # A confirmation's "Undo" button (memo.reply.undo): the text is the confirmation;
                # the button stays in `choices` for `tap(1)`.
                text = str(record.body["interactive"]["body"]["text"])
            texts.append(text)
        return texts

    def say(self, text: str) -> str:
        """Send a text; return Memo's reply (exactly one is expected)."""
        replies = self.deliver(self.user.text(text))
        assert len(replies) == 1, replies
        return replies[0]

    def tap(self, number: int) -> str:
        """Press button / list row `number` (1-based) of the last question."""
        choice = self.choices[number - 1]
        title = choice.title.split(" — ")[0]
        message = (
            self.user.button_reply(choice.id, title)
            if choice.kind == "button"
            else self.user.list_reply(choice.id, title)
        )
        replies = self.deliver(message)
        assert len(replies) == 1, replies
        return replies[0]


def _only_undo(choices: list[ShownChoice]) -> bool:
    return len(choices) == 1 and choices[0].id.startswith("undo:")


@pytest.fixture
def chat(stack: LocalStack, user: WhatsAppUser) -> Conversation:
    return Conversation(stack=stack, user=user)


@contextmanager
def chat_at(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, timezone: str = "Asia/Jerusalem"
) -> Iterator[Conversation]:
    """A conversation on a fresh local stack whose every Lambda reads `clock`, its users in `timezone`."""
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", timezone)
    with LocalStack(start_poller=False, clock=clock) as running:
        yield Conversation(stack=running, user=WhatsAppUser())


class LogEvents(logging.Handler):
    """Collects the structured log events of Memo's logger (message + extra fields)."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def named(self, event: str) -> list[dict[str, Any]]:
        return [vars(r) for r in self.records if r.getMessage() == event]

    def names(self) -> list[str]:
        return [r.getMessage() for r in self.records]


@pytest.fixture
def log_events() -> Iterator[LogEvents]:
    handler = LogEvents()
    memo_logger = logging.getLogger("memo")
    memo_logger.addHandler(handler)
    try:
        yield handler
    finally:
        memo_logger.removeHandler(handler)
