"""Wiring of the review submit Lambda (`memo.wiring` pattern): the case service on the cases
table (the policy's adapter configuration applied once per container) and the task-token store on
the ledger table, built on first use."""

from __future__ import annotations

from functools import cached_property

from caseplatform.service import CaseService, build_case_service
from caseplatform.stores.dynamodb import DynamoCaseStore
from memo.aws.clients import client_for
from memo.aws.ledger_table import DynamoTokenStore
from memo.operator_review.cases import ensure_memo_adapter
from memo.operator_review.policy import ReviewPolicy, load_policy
from memo.settings import ReviewSubmitSettings
from memo.wiring import LambdaRuntime


class ReviewSubmitRuntime(LambdaRuntime[ReviewSubmitSettings]):
    settings_model = ReviewSubmitSettings

    @cached_property
    def policy(self) -> ReviewPolicy:
        return load_policy(self.settings.policy_source, timeout_seconds=self.settings.timeout_seconds)

    @cached_property
    def cases(self) -> CaseService:
        store = DynamoCaseStore(self.settings.cases_table, client_for("dynamodb", self.settings.aws))
        service = build_case_service(store, redact=self.settings.redact)
        ensure_memo_adapter(service, self.policy.adapter)
        return service

    @cached_property
    def tokens(self) -> DynamoTokenStore:
        return DynamoTokenStore(client_for("dynamodb", self.settings.aws), self.settings.ledger_table)
