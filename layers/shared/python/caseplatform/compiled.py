"""Compiled JSON Schema checks: a schema turned once into the source of one Python function (straight
`if` statements, compiled by Python) that answers "is this instance valid?" far faster than walking
the schema with `jsonschema` on every call.

Only the keywords whose draft 2020-12 semantics are reproduced exactly here are compiled (type, enum
of strings/null, required, properties, additionalProperties, items without prefixItems, min/max
length and items, pattern, the numeric bounds) plus the annotations that never fail (title,
description, $schema, $comment, default, examples, `x-*`). A schema using anything else compiles to
None and is validated with `jsonschema` as before. A compiled check only says valid or not: an
invalid instance is validated again with `jsonschema`, which produces the error details, so callers
see exactly the same errors either way.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

_ANNOTATIONS = frozenset({"title", "description", "$schema", "$comment", "default", "examples"})
_TYPE_TESTS = {
    "string": "isinstance({v}, str)",
    "object": "isinstance({v}, dict)",
    "array": "isinstance({v}, list)",
    "boolean": "isinstance({v}, bool)",
    "null": "{v} is None",
    "integer": "((isinstance({v}, int) and not isinstance({v}, bool))"
    " or (isinstance({v}, float) and {v}.is_integer()))",
    "number": "(isinstance({v}, Number) and not isinstance({v}, bool))",
}
_BOUNDS = {"minimum": "<", "maximum": ">", "exclusiveMinimum": "<=", "exclusiveMaximum": ">="}
# The keywords compiled here (annotations and `x-` extensions are ignored).
_KEYWORDS = (
    "type",
    "enum",
    "required",
    "properties",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    *_BOUNDS,
)


class _Unsupported(Exception):
    """The schema uses a keyword this module does not compile."""


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.constants: dict[str, Any] = {"Number": numbers.Number}
        self._names = 0

    def name(self, prefix: str) -> str:
        self._names += 1
        return f"{prefix}{self._names}"

    def constant(self, value: Any) -> str:
        name = self.name("c")
        self.constants[name] = value
        return name

    def line(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)


def compile_check(schema: Any) -> Check | None:
    """The validity check of `schema` (a draft 2020-12 document already known to be a valid schema),
    or None when it uses a keyword that is not compiled here."""
    writer = _Writer()
    try:
        _emit(writer, schema, "v", 1)
    except _Unsupported:
        return None
    source = "def check(v):\n" + "\n".join([*writer.lines, "    return True"]) + "\n"
    namespace = dict(writer.constants)
    exec(compile(source, "<compiled json schema>", "exec"), namespace)  # noqa: S102 - source generated from a validated schema, constants passed by name
    check: Check = namespace["check"]
    return check


def _emit(w: _Writer, schema: Any, v: str, depth: int) -> None:
    """Lines that `return False` when the value named `v` does not satisfy `schema`."""
    if schema is True:
        return
    if schema is False:
        w.line(depth, "return False")
        return
    if not isinstance(schema, dict):
        raise _Unsupported
    _check_compilable(schema)
    if "type" in schema:
        names = [schema["type"]] if isinstance(schema["type"], str) else list(schema["type"])
        if not names or any(name not in _TYPE_TESTS for name in names):
            raise _Unsupported
        w.line(depth, f"if not ({' or '.join(_TYPE_TESTS[n].format(v=v) for n in names)}):")
        w.line(depth + 1, "return False")
    if "enum" in schema:
        # jsonschema compares with `equal` (no bool/int confusion); for string and null members
        # that is plain equality, so only those are compiled.
        members = tuple(schema["enum"])
        if not all(member is None or isinstance(member, str) for member in members):
            raise _Unsupported
        w.line(depth, f"if not any({v} == m for m in {w.constant(members)}):")
        w.line(depth + 1, "return False")
    _emit_object(w, schema, v, depth)
    _emit_array(w, schema, v, depth)
    _emit_string(w, schema, v, depth)
    _emit_bounds(w, schema, v, depth)


def _check_compilable(schema: dict[str, Any]) -> None:
    """_Unsupported when the schema uses a keyword (other than annotations and `x-` extensions)
    that is not compiled here."""
    unknown = [k for k in schema if k not in _ANNOTATIONS and not k.startswith("x-") and k not in _KEYWORDS]
    if unknown or "patternProperties" in schema or "prefixItems" in schema:
        raise _Unsupported


def _emit_string(w: _Writer, schema: dict[str, Any], v: str, depth: int) -> None:
    if not any(k in schema for k in ("minLength", "maxLength", "pattern")):
        return
    w.line(depth, f"if isinstance({v}, str):")
    if "minLength" in schema:
        w.line(depth + 1, f"if len({v}) < {int(schema['minLength'])}:")
        w.line(depth + 2, "return False")
    if "maxLength" in schema:
        w.line(depth + 1, f"if len({v}) > {int(schema['maxLength'])}:")
        w.line(depth + 2, "return False")
    if "pattern" in schema:
        search = w.constant(re.compile(schema["pattern"]).search)
        w.line(depth + 1, f"if {search}({v}) is None:")
        w.line(depth + 2, "return False")


def _emit_bounds(w: _Writer, schema: dict[str, Any], v: str, depth: int) -> None:
    bounds = [k for k in _BOUNDS if k in schema]
    if not bounds:
        return
    w.line(depth, f"if {_TYPE_TESTS['number'].format(v=v)}:")
    for keyword in bounds:
        bound = schema[keyword]
        if isinstance(bound, bool) or not isinstance(bound, int | float):
            raise _Unsupported
        w.line(depth + 1, f"if {v} {_BOUNDS[keyword]} {w.constant(bound)}:")
        w.line(depth + 2, "return False")


def _emit_object(w: _Writer, schema: dict[str, Any], v: str, depth: int) -> None:
    if not any(k in schema for k in ("required", "properties", "additionalProperties")):
        return
    w.line(depth, f"if isinstance({v}, dict):")
    inner = depth + 1
    w.line(inner, "pass")
    for name in schema.get("required", []):
        w.line(inner, f"if {w.constant(name)} not in {v}:")
        w.line(inner + 1, "return False")
    properties = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    if extra is not True:
        known = w.constant(frozenset(properties))
        item = w.name("v")
        w.line(inner, f"for k, {item} in {v}.items():")
        w.line(inner + 1, f"if k not in {known}:")
        _emit(w, extra, item, inner + 2)
    for name, sub in properties.items():
        key = w.constant(name)
        item = w.name("v")
        w.line(inner, f"if {key} in {v}:")
        w.line(inner + 1, f"{item} = {v}[{key}]")
        _emit(w, sub, item, inner + 1)


def _emit_array(w: _Writer, schema: dict[str, Any], v: str, depth: int) -> None:
    if not any(k in schema for k in ("items", "minItems", "maxItems")):
        return
    w.line(depth, f"if isinstance({v}, list):")
    w.line(depth + 1, "pass")
    if "minItems" in schema:
        w.line(depth + 1, f"if len({v}) < {int(schema['minItems'])}:")
        w.line(depth + 2, "return False")
    if "maxItems" in schema:
        w.line(depth + 1, f"if len({v}) > {int(schema['maxItems'])}:")
        w.line(depth + 2, "return False")
    if "items" in schema and schema["items"] is not True:
        item = w.name("v")
        w.line(depth + 1, f"for {item} in {v}:")
        _emit(w, schema["items"], item, depth + 2)
