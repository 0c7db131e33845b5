"""Adapter schema evolution: which differences between two versions of an adapter's payload schema
are breaking, whether the newer version's upcaster covers them or its declared migration accepts
them, and reading a payload of an older version as a newer one.

A change from version P to version N is breaking when a payload valid for P may fail N. Compared
(fields named by dotted path from the payload's root, `$` being the root itself):
    required_added    a name in N's `required` that P did not require
    field_removed     a name in P's `properties` that N's `properties` no longer lists
    type_changed      a property's JSON types in N do not include all of P's (from `type`, or the
                      values of `enum` / `const`; `integer` is within `number`)
    values_narrowed   N restricts a property to `enum` / `const` values P's values are not all within
    not_comparable    a property (or the root) that differs and uses a keyword not analysed here
                      (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, ...)
Nested objects are compared property by property (`evidence.kind`). Not compared: bounds and formats
(`minLength`, `maxLength`, `pattern`, `format`, `minimum`, `maximum`, `multipleOf`, `minItems`,
`maxItems`, `uniqueItems`, `items`, ...), and properties a version does not name: an older payload is
taken to carry only the properties its version names, so adding an optional property, or forbidding
other properties, is compatible. An older payload that a tightened bound (or a forbidden extra
property) refuses is reported when it is read (`payload_problems`) and cannot be approved as it is.

N's upcaster (`x-hitl.upcast`) covers a change when a rule names its field: required_added by a
default for it, or a rename onto it from a field P required; field_removed by dropping or renaming
it; type_changed by converting it to a type N allows, from each of P's types N does not allow (a
string converts to a number, an integer or a boolean only when it reads as one: one that does not is
left as it is and reported when read). A default must be valid for N's field. A rename moves the
value: the old field is compared with the new one as if it had that name. values_narrowed and
not_comparable have no rule: only a declared migration accepts them. A rule that would itself make
an older payload invalid is a change too, `rule_invalid`: a default N's field refuses, a conversion
to a type N's field does not allow (or into a field N restricts to listed values), dropping or
renaming away a field N requires (with no default for it), writing a field N does not name where N
forbids other properties. N's declared migration (`x-hitl.migration`: a `plan` and
the `accepts` list of change ids, `<kind>:<path>`) accepts the changes it lists; payloads older
than a version that declares a migration are not upcast across it (they read as the last version
before it).
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from jsonschema import Draft202012Validator

ChangeKind = Literal[
    "required_added", "field_removed", "type_changed", "values_narrowed", "not_comparable", "rule_invalid"
]
ROOT = "$"
JSON_TYPES = frozenset({"null", "boolean", "object", "array", "number", "integer", "string"})
# Keywords whose effect on which payloads are valid is not analysed: a difference where one is used
# is reported as not comparable.
NOT_ANALYSED = (
    "$ref",
    "$dynamicRef",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "patternProperties",
)
CONVERSIONS = ("string", "number", "integer", "boolean", "array")
# The JSON types `convert` turns into each target (a string into a number, an integer or a boolean
# only when it reads as one, a number into an integer only when it is whole, an integer into a
# boolean only when it is 0 or 1).
CONVERTS = {
    "string": frozenset({"string", "boolean", "integer", "number"}),
    "number": frozenset({"number", "integer", "string"}),
    "integer": frozenset({"integer", "number", "string"}),
    "boolean": frozenset({"boolean", "string", "integer"}),
    "array": JSON_TYPES - {"null"},
}


@dataclass(frozen=True)
class Change:
    kind: ChangeKind
    path: str
    detail: str

    @property
    def id(self) -> str:
        return f"{self.kind}:{self.path}"

    def to_dict(self) -> dict[str, str]:
        return {"change": self.id, "kind": self.kind, "path": self.path, "message": self.message}

    @property
    def message(self) -> str:
        said = _SAID[self.kind].format(path=self.path)
        return f"{said} ({self.detail})" if self.detail else said


_SAID: dict[ChangeKind, str] = {
    "required_added": "field {path} is now required",
    "field_removed": "field {path} was removed",
    "type_changed": "field {path} changed type",
    "values_narrowed": "field {path} allows fewer values",
    "not_comparable": "{path} changed in a way that is not compared",
    "rule_invalid": "the upcast rule on {path} makes older payloads invalid",
}


# ------------------------------------------------------------------ breaking changes
def breaking_changes(old: Any, new: Any) -> list[Change]:
    """The breaking changes from payload schema `old` to `new` (see the module's definition)."""
    return _compare_objects(old, new, "")


def _compare_objects(old: Any, new: Any, prefix: str) -> list[Change]:
    where = prefix or ROOT
    if old == new:
        return []
    if not isinstance(old, dict) or not isinstance(new, dict) or _unanalysed(old) or _unanalysed(new):
        return [Change("not_comparable", where, _unanalysed_detail(old, new))]
    old_props, new_props = _properties(old), _properties(new)
    changes = [
        Change("required_added", _join(prefix, name), "") for name in sorted(_required(new) - _required(old))
    ]
    changes += [
        Change("field_removed", _join(prefix, name), "") for name in sorted(old_props.keys() - new_props)
    ]
    for name in sorted(old_props.keys() & new_props.keys()):
        changes += _compare_property(old_props[name], new_props[name], _join(prefix, name))
    return changes


def _compare_property(old: Any, new: Any, path: str) -> list[Change]:
    if old == new:
        return []
    if _unanalysed(old) or _unanalysed(new):
        return [Change("not_comparable", path, _unanalysed_detail(old, new))]
    old_types, new_types = types_of(old), types_of(new)
    if not old_types <= new_types:
        return [Change("type_changed", path, f"{_names(old_types)} -> {_names(new_types)}")]
    changes = []
    old_values, new_values = _values(old), _values(new)
    if new_values is not None and (old_values is None or not old_values <= new_values):
        changes.append(Change("values_narrowed", path, f"now one of {sorted(new_values)}"))
    if "object" in old_types and isinstance(old, dict) and isinstance(new, dict):
        changes += _compare_objects(old, new, path)
    return changes


def types_of(schema: Any) -> frozenset[str]:
    """The JSON types a (sub)schema admits, from `const`, `enum` or `type` (all types when none)."""
    if schema is False:
        return frozenset()
    if not isinstance(schema, dict):
        return JSON_TYPES
    if "const" in schema:
        found = {_type_of(schema["const"])}
    elif isinstance(schema.get("enum"), list):
        found = {_type_of(value) for value in schema["enum"]}
    elif "type" in schema:
        named = schema["type"]
        found = set(named) if isinstance(named, list) else {named}
    else:
        return JSON_TYPES
    if "number" in found:
        found.add("integer")
    return frozenset(found)


def _type_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _values(schema: Any) -> set[str] | None:
    if not isinstance(schema, dict):
        return None
    if "const" in schema:
        return {_canonical(schema["const"])}
    if isinstance(schema.get("enum"), list):
        return {_canonical(value) for value in schema["enum"]}
    return None


def _unanalysed(schema: Any) -> bool:
    return isinstance(schema, dict) and any(keyword in schema for keyword in NOT_ANALYSED)


def _unanalysed_detail(old: Any, new: Any) -> str:
    used = sorted({k for s in (old, new) if isinstance(s, dict) for k in NOT_ANALYSED if k in s})
    return f"uses {', '.join(used)}" if used else "not an object schema"


def _properties(schema: dict[str, Any]) -> dict[str, Any]:
    found = schema.get("properties")
    return found if isinstance(found, dict) else {}


def _required(schema: Any) -> set[str]:
    found = schema.get("required") if isinstance(schema, dict) else None
    return {name for name in found if isinstance(name, str)} if isinstance(found, list) else set()


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _names(found: frozenset[str]) -> str:
    shown = sorted(found - {"integer"} if "number" in found else found)
    return "|".join(shown) if found != JSON_TYPES else "any"


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# ------------------------------------------------------------------ coverage
def unaccepted_changes(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """The breaking changes from `old` to `new` that `new`'s upcaster does not cover and its declared
    migration does not accept (empty: `new` may be registered after `old`)."""
    rules = _rules(new)
    hitl = new.get("x-hitl") or {}
    accepts = set((hitl.get("migration") or {}).get("accepts") or [])
    changes = breaking_changes(old, new) + _renamed_types(old, new, rules)
    changes = [c for c in changes if not _covered(c, old, new, rules)] + _rule_problems(new, rules)
    return [c for c in changes if c.id not in accepts]


def _covered(change: Change, old: dict[str, Any], new: dict[str, Any], rules: Mapping[str, Any]) -> bool:
    rename: dict[str, str] = rules.get("rename") or {}
    if change.kind == "required_added":
        parent = change.path.rpartition(".")[0]
        required_before = _required(_subschema(old, parent))
        defaults = rules.get("defaults") or {}
        if change.path in defaults:
            return True  # a default N refuses is a `rule_invalid` of its own
        return any(
            target == change.path
            and source.rpartition(".")[0] == parent
            and source.rpartition(".")[2] in required_before
            for source, target in rename.items()
        )
    if change.kind == "field_removed":
        return change.path in (rules.get("drop") or []) or change.path in rename
    if change.kind == "type_changed":
        wanted = (rules.get("convert") or {}).get(change.path)
        source = next((s for s, t in rename.items() if t == change.path), change.path)
        before, after = types_of(_subschema(old, source)), types_of(_subschema(new, change.path))
        # A conversion to a type N does not allow is a `rule_invalid` of its own.
        return wanted is not None and all(t in CONVERTS[wanted] or t in after for t in before)
    return False


def _renamed_types(old: dict[str, Any], new: dict[str, Any], rules: Mapping[str, Any]) -> list[Change]:
    """A rename moves a value: the old field is compared with the new one as if it had that name."""
    changes = []
    for source, target in (rules.get("rename") or {}).items():
        before, after = _subschema(old, source), _subschema(new, target)
        if before is not None and after is not None:
            found = _compare_property(before, after, target)
            changes += [Change(c.kind, c.path, f"renamed from {source}: {c.detail}") for c in found]
    return changes


def _rule_problems(new: dict[str, Any], rules: Mapping[str, Any]) -> list[Change]:
    """The upcaster's rules that would make an older payload invalid for `new` by themselves."""
    rename: dict[str, str] = rules.get("rename") or {}
    defaults: dict[str, Any] = rules.get("defaults") or {}
    found = []
    for path, value in defaults.items():
        if not _valid(_subschema(new, path), value):
            found.append(Change("rule_invalid", path, f"the default {_canonical(value)} is not valid for it"))
    for path, wanted in (rules.get("convert") or {}).items():
        target = _subschema(new, path)
        if wanted not in types_of(target) or _values(target) is not None:
            found.append(Change("rule_invalid", path, f"converts to {wanted}, which it does not allow"))
    # Drops run after renames (a renamed value dropped is gone), defaults after both.
    gone = [*(rules.get("drop") or []), *(p for p in rename if p not in rename.values())]
    for path in gone:
        parent, _, name = path.rpartition(".")
        if name in _required(_subschema(new, parent)) and path not in defaults:
            found.append(Change("rule_invalid", path, "dropped or renamed away, but required"))
    for path in [*rename.values(), *defaults]:
        parent, _, name = path.rpartition(".")
        holder = _subschema(new, parent)
        if (
            isinstance(holder, dict)
            and holder.get("additionalProperties") is False
            and name not in _properties(holder)
        ):
            found.append(Change("rule_invalid", path, "written, but not a property it allows"))
    return found


def _valid(schema: Any, value: Any) -> bool:
    return schema is None or bool(Draft202012Validator(schema).is_valid(value))


def _subschema(schema: Any, path: str) -> Any:
    """The subschema at a dotted path of properties ('' is the schema itself); None when absent."""
    for name in filter(None, path.split(".")):
        if not isinstance(schema, dict):
            return None
        schema = _properties(schema).get(name)
    return schema


def _rules(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    return ((schema.get("x-hitl") or {}).get("upcast")) or {}


# ------------------------------------------------------------------ reading older payloads
def read_as_version(from_version: int, documents: Mapping[int, Mapping[str, Any]], to_version: int) -> int:
    """The version a payload of `from_version` reads as when `to_version` is active: the last
    registered version up to `to_version` reached without crossing a version that declares a
    migration (`from_version` itself when the next one declares one)."""
    reached = from_version
    for version in sorted(v for v in documents if from_version < v <= to_version):
        if (documents[version].get("x-hitl") or {}).get("migration"):
            break
        reached = version
    return reached


def upcast(
    payload: dict[str, Any], from_version: int, schemas: Mapping[int, Mapping[str, Any]], to_version: int
) -> dict[str, Any]:
    """Read a payload written under `from_version` as `to_version`, one version step at a time: each
    version's rules in the order rename, drop, convert, defaults (each naming a dotted path). The
    stored payload is never changed."""
    result = copy.deepcopy(payload)
    for version in range(from_version + 1, to_version + 1):
        rules = _rules(schemas.get(version, {}))
        for old, new in (rules.get("rename") or {}).items():
            _move(result, old, new)
        for name in rules.get("drop") or []:
            parent, key = _parent(result, name)
            if parent is not None:
                parent.pop(key, None)
        for name, to in (rules.get("convert") or {}).items():
            parent, key = _parent(result, name)
            if parent is not None and key in parent:
                parent[key] = convert(parent[key], to)
        for name, value in (rules.get("defaults") or {}).items():
            parent, key = _parent(result, name)
            if parent is not None:
                parent.setdefault(key, copy.deepcopy(value))
    return result


def _parent(payload: dict[str, Any], path: str) -> tuple[dict[str, Any] | None, str]:
    *heads, last = path.split(".")
    node: Any = payload
    for name in heads:
        node = node.get(name) if isinstance(node, dict) else None
    return (node if isinstance(node, dict) else None), last


def _move(payload: dict[str, Any], source: str, target: str) -> None:
    """Move the value at `source` to `target` when both parents exist (else it stays where it is)."""
    old_parent, old_key = _parent(payload, source)
    new_parent, new_key = _parent(payload, target)
    if old_parent is not None and new_parent is not None and old_key in old_parent:
        new_parent[new_key] = old_parent.pop(old_key)


def convert(value: Any, to: str) -> Any:
    """`value` as type `to` (one of CONVERSIONS) when it converts without loss; else unchanged (the
    payload then reports the problem when it is validated)."""
    if to == "array":
        return value if isinstance(value, list) or value is None else [value]
    if to == "string":
        if isinstance(value, bool):
            return "true" if value else "false"
        return json.dumps(value) if isinstance(value, int | float) else value
    if to == "boolean":
        return _boolean(value)
    if isinstance(value, str) and to in ("number", "integer"):
        return _number(value, integer=to == "integer")
    if to == "integer" and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _boolean(value: Any) -> Any:
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return bool(value)
    return value


def _number(text: str, *, integer: bool) -> Any:
    try:
        number = float(text.strip())
    except ValueError:
        return text
    if not math.isfinite(number):
        return text
    if number.is_integer() and (integer or "." not in text):
        return int(number)
    return text if integer else number


def registered_neighbours(versions: Iterable[int], schema_version: int) -> tuple[int | None, int | None]:
    """The registered versions just below and just above `schema_version`."""
    below = [v for v in versions if v < schema_version]
    above = [v for v in versions if v > schema_version]
    return (max(below) if below else None), (min(above) if above else None)
