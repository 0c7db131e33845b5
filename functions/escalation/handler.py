"""Escalation Lambda: run by an EventBridge schedule, it escalates needs_clarification cases past
their adapter's SLA on the DynamoDB case store.

Wiring only: settings from the environment (read once), the store and service built on first use,
one call to `caseplatform.escalation.sweep`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Self

import boto3
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel, ConfigDict, Field

from caseplatform.escalation import sweep
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from memo.observability import logger, tracer


class EscalationSettings(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="ignore", frozen=True)

    cases_table_name: str = Field(alias="CASES_TABLE_NAME", min_length=3)
    max_cases: int = Field(default=1000, alias="HITL_ESCALATION_MAX_CASES", ge=1, le=100_000)

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Self:
        return cls.model_validate({k: v for k, v in environ.items() if v != ""})


@lru_cache(maxsize=1)
def settings() -> EscalationSettings:
    return EscalationSettings.from_env(os.environ)


@lru_cache(maxsize=1)
def service() -> CaseService:
    return CaseService(DynamoCaseStore(settings().cases_table_name, boto3.client("dynamodb")))


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    result = sweep(service(), max_cases=settings().max_cases)
    escalated = [event.case_id for event in result.escalated]
    logger.info("HITL_ESCALATION_SWEEP", extra={"checked": result.checked, "escalated": len(escalated)})
    for case_event in result.escalated:
        logger.info(
            "HITL_ESCALATED",
            extra={
                "caseId": case_event.case_id,
                "target": case_event.escalation_target,
                "eventId": case_event.event_id,
            },
        )
    return {"checked": result.checked, "escalated": escalated}
