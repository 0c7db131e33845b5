"""The labelled set of `make eval` and its scoring: the set is large enough and in both languages,
the rule planner clears the bar, and the harness does fail a planner that gets things wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.eval.harness import CATEGORY_BAR, OVERALL_BAR, Score, evaluate, judge, llm_planner, load
from memo.domain import PlannerOutput, PlanStep
from memo.planner.base import PlannerInput, PlannerResult
from memo.planner.llm import OpenAIPlanner
from memo.planner.rules import RulePlanner


def test_the_set_has_at_least_300_messages_in_both_languages() -> None:
    cases = load()
    assert len(cases) >= 300
    languages = [c.language for c in cases]
    assert languages.count("en") >= 100 and languages.count("he") >= 100
    labelled = {key for case in cases for fields in case.fields for key in fields}
    assert {"title", "when", "day", "recurrence", "list", "items", "query", "target"} <= labelled


def test_the_rule_planner_clears_the_bar() -> None:
    score, by_language = evaluate(RulePlanner(), load())
    assert score.rate("overall") >= OVERALL_BAR, [(c.message, w) for c, w, _ in score.failures]
    for category in ("capability", "action", "missing", "times", "recurrence", "content"):
        assert score.rate(category) >= CATEGORY_BAR, category
    assert set(by_language) == {"en", "he"}


class Unclear:
    def plan(self, inp: PlannerInput) -> PlannerResult:
        output = PlannerOutput(
            intent_type="operation",
            confidence=0.2,
            risk_level="low",
            needs_approval=False,
            missing_fields=["intent_unclear"],
            plan=[],
        )
        return PlannerResult(output=output)


def test_a_planner_that_understands_nothing_fails() -> None:
    score, _ = evaluate(Unclear(), load())
    assert score.rate("overall") < 0.1 and score.failures


def test_a_wrong_time_or_title_is_a_miss() -> None:
    case = next(c for c in load() if c.message == "remind me to call mom tomorrow at 5pm")
    right = PlanStep(
        id="s1",
        capability="reminders",
        action="create",
        constraints={"title": "call mom", "when": "2024-05-02T17:00:00+03:00"},
    )
    output = PlannerOutput(
        intent_type="operation", confidence=0.9, risk_level="low", needs_approval=False, plan=[right]
    )
    assert judge(case, output, Score()) == []
    late = right.model_copy(
        update={"constraints": {"title": "call mom", "when": "2024-05-02T18:00:00+03:00"}}
    )
    assert judge(case, output.model_copy(update={"plan": [late]}), Score())[0].startswith("times")
    titled = right.model_copy(
        update={"constraints": {"title": "call mom please", "when": right.constraints["when"]}}
    )
    assert judge(case, output.model_copy(update={"plan": [titled]}), Score())[0].startswith("title")


def test_the_openai_planner_is_scored_only_with_a_key() -> None:
    assert llm_planner({}) is None
    assert isinstance(llm_planner({"OPENAI_API_KEY": "sk-test"}), OpenAIPlanner)


def test_an_unknown_label_is_refused_not_ignored(tmp_path: Path) -> None:
    # "keep=" was once written before the harness judged it: a label no check reads is a typo.
    path = tmp_path / "utterances.txt"
    path.write_text("reminders.delete_all | delete all my reminders except mom | kep=mom\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown label 'kep'"):
        load(path)
