"""The review HTTP API: Powertools' APIGatewayHttpResolver (payload v2) with request/response
validation (pydantic) and OpenAPI, the reviewer web page and MCP over Streamable HTTP.

    GET  /review/                         the reviewer web page (public; it holds no data)
    GET  /review                          308 to /review/, query kept (API Gateway's route has no slash)
    GET  /review/me                       the signed-in principal
    GET  /review/cases                    queue: state, adapter_id, priority, min_age_minutes, limit, cursor
    GET  /review/cases/{case_id}          case, payload, history, decision, approvals
    POST /review/cases/{case_id}/approve  {request_id, notes?, payload?}  (payload = edited payload)
    POST /review/cases/{case_id}/reject   {request_id, reason}
    POST /review/cases/{case_id}/clarify  {request_id, question, notes?}
    POST /review/cases/{case_id}/resubmit, /feedback  (agents; caseplatform.review.revision_routes)
    POST /review/mcp                      MCP, Streamable HTTP (stateless, JSON responses)
    GET  /review/openapi.json, /review/swagger

Errors are mapped here, in one place, by exception type (`STATUS_OF`). Request bodies forbid unknown
fields: an `actor` (or any other field naming who acts) is refused with 400 ACTOR_NOT_ALLOWED, since
the actor is always the authenticated principal.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response, content_types
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError
from aws_lambda_powertools.event_handler.openapi.params import Body, Query
from pydantic import BaseModel, ConfigDict, Field

from caseplatform import answers
from caseplatform.errors import (
    AdapterNotFound,
    AlreadyTerminal,
    CaseNotFound,
    CasePlatformError,
    ConcurrentModification,
    DecisionNotAllowed,
    DuplicateApprover,
    EditRefused,
    IdempotencyConflict,
    InvalidStateTransition,
    NotSubmitter,
    PayloadInvalid,
    SelfApproval,
)
from caseplatform.query_tools import QUERY_ARGUMENTS, QUERY_TOOLS
from caseplatform.review import mcp_http
from caseplatform.review.approvals import QueueQuery, QueueState, ReviewService
from caseplatform.review.auth import AuthError, Forbidden, Principal, Unauthenticated, authenticate
from caseplatform.review.revision_routes import register_revision_routes
from caseplatform.version import platform_version

log = logging.getLogger("caseplatform.review")

PREFIX = "/review"
REQUEST_ID = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")
ACTOR_FIELDS = frozenset({"actor", "actor_name", "actor_id", "approver", "reviewer", "decided_by", "user"})


# ---------------------------------------------------------------------- wire models
class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ApproveRequest(_Request):
    request_id: str = REQUEST_ID
    notes: str = Field(default="", max_length=4000)
    payload: dict[str, Any] | None = Field(
        default=None, description="The edited payload; it must validate against the adapter's schema."
    )


class RejectRequest(_Request):
    request_id: str = REQUEST_ID
    reason: str = Field(min_length=1, max_length=4000, pattern=r"\S")


class DecideRequest(_Request):
    """The decision schema: `{decision, feedback, answers}` (plus the edited `payload` of an edit)."""

    request_id: str = REQUEST_ID
    decision: Literal["approve", "edit", "reject", "respond"]
    feedback: str = Field(default="", max_length=4000)
    answers: list[str] | dict[str, str] | None = Field(default=None)
    payload: dict[str, Any] | None = Field(
        default=None, description="edit only: the edited payload, valid for the adapter's schema"
    )


class ClarifyRequest(_Request):
    request_id: str = REQUEST_ID
    question: str = Field(min_length=1, max_length=4000, pattern=r"\S")
    notes: str = Field(default="", max_length=4000)


class CaseSummary(BaseModel):
    case_id: str
    adapter_id: str
    case_type: str
    title: str
    summary_line: str | None = None
    priority: str
    confidence: str | None
    current_state: str
    created_at_ms: int
    updated_at_ms: int
    needs_clarification_since_ms: int | None
    escalation_due_at_ms: int | None
    active_decision_outcome: str | None


class CaseList(BaseModel):
    status: Literal["success"]
    count: int
    items: list[CaseSummary]
    next_cursor: str | None


class Approvals(BaseModel):
    required: int
    votes: list[dict[str, Any]]


class CaseDetail(BaseModel):
    status: Literal["success"]
    case: dict[str, Any]
    state: dict[str, Any]
    history: list[dict[str, Any]]
    decision: dict[str, Any] | None
    approvals: Approvals
    may_review: bool
    allowed_decisions: list[str] = Field(default_factory=list)
    own_case: bool = False
    view: dict[str, Any] | None = None
    adapter_schema: dict[str, Any] | None = None
    final_payload: dict[str, Any] | None = None


class DecisionResult(BaseModel):
    model_config = ConfigDict(extra="allow")

    status: Literal["success"]
    case_id: str
    event_id: str
    event_type: str
    current_state: str
    created_at_ms: int
    decision: str | None = None
    question: str | None = None


class Me(BaseModel):
    sub: str
    name: str
    email: str | None
    groups: list[str]
    reviewer_of: list[str]
    agent_of: list[str]
    assurance: str


# ---------------------------------------------------------------------- errors, in one place
STATUS_OF: tuple[tuple[type[Exception], int], ...] = (
    (Unauthenticated, 401),
    (Forbidden, 403),
    (CaseNotFound, 404),
    (AdapterNotFound, 404),
    (AlreadyTerminal, 409),
    (InvalidStateTransition, 409),
    (SelfApproval, 403),
    (NotSubmitter, 403),
    (DuplicateApprover, 409),
    (DecisionNotAllowed, 409),
    (IdempotencyConflict, 409),
    (PayloadInvalid, 422),
    (EditRefused, 422),
    (CasePlatformError, 400),
)


def status_of(error: Exception) -> int:
    return next(status for kind, status in STATUS_OF if isinstance(error, kind))


def error_body(error: AuthError | CasePlatformError) -> dict[str, Any]:
    if isinstance(error, AuthError):
        return {"status": "error", "code": error.code, "message": str(error)}
    body = answers.error_answer(error)
    if isinstance(error, AlreadyTerminal):
        body["message"] = _terminal_message(error.existing)
    elif isinstance(error, InvalidStateTransition):
        body["message"] = (
            f"This case is {error.from_state}; {error.requested_action} is not possible now. "
            "Reload the case to see what changed."
        )
    elif isinstance(error, CaseNotFound):
        body["message"] = f"case {error.case_id} not found"
    return body


def _terminal_message(existing: Mapping[str, Any]) -> str:
    who = (existing.get("actor") or {}).get("name") or "another reviewer"
    return (
        f"This case was already {existing.get('decision')} by {who}; your decision was not recorded. "
        "The first decision wins."
    )


def _json(status: int, body: Mapping[str, Any], headers: Mapping[str, str] | None = None) -> Response[str]:
    return Response(
        status_code=status,
        content_type=content_types.APPLICATION_JSON,
        body=json.dumps(body, ensure_ascii=False),
        headers=dict(headers or {}),
    )


# ---------------------------------------------------------------------- the app
@dataclass(frozen=True)
class ApiConfig:
    dev_secret: str | None = None
    login_url: str | None = None  # the Cognito hosted-UI sign-in link shown on the page


Caller = Callable[[], Principal]


def build_app(review: Callable[[], ReviewService], config: ApiConfig) -> APIGatewayHttpResolver:
    """The resolver: `review()` gives the review service (built on first use), `config` the page's
    sign-in settings and the development token secret."""
    app = APIGatewayHttpResolver(enable_validation=True)

    def caller() -> Principal:
        return authenticate(app.current_event.raw_event, config.dev_secret)

    _register_error_handlers(app)
    _register_public_routes(app, _page(config), caller)
    _register_case_routes(app, review, caller)
    _register_decision_routes(app, review, caller)
    register_revision_routes(app, review, caller)
    _register_query_route(app, review, caller)
    _register_mcp_route(app, review, caller)
    app.enable_swagger(path=f"{PREFIX}/swagger", title="Case review API", version=platform_version())
    return app


def _page(config: ApiConfig) -> str:
    """The reviewer web page, with its sign-in link and whether development tokens are on."""
    page = resources.files("caseplatform.review").joinpath("page.html").read_text(encoding="utf-8")
    page = page.replace("__LOGIN_URL__", json.dumps(config.login_url or ""))
    return page.replace("__DEV_TOKENS__", json.dumps(bool(config.dev_secret)))


def _register_error_handlers(app: APIGatewayHttpResolver) -> None:
    """Errors become answers here, in one place, by type."""

    @app.exception_handler([AuthError, CasePlatformError])
    def domain_error(error: AuthError | CasePlatformError) -> Response[str]:
        status = status_of(error)
        body = error_body(error)
        log.info("REVIEW_REFUSED", extra={"status": status, "code": body.get("code", body["status"])})
        return _json(status, body)

    @app.exception_handler(ConcurrentModification)
    def lost_races(error: ConcurrentModification) -> Response[str]:
        log.warning("REVIEW_CONTENDED", extra={"error": str(error)})
        body = {"status": "error", "code": "CONTENDED", "message": "The case is busy; retry."}
        return _json(503, body, {"Retry-After": "1"})

    @app.exception_handler(RequestValidationError)
    def bad_request(error: RequestValidationError) -> Response[str]:
        body = _invalid_request_body(error)
        log.info("REVIEW_REFUSED", extra={"status": 400, "code": body["code"]})
        return _json(400, body)


def _register_public_routes(app: APIGatewayHttpResolver, page: str, caller: Caller) -> None:
    """The page, the OpenAPI document and the signed-in principal."""

    @app.get(f"{PREFIX}/", include_in_schema=False)
    def reviewer_page() -> Response[str]:
        return Response(
            status_code=200,
            content_type="text/html; charset=utf-8",
            body=page,
            headers={
                "Cache-Control": "no-store",
                "Content-Security-Policy": "default-src 'self'; script-src 'unsafe-inline'; "
                "style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
                "X-Content-Type-Options": "nosniff",
            },
        )

    @app.get(PREFIX, include_in_schema=False)
    def page_without_slash() -> Response[str]:
        query = app.current_event.raw_event.get("rawQueryString") or ""
        location = f"{PREFIX}/" + (f"?{query}" if query else "")
        return Response(status_code=308, content_type="text/plain", body="", headers={"Location": location})

    @app.get(f"{PREFIX}/openapi.json", include_in_schema=False)
    def openapi() -> Response[str]:
        schema = app.get_openapi_json_schema(title="Case review API", version=platform_version())
        return Response(status_code=200, content_type=content_types.APPLICATION_JSON, body=schema)

    @app.get(f"{PREFIX}/me", summary="The signed-in principal")
    def me() -> Me:
        return Me(**caller().to_dict())


def _register_case_routes(
    app: APIGatewayHttpResolver, review: Callable[[], ReviewService], caller: Caller
) -> None:
    """The review queue and one case."""

    @app.get(f"{PREFIX}/cases", summary="The review queue")
    def queue(
        state: Annotated[QueueState, Query()] = "open",
        adapter_id: Annotated[str | None, Query(max_length=64)] = None,
        priority: Annotated[Literal["low", "normal", "high", "critical"] | None, Query()] = None,
        min_age_minutes: Annotated[int | None, Query(ge=0, le=525_600)] = None,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
        cursor: Annotated[str | None, Query(max_length=2000)] = None,
    ) -> CaseList:
        who = caller()
        query = QueueQuery(state, adapter_id, priority, min_age_minutes, limit, cursor)
        return CaseList.model_validate(review().queue(who, query))

    @app.get(f"{PREFIX}/cases/<case_id>", summary="A case with its history")
    def get_case(case_id: str) -> CaseDetail:
        return CaseDetail.model_validate(review().case(caller(), case_id))


def _register_decision_routes(
    app: APIGatewayHttpResolver, review: Callable[[], ReviewService], caller: Caller
) -> None:
    """Approve, reject, the structured decision and the clarification question."""

    @app.post(f"{PREFIX}/cases/<case_id>/approve", summary="Approve, optionally with an edited payload")
    def approve(case_id: str, body: Annotated[ApproveRequest, Body()]) -> DecisionResult:
        who = caller()
        answer = review().approve(
            who, case_id, request_id=body.request_id, notes=body.notes, payload=body.payload
        )
        log.info("REVIEW_DECISION", extra=_decision_log(who, answer))
        return DecisionResult.model_validate(answer)

    @app.post(f"{PREFIX}/cases/<case_id>/reject", summary="Reject, with a reason")
    def reject(case_id: str, body: Annotated[RejectRequest, Body()]) -> DecisionResult:
        who = caller()
        answer = review().reject(who, case_id, request_id=body.request_id, reason=body.reason)
        log.info("REVIEW_DECISION", extra=_decision_log(who, answer))
        return DecisionResult.model_validate(answer)

    @app.post(
        f"{PREFIX}/cases/<case_id>/decide",
        summary="A structured decision: approve, edit (with the payload), reject or respond",
    )
    def decide(case_id: str, body: Annotated[DecideRequest, Body()]) -> DecisionResult:
        who = caller()
        answer = review().decide(
            who,
            case_id,
            request_id=body.request_id,
            decision=body.decision,
            feedback=body.feedback,
            answers=body.answers,
            payload=body.payload,
        )
        log.info("REVIEW_DECISION", extra=_decision_log(who, answer))
        return DecisionResult.model_validate(answer)

    @app.post(f"{PREFIX}/cases/<case_id>/clarify", summary="Ask the submitter a question")
    def clarify(case_id: str, body: Annotated[ClarifyRequest, Body()]) -> DecisionResult:
        who = caller()
        answer = review().clarify(
            who, case_id, request_id=body.request_id, question=body.question, notes=body.notes
        )
        log.info("REVIEW_DECISION", extra=_decision_log(who, answer))
        return DecisionResult.model_validate(answer)


def _register_query_route(
    app: APIGatewayHttpResolver, review: Callable[[], ReviewService], caller: Caller
) -> None:
    @app.get(f"{PREFIX}/queries/<name>", summary="The cross-case queries (reviewers:* only)")
    def query(
        name: str,
        decision: Annotated[Literal["approved", "rejected"] | None, Query()] = None,
        principal: Annotated[str | None, Query(max_length=200)] = None,
        ref_type: Annotated[str | None, Query(max_length=200)] = None,
        ref_key: Annotated[str | None, Query(max_length=200)] = None,
        ref_value: Annotated[str | None, Query(max_length=512)] = None,
        adapter_id: Annotated[str | None, Query(max_length=64)] = None,
        field: Annotated[str | None, Query(max_length=200)] = None,
        value: Annotated[str | None, Query(max_length=512)] = None,
        from_ms: Annotated[int, Query(ge=0)] = 0,
        to_ms: Annotated[int | None, Query(ge=0)] = None,
        bucket_ms: Annotated[int | None, Query(ge=60_000)] = None,
        within_ms: Annotated[int, Query(ge=0)] = 0,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
        cursor: Annotated[str | None, Query(max_length=2000)] = None,
    ) -> Response[str]:
        if name not in QUERY_TOOLS:
            return _json(404, {"status": "error", "code": "NOT_FOUND", "message": f"no query {name!r}"})
        given = {
            "decision": decision,
            "principal": principal,
            "ref_type": ref_type,
            "ref_key": ref_key,
            "ref_value": ref_value,
            "adapter_id": adapter_id,
            "field": field,
            "value": value,
            "from_ms": from_ms,
            "to_ms": to_ms,
            "bucket_ms": bucket_ms,
            "within_ms": within_ms,
            "limit": limit,
            "cursor": cursor,
        }
        return _query_answer(review, caller, name, given)


def _register_mcp_route(
    app: APIGatewayHttpResolver, review: Callable[[], ReviewService], caller: Caller
) -> None:
    @app.post(f"{PREFIX}/mcp", include_in_schema=False)
    def mcp() -> Response[str]:
        who = caller()
        event = app.current_event
        reply = mcp_http.handle(
            review(),
            who,
            headers=dict(event.headers or {}),
            body=event.decoded_body or "",
            path=f"{PREFIX}/mcp",
        )
        return Response(status_code=reply.status, body=reply.body, headers=reply.headers)


def _invalid_request_body(error: RequestValidationError) -> dict[str, Any]:
    """400's body: ACTOR_NOT_ALLOWED when the request names who acts, else REQUEST_INVALID."""
    details = [
        {"path": ".".join(str(p) for p in e.get("loc", ())), "message": str(e.get("msg", ""))}
        for e in error.errors()
    ]
    named_actor = any(
        e.get("type") == "extra_forbidden" and str(e.get("loc", ("",))[-1]) in ACTOR_FIELDS
        for e in error.errors()
    )
    if named_actor:
        return {
            "status": "error",
            "code": "ACTOR_NOT_ALLOWED",
            "message": "The actor of a decision is the signed-in principal; a request may not name one.",
            "details": details,
        }
    return {
        "status": "error",
        "code": "REQUEST_INVALID",
        "message": "invalid request",
        "details": details,
    }


def _query_answer(
    review: Callable[[], ReviewService], caller: Caller, name: str, given: dict[str, Any]
) -> Response[str]:
    """The query's answer, or 400 REQUEST_INVALID naming the arguments it requires and lacks."""
    needed = QUERY_ARGUMENTS[name]
    missing = [arg for arg in needed if given.get(arg) is None]
    if missing:
        details = [{"path": f"query.{arg}", "message": "required"} for arg in missing]
        return _json(
            400,
            {
                "status": "error",
                "code": "REQUEST_INVALID",
                "message": "invalid request",
                "details": details,
            },
        )
    return _json(200, review().query(caller(), name, given))


def _decision_log(who: Principal, answer: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "caseId": answer.get("case_id"),
        "eventType": answer.get("event_type"),
        "state": answer.get("current_state"),
        "principal": who.sub,
        "assurance": who.assurance,
    }
