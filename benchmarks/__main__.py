"""Print the benchmark table: `make bench`."""

from __future__ import annotations

import importlib
import os
import sys

from benchmarks.harness import Row

SECTIONS = ("webhook", "turns", "logs", "route", "flood", "caseplatform", "review", "planner")


def main() -> int:
    # The Lambdas run in-process: keep their metrics and info logs out of the table.
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    # The speed sections turn one user's messages back to back, faster than any person writes: the
    # sender's pace is the flood section's subject, which runs at the deployed default.
    os.environ.setdefault("MEMO_RATE_BURST", "1000000")
    rows: list[tuple[str, Row]] = []
    for section in SECTIONS:
        try:
            module = importlib.import_module(f"benchmarks.{section}")
        except ModuleNotFoundError as exc:
            if exc.name != f"benchmarks.{section}":
                raise
            continue
        rows.extend((section, row) for row in module.run())
    width = max(len(name) for _, (name, _, _) in rows)
    print(f"{'section':<13} {'figure':<{width}} {'value':>10}  unit")
    print("-" * (width + 33))
    for section, (name, value, unit) in rows:
        print(f"{section:<13} {name:<{width}} {value:>10}  {unit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
