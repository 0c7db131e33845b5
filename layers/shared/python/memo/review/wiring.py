"""Wiring of Memo's operator review: settings read once, adapters built lazily.

- `SubmitRuntime`: the review submit Lambda (case service on the cases table, token store on the
  ledger table, the policy's adapter configuration applied once per process).
- `decision_listeners(environ)`: the case platform listeners the review Lambda installs, so a
  decision on a `memo_operation` case answers the waiting step's task token.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from functools import cached_property
from typing import Self

from pydantic import BaseModel, ConfigDict, Field

from caseplatform.ports import CaseListener
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from memo import tables
from memo.aws.clients import client_for
from memo.config import AwsSettings
from memo.review.cases import ensure_memo_adapter
from memo.review.listener import TaskTokenBridge
from memo.review.policy import REVIEW_POLICY_ENV_VAR, REVIEW_TIMEOUT_ENV_VAR, ReviewPolicy, load_policy
from memo.review.submit import SubmitRequest, SubmitResult, submit_for_review
from memo.review.tokens import DynamoTokenStore

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


class ReviewBridgeSettings(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="ignore", frozen=True)

    aws: AwsSettings
    cases_table: str = Field(default=tables.CASES.default_name, alias="CASES_TABLE_NAME", min_length=3)
    ledger_table: str = Field(default=tables.LEDGER.default_name, alias="LEDGER_TABLE_NAME", min_length=3)
    policy_source: str | None = Field(default=None, alias=REVIEW_POLICY_ENV_VAR)
    timeout_seconds: int | None = Field(default=None, alias=REVIEW_TIMEOUT_ENV_VAR)

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Self:
        env = {k: v for k, v in environ.items() if v != ""}
        return cls.model_validate({**env, "aws": AwsSettings.from_env(env)})

    @cached_property
    def policy(self) -> ReviewPolicy:
        return load_policy(self.policy_source, timeout_seconds=self.timeout_seconds)


class SubmitRuntime:
    def __init__(self, settings: ReviewBridgeSettings, *, clock: Clock = utc_now) -> None:
        self.settings = settings
        self.clock = clock

    @cached_property
    def cases(self) -> CaseService:
        store = DynamoCaseStore(self.settings.cases_table, client_for("dynamodb", self.settings.aws))
        service = CaseService(store)
        ensure_memo_adapter(service, self.settings.policy.adapter)
        return service

    @cached_property
    def tokens(self) -> DynamoTokenStore:
        return DynamoTokenStore(client_for("dynamodb", self.settings.aws), self.settings.ledger_table)

    def submit(self, request: SubmitRequest) -> SubmitResult:
        return submit_for_review(request, cases=self.cases, tokens=self.tokens, clock=self.clock)

    @classmethod
    def current(cls) -> SubmitRuntime:
        global _current
        if _current is None:
            _current = cls(ReviewBridgeSettings.from_env(os.environ))
        return _current


_current: SubmitRuntime | None = None


def use_runtime(runtime: SubmitRuntime | None) -> None:
    global _current
    _current = runtime


def decision_listeners(settings: ReviewBridgeSettings, *, clock: Clock = utc_now) -> list[CaseListener]:
    """The listener that answers waiting steps' task tokens (review Lambda)."""
    bridge = TaskTokenBridge(
        tokens=DynamoTokenStore(client_for("dynamodb", settings.aws), settings.ledger_table),
        sfn_client=client_for("stepfunctions", settings.aws),
        clock=clock,
        approval_ttl_seconds=settings.policy.approval_ttl_seconds,
    )
    return [bridge]
