"""Wiring of the escalation Lambda (`memo.wiring` pattern): the case service on the DynamoDB
cases table and the escalation notifier (the SNS topic deployed, a JSON-lines file locally), built
on first use."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from pathlib import Path

from caseplatform.escalation import JsonLinesSink, Notifier, case_link
from caseplatform.governance.retention import Archive
from caseplatform.service import CaseService, build_case_service
from caseplatform.stores.dynamodb import DynamoCaseStore
from caseplatform.stores.dynamodb_jobs import DynamoJobCursors
from memo.aws.case_archive import S3CaseArchive
from memo.aws.clients import client_for
from memo.aws.notifications import SnsEscalationNotifier
from memo.settings import EscalationSettings
from memo.wiring import LambdaRuntime


class EscalationRuntime(LambdaRuntime[EscalationSettings]):
    settings_model = EscalationSettings

    @cached_property
    def cases(self) -> CaseService:
        # The runtime's clock (the local stack's fake clock), in the platform's epoch milliseconds.
        return build_case_service(
            DynamoCaseStore(self.settings.cases_table_name, client_for("dynamodb", self.settings.aws)),
            clock=lambda: int(self.clock().timestamp() * 1000),
        )

    @cached_property
    def job_cursors(self) -> DynamoJobCursors:
        """Where the scheduled retention job resumes: an item of the cases table."""
        return DynamoJobCursors(self.settings.cases_table_name, client_for("dynamodb", self.settings.aws))

    @cached_property
    def notifier(self) -> Notifier | None:
        if self.settings.topic_arn:
            return SnsEscalationNotifier(self.settings.topic_arn, client_for("sns", self.settings.aws))
        if self.settings.sink_path:
            return JsonLinesSink(Path(self.settings.sink_path))
        return None

    @cached_property
    def link(self) -> Callable[[str], str | None]:
        return case_link(self.settings.review_url)

    @cached_property
    def archive(self) -> Archive | None:
        """Where the retention job archives cases: the S3 bucket, when one is configured."""
        if self.settings.archive_bucket:
            return S3CaseArchive(self.settings.archive_bucket, client_for("s3", self.settings.aws))
        return None
