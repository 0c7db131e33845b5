"""The terminal chat as a person uses it: typed lines through `memo.local.cli.chat` on the local
stack, a second person with `/as`, and each person's replies printed to them only."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from memo.local import cli


def _typed(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> None:
    queue: Iterator[str] = iter(lines)

    def typed(prompt: str = "") -> str:
        try:
            return next(queue)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", typed)


def test_a_second_person_chats_with_as_and_sees_only_their_own_data(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _typed(
        monkeypatch,
        [
            "remind me to call mom tomorrow at 5pm",
            "/as +447700900123 Sam",
            "show my reminders",
            "/as 972501234567",
            "show my reminders",
            "/quit",
        ],
    )
    assert cli.chat(0, "127.0.0.1", "972501234567", "Dana", tmp_path / "state.json") == 0
    out = capsys.readouterr().out
    assert "You are now +447700900123 on WhatsApp" in out
    sam = out.split("You are now +447700900123")[1].split("You are now +972501234567")[0]
    assert "You have no upcoming reminders." in sam and "call mom" not in sam  # none of Dana's
    dana_again = out.split("You are now +972501234567")[1]
    assert "call mom" in dana_again


@pytest.mark.parametrize(
    ("line", "number", "name"),
    [
        ("/as 447700900123 Sam", "447700900123", "Sam"),
        ("/as +972501234567", "972501234567", None),
        ("/as   12345678   Dana Cohen", "12345678", "Dana Cohen"),
    ],
)
def test_the_as_command_reads_a_number_and_an_optional_name(line: str, number: str, name: str | None) -> None:
    match = cli.AS_COMMAND.match(line)
    assert match is not None and (match.group(1), match.group(2)) == (number, name)


@pytest.mark.parametrize("line", ["/as", "/as sam", "/as 1234567", "/as 1234567890123456", "/assam 12345678"])
def test_anything_else_is_not_the_as_command(line: str) -> None:
    assert cli.AS_COMMAND.match(line) is None


def test_the_cases_memo_sent_to_an_operator_are_read_from_the_saved_local_state(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A chat whose delete waits for an operator, then `cases queue` and `cases show` on its saved
    state: the case is there (it lives in the local stack's DynamoDB table, not in a SQLite file)."""
    monkeypatch.setenv("MEMO_REVIEW_POLICY", '{"rules": [{"capability": "reminders", "action": "delete"}]}')
    state = tmp_path / "state.json"
    _typed(
        monkeypatch, ["remind me to call mom tomorrow at 5pm", "delete the call mom reminder", "1", "/quit"]
    )
    assert cli.chat(0, "127.0.0.1", "972501234567", "Dana", state) == 0
    assert "needs a quick check by one of our operators" in capsys.readouterr().out
    saved = state.read_bytes()

    assert cli.main(["cases", "--state", str(state), "queue"]) == 0
    queue = json.loads(capsys.readouterr().out)
    (case,) = queue["items"]
    assert (case["adapter_id"], case["current_state"]) == ("memo_operation", "pending")
    assert cli.main(["cases", "--state", str(state), "show", case["case_id"]]) == 0
    assert json.loads(capsys.readouterr().out)["case"]["case_id"] == case["case_id"]
    assert state.read_bytes() == saved  # a read leaves the saved state as it was


def test_cases_without_a_saved_state_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["cases", "--state", str(tmp_path / "none.json"), "queue"]) == 2
    assert "No local state at" in capsys.readouterr().err
    assert not (tmp_path / "none.json").exists()
