"""Small helpers shared by the capability operations: args models, bilingual wording, deterministic ids."""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from memo.capabilities.base import ExecutionContext, ExecutionResult
from memo.text.language import Language

NOT_FOUND = "NOT_FOUND"
INVALID_ARGS = "INVALID_ARGS"
TIME_IN_PAST = "TIME_IN_PAST"
UNSUPPORTED_ACTION = "UNSUPPORTED_ACTION"


class Args(BaseModel):
    """Executor args of one action: camelCase JSON, as they travel in the turn state and the
    Step Functions input (and are hashed for approvals)."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, serialize_by_alias=True, frozen=True, extra="forbid"
    )

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


def say(language: Language, en: str, he: str) -> str:
    return he if language == "he" else en


def entity_id(ctx: ExecutionContext, suffix: str = "") -> str:
    """A deterministic id per (turn, step[, part]): a retried create writes the same item again,
    which the store's conditional put turns into a no-op."""
    raw = f"{ctx.trace_id}:{ctx.step_id}:{suffix}"
    return hashlib.sha256(raw.encode()).hexdigest()[:26]


def failure(capability: str, action: str, code: str, message: str) -> ExecutionResult:
    return ExecutionResult(
        success=False, capability=capability, action=action, error_code=code, error=message
    )
