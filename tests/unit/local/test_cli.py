"""`memo-local`: `reset` deletes the chat's saved state and says so; a command is required."""

from __future__ import annotations

from pathlib import Path

import pytest

from memo.local import cli


def test_reset_deletes_the_saved_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state.json"
    state.write_text("{}")
    monkeypatch.setattr("memo.local.persist.STATE_FILE", state)

    assert cli.main(["reset"]) == 0
    assert not state.exists() and "Deleted" in capsys.readouterr().out
    assert cli.main(["reset"]) == 0
    assert "Nothing to delete" in capsys.readouterr().out


def test_a_command_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main([])
    assert exit_.value.code == 2
    assert "serve" in capsys.readouterr().err


def test_chat_keeps_its_state_in_the_default_file_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Path] = []

    def chat(port: int, host: str, wa_id: str, name: str, state: Path) -> int:
        seen.append(state)
        return 0

    monkeypatch.setattr(cli, "chat", chat)
    assert cli.main(["chat", "--port", "0"]) == 0
    assert cli.main(["chat", "--state", "/tmp/other.json"]) == 0
    from memo.local import persist

    assert seen == [persist.STATE_FILE, Path("/tmp/other.json")]
