"""Deploy-time settings of the Memo stack, read once from CDK context.

Every knob ops can turn is a context key, set in `cdk.json` or with `-c key=value` on the CDK CLI.
Values given with `-c` arrive as strings, values from `cdk.json` keep their JSON type; both are
accepted. The keys and their defaults are listed in `docs/deploy.md`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from aws_cdk import aws_logs as logs
from constructs import Node

from memo.operator_review.policy import ReviewPolicyInvalid, load_policy
from memo.settings import SCHEDULE_EVENT_AGE_BOUNDS, SCHEDULE_MAX_RETRY_ATTEMPTS

PROJECT_ROOT = Path(__file__).resolve().parent.parent

# CDK's own context key: which stacks have their assets bundled ([] = none, the default is all).
BUNDLING_STACKS_CONTEXT_KEY = "aws:cdk:bundling-stacks"

_RETENTION_BY_DAYS: Mapping[int, logs.RetentionDays] = {
    1: logs.RetentionDays.ONE_DAY,
    3: logs.RetentionDays.THREE_DAYS,
    5: logs.RetentionDays.FIVE_DAYS,
    7: logs.RetentionDays.ONE_WEEK,
    14: logs.RetentionDays.TWO_WEEKS,
    30: logs.RetentionDays.ONE_MONTH,
    60: logs.RetentionDays.TWO_MONTHS,
    90: logs.RetentionDays.THREE_MONTHS,
    120: logs.RetentionDays.FOUR_MONTHS,
    150: logs.RetentionDays.FIVE_MONTHS,
    180: logs.RetentionDays.SIX_MONTHS,
    365: logs.RetentionDays.ONE_YEAR,
    400: logs.RetentionDays.THIRTEEN_MONTHS,
    545: logs.RetentionDays.EIGHTEEN_MONTHS,
    731: logs.RetentionDays.TWO_YEARS,
}


# EventBridge Scheduler group names; WhatsApp template names (lowercase letters, digits, underscores).
_SCHEDULE_GROUP_NAME = re.compile(r"^[0-9A-Za-z._-]{1,64}$")
_TEMPLATE_NAME = re.compile(r"^[a-z0-9_]{1,512}$")
# "en=en_US,he=he": a profile language -> the template's language code (memo.settings.RemindersSettings
# reads it).
_TEMPLATE_LANGUAGE_PAIR = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]+)?=[A-Za-z]{2,3}(?:_[A-Za-z0-9]+)?$")
# A Cognito domain prefix: lowercase letters, digits and hyphens, no leading or trailing hyphen.
_DOMAIN_PREFIX = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$")
_DOMAIN_PREFIX_RESERVED = ("aws", "amazon", "cognito")


# Step Functions ends a Standard execution after one year, whatever its definition says.
MAX_EXECUTION_SECONDS = 365 * 24 * 3600
# An execution's own work besides waiting for an operator: every group's steps with their retries and
# lease waits, then the reply.
EXECUTION_WORK_SECONDS = 3600


def execution_timeout_seconds(review_wait_seconds: int) -> int:
    """The executor state machine's TimeoutSeconds: the longest wait for an operator (the review
    policy's `timeout_seconds`) plus the execution's own work. Past it the execution times out and the
    ExecutionsTimedOut alarm fires: something hung, since every wait ends on its own before."""
    return review_wait_seconds + EXECUTION_WORK_SECONDS


class SettingsError(ValueError):
    """A context value that cannot be used; the message names the key."""


@dataclass(frozen=True)
class StackSettings:
    """What ops can configure per deployment. Defaults suit a first deployment."""

    whatsapp_api_base_url: str = "https://graph.facebook.com/v21.0"
    planner_model: str = "gpt-4o-mini"
    interpreter_model: str = "gpt-4o-mini"
    hitl_ttl_seconds: int = 300
    default_timezone: str = "UTC"
    log_level: str = "INFO"
    log_retention_days: int = 30
    alarm_email: str | None = None
    api_throttle_rate_limit: int = 50
    api_throttle_burst_limit: int = 100
    turn_batch_size: int = 1
    turn_max_concurrency: int = 10
    webhook_reserved_concurrency: int | None = None
    # Reserve a concurrency of 1 for the escalation sweep (one sweep at a time). Off: a new account's
    # concurrency quota leaves nothing to reserve, and the sweep is safe to run concurrently.
    escalation_reserve_concurrency: bool = False
    reminder_schedule_group: str = "memo-reminders"
    reminder_template_name: str = "memo_reminder"
    reminder_template_languages: str = "en=en,he=he"
    # The reminder schedules' target retry policy (EventBridge Scheduler's bounds), then its
    # dead-letter queue.
    reminder_retry_attempts: int = 20
    reminder_max_event_age_seconds: int = 3600
    whatsapp_phone_number_id: str | None = None
    # The reviewers' Cognito hosted UI: https://<prefix>.auth.<region>.amazoncognito.com (unique per
    # region); unset -> memo-review-<account id>.
    review_domain_prefix: str | None = None
    # MEMO_REVIEW_POLICY of the webhook, the review submit and the review functions (one JSON document;
    # a JSON object in cdk.json); unset -> the default policy of memo.operator_review.policy.
    review_policy: str | None = None

    @property
    def review_wait_seconds(self) -> int:
        """How long a step sent to operator review waits for the decision (the review policy's)."""
        return load_policy(self.review_policy).timeout_seconds

    @property
    def log_retention(self) -> logs.RetentionDays:
        return _RETENTION_BY_DAYS[self.log_retention_days]

    @classmethod
    def from_context(cls, node: Node) -> StackSettings:
        """Read every field from the construct tree's context; absent keys keep their default."""
        values: dict[str, Any] = {}
        for field in fields(cls):
            raw = node.try_get_context(field.name)
            if raw is None or raw == "":
                continue
            values[field.name] = _coerce(field.name, raw, str(field.type))
        settings = cls(**values)
        settings.validate()
        return settings

    def validate(self) -> None:
        if self.log_retention_days not in _RETENTION_BY_DAYS:
            allowed = ", ".join(str(d) for d in _RETENTION_BY_DAYS)
            raise SettingsError(f"log_retention_days must be one of {allowed}")
        if not self.whatsapp_api_base_url.startswith("https://"):
            raise SettingsError("whatsapp_api_base_url must be an https:// URL")
        if not 10 <= self.hitl_ttl_seconds <= 7 * 24 * 3600:
            raise SettingsError("hitl_ttl_seconds must be between 10 and 604800")
        if self.log_level not in {"DEBUG", "INFO", "WARNING", "ERROR"}:
            raise SettingsError("log_level must be DEBUG, INFO, WARNING or ERROR")
        if not 1 <= self.turn_batch_size <= 10:
            raise SettingsError("turn_batch_size must be between 1 and 10 (FIFO queue limit)")
        if not 2 <= self.turn_max_concurrency <= 1000:
            raise SettingsError("turn_max_concurrency must be between 2 and 1000")
        if self.api_throttle_rate_limit < 1 or self.api_throttle_burst_limit < 1:
            raise SettingsError("api throttle limits must be positive")
        if not _SCHEDULE_GROUP_NAME.match(self.reminder_schedule_group):
            raise SettingsError(
                "reminder_schedule_group must be 1 to 64 letters, digits, '.', '_' or '-' "
                "(an EventBridge Scheduler group name)"
            )
        if not _TEMPLATE_NAME.match(self.reminder_template_name):
            raise SettingsError(
                "reminder_template_name must be a WhatsApp template name: lowercase letters, digits, '_'"
            )
        pairs = self.reminder_template_languages.split(",")
        if not all(_TEMPLATE_LANGUAGE_PAIR.match(pair.strip()) for pair in pairs):
            raise SettingsError(
                "reminder_template_languages must be language=code pairs separated by commas, "
                "e.g. en=en_US,he=he"
            )
        if self.whatsapp_phone_number_id is not None and not self.whatsapp_phone_number_id.isdigit():
            raise SettingsError("whatsapp_phone_number_id must be the phone number's numeric id")
        if self.review_domain_prefix is not None and (
            not _DOMAIN_PREFIX.match(self.review_domain_prefix)
            or any(word in self.review_domain_prefix for word in _DOMAIN_PREFIX_RESERVED)
        ):
            raise SettingsError(
                "review_domain_prefix must be a Cognito domain prefix: 1 to 63 lowercase letters, digits "
                "or '-', not starting or ending with '-', without 'aws', 'amazon' or 'cognito'"
            )
        if self.review_policy is not None:
            _validate_review_policy(self.review_policy)
            if execution_timeout_seconds(self.review_wait_seconds) > MAX_EXECUTION_SECONDS:
                raise SettingsError(
                    "review_policy: timeout_seconds must be at most "
                    f"{MAX_EXECUTION_SECONDS - EXECUTION_WORK_SECONDS}, so that the executor's execution "
                    f"(the wait plus {EXECUTION_WORK_SECONDS} s of work) ends within Step Functions' one year"
                )
        self._validate_reminder_delivery()

    def _validate_reminder_delivery(self) -> None:
        if not 0 <= self.reminder_retry_attempts <= SCHEDULE_MAX_RETRY_ATTEMPTS:
            raise SettingsError(
                f"reminder_retry_attempts must be between 0 and {SCHEDULE_MAX_RETRY_ATTEMPTS}"
            )
        low, high = SCHEDULE_EVENT_AGE_BOUNDS
        if not low <= self.reminder_max_event_age_seconds <= high:
            raise SettingsError(f"reminder_max_event_age_seconds must be between {low} and {high}")


def _validate_review_policy(text: str) -> None:
    # A file path would name a file of the synthesizing machine, absent from the functions.
    if not text.lstrip().startswith("{"):
        raise SettingsError("review_policy must be a JSON object (the review policy document)")
    try:
        load_policy(text)
    except ReviewPolicyInvalid as error:
        raise SettingsError(f"review_policy: {error}") from None


def _coerce(name: str, raw: object, annotation: str) -> object:
    # Field annotations are strings here (postponed evaluation): "int", "int | None", "str", ...
    if annotation.startswith("bool"):
        return parse_bool(name, raw)
    if isinstance(raw, dict):  # a JSON object in cdk.json (the review policy)
        return json.dumps(raw, separators=(",", ":"))
    if annotation.startswith("int"):
        try:
            return int(str(raw))
        except ValueError:
            raise SettingsError(f"context key {name!r} must be an integer, got {raw!r}") from None
    return str(raw)


def parse_bool(name: str, raw: object) -> bool:
    text = str(raw).strip().lower()
    if text in {"1", "true", "yes", "on"}:
        return True
    if text in {"0", "false", "no", "off"}:
        return False
    raise SettingsError(f"context key {name!r} must be true or false, got {raw!r}")


def load_cdk_json_context(path: Path = PROJECT_ROOT / "cdk.json") -> dict[str, Any]:
    """The `context` block of cdk.json.

    The CDK CLI passes it to the app itself; `python app.py` and the tests read it here so that the
    same feature flags apply however the app is synthesized.
    """
    data = json.loads(path.read_text(encoding="utf-8"))
    context = data.get("context", {})
    if not isinstance(context, dict):
        raise SettingsError(f"{path}: 'context' must be an object")
    return context
