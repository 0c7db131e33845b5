"""Turns with an LLM configured, against a local OpenAI-compatible server (no network): the planner
and the interpreter are called with the configured models, their failures fall back to the rules,
and a fast-path resume never calls an LLM."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from memo.wiring import reset_runtime
from memo.wiring.webhook import WebhookRuntime
from tests.support.conversation import Conversation, LogEvents
from tests.support.fake_openai import FakeOpenAI, Reply

JERUSALEM = ZoneInfo("Asia/Jerusalem")
# The times the scripted LLM answers with, after the suite's frozen now (tests/support/clock.py).


@pytest.fixture
def llm(monkeypatch: pytest.MonkeyPatch, chat: Conversation) -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-local-test")
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("MEMO_PLANNER_MODEL", "planner-x")
        monkeypatch.setenv("MEMO_INTERPRETER_MODEL", "interpreter-y")
        monkeypatch.setenv("MEMO_LLM_TIMEOUT_SECONDS", "2")
        monkeypatch.setenv("MEMO_LLM_MAX_RETRIES", "0")
        reset_runtime(WebhookRuntime)
        yield server


def plan(
    capability: str, action: str, constraints: dict[str, Any], *, risk: str = "low", approval: bool = False
) -> dict[str, Any]:
    return {
        "intentType": "operation",
        "confidence": 0.95,
        "riskLevel": risk,
        "needsApproval": approval,
        "missingFields": [],
        "plan": [
            {
                "id": "s1",
                "capability": capability,
                "action": action,
                "constraints": [{"key": k, "value": v} for k, v in constraints.items()],
                "changes": [],
                "dependsOn": [],
            }
        ],
        "routingSuggestions": [],
    }


def interpretation(decision: str) -> dict[str, Any]:
    fields = (
        "title",
        "text",
        "when",
        "time",
        "date",
        "location",
        "description",
        "listName",
        "items",
        "query",
    )
    return {
        "decision": decision,
        "parsed": {"approved": None, "answer": None, "modifications": dict.fromkeys(fields)},
    }


def test_the_llm_planner_plans_the_turn(llm: FakeOpenAI, chat: Conversation) -> None:
    llm.script(Reply.json(plan("notes", "search", {"query": "wifi"})))
    reply = chat.say("what was that wifi thing I told you")
    assert "wifi" in reply
    (request,) = llm.requests
    assert request["model"] == "planner-x"
    assert request["response_format"]["type"] == "json_schema"


def test_a_failing_llm_planner_falls_back_to_the_rules(
    llm: FakeOpenAI, chat: Conversation, log_events: LogEvents
) -> None:
    llm.script(Reply.status(500))
    reply = chat.say("remind me to call mom tomorrow at 5pm")
    assert "call mom" in reply and "17:00" in reply
    assert log_events.named("PLANNER_FALLBACK")


def _one_reminder(llm: FakeOpenAI, chat: Conversation) -> None:
    """A reminder to delete (the planner LLM fails, the rules plan it): an approval lists what it
    deletes, and "delete all" with nothing to delete asks nothing."""
    llm.script(Reply.status(500))
    assert "call mom" in chat.say("remind me to call mom tomorrow at 5pm")


def test_the_interpreter_llm_decides_an_unclear_approval_reply(
    llm: FakeOpenAI, chat: Conversation, log_events: LogEvents
) -> None:
    _one_reminder(llm, chat)
    llm.script(Reply.json(plan("reminders", "delete_all", {}, risk="high", approval=True)))
    question = chat.say("get rid of every reminder I have")
    assert [c.title for c in chat.choices] == ["Approve", "Edit", "Reject"], question
    llm.script(Reply.json(interpretation("cancel")))
    assert chat.say("hmm, on second thought maybe I'll keep them") == "OK, cancelled. Nothing was changed."
    interpreter_request = llm.requests[-1]
    assert interpreter_request["model"] == "interpreter-y"
    assert interpreter_request["temperature"] == 0.1
    assert interpreter_request["max_tokens"] == 200
    assert log_events.named("HITL_INTERPRETER_RESULT")[0]["decision"] == "cancel"


def test_a_fast_path_answer_never_calls_an_llm(llm: FakeOpenAI, chat: Conversation) -> None:
    _one_reminder(llm, chat)
    llm.script(Reply.json(plan("reminders", "delete_all", {}, risk="high", approval=True)))
    chat.say("clear out my reminders please")
    calls = len(llm.requests)
    assert chat.tap(1) == "Deleted 1 reminder: “call mom”."
    assert len(llm.requests) == calls


def test_an_unknown_interpreter_decision_re_asks(
    llm: FakeOpenAI, chat: Conversation, log_events: LogEvents
) -> None:
    _one_reminder(llm, chat)
    llm.script(Reply.json(plan("reminders", "delete_all", {}, risk="high", approval=True)))
    chat.say("clear out my reminders please")
    llm.script(Reply.json({"decision": "approve_everything", "parsed": None}))
    nudge = chat.say("whatever you think is best I guess")
    assert "delete all your reminders" in nudge
    assert log_events.named("HITL_RE_ASK")


NO_OPENAI_SCRIPT = r"""
import json, os, sys
os.environ.update({"POWERTOOLS_METRICS_DISABLED": "true", "POWERTOOLS_LOG_LEVEL": "ERROR"})
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.conversation import Conversation

