"""The rule planner's speed: every message of the eval development set
(`benchmarks/eval/utterances.txt` and `utterances2.txt`) planned 20 times; the median and the 95th percentile per message. The bar is 5 ms at the median."""

from __future__ import annotations

import statistics
import time

from benchmarks.eval.harness import NOW, load
from benchmarks.harness import Row
from memo.planner.base import PlannerInput
from memo.planner.rules import RulePlanner

ROUNDS = 20


def run() -> list[Row]:
    planner = RulePlanner()
    inputs = [PlannerInput(message=case.message, now=NOW, timezone=case.timezone) for case in load()]
    for inp in inputs:  # warm: regexes compiled, dateparser's data loaded
        planner.plan(inp)
    samples: list[float] = []
    for _ in range(ROUNDS):
        for inp in inputs:
            started = time.perf_counter()
            planner.plan(inp)
            samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return [
        ("rule planner, median per message", f"{statistics.median(samples):.2f}", "ms"),
        ("rule planner, p95 per message", f"{samples[int(len(samples) * 0.95)]:.2f}", "ms"),
        ("rule planner, messages", str(len(inputs)), "messages"),
    ]
