"""`make deploy-check`: the stack as `cdk deploy` would ship it, run as Lambda would run it.

1. Synthesize as the CDK CLI does for `cdk deploy` (`app.py` with CDK_OUTDIR and the CLI's context:
   both layers bundled, the dependencies layer built by pip from uv.lock as Linux arm64 wheels).
2. Check the dependencies layer: every distribution's wheel is for CPython 3.13 on manylinux
   aarch64 (or pure), every shared object an AArch64 ELF file; the code layer holds memo and
   caseplatform (not memo.local) with their bytecode. Run cfn-lint on the template.
3. Build Lambda's runtime here (`runtime.py`): a clean Python 3.13 with only boto3, each function's
   asset as its /var/task, the layers unpacked in order into /opt, PYTHONPATH in Lambda's order.
   This machine is not arm64 (usually): the arm64 layer's native extensions cannot load here, so the
   functions run with the same locked requirements installed for this machine, in the same layout.
4. Start moto's server, create the template's tables, queues, secrets, topics, Scheduler groups and
   state machine, and invoke every handler with its trigger's event (`scenario.py`).
5. Report each function's sizes against Lambda's quotas.

Exit status 0 when every check passes, 1 when one fails, 2 when the check cannot run (no Python 3.13).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess  # nosec B404 - the CDK app with a fixed argument list, no shell
import sys
import tempfile
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from infra.lambdas import runtime_python
from infra.layer_requirements import LocalBundlingError, layer_requirements
from infra.settings import PROJECT_ROOT
from tools.deploy_check import checks, report
from tools.deploy_check.assembly import AssemblyError, CloudAssembly, load_assembly
from tools.deploy_check.containers import ContainerError, Sandbox
from tools.deploy_check.local_aws import create_account, moto_server
from tools.deploy_check.runtime import (
    LAMBDA_MACHINE,
    PYTHON_VERSION,
    RuntimeBuildError,
    bytecode_magic,
    clean_runtime,
    host_layer,
    host_machine,
    layer_conflicts,
    link_or_copy,
    reserved_variables,
    unpack_layers,
)
from tools.deploy_check.scenario import Scenario
from tools.deploy_check.sinks import graph_sink, xray_sink
from tools.deploy_check.sizes import FunctionSizes, LayerSizes
from tools.deploy_check.wheels import Runtime

STACK = "MemoStack"
# The synthesis's, moto's and every function's output, kept after the run (`make clean` removes it).
LOGS = PROJECT_ROOT / "build" / "deploy-check" / "logs"
IN_MEMORY = Path("/dev/shm")  # noqa: S108 - mkdtemp makes a private directory in it
WORK_BYTES = 2 * 1024**3  # the work directory takes about 500 MB; twice that and more must be free
# What the CDK CLI adds to the app's context for `cdk deploy` (bundling every stack it deploys).
CLI_CONTEXT = {
    "aws:cdk:enable-path-metadata": True,
    "aws:cdk:enable-asset-metadata": True,
    "aws:cdk:version-reporting": True,
    "aws:cdk:bundling-stacks": ["**"],
}


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="make deploy-check", description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the work directory (printed at the end)")
    parser.add_argument("--regions", nargs="+", default=["us-east-1"], help="cfn-lint's regions")
    parser.add_argument(
        "--assembly",
        type=Path,
        help="check this cloud assembly (e.g. the cdk.out `cdk deploy --app` will deploy) instead of synthesizing",
    )
    return parser.parse_args(list(argv))


def work_base(candidate: Path = IN_MEMORY) -> str | None:
    """Where the work directory goes: in memory when there is room (its some 36,000 files are
    written and deleted in seconds there, minutes on a busy disk), else the temporary directory."""
    try:
        roomy = (
            candidate.is_dir()
            and shutil.disk_usage(candidate).free > WORK_BYTES
            and os.access(candidate, os.W_OK)
        )
    except OSError:
        return None
    return str(candidate) if roomy else None


@contextmanager
def work_directory(keep: bool) -> Iterator[Path]:
    root = Path(tempfile.mkdtemp(prefix="memo-deploy-check-", dir=work_base()))
    try:
        yield root
    finally:
        if keep:
            print(f"work directory kept: {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


def synthesize(outdir: Path, log: Path) -> CloudAssembly:
    """`app.py` run as the CDK CLI runs it for `cdk deploy`."""
    environment = {**os.environ, "CDK_OUTDIR": str(outdir), "CDK_CONTEXT_JSON": json.dumps(CLI_CONTEXT)}
    with log.open("wb") as output:
        result = subprocess.run(  # noqa: S603 - fixed argument list, no shell  # nosec B603
            [sys.executable, str(PROJECT_ROOT / "app.py")],
            cwd=PROJECT_ROOT,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
            check=False,
        )
    if result.returncode != 0:
        raise RuntimeError(f"synthesis failed (exit code {result.returncode}):\n{log.read_text()[-4000:]}")
    return load_assembly(outdir, STACK, PROJECT_ROOT / "functions")


def sandboxes(
    assembly: CloudAssembly, root: Path, python: Path, dependencies: Path | None
) -> dict[str, Sandbox]:
    """Each function's /var/task, and one /opt per distinct list of layers (the dependencies layer
    replaced by this machine's build when it is not arm64)."""
    _code, arm_dependencies = checks.layer_kinds(assembly)
    bootstrap = root / "runtime" / "bootstrap.py"
    bootstrap.parent.mkdir()
    shutil.copy(Path(__file__).with_name("bootstrap.py"), bootstrap)
    (root / "home").mkdir()
    opts: dict[tuple[str, ...], Path] = {}
    found = {}
    for function in assembly.functions:
        if function.layers not in opts:
            opt = opts[function.layers] = root / f"opt{len(opts)}"
            layers = [
                dependencies if lid == arm_dependencies and dependencies else assembly.layers[lid]
                for lid in function.layers
            ]
            unpack_layers(layers, opt)
        task = root / "task" / function.name
        shutil.copytree(function.asset, task, copy_function=link_or_copy)
        found[function.name] = Sandbox(python, bootstrap, task, opts[function.layers], root / "home")
    return found


