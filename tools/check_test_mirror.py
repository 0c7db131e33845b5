"""How many modules have a test file at the mirrored path; fails under the floor.

A module `layers/shared/python/memo/a/b.py` is mirrored by `tests/<tier>/a/test_b.py`,
`caseplatform/a/b.py` by `tests/<tier>/caseplatform/a/test_b.py`, and `infra/b.py` by
`tests/infra/test_b.py` (tier: unit, integration, faults or e2e). Package `__init__` modules are not
counted. `make lint` runs it; `--list` prints the modules without one.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

FLOOR = 0.85
TIERS = ("unit", "integration", "faults", "e2e")
LAYER = Path("layers/shared/python")


def mirrors(module: Path) -> Iterator[Path]:
    """The test files that would mirror `module` (a path relative to the repository root)."""
    name = f"test_{module.name}"
    if module.parts[0] == "infra":
        yield Path("tests/infra", name)
        return
    inside = module.relative_to(LAYER)
    package = inside.parts[0]
    sub = Path(*inside.parts[1:-1]) if package == "memo" else Path(*inside.parts[:-1])
    for tier in TIERS:
        yield Path("tests", tier, sub, name)


def modules(root: Path) -> Iterator[Path]:
    for base in (root / LAYER / "memo", root / LAYER / "caseplatform", root / "infra"):
        for path in sorted(base.rglob("*.py")):
            if path.name != "__init__.py" and "__pycache__" not in path.parts:
                yield path.relative_to(root)


def main(argv: Sequence[str]) -> int:
    root = Path.cwd()
    found = list(modules(root))
    missing = [module for module in found if not any((root / test).exists() for test in mirrors(module))]
    share = 1 - len(missing) / len(found)
    if "--list" in argv:
        for module in missing:
            print(module)
    print(
        f"{len(found) - len(missing)} of {len(found)} modules ({share:.0%}) have a test at the mirrored path"
    )
    if share < FLOOR:
        print(f"under the floor of {FLOOR:.0%}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
