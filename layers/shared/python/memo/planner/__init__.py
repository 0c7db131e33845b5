"""Planners: the rule planner (no LLM) and the OpenAI planner (falls back to the rules).

`build_planner(settings)` picks one from `memo.settings.LlmSettings`; neither import pulls in `openai`.
"""

from __future__ import annotations

from memo.planner.base import Planner, PlannerInput, PlannerResult, enforce_risk_policy
from memo.planner.rules import RulePlanner
from memo.settings import LlmSettings

__all__ = ["Planner", "PlannerInput", "PlannerResult", "RulePlanner", "build_planner", "enforce_risk_policy"]


def build_planner(settings: LlmSettings) -> Planner:
    """The OpenAI planner when an API key is configured, else the rule planner."""
    if settings.enabled:
        from memo.planner.llm import OpenAIPlanner

        return OpenAIPlanner(settings)
    return RulePlanner()
