"""`memo.operator_review.policy`: MEMO_REVIEW_POLICY as a JSON document or a file, validated at load, and
which steps a policy sends to an operator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memo.operator_review.policy import (
    DEFAULT_POLICY,
    ReviewPolicy,
    ReviewPolicyInvalid,
    ReviewRule,
    ReviewTicket,
    item_count,
    load_policy,
)

IDS = [f"r{i}" for i in range(12)]


@pytest.mark.parametrize("raw", [None, "", "   \n"])
def test_unset_or_blank_is_the_default(raw: str | None) -> None:
    assert load_policy(raw) == DEFAULT_POLICY


#: A ticket's reason and policy source: the HITL reason its step was asked under, and who required it.
NAMED: dict[str, str] = {"reason": "tool_requires_review", "policy_source": "tool_policy"}


def test_a_json_document() -> None:
    policy = load_policy(
        json.dumps(
            {
                "rules": [
                    {"capability": "reminders", "action": "delete", "min_items": 3, "priority": "critical"}
                ],
                "reasons": ["policy_violation"],
                "timeout_seconds": 120,
                "approval_ttl_seconds": 60,
                "adapter": {"required_approvers": 2, "clarification_sla_days": 0.5},
            }
        )
    )
    assert policy.rules == (
        ReviewRule(capability="reminders", action="delete", min_items=3, priority="critical"),
    )
    assert policy.reasons == ("policy_violation",)
    assert (policy.timeout_seconds, policy.approval_ttl_seconds) == (120, 60)
    assert policy.adapter.x_hitl() == {
        "required_approvers": 2,
        "clarification_sla_days": 0.5,
        "sla_clock": "calendar",
        "escalation_target": "memo-operators",
    }


def test_a_file_path(tmp_path: Path) -> None:
    path = tmp_path / "policy.json"
    path.write_text(json.dumps({"rules": [{"action": "clear"}], "timeout_seconds": 30}), encoding="utf-8")
    policy = load_policy(f"  {path}  ")
    assert policy.rules == (ReviewRule(action="clear"),)
    assert policy.timeout_seconds == 30
    assert policy.reasons == ()  # a policy that names no reasons sends none to review


def test_a_missing_file_is_refused_with_its_path(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(ReviewPolicyInvalid, match="cannot read") as err:
        load_policy(str(missing))
    assert str(missing) in str(err.value)
    assert err.value.code == "REVIEW_POLICY_INVALID"


@pytest.mark.parametrize(
    "raw",
    [
        "{not json",
        '{"rules": [{"action": "delete", "min_items": 0}]}',
        '{"rules": [{"action": "delete", "limit": 3}]}',  # unknown key
        '{"rules": [{"action": ""}]}',
        '{"rules": [{"action": "delete", "priority": "urgent"}]}',
        '{"reasons": ["because"]}',
        '{"timeout_seconds": 0}',
        '{"approval_ttl_seconds": 5}',
        '{"adapter": {"required_approvers": 0}}',
        '{"adapter": {"required_approvers": 6}}',
        '{"adapter": {"sla_clock": "lunar"}}',
    ],
)
def test_a_bad_policy_fails_at_load(raw: str) -> None:
    with pytest.raises(ReviewPolicyInvalid, match="MEMO_REVIEW_POLICY is not a valid review policy"):
        load_policy(raw)


def test_a_bad_policy_in_a_file_fails_at_load(tmp_path: Path) -> None:
    path = tmp_path / "policy.json"
    path.write_text('{"rules": "all"}', encoding="utf-8")
    with pytest.raises(ReviewPolicyInvalid):
        load_policy(str(path))


def test_the_timeout_override_wins_and_is_range_checked() -> None:
    assert load_policy(None, timeout_seconds=42).timeout_seconds == 42
    assert load_policy('{"timeout_seconds": 10}', timeout_seconds=99).timeout_seconds == 99
    with pytest.raises(ReviewPolicyInvalid, match="MEMO_REVIEW_TIMEOUT_SECONDS"):
        load_policy(None, timeout_seconds=0)


def test_item_count_counts_the_items_the_step_names() -> None:
    assert item_count({}) == 1
    assert item_count({"title": "x"}) == 1
    assert item_count({"reminderIds": IDS[:3], "tags": IDS[:5]}) == 3  # ids, not any list
    assert item_count({"reminderIds": []}) == 0
    assert item_count({"tags": IDS[:5]}) == 5
    # A removal by name: the words that matched nothing are not items.
    assert item_count({"listName": "s", "itemIds": IDS[:2], "notFound": IDS[:7]}) == 2
    # Clearing a list counts the items pinned at resolution, not 1.
    assert item_count({"listName": "shopping", "itemIds": IDS[:12]}) == 12


@pytest.mark.parametrize(
    ("capability", "action", "key", "extra"),
    [
        ("reminders", "delete", "reminderIds", {}),
        ("reminders", "delete_all", "reminderIds", {}),
        ("notes", "delete_all", "noteIds", {}),
        ("lists", "clear", "itemIds", {"listName": "shopping"}),
        ("lists", "remove", "itemIds", {"listName": "shopping", "notFound": []}),
    ],
)
def test_the_default_policy_fires_on_what_deletes_really_touch(
    capability: str, action: str, key: str, extra: dict[str, object]
) -> None:
    assert DEFAULT_POLICY.ticket(capability, action, {**extra, key: IDS[:10]}) is None
    ticket = DEFAULT_POLICY.ticket(capability, action, {**extra, key: IDS[:12]})
    if action == "remove":
        assert ticket is None  # the default policy reviews deletes and clears only
    else:
        assert ticket is not None and ticket.priority == "high"


@pytest.mark.parametrize(
    ("count", "needs_review"),
    [(10, False), (11, True), (12, True)],
)
def test_default_thresholds_more_than_ten_deletes(count: int, needs_review: bool) -> None:
    ticket = DEFAULT_POLICY.ticket("reminders", "delete", {"reminderIds": IDS[:count]})
    assert (ticket is not None) is needs_review
    if ticket is not None:
        assert ticket == ReviewTicket(
            rule="*.delete>=11", priority="high", timeout_seconds=24 * 3600, **NAMED
        )


def test_rules_match_capability_and_action_and_the_first_match_wins() -> None:
    policy = ReviewPolicy(
        rules=(
            ReviewRule(capability="lists", action="remove", min_items=2, priority="low"),
            ReviewRule(capability="lists", priority="critical"),
        ),
        timeout_seconds=300,
    )
    first = policy.ticket("lists", "remove", {"itemIds": ["a", "b"]})
    assert first == ReviewTicket(rule="lists.remove>=2", priority="low", timeout_seconds=300, **NAMED)
    below = policy.ticket("lists", "remove", {"itemIds": ["a"]})
    assert below == ReviewTicket(rule="lists.*", priority="critical", timeout_seconds=300, **NAMED)
    assert policy.ticket("reminders", "remove", {"itemIds": ["a", "b"]}) is None


def test_planner_reasons_only_when_listed_and_only_after_a_matching_approval() -> None:
    policy = ReviewPolicy(reasons=("tool_requires_review",), timeout_seconds=60)
    assert policy.ticket("notes", "delete", {}) is None
    assert policy.ticket("notes", "delete", {}, approved_reason="policy_violation") is None
    assert policy.ticket("notes", "delete", {}, approved_reason="needs_approval") is None
    assert policy.ticket("notes", "delete", {}, approved_reason="tool_requires_review") == ReviewTicket(
        rule="reason:tool_requires_review", timeout_seconds=60, **NAMED
    )


def test_a_rule_wins_over_a_reason() -> None:
    policy = ReviewPolicy(rules=(ReviewRule(action="delete"),), reasons=("policy_violation",))
    ticket = policy.ticket("notes", "delete", {}, approved_reason="policy_violation")
    assert ticket is not None and ticket.rule == "*.delete"


def test_the_default_policy_lists_both_tool_policy_reasons() -> None:
    assert set(DEFAULT_POLICY.reasons) == {"tool_requires_review", "policy_violation"}
    assert {(r.action, r.min_items) for r in DEFAULT_POLICY.rules} == {
        ("delete", 11),
        ("delete_all", 11),
        ("clear", 11),
    }
