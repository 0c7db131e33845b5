"""The review API's routes for a case's submitter (agents): the revision of a case sent back with
changes requested, and feedback through the feedback tool.

    POST /review/cases/{id}/resubmit   {request_id, payload, notes?}   changes_requested -> pending
    POST /review/cases/{id}/feedback   {request_id, feedback}          recorded, the case stays
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver
from aws_lambda_powertools.event_handler.openapi.params import Body
from pydantic import BaseModel, ConfigDict, Field

from caseplatform.review.approvals import ReviewService
from caseplatform.review.auth import Principal

log = logging.getLogger("caseplatform.review")

PREFIX = "/review"
REQUEST_ID = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ResubmitRequest(_Request):
    request_id: str = REQUEST_ID
    payload: dict[str, Any] = Field(description="the revised payload, valid for the adapter's active schema")
    notes: str = Field(default="", max_length=4000)


class FeedbackRequest(_Request):
    request_id: str = REQUEST_ID
    feedback: str = Field(min_length=1, max_length=4000, pattern=r"\S")


class TransitionResult(BaseModel):
    model_config = ConfigDict(extra="allow")

    status: str
    case_id: str
    event_id: str
    event_type: str
    current_state: str
    created_at_ms: int


def register_revision_routes(
    app: APIGatewayHttpResolver, review: Callable[[], ReviewService], caller: Callable[[], Principal]
) -> None:
    @app.post(f"{PREFIX}/cases/<case_id>/resubmit", summary="Revise a case sent back with changes requested")
    def resubmit(case_id: str, body: Annotated[ResubmitRequest, Body()]) -> TransitionResult:
        who = caller()
        answer = review().resubmit(
            who, case_id, request_id=body.request_id, payload=body.payload, notes=body.notes
        )
        log.info("REVIEW_RESUBMIT", extra={"case_id": case_id, "sub": who.sub})
        return TransitionResult.model_validate(answer)

    @app.post(f"{PREFIX}/cases/<case_id>/feedback", summary="Leave feedback (where the adapter enables it)")
    def feedback(case_id: str, body: Annotated[FeedbackRequest, Body()]) -> TransitionResult:
        answer = review().leave_feedback(
            caller(), case_id, request_id=body.request_id, feedback=body.feedback
        )
        return TransitionResult.model_validate(answer)
