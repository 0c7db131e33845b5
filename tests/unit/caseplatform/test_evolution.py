"""Schema evolution, pure: which changes between two versions are breaking, which an upcaster covers
or a declared migration accepts, and older payloads read as a newer version. The rule that matters
is checked for a whole space of schema pairs: when nothing is left unaccepted, every payload valid
for the old version reads as a payload valid for the new one."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from caseplatform.evolution import (
    breaking_changes,
    convert,
    read_as_version,
    unaccepted_changes,
    upcast,
)


def _obj(required: list[str] | None = None, closed: bool = False, **properties: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    if closed:
        schema["additionalProperties"] = False
    return schema


def _with(schema: dict[str, Any], **hitl: Any) -> dict[str, Any]:
    return {**schema, "x-hitl": hitl}


STR, INT, NUM, BOOL = {"type": "string"}, {"type": "integer"}, {"type": "number"}, {"type": "boolean"}


@pytest.mark.parametrize(
    ("old", "new", "changes"),
    [
        (_obj(a=STR), _obj(a=STR, b=INT), []),  # an optional property added
        (_obj(a=STR), _obj(["b"], a=STR, b=INT), ["required_added:b"]),
        (_obj(["a"], a=STR), _obj(a=STR), []),  # no longer required
        (_obj(a=STR, b=INT), _obj(a=STR), ["field_removed:b"]),
        (_obj(a=STR), _obj(a=INT), ["type_changed:a"]),
        (_obj(a=INT), _obj(a=NUM), []),  # integer is within number
        (_obj(a=NUM), _obj(a=INT), ["type_changed:a"]),
        (_obj(a=STR), _obj(a={"type": ["string", "null"]}), []),
        (_obj(a={"enum": ["x", "y"]}), _obj(a={"enum": ["x"]}), ["values_narrowed:a"]),
        (_obj(a=STR), _obj(a={"type": "string", "enum": ["x"]}), ["values_narrowed:a"]),
        (_obj(a={"const": 1}), _obj(a={"enum": [1, 2]}), []),
        (_obj(a={"enum": ["x", 1]}), _obj(a=STR), ["type_changed:a"]),
        (_obj(a=STR), _obj(a={"type": "string", "maxLength": 3}), []),  # bounds are not compared
        (_obj(a=STR), _obj(closed=True, a=STR), []),  # extra properties are not compared
        (_obj(o=_obj(x=STR)), _obj(o=_obj(["y"], x=INT, y=STR)), ["required_added:o.y", "type_changed:o.x"]),
        (_obj(a=STR), _obj(a={"anyOf": [STR, INT]}), ["not_comparable:a"]),
        (_obj(a={"$ref": "#/$defs/x"}), _obj(a={"$ref": "#/$defs/x"}), []),  # unchanged
        (_obj(a=STR), {"allOf": [_obj(a=STR)]}, ["not_comparable:$"]),
        (_obj(a=STR), _with(_obj(a=STR), clarification_sla_days=3), []),  # policy only
    ],
)
def test_breaking_changes(old: dict[str, Any], new: dict[str, Any], changes: list[str]) -> None:
    assert sorted(c.id for c in breaking_changes(old, new)) == changes


@pytest.mark.parametrize(
    ("old", "new", "left"),
    [
        (_obj(a=STR), _with(_obj(["b"], a=STR, b=INT), upcast={"defaults": {"b": 0}}), []),
        (
            _obj(a=STR),
            _with(_obj(["b"], a=STR, b=INT), upcast={"defaults": {"b": "zero"}}),
            ["rule_invalid:b"],
        ),
        (_obj(a=STR), _with(_obj(a=STR, b=INT), upcast={"defaults": {"b": "zero"}}), ["rule_invalid:b"]),
        (_obj(["a"], a=STR), _with(_obj(["b"], b=STR), upcast={"rename": {"a": "b"}}), []),
        # a rename from an optional field leaves older payloads without the new required one
        (_obj(a=STR), _with(_obj(["b"], b=STR), upcast={"rename": {"a": "b"}}), ["required_added:b"]),
        (_obj(["a"], a=STR), _with(_obj(["b"], b=INT), upcast={"rename": {"a": "b"}}), ["type_changed:b"]),
        (
            _obj(["a"], a=STR),
            _with(_obj(["b"], b=INT), upcast={"rename": {"a": "b"}, "convert": {"b": "integer"}}),
            [],
        ),
        (_obj(a=STR, b=INT), _with(_obj(a=STR), upcast={"drop": ["b"]}), []),
        (_obj(a=INT), _with(_obj(a=STR), upcast={"convert": {"a": "string"}}), []),
        (_obj(a=INT), _with(_obj(a=STR), upcast={"convert": {"a": "integer"}}), ["rule_invalid:a"]),
        (_obj(a=INT), _with(_obj(a=INT), upcast={"convert": {"a": "string"}}), ["rule_invalid:a"]),
        (_obj(["a"], a=STR), _with(_obj(["a"], a=STR), upcast={"drop": ["a"]}), ["rule_invalid:a"]),
        (_obj(["a"], a=STR), _with(_obj(["a"], a=STR), upcast={"drop": ["a"], "defaults": {"a": "-"}}), []),
        (_obj(a=STR), _with(_obj(closed=True, a=STR), upcast={"defaults": {"b": 1}}), ["rule_invalid:b"]),
        (
            _obj(a={"type": "array"}),
            _with(_obj(a=STR), upcast={"convert": {"a": "string"}}),
            ["type_changed:a"],
        ),
        (_obj(a=STR), _with(_obj(a={"type": "array"}), upcast={"convert": {"a": "array"}}), []),
        (_obj(a=STR), _with(_obj(a={"enum": ["x"]}), upcast={"drop": ["a"]}), ["values_narrowed:a"]),
        (
            _obj(a=STR),
            _with(
                _obj(a={"enum": ["x"]}), migration={"plan": "decided as is", "accepts": ["values_narrowed:a"]}
            ),
            [],
        ),
        (
            _obj(a=STR, b=STR),
            _with(_obj(), migration={"plan": "drained", "accepts": ["field_removed:a"]}),
            ["field_removed:b"],
        ),
        (
            _obj(o=_obj(x=STR)),
            _with(_obj(o=_obj(["y"], x=STR, y=STR)), upcast={"defaults": {"o.y": "?"}}),
            [],
        ),
    ],
)
def test_what_an_upcaster_covers_and_a_migration_accepts(
    old: dict[str, Any], new: dict[str, Any], left: list[str]
) -> None:
    assert sorted(c.id for c in unaccepted_changes(old, new)) == left


def test_a_change_names_its_kind_and_field() -> None:
    (change,) = breaking_changes(_obj(a=STR), _obj(a=INT))
    assert change.to_dict() == {
        "change": "type_changed:a",
        "kind": "type_changed",
        "path": "a",
        "message": "field a changed type (string -> integer)",
    }


def test_upcast_applies_rename_drop_convert_defaults_on_dotted_paths_and_keeps_the_stored_payload() -> None:
    stored = {"lgv_id": "LGV-07", "count": "3", "meta": {"shift": "night", "zone": 4}, "old": 1}
    versions = {
        2: {
            "x-hitl": {
                "upcast": {
                    "rename": {"lgv_id": "vehicle_id", "meta.zone": "meta.area"},
                    "drop": ["old"],
                    "convert": {"count": "integer", "meta.area": "string", "missing": "array"},
                    "defaults": {"meta.crew": 2, "site": "unknown", "nowhere.x": 1},
                }
            }
        }
    }
    assert upcast(stored, 1, versions, 2) == {
        "vehicle_id": "LGV-07",
        "count": 3,
        "meta": {"shift": "night", "area": "4", "crew": 2},
        "site": "unknown",
    }
    assert stored == {"lgv_id": "LGV-07", "count": "3", "meta": {"shift": "night", "zone": 4}, "old": 1}


@pytest.mark.parametrize(
    ("value", "to", "read"),
    [
        (3, "string", "3"),
        (1.5, "string", "1.5"),
        (True, "string", "true"),
        ("x", "array", ["x"]),
        ([1], "array", [1]),
        (None, "array", None),
        ("12", "integer", 12),
        ("12.0", "integer", 12),
        ("1.5", "integer", "1.5"),  # does not convert: left as it is
        ("1.5", "number", 1.5),
        ("7", "number", 7),
        ("nan", "number", "nan"),
        ("lots", "number", "lots"),
        (2.0, "integer", 2),
        ("TRUE", "boolean", True),
        (0, "boolean", False),
        (2, "boolean", 2),
        ({"a": 1}, "string", {"a": 1}),
    ],
)
def test_conversions(value: Any, to: str, read: Any) -> None:
    assert convert(value, to) == read


def test_payloads_read_up_to_the_version_before_a_declared_migration() -> None:
    versions: dict[int, dict[str, Any]] = {
        1: {},
        2: {"x-hitl": {"upcast": {"defaults": {"b": 1}}}},
        3: {"x-hitl": {"migration": {"plan": "p", "accepts": []}}},
        4: {},
    }
    assert read_as_version(1, versions, 4) == 2
    assert read_as_version(2, versions, 4) == 2
    assert read_as_version(3, versions, 4) == 4
    assert read_as_version(1, versions, 2) == 2
    assert read_as_version(1, {1: {}, 3: {}}, 3) == 3  # a version number never registered


# ------------------------------------------------------------------ the rule, for a whole space
NAMES = ("a", "b", "c")
PROPERTY_TYPES: dict[str, dict[str, Any]] = {
    "string": STR,
    "integer": INT,
    "number": NUM,
    "boolean": BOOL,
    "nullable": {"type": ["string", "null"]},
    "enum": {"enum": ["x", "y"]},
    "narrow": {"enum": ["x"]},
    "array": {"type": "array"},
}
SAMPLES: dict[str, list[Any]] = {
    "string": ["", "x", "12"],
    "integer": [0, 7],
    "number": [1.5, 3],
    "boolean": [True, False],
    "nullable": [None, "y"],
    "enum": ["x", "y"],
    "narrow": ["x"],
    "array": [[], ["x", 1]],
}
DEFAULTS = (0, "z", ["z"], None, "x")


@st.composite
def schemas(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, str]]:
    kinds = draw(st.dictionaries(st.sampled_from(NAMES), st.sampled_from(sorted(PROPERTY_TYPES)), max_size=3))
    required = draw(st.lists(st.sampled_from(sorted(kinds) or ["a"]), unique=True)) if kinds else []
    schema = _obj(sorted(set(required) & set(kinds)), closed=draw(st.booleans()))
    schema["properties"] = {name: PROPERTY_TYPES[kind] for name, kind in kinds.items()}
    return schema, kinds


@st.composite
def upcasters(draw: st.DrawFn) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    if draw(st.booleans()):
        source, target = draw(st.sampled_from(NAMES)), draw(st.sampled_from(NAMES))
        if source != target:
            rules["rename"] = {source: target}
    rules["drop"] = draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=2))
    # Only the conversions that always succeed: a string that does not read as a number is left as
    # it is and reported when read, by design.
    rules["convert"] = draw(
        st.dictionaries(st.sampled_from(NAMES), st.sampled_from(["string", "array"]), max_size=2)
    )
    rules["defaults"] = draw(st.dictionaries(st.sampled_from(NAMES), st.sampled_from(DEFAULTS), max_size=2))
    return rules


@st.composite
def evolutions(draw: st.DrawFn) -> tuple[tuple[dict[str, Any], dict[str, str]], dict[str, Any]]:
    """An old schema and a new one made from it, each field kept, retyped, removed or made required,
    new fields added, with rules that address some of the changes (and some that do not)."""
    old, kinds = draw(schemas())
    properties = dict(old["properties"])
    required = set(old.get("required", []))
    rules: dict[str, Any] = {"rename": {}, "drop": [], "convert": {}, "defaults": {}}
    for name in NAMES:
        move = draw(st.sampled_from(["keep", "retype", "remove", "require", "add"]))
        if move == "retype" and name in properties:
            properties[name] = PROPERTY_TYPES[draw(st.sampled_from(sorted(PROPERTY_TYPES)))]
            if draw(st.booleans()):
                rules["convert"][name] = draw(st.sampled_from(["string", "array"]))
        elif move == "remove" and name in properties:
            removed = properties.pop(name)
            required.discard(name)
            target = draw(st.sampled_from([None, *NAMES]))
            if target is not None and target != name and target not in properties:
                rules["rename"][name] = target
                properties[target] = removed
            elif draw(st.booleans()):
                rules["drop"].append(name)
        elif move in ("require", "add"):
            properties.setdefault(name, PROPERTY_TYPES[draw(st.sampled_from(sorted(PROPERTY_TYPES)))])
            required.add(name)
            if draw(st.booleans()):
                rules["defaults"][name] = draw(st.sampled_from(DEFAULTS))
    new = {**old, "properties": properties, "required": sorted(required)}
    return (old, kinds), _with(new, upcast=rules)


def _independent() -> st.SearchStrategy[tuple[tuple[dict[str, Any], dict[str, str]], dict[str, Any]]]:
    return st.tuples(schemas(), schemas(), upcasters()).map(lambda t: (t[0], _with(t[1][0], upcast=t[2])))


@given(pair=st.one_of(evolutions(), _independent()), data=st.data())
@settings(max_examples=400, deadline=None)
def test_nothing_unaccepted_means_every_old_payload_reads_valid_as_the_new_version(
    pair: tuple[tuple[dict[str, Any], dict[str, str]], dict[str, Any]], data: st.DataObject
) -> None:
    (old_schema, old_kinds), new_schema = pair
    if unaccepted_changes(old_schema, new_schema):
        return
    # A payload valid for the old version, carrying only properties it names.
    payload = {}
    for name, kind in old_kinds.items():
        if name in old_schema.get("required", []) or data.draw(st.booleans()):
            payload[name] = data.draw(st.sampled_from(SAMPLES[kind]))
    assert Draft202012Validator(old_schema).is_valid(payload)
    read = upcast(payload, 1, {2: new_schema}, 2)
    errors = [e.message for e in Draft202012Validator(new_schema).iter_errors(read)]
    assert errors == [], (payload, read)
