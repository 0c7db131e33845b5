"""The stdio MCP server's agent-facing tools: asking a human (`request_human_input`), revising a case
sent back with changes requested (`resubmit_case`), leaving feedback where the adapter enables the
feedback tool (`leave_feedback`), and being told when a case changes without polling: a signed
HTTP callback (`register_callback`) or a call that returns when the case moves on (`wait_for_case`).

Like every stdio tool they act as the server's configured actor (see `caseplatform.mcp_server`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mcp.server import MCPServer
from mcp.types import CallToolResult

from caseplatform import answers
from caseplatform.callbacks import check_callback_url
from caseplatform.human_input import REQUEST_HUMAN_INPUT_DESCRIPTION, human_input_case
from caseplatform.ids import new_uuid4
from caseplatform.mcp_answers import answer_call
from caseplatform.notifications import MAX_WAIT_SECONDS, Callback, CallbackRegistry
from caseplatform.service import CaseService

WAIT_FOR_CASE_DESCRIPTION = (
    f"Wait until the case changes (a decision, a question, changes requested, feedback) or timeout_s "
    f"passes (at most {int(MAX_WAIT_SECONDS)} s). `since`: the `state` of the case as you last saw it "
    "(default: as it is now). Answers changed true/false and the case's state."
)


@dataclass(frozen=True)
class AgentToolsConfig:
    """What the agent tools need besides the service: where callbacks are registered (None: the
    tool is not offered), whether loopback http callbacks are accepted (local mode), and the waiting
    clock (injectable so tests never wait)."""

    callbacks: CallbackRegistry | None = None
    local: bool = True
    monotonic: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    new_secret: Callable[[], str] = field(default=lambda: secrets.token_hex(32))


def register_agent_tools(
    server: MCPServer, service: CaseService, actor: dict[str, Any], config: AgentToolsConfig
) -> None:
    submitter: dict[str, Any] = {k: actor[k] for k in ("name", "role", "id", "assurance") if k in actor}
    _register_question_tools(server, service, actor, submitter)
    _register_notification_tools(server, service, config)


def _register_question_tools(
    server: MCPServer, service: CaseService, actor: dict[str, Any], submitter: dict[str, Any]
) -> None:
    @server.tool(description=REQUEST_HUMAN_INPUT_DESCRIPTION)
    def request_human_input(
        questions: list[str],
        request_id: str,
        allowed_decisions: list[str] | None = None,
        title: str | None = None,
        prompt: str | None = None,
        context: dict[str, Any] | None = None,
        priority: str = "normal",
    ) -> CallToolResult:
        def run() -> dict[str, Any]:
            case = human_input_case(
                questions=questions,
                allowed_decisions=allowed_decisions,
                title=title,
                prompt=prompt,
                context=context,
                priority=priority,
            )
            event, created = service.submit_case(**case, submitter=submitter, request_id=request_id)
            return answers.submit_answer(event, created)

        return answer_call("request_human_input", run)

    @server.tool(
        description="Revise a case a reviewer sent back (current_state changes_requested) with a new payload, valid for the adapter's active schema: the case is pending again. Only its submitter revises it."
    )
    def resubmit_case(
        case_id: str, payload: dict[str, Any], request_id: str, notes: str = ""
    ) -> CallToolResult:
        return answer_call(
            "resubmit_case",
            lambda: answers.transition_answer(
                service.resubmit_case(
                    case_id=case_id, payload=payload, notes=notes, actor=actor, request_id=request_id
                )
            ),
        )

    @server.tool(
        description="Leave feedback on an open case without deciding it; only on adapters whose x-hitl.enable_feedback_tool is set."
    )
    def leave_feedback(case_id: str, feedback: str, request_id: str) -> CallToolResult:
        return answer_call(
            "leave_feedback",
            lambda: answers.transition_answer(
                service.leave_feedback(case_id=case_id, feedback=feedback, actor=actor, request_id=request_id)
            ),
        )


def _register_notification_tools(server: MCPServer, service: CaseService, config: AgentToolsConfig) -> None:
    @server.tool(description=WAIT_FOR_CASE_DESCRIPTION)
    def wait_for_case(
        case_id: str, timeout_s: float = 60.0, since: dict[str, Any] | None = None
    ) -> CallToolResult:
        def run() -> dict[str, Any]:
            changed, record = service.wait_for_case(
                case_id, since=since, timeout_s=timeout_s, monotonic=config.monotonic, sleep=config.sleep
            )
            return answers.success(
                case_id=case_id,
                changed=changed,
                current_state=record.state.current_state,
                state=answers.state_dict(record.state),
            )

        return answer_call("wait_for_case", run)

    registry = config.callbacks
    if registry is None:
        return

    @server.tool(
        description="Register an HTTP callback for a case: every decision, question and request for changes is POSTed to url as JSON, signed with the returned secret (header X-Hitl-Signature-256: sha256=<HMAC-SHA256 of the body, hex>). https only (http to a loopback host in local mode); redirects are not followed."
    )
    def register_callback(case_id: str, url: str) -> CallToolResult:
        def run() -> dict[str, Any]:
            service.get_record(case_id)  # NOT_FOUND for an unknown case
            checked = check_callback_url(url, local=config.local)
            callback = Callback(f"HCB-{new_uuid4()}", case_id, checked, config.new_secret())
            registry.add(callback)
            return answers.success(
                case_id=case_id, registration_id=callback.registration_id, url=checked, secret=callback.secret
            )

        return answer_call("register_callback", run)
