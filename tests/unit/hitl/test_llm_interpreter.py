"""The OpenAI interpreter against a local OpenAI-compatible server: request shape and each path."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from memo.domain import HITLReply
from memo.hitl import gate
from memo.hitl.interpreter import InterpreterInput, OpenAIInterpreter
from memo.hitl.resume import resume
from memo.settings import LlmSettings
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.unit.hitl.conftest import NOW, TZ, make_state, plan, step

STEP = step(
    action="update", constraints={"target": "call mom"}, changes={"when": "2024-05-02T17:00:00+03:00"}
)


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def make(server: FakeOpenAI) -> OpenAIInterpreter:
    return OpenAIInterpreter(
        LlmSettings.model_validate(
            {
                "OPENAI_API_KEY": "sk-test",
                "OPENAI_BASE_URL": server.base_url,
                "MEMO_INTERPRETER_MODEL": "interp-model-y",
                "MEMO_LLM_TIMEOUT_SECONDS": "0.5",
                "MEMO_LLM_MAX_RETRIES": "0",
            }
        )
    )


def state():
    return gate.check_planner(make_state(plan(STEP, risk="high")), now=NOW, hitl_id="h-1").state


def ask(server: FakeOpenAI, text: str):
    s = state()
    return make(server).interpret(
        InterpreterInput(
            pending=s.pending_hitl, reply=text, language="en", timezone=TZ, now=NOW, origin_step=STEP
        )
    )


def answer(decision: str, **parsed: Any) -> dict[str, Any]:
    mods = {
        k: None
        for k in (
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
    }
    mods.update(parsed.pop("modifications", {}))
    return {
        "decision": decision,
        "parsed": {"approved": parsed.get("approved"), "answer": parsed.get("answer"), "modifications": mods},
    }


def test_request_has_the_model_schema_temperature_and_token_limit(server: FakeOpenAI) -> None:
    server.script(Reply.json(answer("continue", approved=True, answer="do it")))
    out = ask(server, "yep do it")
    assert out.decision == "continue" and out.parsed is not None and out.parsed.approved is True
    body = server.requests[0]
    assert body["model"] == "interp-model-y"
    assert body["temperature"] == 0.1 and body["max_tokens"] == 200
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]
    assert schema["properties"]["decision"]["enum"] == [
        "continue",
        "continue_with_modifications",
        "switch_intent",
        "cancel",
        "re_ask",
    ]
    assert schema["additionalProperties"] is False
    assert "yep do it" in body["messages"][1]["content"]


def test_modifications_are_sanitized_and_normalized(server: FakeOpenAI) -> None:
    reply = answer(
        "continue_with_modifications", approved=True, modifications={"time": "6pm", "title": "Gym"}
    )
    reply["parsed"]["modifications"]["reminderId"] = "r-evil"  # an id the schema does not allow
    server.script(Reply.json(reply))
    out = ask(server, "yes and change it to Gym at 6pm")
    assert out.decision == "continue_with_modifications"
    assert out.parsed is not None and out.parsed.modifications == {
        "title": "Gym",
        "when": "2024-05-02T18:00:00+03:00",
    }


def test_modifications_that_vanish_re_ask(server: FakeOpenAI) -> None:
    server.script(Reply.json(answer("continue_with_modifications", modifications={"time": "sometime"})))
    assert ask(server, "yes but change it").decision == "re_ask"


@pytest.mark.parametrize(
    "reply",
    [
        Reply.text("{decision: continue"),
        Reply.json({"decision": "approve_everything", "parsed": None}),
        Reply.text(""),
    ],
)
def test_malformed_or_unknown_output_re_asks(server: FakeOpenAI, reply: Reply) -> None:
    server.script(reply)
    assert ask(server, "forget it").decision == "re_ask"  # not the rule fallback: the LLM answered badly


@pytest.mark.parametrize("reply", [Reply.status(500), Reply.status(503), Reply.hang()])
def test_transport_failures_fall_back_to_the_rule_interpreter(server: FakeOpenAI, reply: Reply) -> None:
    server.script(reply)
    assert ask(server, "forget it").decision == "cancel"
    server.script(reply)
    out = ask(server, "yes, and change the time to 7pm")
    assert out.decision == "continue_with_modifications"
    assert out.parsed is not None and out.parsed.modifications == {"when": "2024-05-02T19:00:00+03:00"}


def test_switch_intent_through_resume(server: FakeOpenAI, logs) -> None:
    server.script(Reply.json(answer("switch_intent", answer="what's on my calendar?")))
    outcome = resume(
        state(), HITLReply(text="wait, what's on my calendar?"), now=NOW, interpreter=make(server)
    )
    assert outcome.goto == "planner" and outcome.state.input.message == "wait, what's on my calendar?"
    assert logs.named("HITL_INTERPRETER_RESULT")[0]["decision"] == "switch_intent"


def test_fast_path_never_calls_the_llm(server: FakeOpenAI) -> None:
    outcome = resume(state(), HITLReply(text="yes"), now=NOW, interpreter=make(server))
    assert outcome.decision == "continue" and server.requests == []
