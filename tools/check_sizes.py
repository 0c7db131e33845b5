"""Size limits of the code: no module over 500 lines, no function over 60 lines.

`make lint` runs this over `layers/`, `functions/` and `infra/` (tests and benchmarks are not held to
it). A module is measured in physical lines; a function from its `def` line (decorators excluded) to
its last line, nested functions counted in their parent as well. Exit status 1 names every breach.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

MODULE_LINES = 500
FUNCTION_LINES = 60
ROOTS = ("layers", "functions", "infra")
SKIPPED_PARTS = frozenset({"__pycache__", ".venv", "cdk.out", "build"})


@dataclass(frozen=True)
class Breach:
    path: Path
    line: int
    what: str
    lines: int
    limit: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what} is {self.lines} lines (limit {self.limit})"


def python_files(roots: Sequence[Path]) -> Iterator[Path]:
    for root in roots:
        candidates = [root] if root.is_file() else sorted(root.rglob("*.py"))
        for path in candidates:
            if path.suffix == ".py" and not SKIPPED_PARTS.intersection(path.parts):
                yield path


def breaches(path: Path, source: str) -> Iterator[Breach]:
    total = len(source.splitlines())
    if total > MODULE_LINES:
        yield Breach(path, 1, "module", total, MODULE_LINES)
    for node in ast.walk(ast.parse(source, filename=str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > FUNCTION_LINES:
                yield Breach(path, node.lineno, f"function {node.name}", length, FUNCTION_LINES)


def main(argv: Sequence[str] | None = None) -> int:
    roots = [Path(arg) for arg in (argv if argv else ROOTS)]
    found = [breach for path in python_files(roots) for breach in breaches(path, path.read_text("utf-8"))]
    for breach in found:
        print(breach)
    if found:
        print(f"{len(found)} size limit(s) exceeded", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
