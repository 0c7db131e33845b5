"""The LGV agent prompt's examples are calls the platform accepts: every `submit_case` payload is
valid for the adapter's packaged schema (and already normal, so what the agent sends is what is
stored), each example follows the rule the prompt teaches (submit on low or medium confidence or high
impact, ask when data is missing), and the calls, run in order against the stdio MCP server as the
agent, open the cases and leave the one missing data waiting for its answer."""

from __future__ import annotations

import json
import os
import re
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator
from mcp import Client, StdioServerParameters

from caseplatform.hooks import normalized

PROMPT = Path(__file__).parents[4] / "examples" / "lgv_troubleshooting" / "agent_prompt.md"
BLOCK = re.compile(r"```json\n(.*?)```", re.DOTALL)
CASE_ID_FROM_SUBMIT = "<case_id from the submit_case answer>"


def _calls() -> list[dict[str, Any]]:
    return [json.loads(block) for block in BLOCK.findall(PROMPT.read_text(encoding="utf-8"))]


def _schema() -> dict[str, Any]:
    entry = resources.files("caseplatform.adapters").joinpath("lgv_troubleshooting.v1.json")
    schema: dict[str, Any] = json.loads(entry.read_text(encoding="utf-8"))
    return schema


def test_every_submitted_payload_is_valid_and_already_normal() -> None:
    submits = [c["arguments"] for c in _calls() if c["tool"] == "submit_case"]
    assert len(submits) == 3
    validator = Draft202012Validator(_schema())
    for arguments in submits:
        assert arguments["adapter_id"] == "lgv_troubleshooting"
        assert list(validator.iter_errors(arguments["payload"])) == []
        assert normalized("lgv_troubleshooting", arguments["payload"]) == arguments["payload"]


def test_each_example_follows_the_rule_it_teaches() -> None:
    calls = _calls()
    for call in calls:
        if call["tool"] == "submit_case":
            arguments = call["arguments"]
            uncertain = arguments["confidence"] in ("low", "medium")
            high_impact = arguments["priority"] in ("high", "critical")
            assert uncertain or high_impact, arguments["title"]
    missing = [i for i, c in enumerate(calls) if c["arguments"].get("payload", {}).get("missing_data")]
    assert missing, "an example with missing data"
    for index in missing:  # a case with missing data is followed by its question
        assert calls[index + 1]["tool"] == "request_clarification"
    assert len({c["arguments"]["request_id"] for c in calls}) == len(calls)


@pytest.mark.slow
def test_the_examples_run_against_the_mcp_server(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "caseplatform.mcp_server",
            "--db",
            str(tmp_path / "hitl.db"),
            "--actor",
            "agent:lgv",
            "--actor-kind",
            "agent",
            "--actor-role",
            "agent",
        ],
        env={**os.environ},
    )

    async def scenario() -> None:
        case_id = None
        async with Client(params) as agent:
            for call in _calls():
                arguments = dict(call["arguments"])
                if arguments.get("case_id") == CASE_ID_FROM_SUBMIT:
                    arguments["case_id"] = case_id
                result = await agent.call_tool(call["tool"], arguments)
                answer = result.structured_content or {}
                assert answer.get("status") == "success", answer
                case_id = answer.get("case_id", case_id)
            queue = (await agent.call_tool("list_review_queue", {})).structured_content or {}
        states = {item["summary_line"]: item["current_state"] for item in queue["items"]}
        assert states == {
            "LGV-07 at Plant Haifa: LGV-07 stops before dock 3 with a navigation fault": "pending",
            "LGV-11 at Plant Ashdod: Six LGVs show positions older than 5 minutes on the fleet screen": "pending",
            "LGV-03 at Plant Haifa: LGV-03 needs charging after four hours instead of eight": "needs_clarification",
        }

    anyio.run(scenario)
