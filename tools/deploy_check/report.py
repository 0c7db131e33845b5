"""What `make deploy-check` prints: each check's result, the invocations, the size table, the time."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from tools.deploy_check.checks import CFN_LINT_IGNORED, LayerReport
from tools.deploy_check.containers import Container
from tools.deploy_check.runtime import LAMBDA_MACHINE
from tools.deploy_check.scenario import Step
from tools.deploy_check.sizes import FunctionSizes, LayerSizes, size_table

T = TypeVar("T")


@dataclass
class Clock:
    """The check's phases and how long each took (phases may overlap: some run in parallel)."""

    started: float = field(default_factory=time.monotonic)
    phases: list[tuple[str, float]] = field(default_factory=list)

    def time(self, name: str, function: Callable[..., T], *args: Any) -> T:
        """Run one phase, saying so on stderr (the whole check takes minutes)."""
        begun = time.monotonic()
        print(f"deploy-check: {name} ...", file=sys.stderr, flush=True)
        try:
            return function(*args)
        finally:
            self.phases.append((name, time.monotonic() - begun))
            print(f"deploy-check: {name}: {time.monotonic() - begun:.0f} s", file=sys.stderr, flush=True)

    @property
    def total(self) -> float:
        return time.monotonic() - self.started


@dataclass(frozen=True)
class Outcome:
    machine: str
    python: str
    layer: LayerReport
    layer_modules: int
    problems: list[str]
    lint: list[str]
    steps: list[Step]
    containers: Mapping[str, Container]
    described: Mapping[str, Mapping[str, Any]]
    function_sizes: list[FunctionSizes]
    layer_sizes: list[LayerSizes]
    xray_segments: int
    graph_messages: int
    logs: Path

    def failures(self) -> list[str]:
        failed = [f"{s.function} {s.what}: {s.problem}" for s in self.steps if s.problem]
        breaches = [b for f in self.function_sizes for b in f.breaches()]
        breaches += [b for layer in self.layer_sizes for b in layer.breaches()]
        return self.problems + [f"cfn-lint: {line}" for line in self.lint] + failed + breaches


def invocation_lines(steps: Sequence[Step], containers: Mapping[str, Container]) -> list[str]:
    lines = [f"{'function':<14} {'event':<52} {'init ms':>8} {'ms':>8}  result", "-" * 96]
    shown: set[str] = set()
    for step in steps:
        container = containers.get(step.function)
        init = ""
        ran = (step.invocation.error or {}).get("errorType") != "NoRoute"
        if container is not None and ran and step.function not in shown:
            init = f"{container.init.get('ms', 0):.0f}"
            shown.add(step.function)
        result = "ok" if not step.problem else f"FAILED: {step.problem}"
        lines.append(
            f"{step.function:<14} {step.what[:52]:<52} {init:>8} {step.invocation.ms:>8.0f}  {result[:200]}"
        )
    return lines


def import_lines(described: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Where the key modules came from (one function's view: they share the layers) and how many of
    the layers' modules every function read from the shipped bytecode."""
    if not described:
        return []
    origins = next(iter(described.values()))["origins"]
    lines = [f"  {name:<22} {origin or '(not imported)'}" for name, origin in origins.items()]
    for name, info in described.items():
        lines.append(
            f"  {name:<14} {info['layer_modules_from_bytecode']} of {info['layer_modules']} layer modules "
            "read from the layer's bytecode"
            + (
                f"; compiled at import: {', '.join(info['compiled_at_import'][:3])}"
                if info["compiled_at_import"]
                else ""
            )
        )
    return lines


def header_lines(outcome: Outcome) -> list[str]:
    layer = outcome.layer
    lines = [
        "make deploy-check: the stack as `cdk deploy` ships it, in Lambda's layout, on a clean Python 3.13",
        f"  interpreter: {outcome.python} (a virtualenv of it holding boto3's locked closure only)",
        f"  dependencies layer (arm64, as deployed): {layer.distributions} distributions, {layer.native} native, "
        f"{layer.shared_objects} shared objects: "
        + ("all CPython 3.13 manylinux aarch64 or pure" if not layer.problems else "PROBLEMS below"),
        f"  both layers: {outcome.layer_modules} modules, each checked for its Python 3.13 bytecode",
    ]
    if outcome.machine != LAMBDA_MACHINE:
        lines.append(
            f"  this machine is {outcome.machine}: the handlers ran with the same locked requirements built for "
            f"{outcome.machine} (pip, same command and pins), in the arm64 layer's layout"
        )
    ignored = ", ".join(f"{code} ({why})" for code, why in CFN_LINT_IGNORED.items())
    lines.append(f"  cfn-lint: {len(outcome.lint)} findings (ignored: {ignored})")
    return lines


def print_report(outcome: Outcome, clock: Clock) -> int:
    lines = header_lines(outcome)
    lines += ["", "invocations (init = the cold start's import of the handler)"]
    lines += invocation_lines(outcome.steps, outcome.containers)
    lines += [
        f"  WhatsApp messages sent to the Graph API: {outcome.graph_messages}; "
        f"X-Ray segments sent to the daemon: {outcome.xray_segments}",
        "",
        "imports",
    ]
    lines += import_lines(outcome.described)
    lines += [
        "",
        "sizes against Lambda's quotas (arm64 layers as deployed; environment resolved with generated names)",
    ]
    lines += size_table(outcome.function_sizes, outcome.layer_sizes)
    phases = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in clock.phases)
    lines += ["", f"time: {clock.total:.0f} s ({phases})"]
    failures = outcome.failures()
    if failures:
        lines += ["", f"FAILED: {len(failures)} problems (function logs in {outcome.logs})"]
        lines += [f"  - {failure}" for failure in failures]
    else:
        lines += ["", "deploy check passed"]
    print("\n".join(lines))
    return 1 if failures else 0
