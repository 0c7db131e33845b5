"""`make eval` (`python -m benchmarks.eval`): print the scores; exit 1 below the bar."""

from __future__ import annotations

import sys

from benchmarks.eval.harness import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
