"""The review Lambda's settings, read once from the environment by the handler (logic never reads
os.environ), and the service they build."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from caseplatform.ports import CaseListener
from caseplatform.redaction import REDACTORS
from caseplatform.review.approvals import ReviewService, ensure_review_adapters
from caseplatform.service import CaseService


class ReviewSettings(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="ignore", frozen=True)

    store: Literal["dynamodb", "sqlite"] = Field(default="dynamodb", alias="REVIEW_STORE")
    cases_table_name: str | None = Field(default=None, alias="CASES_TABLE_NAME", min_length=3)
    sqlite_path: str = Field(default="data/hitl/hitl.db", alias="HITL_DB_PATH")
    redact: str = Field(default="none", alias="HITL_REDACT")
    # Local only: verify HS256 dev tokens when a request has no API Gateway authorizer context.
    dev_jwt_secret: str | None = Field(default=None, alias="REVIEW_DEV_JWT_SECRET", min_length=32)
    login_url: str | None = Field(default=None, alias="REVIEW_LOGIN_URL")

    @model_validator(mode="after")
    def _complete(self) -> Self:
        if self.store == "dynamodb" and not self.cases_table_name:
            raise ValueError("CASES_TABLE_NAME is required with REVIEW_STORE=dynamodb")
        if self.redact not in REDACTORS:
            raise ValueError(f"HITL_REDACT must be one of {sorted(REDACTORS)}")
        return self

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Self:
        return cls.model_validate({k: v for k, v in environ.items() if v != ""})


def build_review(
    settings: ReviewSettings, dynamodb_client: Any = None, listeners: Sequence[CaseListener] = ()
) -> ReviewService:
    """The review service over the configured store; default adapters registered on first use.
    `listeners` are told about every event a decision writes (e.g. resuming a waiting workflow)."""
    if settings.store == "sqlite":
        from caseplatform.stores.sqlite import SqliteCaseStore

        store: Any = SqliteCaseStore(settings.sqlite_path)
    else:
        from caseplatform.stores.dynamodb import DynamoCaseStore

        store = DynamoCaseStore(str(settings.cases_table_name), dynamodb_client)
    cases = CaseService(store, redactor=REDACTORS[settings.redact], listeners=listeners)
    cases.ensure_default_adapters()
    ensure_review_adapters(cases)
    return ReviewService(cases)
