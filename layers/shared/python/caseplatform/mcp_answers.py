"""Tool answers shared by both MCP surfaces (stdio and HTTP): a tool body's answer, or the domain
error it raised, as a tool result."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from mcp.types import CallToolResult, TextContent

from caseplatform import answers
from caseplatform.errors import CasePlatformError

log = logging.getLogger("caseplatform.mcp")


def tool_result(answer: dict[str, Any], *, ensure_ascii: bool = False) -> CallToolResult:
    """An answer as a tool result: structured content, the same JSON as text, `isError` on errors."""
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(answer, ensure_ascii=ensure_ascii))],
        structured_content=answer,
        is_error=answer.get("status") == "error",
    )


def answer_call(tool: str, produce: Callable[[], dict[str, Any]]) -> CallToolResult:
    """Run one tool body; a domain error becomes its answer. Anything else is a bug and propagates
    (the SDK reports it as a tool error without leaking details)."""
    try:
        answer = produce()
    except CasePlatformError as error:
        answer = answers.error_answer(error)
    log.info("HITL_TOOL", extra={"tool": tool, "status": answer["status"], "code": answer.get("code")})
    return tool_result(answer)
