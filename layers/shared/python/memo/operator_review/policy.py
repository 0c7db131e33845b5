"""Which plan steps need an operator: the review policy, as configuration (not code).

`MEMO_REVIEW_POLICY` holds the policy as a JSON document, or the path of a JSON file; unset, the
default below applies. It is read once (settings of the webhook's turn path and of the review
submit Lambda) and validated by pydantic, so a bad policy fails at start, never mid-turn.

    {
      "rules": [
        {"capability": "*", "action": "delete", "min_items": 11, "priority": "high"},
        {"capability": "lists", "action": "remove", "min_items": 21}
      ],
      "reasons": ["tool_requires_review", "policy_violation"],
      "timeout_seconds": 86400,
      "approval_ttl_seconds": 600,
      "adapter": {"required_approvers": 1, "clarification_sla_days": 1,
                  "escalation_target": "memo-operators"}
    }

- a rule matches a step by capability and action (`*` matches any) and, with `min_items`, only when
  the step acts on at least that many items: the items its resolved args name (`reminderIds`,
  `noteIds`, `itemIds`: a delete by name, "delete all" and clearing a list all carry the ids entity
  resolution pinned), else its largest list argument, else 1. "Deletes more than 10 items" is
  `min_items: 11`.
- a step a rule matches is asked first as an approval with the HITL reason `tool_requires_review`
  (policySource `tool_policy`, `memo.turn.approval`); the user's yes sends it to the operator.
- `reasons`: an approval question the user answered in this turn with one of these reasons
  (policySource `tool_policy`) sends the step it approved to operator review as well: a request that
  breaks a rule of `memo.hitl.request_rules` (`policy_violation`) reaches an operator only this way.
- `timeout_seconds`: how long the executor waits for the operator (the wait task's TimeoutSeconds;
  `MEMO_REVIEW_TIMEOUT_SECONDS` overrides it); then the user is told the request expired.
- `approval_ttl_seconds`: how long an operator's approval stays valid for the executor.
- `adapter`: the `x-hitl` configuration of the `memo_operation` case adapter (escalation SLA and
  the number of distinct approvers).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from memo.errors import MemoError
from memo.executor.contracts import Priority, ReviewTicket

REVIEW_POLICY_ENV_VAR = "MEMO_REVIEW_POLICY"
REVIEW_TIMEOUT_ENV_VAR = "MEMO_REVIEW_TIMEOUT_SECONDS"
ANY = "*"
ReviewReason = Literal["tool_requires_review", "policy_violation"]


class ReviewPolicyInvalid(MemoError):
    code = "REVIEW_POLICY_INVALID"
    http_status = 500


class _Config(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ReviewRule(_Config):
    capability: str = Field(default=ANY, min_length=1)
    action: str = Field(default=ANY, min_length=1)
    min_items: int | None = Field(default=None, ge=1)
    priority: Priority = "normal"

    def matches(self, capability: str, action: str, args: dict[str, Any]) -> bool:
        if self.capability not in (ANY, capability) or self.action not in (ANY, action):
            return False
        return self.min_items is None or item_count(args) >= self.min_items

    @property
    def name(self) -> str:
        limit = f">={self.min_items}" if self.min_items is not None else ""
        return f"{self.capability}.{self.action}{limit}"


class AdapterConfig(_Config):
    """The `memo_operation` adapter's `x-hitl` keys (see caseplatform.schemas)."""

    required_approvers: int = Field(default=1, ge=1, le=5)
    clarification_sla_days: float = Field(default=1, gt=0, le=3650)
    sla_clock: Literal["calendar", "business"] = "calendar"
    escalation_target: str = Field(default="memo-operators", min_length=1, max_length=200)
    reescalation_interval_days: float | None = Field(default=None, gt=0, le=3650)

    def x_hitl(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


class ReviewPolicy(_Config):
    rules: tuple[ReviewRule, ...] = ()
    reasons: tuple[ReviewReason, ...] = ()
    timeout_seconds: int = Field(default=24 * 3600, ge=1, le=365 * 24 * 3600)
    approval_ttl_seconds: int = Field(default=600, ge=10, le=24 * 3600)
    adapter: AdapterConfig = AdapterConfig()

    def rule_for(self, capability: str, action: str, args: dict[str, Any]) -> ReviewRule | None:
        """The first rule that names this step, or None."""
        return next((rule for rule in self.rules if rule.matches(capability, action, args)), None)

    def ticket(
        self, capability: str, action: str, args: dict[str, Any], *, approved_reason: str | None = None
    ) -> ReviewTicket | None:
        """The review this step needs, or None: the first matching rule, else a listed reason."""
        rule = self.rule_for(capability, action, args)
        if rule is not None:
            return ReviewTicket(
                rule=rule.name,
                priority=rule.priority,
                timeout_seconds=self.timeout_seconds,
                reason="tool_requires_review",
                policy_source="tool_policy",
            )
        if approved_reason is not None and approved_reason in self.reasons:
            return ReviewTicket(
                rule=f"reason:{approved_reason}",
                timeout_seconds=self.timeout_seconds,
                reason=approved_reason,
                policy_source="tool_policy",
            )
        return None


#: The default: deleting or clearing more than 10 items at once, and the two tool-policy reasons.
DEFAULT_POLICY = ReviewPolicy(
    rules=(
        ReviewRule(action="delete", min_items=11, priority="high"),
        ReviewRule(action="delete_all", min_items=11, priority="high"),
        ReviewRule(action="clear", min_items=11, priority="high"),
    ),
    reasons=("tool_requires_review", "policy_violation"),
)


#: The args that name the items a step touches (entity ids pinned by entity resolution).
ITEM_ID_KEYS = ("reminderIds", "noteIds", "itemIds")


def item_count(args: dict[str, Any]) -> int:
    """How many items a step acts on: the ids it names (`ITEM_ID_KEYS`), else its largest list
    argument, else 1. Words that matched nothing (`notFound`) are not items."""
    named = [len(value) for key in ITEM_ID_KEYS if isinstance(value := args.get(key), list)]
    if named:
        return max(named)
    sizes = [len(value) for key, value in args.items() if isinstance(value, list) and key != "notFound"]
    return max(sizes, default=1)


def load_policy(raw: str | None, *, timeout_seconds: int | None = None) -> ReviewPolicy:
    """The policy from `MEMO_REVIEW_POLICY`'s value: a JSON document (starts with `{`) or a file path;
    None or blank -> DEFAULT_POLICY. `timeout_seconds` (MEMO_REVIEW_TIMEOUT_SECONDS) overrides."""
    policy = DEFAULT_POLICY
    text = (raw or "").strip()
    if text:
        if not text.startswith("{"):
            try:
                text = Path(text).read_text(encoding="utf-8")
            except OSError as exc:
                raise ReviewPolicyInvalid(
                    f"{REVIEW_POLICY_ENV_VAR}: cannot read {text}: {exc.strerror}"
                ) from exc
        try:
            policy = ReviewPolicy.model_validate_json(text)
        except ValidationError as exc:
            raise ReviewPolicyInvalid(f"{REVIEW_POLICY_ENV_VAR} is not a valid review policy: {exc}") from exc
    if timeout_seconds is not None:
        try:
            policy = ReviewPolicy.model_validate({**policy.model_dump(), "timeout_seconds": timeout_seconds})
        except ValidationError as exc:
            raise ReviewPolicyInvalid(f"{REVIEW_TIMEOUT_ENV_VAR} is out of range: {exc}") from exc
    return policy
