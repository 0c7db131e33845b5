"""The compiled schema checks answer exactly as jsonschema does (valid or not) on every schema the
platform validates with, and the errors callers see still come from jsonschema."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from caseplatform import schemas
from caseplatform.compiled import compile_check
from caseplatform.errors import PayloadInvalid
from caseplatform.validation import ACTION_SCHEMA, SUBMIT_SCHEMA

ADAPTERS = schemas.default_adapter_schemas()
SCHEMAS: dict[str, dict[str, Any]] = {
    "submit envelope": SUBMIT_SCHEMA,
    "action envelope": ACTION_SCHEMA,
    **{f"adapter {name}": schema for name, schema in ADAPTERS.items()},
    "numbers and types": {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 1, "maximum": 5},
            "x": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 10},
            "t": {"type": ["string", "null"], "minLength": 2},
            "b": {"type": "boolean"},
            "e": {"enum": ["a", None]},
            "extra": {"type": "object", "additionalProperties": {"type": "string", "pattern": "^[a-z]+$"}},
            "never": False,
            "any": True,
        },
        "required": ["n"],
    },
}

# JSON values with the shapes these schemas care about (strings that match or miss the patterns,
# ints/floats/bools that trip the integer and number rules, nested objects and arrays).
_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 8),
    st.floats(-1, 12, allow_nan=False),
    st.sampled_from([0.0, 1.0, 3.0, 5.0, 10.0]),
    st.sampled_from(["", " ", "a", "ab", "Ab", "x y", "HITL-" + "0" * 36, "lgv_troubleshooting", "f" * 64]),
    st.text(max_size=6),
)
_json = st.recursive(
    _leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.sampled_from(
                ["n", "x", "t", "b", "e", "extra", "never", "any", "name", "role", "id", "kind", "z"]
            ),
            inner,
            max_size=5,
        ),
    ),
    max_leaves=12,
)


def _mutations(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Objects built from the schema's own property names (so the rules are reached), with any
    values, some properties missing and some unknown ones."""
    names = list(schema.get("properties", {})) or ["z"]
    return st.dictionaries(st.sampled_from([*names, "unexpected"]), _json, max_size=len(names) + 1)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_compiled_check_agrees_with_jsonschema(name: str, data: st.DataObject) -> None:
    schema = SCHEMAS[name]
    check = compile_check(schema)
    assert check is not None, f"{name} should compile"
    instance = data.draw(st.one_of(_mutations(schema), _json))
    assert check(instance) == Draft202012Validator(schema).is_valid(instance)


def test_the_default_adapters_payloads_pass_and_fail_as_before() -> None:
    check = compile_check(ADAPTERS["lgv_troubleshooting"])
    assert check is not None
    good = {
        "symptom": "LGV stops before dock 3",
        "site": "Plant Haifa",
        "lgv_id": "LGV-07",
        "services_checked": ["nav-service"],
        "evidence": ["nav-service restarted 3 times"],
        "proposed_next_action": "Reload the reflector map",
    }
    assert check(good)
    assert not check({**good, "evidence": []})  # minItems 1
    assert not check({**good, "services_checked": [""]})  # an item too short
    assert not check({**good, "surprise": 1})  # additionalProperties false
    assert not check({k: v for k, v in good.items() if k != "site"})  # required


@pytest.mark.parametrize(
    ("schema", "refused"),
    [
        ({"type": "object", "oneOf": [{"required": ["a"]}]}, {"b": 1}),
        ({"type": "array", "prefixItems": [{"type": "string"}]}, [1]),
        ({"properties": {"a": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"type": "string"}}}, {"a": 1}),
        ({"uniqueItems": True}, ["x", "x"]),
        ({"enum": [1, True]}, 0),
        ({"const": "a"}, "b"),
        ({"type": "object", "patternProperties": {"^a": {}}, "additionalProperties": False}, {"b": 1}),
    ],
)
def test_a_schema_with_keywords_not_compiled_is_left_to_jsonschema(
    schema: dict[str, Any], refused: Any
) -> None:
    assert compile_check(schema) is None
    assert not Draft202012Validator(schema).is_valid(refused)
    with pytest.raises(PayloadInvalid):
        schemas.PayloadValidator(schema).validate(refused)


def test_a_payload_validator_is_built_once_per_schema_version(tmp_path: Any) -> None:
    from caseplatform.service import CaseService
    from caseplatform.stores.sqlite import SqliteCaseStore

    service = CaseService(SqliteCaseStore(tmp_path / "hitl.db"))
    service.ensure_default_adapters()
    first = service.store.active_schema("lgv_troubleshooting")
    again = service.store.active_schema("lgv_troubleshooting")
    assert first is not None and again is not None and first.schema is not again.schema
    assert service.registry.validator(first) is service.registry.validator(again)
    # Another document under another version gets its own validator.
    document = json.loads(json.dumps(first.schema))
    document["properties"]["site"]["maxLength"] = 5
    service.register_adapter_schema("lgv_troubleshooting", 2, document)
    service.activate_adapter_schema("lgv_troubleshooting", 2)
    second = service.store.active_schema("lgv_troubleshooting")
    assert second is not None
    assert service.registry.validator(second) is not service.registry.validator(first)
    with pytest.raises(PayloadInvalid) as refused:
        service.registry.validator(second).validate({**_lgv_payload(), "site": "Plant Haifa"})
    assert refused.value.details == [{"path": "$.payload.site", "message": "'Plant Haifa' is too long"}]


def _lgv_payload() -> dict[str, Any]:
    return {
        "symptom": "LGV stops before dock 3",
        "site": "Plant Haifa",
        "lgv_id": "LGV-07",
        "services_checked": ["nav-service"],
        "evidence": ["nav-service restarted 3 times"],
        "proposed_next_action": "Reload the reflector map",
    }
