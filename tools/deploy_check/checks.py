"""The checks of the deploy check that need no running function: the layers' contents, cfn-lint on the
template, and each function's sizes against Lambda's quotas."""

from __future__ import annotations

import subprocess  # nosec B404 - cfn-lint with a fixed argument list, no shell
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tools.deploy_check.assembly import AssemblyError, CloudAssembly
from tools.deploy_check.intrinsics import Account, physical_attributes, resolve
from tools.deploy_check.sizes import FunctionSizes, LayerSizes, environment_bytes, tree_bytes, zip_bytes
from tools.deploy_check.wheels import (
    Runtime,
    binary_problems,
    distributions,
    misfits,
    same_distributions,
    shared_objects,
)

# CDK makes every function depend on its role and the role's policy (DependsOn) while `Role` already
# reads the role's ARN: cfn-lint's W3005 ("dependency already enforced") on every function, harmless.
CFN_LINT_IGNORED = {"W3005": "CDK's DependsOn on a function's role beside its Fn::GetAtt of the role"}
# The sizes are estimated in the region with the longest name Lambda runs in (names hold it).
ESTIMATE_ACCOUNT = Account(account="123456789012", region="ap-southeast-2", stack="MemoStack")


@dataclass(frozen=True)
class LayerReport:
    distributions: int
    native: int
    shared_objects: int
    problems: list[str]


def layer_kinds(assembly: CloudAssembly) -> tuple[str, str]:
    """The logical ids of (the code layer, the dependencies layer): the code layer holds memo."""
    code = [lid for lid, path in assembly.layers.items() if (path / "python" / "memo").is_dir()]
    others = [lid for lid in assembly.layers if lid not in code]
    if len(code) != 1 or len(others) != 1:
        raise AssemblyError(
            f"expected the code layer and the dependencies layer, found {sorted(assembly.layers)}"
        )
    return code[0], others[0]


def code_layer_problems(layer: Path) -> list[str]:
    """The code layer ships memo and caseplatform, never the local runtime (its bytecode is checked
    with the dependencies layer's, `modules_without_bytecode`)."""
    site = layer / "python"
    problems = [
        f"no {name} package"
        for name in ("memo", "caseplatform")
        if not (site / name / "__init__.py").is_file()
    ]
    if (site / "memo" / "local").exists():
        problems.append("it ships memo.local (the local runtime)")
    return problems


def dependencies_layer_report(layer: Path, runtime: Runtime) -> LayerReport:
    site = layer / "python"
    found = distributions(site)
    if not found:
        return LayerReport(
            0, 0, 0, ["the dependencies layer is empty (a placeholder): it must not be deployed"]
        )
    problems = misfits(found, runtime) + binary_problems(site, runtime)
    return LayerReport(
        len(found), sum(1 for d in found if not d.pure), len(list(shared_objects(site))), problems
    )


def modules_without_bytecode(site: Path, magic: bytes, tag: str = "cpython-313") -> tuple[int, list[str]]:
    """How many modules `site` holds, and those without a `.pyc` of `tag` that starts with `magic`
    (the runtime's Python would compile them at every cold start)."""
    modules = 0
    missing = []
    for source in sorted(site.rglob("*.py")):
        modules += 1
        cached = source.parent / "__pycache__" / f"{source.stem}.{tag}.pyc"
        if not cached.is_file():
            missing.append(str(source.relative_to(site)))
            continue
        with cached.open("rb") as handle:
            if handle.read(len(magic)) != magic:
                missing.append(str(source.relative_to(site)))
    return modules, missing


def host_layer_problems(arm_layer: Path, host_layer: Path, host: Runtime) -> list[str]:
    """The host's layer holds exactly the arm64 layer's distributions, built for the host."""
    differences = same_distributions(
        distributions(arm_layer / "python"), distributions(host_layer / "python")
    )
    return differences + binary_problems(host_layer / "python", host)


def cfn_lint_command(template: Path, regions: Sequence[str]) -> list[str]:
    executable = Path(sys.executable).with_name("cfn-lint")
    return [
        str(executable),
        "--format",
        "parseable",
        "--regions",
        *regions,
        "--ignore-checks",
        *sorted(CFN_LINT_IGNORED),
        "--",
        str(template),
    ]


def cfn_lint(template: Path, regions: Sequence[str]) -> list[str]:
    """cfn-lint's findings (errors, warnings, informational), one line each; none is a pass."""
    command = cfn_lint_command(template, regions)
    if not Path(command[0]).is_file():
        return [f"cfn-lint is not installed beside {sys.executable}: run `make setup`"]
    result = subprocess.run(  # noqa: S603 - fixed argument list, no shell  # nosec B603
        command, capture_output=True, text=True, check=False
    )
    findings = [line for line in result.stdout.splitlines() if line.strip()]
    if result.returncode != 0 and not findings:
        findings = [f"cfn-lint failed (exit code {result.returncode}): {result.stderr.strip()[-1000:]}"]
    return findings


def estimated_environment(assembly: CloudAssembly, environment: Mapping[str, object]) -> dict[str, str]:
    """A function's environment as CloudFormation would resolve it (generated names and ARNs)."""
    attributes = physical_attributes(assembly.template, ESTIMATE_ACCOUNT)
    resolved = resolve(dict(environment), attributes, ESTIMATE_ACCOUNT.pseudo_parameters)
    return {str(k): str(v) for k, v in resolved.items()}


def measure_sizes(assembly: CloudAssembly) -> tuple[list[FunctionSizes], list[LayerSizes]]:
    """Every function's and layer's sizes (the arm64 layers, as deployed)."""
    layer_bytes = {lid: tree_bytes(path) for lid, path in assembly.layers.items()}
    layers = [
        LayerSizes(_layer_name(assembly, lid), layer_bytes[lid], zip_bytes(path))
        for lid, path in assembly.layers.items()
    ]
    functions = [
        FunctionSizes(
            name=f.name,
            code_bytes=tree_bytes(f.asset),
            code_zipped=zip_bytes(f.asset),
            layer_bytes=sum(layer_bytes[lid] for lid in f.layers),
            layers=len(f.layers),
            environment=environment_bytes(estimated_environment(assembly, f.environment)),
        )
        for f in assembly.functions
    ]
    return functions, layers


def _layer_name(assembly: CloudAssembly, logical_id: str) -> str:
    code, _dependencies = layer_kinds(assembly)
    return "code" if logical_id == code else "dependencies"
