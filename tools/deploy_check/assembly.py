"""The cloud assembly as `cdk deploy` would publish it: the stack's template and, for each Lambda
function and layer, the directory whose zip the CLI uploads (found through the assets manifest by the
S3 key the template names)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FUNCTION_TYPE = "AWS::Lambda::Function"
LAYER_TYPE = "AWS::Lambda::LayerVersion"
STATE_MACHINE_TYPE = "AWS::StepFunctions::StateMachine"


class AssemblyError(ValueError):
    """The cloud assembly is not what the check can emulate (a missing asset, an unknown function)."""


@dataclass(frozen=True)
class LambdaFunction:
    """One function of the template: its code (the asset directory Lambda unpacks into /var/task),
    its layers in the template's order, and its configuration as written in the template."""

    logical_id: str
    name: str  # the directory under functions/ its handler came from
    asset: Path
    layers: tuple[str, ...]  # logical ids of its layers, in order
    handler: str
    memory_mb: int
    timeout_seconds: int
    environment: Mapping[str, Any]  # values as in the template (intrinsics unresolved)
    log_group: Any


@dataclass(frozen=True)
class CloudAssembly:
    directory: Path
    template: Mapping[str, Any]
    functions: tuple[LambdaFunction, ...]
    layers: Mapping[str, Path]  # logical id -> asset directory
    assets: Mapping[str, Path]  # S3 object key -> asset path

    def function(self, name: str) -> LambdaFunction:
        for function in self.functions:
            if function.name == name:
                return function
        raise AssemblyError(f"the template has no function from functions/{name}")

    def resources(self, kind: str) -> dict[str, Mapping[str, Any]]:
        return {
            logical_id: resource
            for logical_id, resource in self.template["Resources"].items()
            if resource.get("Type") == kind
        }


def asset_paths(manifest: Mapping[str, Any], directory: Path) -> dict[str, Path]:
    """S3 object key -> the staged asset (directory or file) the CLI uploads under that key."""
    paths: dict[str, Path] = {}
    for asset in (manifest.get("files") or {}).values():
        source = directory / asset["source"]["path"]
        for destination in asset["destinations"].values():
            paths[destination["objectKey"]] = source
    return paths


def _s3_key(code: Mapping[str, Any], logical_id: str) -> str:
    key = code.get("S3Key")
    if not isinstance(key, str):
        raise AssemblyError(f"{logical_id}: code is not an asset of this assembly ({code!r})")
    return key


def _asset(assets: Mapping[str, Path], key: str, logical_id: str) -> Path:
    path = assets.get(key)
    if path is None or not path.exists():
        raise AssemblyError(f"{logical_id}: the asset {key} is not in the assembly")
    return path


def function_name(asset: Path, functions_dir: Path) -> str:
    """The directory under `functions_dir` whose handler.py is the asset's (byte for byte)."""
    shipped = (asset / "handler.py").read_bytes()
    for source in sorted(functions_dir.glob("*/handler.py")):
        if source.read_bytes() == shipped:
            return source.parent.name
    raise AssemblyError(f"{asset.name}: its handler.py is none of {functions_dir}/*/handler.py")


def _layer_ids(properties: Mapping[str, Any], logical_id: str) -> tuple[str, ...]:
    ids = []
    for layer in properties.get("Layers") or []:
        if not (isinstance(layer, dict) and set(layer) == {"Ref"}):
            raise AssemblyError(f"{logical_id}: layer {layer!r} is not a layer of this stack")
        ids.append(str(layer["Ref"]))
    return tuple(ids)


def _function(
    logical_id: str, resource: Mapping[str, Any], assets: Mapping[str, Path], functions_dir: Path
) -> LambdaFunction:
    properties = resource["Properties"]
    asset = _asset(assets, _s3_key(properties["Code"], logical_id), logical_id)
    return LambdaFunction(
        logical_id=logical_id,
        name=function_name(asset, functions_dir),
        asset=asset,
        layers=_layer_ids(properties, logical_id),
        handler=str(properties.get("Handler", "")),
        memory_mb=int(properties.get("MemorySize", 128)),
        timeout_seconds=int(properties.get("Timeout", 3)),
        environment=(properties.get("Environment") or {}).get("Variables") or {},
        log_group=(properties.get("LoggingConfig") or {}).get("LogGroup"),
    )


def load_assembly(directory: Path, stack: str, functions_dir: Path) -> CloudAssembly:
    """The stack `stack` of the cloud assembly in `directory`."""
    template = json.loads((directory / f"{stack}.template.json").read_text(encoding="utf-8"))
    manifest = json.loads((directory / f"{stack}.assets.json").read_text(encoding="utf-8"))
    assets = asset_paths(manifest, directory)
    resources: Mapping[str, Any] = template["Resources"]
    functions = tuple(
        _function(logical_id, resource, assets, functions_dir)
        for logical_id, resource in resources.items()
        if resource.get("Type") == FUNCTION_TYPE
    )
    layers = {
        logical_id: _asset(assets, _s3_key(resource["Properties"]["Content"], logical_id), logical_id)
        for logical_id, resource in resources.items()
        if resource.get("Type") == LAYER_TYPE
    }
    return CloudAssembly(directory, template, functions, layers, assets)


def state_machine_definition(assembly: CloudAssembly, logical_id: str) -> tuple[str, Mapping[str, Any]]:
    """The state machine's definition as the CLI uploads it, and its substitutions (unresolved)."""
    properties = assembly.template["Resources"][logical_id]["Properties"]
    location = properties.get("DefinitionS3Location")
    if location is not None:
        text = _asset(assembly.assets, str(location["Key"]), logical_id).read_text(encoding="utf-8")
    elif isinstance(properties.get("DefinitionString"), str):
        text = properties["DefinitionString"]
    else:
        raise AssemblyError(f"{logical_id}: no definition the check can read")
    return text, properties.get("DefinitionSubstitutions") or {}
