"""The cloud assembly read as the CDK CLI publishes it: each function's and layer's uploaded directory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools.deploy_check.assembly import AssemblyError, function_name, load_assembly, state_machine_definition


def _assembly(tmp_path: Path, *, handler: str = "def handler(e, c): return {}\n") -> Path:
    functions = tmp_path / "functions"
    for name, text in (
        ("webhook", "def handler(e, c): return {}\n"),
        ("review", "def handler(e, c): return 1\n"),
    ):
        (functions / name).mkdir(parents=True)
        (functions / name / "handler.py").write_text(text)
    out = tmp_path / "cdk.out"
    (out / "asset.fn").mkdir(parents=True)
    (out / "asset.fn" / "handler.py").write_text(handler)
    (out / "asset.layer" / "python").mkdir(parents=True)
    (out / "asset.def.json").write_text('{"StartAt": "${Fn}"}')
    files = {
        key: {"source": {"path": path}, "destinations": {"d": {"objectKey": f"{key}.{ext}"}}}
        for key, path, ext in (
            ("fn", "asset.fn", "zip"),
            ("layer", "asset.layer", "zip"),
            ("def", "asset.def.json", "json"),
        )
    }
    (out / "MemoStack.assets.json").write_text(json.dumps({"files": files}))
    template = {
        "Resources": {
            "Layer": {"Type": "AWS::Lambda::LayerVersion", "Properties": {"Content": {"S3Key": "layer.zip"}}},
            "WebhookFn": {
                "Type": "AWS::Lambda::Function",
                "Properties": {
                    "Code": {"S3Key": "fn.zip"},
                    "Handler": "handler.handler",
                    "Layers": [{"Ref": "Layer"}],
                    "MemorySize": 1024,
                    "Timeout": 60,
                    "Environment": {"Variables": {"TABLE": {"Ref": "Table"}}},
                    "LoggingConfig": {"LogGroup": {"Ref": "Logs"}},
                },
            },
            "Machine": {
                "Type": "AWS::StepFunctions::StateMachine",
                "Properties": {
                    "DefinitionS3Location": {"Bucket": "b", "Key": "def.json"},
                    "DefinitionSubstitutions": {"Fn": {"Fn::GetAtt": ["WebhookFn", "Arn"]}},
                },
            },
        }
    }
    (out / "MemoStack.template.json").write_text(json.dumps(template))
    return out


def test_each_function_is_its_uploaded_directory_with_its_layers_and_configuration(tmp_path: Path) -> None:
    assembly = load_assembly(_assembly(tmp_path), "MemoStack", tmp_path / "functions")
    (function,) = assembly.functions
    assert function.name == "webhook" and function.asset == assembly.directory / "asset.fn"
    assert function.layers == ("Layer",) and assembly.layers["Layer"] == assembly.directory / "asset.layer"
    assert (function.memory_mb, function.timeout_seconds, function.handler) == (1024, 60, "handler.handler")
    assert function.environment == {"TABLE": {"Ref": "Table"}} and function.log_group == {"Ref": "Logs"}
    assert assembly.function("webhook") is function
    with pytest.raises(AssemblyError, match="functions/review"):
        assembly.function("review")


def test_the_state_machines_definition_is_its_uploaded_file(tmp_path: Path) -> None:
    assembly = load_assembly(_assembly(tmp_path), "MemoStack", tmp_path / "functions")
    text, substitutions = state_machine_definition(assembly, "Machine")
    assert text == '{"StartAt": "${Fn}"}' and substitutions == {"Fn": {"Fn::GetAtt": ["WebhookFn", "Arn"]}}


def test_an_asset_whose_handler_is_no_functions_is_refused(tmp_path: Path) -> None:
    with pytest.raises(AssemblyError, match=r"none of .*handler.py"):
        load_assembly(_assembly(tmp_path, handler="# edited\n"), "MemoStack", tmp_path / "functions")


def test_an_asset_missing_from_the_assembly_is_refused(tmp_path: Path) -> None:
    out = _assembly(tmp_path)
    (out / "asset.layer" / "python").rmdir()
    (out / "asset.layer").rmdir()
    with pytest.raises(AssemblyError, match=r"Layer: the asset layer.zip is not in the assembly"):
        load_assembly(out, "MemoStack", tmp_path / "functions")


def test_function_name_matches_the_handler_byte_for_byte(tmp_path: Path) -> None:
    (tmp_path / "functions" / "a").mkdir(parents=True)
    (tmp_path / "functions" / "a" / "handler.py").write_text("A\n")
    (tmp_path / "asset").mkdir()
    (tmp_path / "asset" / "handler.py").write_text("A\n")
    assert function_name(tmp_path / "asset", tmp_path / "functions") == "a"