def static_problems(
    assembly: CloudAssembly, host: Path | None, machine: str, magic: bytes
) -> tuple[list[str], checks.LayerReport, int]:
    """Problems found without running anything; the dependencies layer's report; the modules of both
    layers (each checked to ship the runtime's bytecode)."""
    code, dependencies = checks.layer_kinds(assembly)
    problems = [f"code layer: {p}" for p in checks.code_layer_problems(assembly.layers[code])]
    layer = checks.dependencies_layer_report(assembly.layers[dependencies], Runtime(LAMBDA_MACHINE))
    problems += [f"dependencies layer: {p}" for p in layer.problems]
    modules = 0
    for name, lid in (("code", code), ("dependencies", dependencies)):
        count, missing = checks.modules_without_bytecode(assembly.layers[lid] / "python", magic)
        modules += count
        problems += (
            [f"{name} layer: {len(missing)} modules without Python 3.13 bytecode, e.g. {missing[:3]}"]
            if missing
            else []
        )
    if host is not None and layer.distributions:
        host_problems = checks.host_layer_problems(assembly.layers[dependencies], host, Runtime(machine))
        problems += [f"{machine} layer: {p}" for p in host_problems]
    for function in assembly.functions:
        problems += [
            f"{function.name}: sets Lambda's reserved variable {v}"
            for v in reserved_variables(function.environment)
        ]
        problems += [
            f"{function.name}: {c}"
            for c in layer_conflicts([assembly.layers[lid] for lid in function.layers])
        ][:5]
    return problems, layer, modules


@dataclass(frozen=True)
class Prepared:
    """What the invocations need: the assembly, the interpreter and each function's sandbox."""

    assembly: CloudAssembly
    python: Path
    sandboxes: dict[str, Sandbox]
    static: tuple[list[str], checks.LayerReport, int]
    lint: Future[list[str]]
    sizes: Future[tuple[list[FunctionSizes], list[LayerSizes]]]


