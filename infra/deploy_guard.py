"""Refuses a cloud assembly whose dependencies layer was not built, before `cdk deploy` uploads it.

    python -m infra.deploy_guard cdk.out [MemoStack]

`make deploy` runs it between `cdk synth` and `cdk deploy --app cdk.out`: exit 0 when the assembly
is deployable, else exit 1 with one line per problem. Deployable means:
- the stack's template has no placeholder rule (`infra.lambdas.NOT_BUILT_RULE_ID`: the assembly was
  synthesized with the test-only `bundle=false`);
- the dependencies layer's asset (found by its description) is a staged directory of the assembly
  holding `python/` with an installed distribution (`*.dist-info`) of every direct dependency of
  pyproject.toml that the layer ships (`infra.layer_requirements.layer_dependencies`).

The placeholder rule alone already makes CloudFormation refuse such a stack; this check stops the
deploy before any asset is uploaded, and also catches a layer that was built empty.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from infra.lambdas import DEPENDENCIES_DESCRIPTION, NOT_BUILT_RULE_ID
from infra.layer_requirements import PYPROJECT, layer_dependencies, normalized_name

DEFAULT_STACK = "MemoStack"
_DIST_INFO = re.compile(r"^(?P<name>.+?)-[^-]+\.dist-info$")


def problems(assembly: Path, stack_name: str = DEFAULT_STACK, pyproject: Path = PYPROJECT) -> list[str]:
    """What makes the assembly in `assembly` undeployable; empty when it is deployable."""
    template_file = assembly / f"{stack_name}.template.json"
    assets_file = assembly / f"{stack_name}.assets.json"
    if not template_file.is_file() or not assets_file.is_file():
        return [f"{assembly} holds no synthesized {stack_name} (run `cdk synth` first)"]
    template: dict[str, Any] = json.loads(template_file.read_text(encoding="utf-8"))
    found = [
        f"the template carries the rule {rule_id}: it was synthesized with bundle=false (a placeholder "
        "dependencies layer); synthesize it again without it"
        for rule_id in template.get("Rules", {})
        if NOT_BUILT_RULE_ID in rule_id
    ]
    site = _layer_site(assembly, template, json.loads(assets_file.read_text(encoding="utf-8")))
    if isinstance(site, str):
        return [*found, site]
    installed = {normalized_name(m.group("name")) for p in site.iterdir() if (m := _DIST_INFO.match(p.name))}
    missing = [name for name in map(normalized_name, layer_dependencies(pyproject)) if name not in installed]
    if missing:
        found.append(f"the dependencies layer ({site}) lacks {', '.join(missing)}: it was not built")
    return found


def _layer_site(assembly: Path, template: dict[str, Any], assets: dict[str, Any]) -> Path | str:
    """The `python/` directory of the dependencies layer's staged asset, or the problem finding it."""
    layers = [
        resource["Properties"]
        for resource in template.get("Resources", {}).values()
        if resource.get("Type") == "AWS::Lambda::LayerVersion"
        and str(resource["Properties"].get("Description", "")).startswith(DEPENDENCIES_DESCRIPTION)
    ]
    if len(layers) != 1:
        return f"expected one dependencies layer in the template, found {len(layers)}"
    key = str(layers[0].get("Content", {}).get("S3Key", ""))
    asset = assets.get("files", {}).get(key.removesuffix(".zip"))
    if asset is None:
        return f"the dependencies layer's asset {key or '(none)'} is not in the asset manifest"
    source = Path(asset["source"]["path"])
    directory = source if source.is_absolute() else assembly / source
    if not directory.is_relative_to(assembly) or not (directory / "python").is_dir():
        return (
            f"the dependencies layer's asset ({directory}) was not built: no python/ staged in the assembly"
        )
    return directory / "python"


def main(argv: Sequence[str]) -> int:
    if not 1 <= len(argv) <= 2:
        print("usage: python -m infra.deploy_guard <cloud assembly dir> [stack name]", file=sys.stderr)
        return 2
    assembly = Path(argv[0]).resolve()
    found = problems(assembly, argv[1] if len(argv) == 2 else DEFAULT_STACK)
    for problem in found:
        print(f"not deployable: {problem}", file=sys.stderr)
    if not found:
        print(f"{assembly}: the dependencies layer is built; deployable")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
