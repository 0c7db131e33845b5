"""What an operator may change in a Memo step's case: narrow it, never broaden it.

The `memo_operation` adapter's edit check (`caseplatform.ports.EditCheck`, installed by the review
Lambda's runtime), run when the decision is recorded: an edit the check refuses is answered
EDIT_REFUSED (HTTP 422, an MCP error with that code) with one `{path, message}` per problem, and
nothing is recorded, so nothing runs. An edit may:
- drop some of the items the step acts on: each list of ids or item texts (`ITEM_LISTS`) may keep
  a part of the submitted one (each entry at most as often as submitted), never an entry of its
  own, and never none (to run nothing, reject); a list the step did not pin (null: "all of them")
  stays null;
- nothing at all when the case's payload was redacted at submission (contacts masked, `HITL_REDACT`)
  or since: the operator sees the masks, not what the user said, and an edit would run them;
and nothing else: the case's other fields, and every other argument, stay as submitted; no
argument is added or dropped. What remains must still be valid for the action's args model
(`memo.capabilities.dispatch.ARGS_MODELS`), as the executor will read it. So "add eggs" cannot
become forty items with a link among them, and an unknown argument is refused at the decision
instead of failing the step when it runs.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import ValidationError

from caseplatform.redaction import MASKS
from memo.capabilities.dispatch import ARGS_MODELS

#: The args that list what a step acts on: the items entity resolution pinned, the words of a list
#: add, the words that matched nothing (which may only be dropped, and may end empty).
ITEM_LISTS = ("reminderIds", "noteIds", "itemIds", "items", "notFound")
_MAY_END_EMPTY = frozenset({"notFound"})

Problem = dict[str, str]


def _problem(path: str, message: str) -> Problem:
    return {"path": path, "message": message}


def check_edit(original: dict[str, Any], edited: dict[str, Any]) -> list[Problem]:
    """The problems of an operator's edit of a `memo_operation` payload; none: it only narrows."""
    problems = [
        _problem(f"$.payload.{key}", "only the step's args may be edited")
        for key in sorted(set(original) | set(edited))
        if key != "args" and original.get(key) != edited.get(key)
    ]
    before, after = original.get("args"), edited.get("args")
    if not isinstance(after, dict) or not isinstance(before, dict):
        return [*problems, _problem("$.payload.args", "the step's args must stay an object")]
    masked = _masked(before)
    if masked:
        message = (
            "the step's args were redacted when the case was stored: an edit would run the masks, "
            "not what the user said; approve the step as submitted or reject it"
        )
        return [*problems, *(_problem(path, message) for path in masked)]
    problems.extend(_args_problems(before, after))
    key = (str(original.get("capability")), str(original.get("action")))
    model = ARGS_MODELS.get(key)
    if model is None:
        return [*problems, _problem("$.payload.action", f"Memo has no action {key[0]}/{key[1]} to run")]
    if not problems:
        try:
            model.model_validate(after)
        except ValidationError as exc:
            problems.extend(_model_problems(exc))
    return problems


def _args_problems(before: dict[str, Any], after: dict[str, Any]) -> list[Problem]:
    problems = [
        _problem(f"$.payload.args.{name}", "an edit may not add an argument, only narrow the step")
        for name in sorted(set(after) - set(before))
    ]
    problems += [
        _problem(f"$.payload.args.{name}", "an edit may not drop an argument (it could widen the step)")
        for name in sorted(set(before) - set(after))
    ]
    for name in sorted(set(before) & set(after)):
        path = f"$.payload.args.{name}"
        if name in ITEM_LISTS:
            problems.extend(_narrowed(path, name, before[name], after[name]))
        elif before[name] != after[name]:
            problems.append(_problem(path, "only the items a step acts on may be edited, by dropping some"))
    return problems


def _masked(value: Any, path: str = "$.payload.args") -> list[str]:
    """Where the submitted args hold what redaction put there instead of the user's words."""
    if isinstance(value, str):
        return [path] if any(mask in value for mask in MASKS) else []
    if isinstance(value, dict):
        return [found for key, item in value.items() for found in _masked(item, f"{path}.{key}")]
    if isinstance(value, list):
        return [found for i, item in enumerate(value) for found in _masked(item, f"{path}[{i}]")]
    return []


def _narrowed(path: str, name: str, before: Any, after: Any) -> list[Problem]:
    """A list of what the step acts on, edited: a part of the submitted one."""
    if before is None or after is None:
        if before is after:
            return []
        return [_problem(path, "a step that acts on every item cannot be pinned to some, nor the reverse")]
    if not isinstance(after, list) or not isinstance(before, list):
        return [_problem(path, "must stay a list")]
    if not all(isinstance(entry, str) for entry in after):
        return [_problem(path, "must stay a list of strings")]
    added = Counter(after) - Counter(entry for entry in before if isinstance(entry, str))
    if added:
        return [
            _problem(path, f"{sum(added.values())} entries the step did not have; an edit may only drop some")
        ]
    if not after and name not in _MAY_END_EMPTY:
        return [_problem(path, "an edit may not drop every item; reject the case to run nothing")]
    return []


def _model_problems(exc: ValidationError) -> list[Problem]:
    return [
        _problem(
            "$.payload.args" + "".join(f".{part}" for part in error["loc"]),
            str(error["msg"])[:300],
        )
        for error in exc.errors()
    ]