def prepare(
    args: argparse.Namespace, python: str, root: Path, pool: ThreadPoolExecutor, clock: report.Clock
) -> Prepared:
    """Synthesis (or the given assembly), the clean runtime and this machine's dependencies layer in
    parallel; then the checks that need nothing running, and the sandboxes."""
    machine = host_machine()
    lang = pool.submit(clean_runtime, python, root / "lang", PROJECT_ROOT / "uv.lock", machine)
    host: Future[Path] | None = None
    if machine != LAMBDA_MACHINE:
        requirements = layer_requirements(PROJECT_ROOT, PYTHON_VERSION)
        host = pool.submit(host_layer, root / "host-dependencies", requirements, machine)
    if args.assembly:
        assembly = load_assembly(args.assembly.resolve(), STACK, PROJECT_ROOT / "functions")
    else:
        assembly = clock.time("synthesis as cdk deploy", synthesize, root / "cdk.out", LOGS / "synth.log")
    lint = pool.submit(checks.cfn_lint, assembly.directory / f"{STACK}.template.json", args.regions)
    sizes = pool.submit(checks.measure_sizes, assembly)
    interpreter = clock.time("clean Python 3.13", lang.result)
    host_dir = clock.time(f"{machine} dependencies layer", host.result) if host else None
    static = static_problems(assembly, host_dir, machine, bytecode_magic(python))
    return Prepared(
        assembly, interpreter, sandboxes(assembly, root, interpreter, host_dir), static, lint, sizes
    )


def run(args: argparse.Namespace, python: str, root: Path, clock: report.Clock) -> int:
    with ThreadPoolExecutor(max_workers=3) as pool, ExitStack() as stack:
        endpoint = stack.enter_context(moto_server(LOGS / "moto.log"))
        ready = prepare(args, python, root, pool, clock)
        graph = stack.enter_context(graph_sink())
        xray = stack.enter_context(xray_sink())
        account = clock.time("local AWS", create_account, ready.assembly, endpoint, STACK)
        scenario = Scenario(ready.assembly, account, ready.sandboxes, graph.base_url, LOGS, xray.address)
        try:
            steps = clock.time("invocations", scenario.run)
            described = {n: c.describe() for n, c in scenario.containers.items() if c.running}
        finally:
            scenario.stop()
        function_sizes, layer_sizes = clock.time("sizes", ready.sizes.result)
        findings = clock.time("cfn-lint", ready.lint.result)
    problems, layer, modules = ready.static
    outcome = report.Outcome(
        machine=host_machine(),
        python=python,
        layer=layer,
        layer_modules=modules,
        problems=problems,
        lint=findings,
        steps=steps,
        containers=scenario.containers,
        described=described,
        function_sizes=function_sizes,
        layer_sizes=layer_sizes,
        xray_segments=xray.count,
        graph_messages=len(graph.sink.messages()),
        logs=LOGS,
    )
    return report.print_report(outcome, clock)


def main(argv: Sequence[str]) -> int:
    args = parse(argv)
    clock = report.Clock()
    try:
        python = runtime_python(PYTHON_VERSION)
    except LocalBundlingError:
        print(
            f"make deploy-check needs Python {PYTHON_VERSION}, the Lambda runtime's version, to build and run "
            f"the functions: install it (e.g. `pyenv install {PYTHON_VERSION}`), put python{PYTHON_VERSION} "
            "on the PATH, or name it with MEMO_LAMBDA_PYTHON.",
            file=sys.stderr,
        )
        return 2
    shutil.rmtree(LOGS, ignore_errors=True)
    LOGS.mkdir(parents=True)
    with work_directory(args.keep) as root:
        try:
            return run(args, python, root, clock)
        except (AssemblyError, RuntimeBuildError, LocalBundlingError, ContainerError, RuntimeError) as error:
            print(f"make deploy-check could not finish: {error}\n(logs in {LOGS})", file=sys.stderr)
            return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
