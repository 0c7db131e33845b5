"""A tool body's answer as a tool result: the structured content and the same JSON as text, `isError`
exactly on errors, a domain error turned into its answer and anything else left to propagate."""

from __future__ import annotations

import json

import pytest

from caseplatform.errors import NotSubmitter
from caseplatform.mcp_answers import answer_call, tool_result


def test_a_success_and_a_domain_error() -> None:
    done = answer_call("t", lambda: {"status": "success", "n": "é"})
    assert (done.is_error, done.structured_content) == (False, {"status": "success", "n": "é"})
    assert json.loads(done.content[0].text) == done.structured_content  # type: ignore[union-attr]

    def refuse() -> dict[str, object]:
        raise NotSubmitter("HITL-1", "intruder")

    refused = answer_call("t", refuse)
    assert refused.is_error and refused.structured_content is not None
    assert (refused.structured_content["code"], refused.structured_content["case_id"]) == (
        "NOT_SUBMITTER",
        "HITL-1",
    )
    assert "\\u00e9" in tool_result({"status": "success", "n": "é"}, ensure_ascii=True).content[0].text  # type: ignore[union-attr]


def test_a_bug_is_not_an_answer() -> None:
    def broken() -> dict[str, object]:
        raise KeyError("x")

    with pytest.raises(KeyError):
        answer_call("t", broken)
