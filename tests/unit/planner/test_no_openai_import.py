"""The `openai` package costs over a second of cold start: the rule planner and a fast-path resume
must never import it. A fresh interpreter runs both and reports what it imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = r"""
import json, sys
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from memo.settings import LlmSettings
from memo.domain import HITLReply, TurnInput, TurnState
from memo.hitl import gate
from memo.hitl.interpreter import build_interpreter
from memo.hitl.resume import resume
from memo.planner import build_planner
from memo.planner.base import PlannerInput
import memo.planner.llm  # importing the LLM modules is fine; calling them is what imports openai

now = datetime(2024, 5, 1, 10, 0, tzinfo=ZoneInfo("Asia/Jerusalem"))
settings = LlmSettings.model_validate({"OPENAI_API_KEY": sys.argv[1]} if sys.argv[1] else {})
planner = build_planner(LlmSettings())
result = planner.plan(PlannerInput(message="delete all my reminders", now=now, timezone="Asia/Jerusalem"))
state = TurnState(trace_id="wamid.1", thread_id="972500000000", input=TurnInput(message="delete all my reminders", timezone="Asia/Jerusalem"))
state = state.with_planner_result(result.output, result.routing_suggestions)
state = gate.check_planner(state, now=now).state
outcome = resume(state, HITLReply(text="yes"), now=now + timedelta(seconds=5), interpreter=build_interpreter(settings))
print(json.dumps({"goto": outcome.goto, "openai": "openai" in sys.modules}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("key", ["", "sk-configured-but-unused"])
def test_rule_planner_and_fast_path_do_not_import_openai(key: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "layers" / "shared" / "python")}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, key],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"goto": "resolver_router", "openai": False}


@pytest.mark.slow
def test_the_check_can_fail_when_openai_is_used() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "layers" / "shared" / "python")}
    code = (
        "import sys\nfrom memo.settings import LlmSettings\nfrom memo.planner.llm import openai_client\n"
        "openai_client(LlmSettings.model_validate({'OPENAI_API_KEY': 'k'}))\nprint('openai' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120, check=True
    )
    assert done.stdout.strip() == "True"