with LocalStack(start_poller=False) as stack:
    chat = Conversation(stack=stack, user=WhatsAppUser())
    chat.say("remind me to call mom tomorrow at 5pm")
    question = chat.say("delete all my reminders")
    answer = chat.say("yes")
    print(json.dumps({"question": question, "answer": answer, "openai": "openai" in sys.modules}))
"""


@pytest.mark.slow
def test_without_a_key_a_whole_turn_and_a_fast_path_resume_never_import_openai() -> None:
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WHATSAPP_", "AWS_ENDPOINT"))}
    done = subprocess.run(
        [sys.executable, "-c", NO_OPENAI_SCRIPT],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert "delete all your reminders" in result["question"]
    assert result["answer"] == "Deleted 1 reminder: “call mom”."
    assert result["openai"] is False


def test_a_repeating_reminder_the_llm_made_a_one_off_repeats(
    llm: FakeOpenAI, chat: Conversation, log_events: LogEvents
) -> None:
    llm.script(Reply.json(plan("reminders", "create", {"title": "stretch", "whenText": "tomorrow at 7:30"})))
    made = chat.say("remind me every weekday at 7:30 to stretch")
    assert made.startswith("🔁 Reminder set: “stretch” every weekday (Sun–Thu) at 07:30")
    assert log_events.named("PLANNER_FALLBACK")[0]["reason"] == "recurrence_missing"
    llm.script(Reply.json(plan("reminders", "list", {})))
    assert "“stretch” — every weekday (Sun–Thu) at 07:30" in chat.say("what are my reminders?")


def test_hebrew_the_llm_s_words_of_a_repetition_are_resolved(
    llm: FakeOpenAI, chat: Conversation, log_events: LogEvents
) -> None:
    said = {"title": "להשקות את העציצים", "whenText": "פעם ביומיים ב-8 בבוקר"}
    llm.script(Reply.json(plan("reminders", "create", said)))
    made = chat.say("תזכיר לי להשקות את העציצים פעם ביומיים בבוקר ב-8")
    assert made.startswith("🔁 קבעתי תזכורת „להשקות את העציצים” כל 2 ימים ב-08:00")
    assert not log_events.named("PLANNER_FALLBACK")  # the model's words, resolved by Memo


def test_a_repetition_memo_cannot_keep_is_asked_about(llm: FakeOpenAI, chat: Conversation) -> None:
    llm.script(
        Reply.json(
            plan(
                "reminders",
                "create",
                {"title": "water the garden", "whenText": "on garden days at 8"},
            )
        )
    )
    assert chat.say("water the garden on garden days at 8") == "What time do you mean?"
    assert chat.say("every sunday at 8").startswith(
        "🔁 Reminder set: “water the garden” every Sunday at 08:00"
    )
    llm.script(Reply.json(plan("reminders", "list", {})))
    assert "every Sunday at 08:00" in chat.say("what are my reminders?")
