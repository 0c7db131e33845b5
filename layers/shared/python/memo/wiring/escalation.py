"""Wiring of the escalation Lambda (`memo.wiring` pattern): the case service on the DynamoDB
cases table, built on first use."""

from __future__ import annotations

from functools import cached_property

from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from memo.aws.clients import client_for
from memo.settings import EscalationSettings
from memo.wiring import LambdaRuntime


class EscalationRuntime(LambdaRuntime[EscalationSettings]):
    settings_model = EscalationSettings

    @cached_property
    def cases(self) -> CaseService:
        return CaseService(
            DynamoCaseStore(self.settings.cases_table_name, client_for("dynamodb", self.settings.aws))
        )
