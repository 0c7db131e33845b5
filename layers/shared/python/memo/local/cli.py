"""`python -m memo.local.cli serve|chat`: Memo on the local stack (moto, no AWS account, no LLM key).

serve: the local HTTP server only (GET/POST /webhook, the Graph API sink), PORT default 8080.
       Starts empty every time.
chat:  the local stack in-process plus an interactive terminal chat in which you are a WhatsApp user.
       Its data (reminders, notes, lists, questions, cases) is kept in data/local/state.json across
       restarts.
reset: delete that saved state.
cases: the case platform's `hitl` command line on the cases Memo sent to operators in that saved
       state (`cases queue`, `cases show CASE_ID`, ...): they live in the local stack's DynamoDB
       table, not in a SQLite file.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import sys
import warnings
from pathlib import Path

LOG_DIR = Path("data") / "local"


def _quiet_logs_to_file() -> Path:
    """The chat owns the terminal: Lambda logs go to a file, metrics are off (and so is Powertools'
    warning that a flush found no metrics, which every handler call would otherwise print)."""
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    path = LOG_DIR / "memo.log"
    from memo.observability import logger

    stream = path.open("a", encoding="utf-8")
    handler = logger.registered_handler
    if isinstance(handler, logging.StreamHandler):
        handler.setStream(stream)
    return path


def serve(port: int, host: str) -> int:
    from memo.local.stack import LocalStack

    stack = LocalStack(host=host, port=port)
    stack.start()
    assert stack.server is not None
    print(f"Memo local stack on {stack.base_url} (GET/POST /webhook); Ctrl-C to stop.", flush=True)
    print(f"Replies go to {os.environ['WHATSAPP_API_BASE_URL']}", flush=True)
    try:
        stack.server.wait()
    except KeyboardInterrupt:
        pass
    finally:
        stack.stop()
    return 0


#: "/as 447700900123 Sam": chat as another person (a WhatsApp number of 8 to 15 digits).
AS_COMMAND = re.compile(r"^/as\s+\+?(\d{8,15})(?:\s+(\S.*))?$")


def chat(port: int, host: str, wa_id: str, name: str, state: Path) -> int:
    log_path = _quiet_logs_to_file()
    from memo.local.chat import Chat
    from memo.local.stack import LocalStack
    from memo.local.whatsapp_user import WhatsAppUser

    with LocalStack(host=host, port=port, state_file=state) as stack:
        own_sink = os.environ["WHATSAPP_API_BASE_URL"].startswith(stack.base_url)
        print(f"Memo on the local stack ({stack.base_url}). You are {name} (+{wa_id}) on WhatsApp.")
        print("Type a message; answer buttons and lists by number; /quit to leave.")
        print("Reminders arrive here at their time (try: remind me to stretch in 1 minute).")
        print(f"Logs: {log_path}; your data is kept in {state} (make reset to start over)")
        if not own_sink:
            print(f"Replies go to {os.environ['WHATSAPP_API_BASE_URL']}, not to this chat.")
        print("/as <number> [name] chats as another person (/as with your number comes back).")
        people: dict[str, Chat] = {}

        def person(number: str, called: str) -> Chat:
            if number not in people:
                user = WhatsAppUser(wa_id=number, name=called)
                people[number] = Chat(
                    base_url=stack.base_url,
                    app_secret=os.environ["WHATSAPP_APP_SECRET"],
                    sink=stack.sink,
                    user=user,
                )
            return people[number]

        conversation = person(wa_id, name)
        conversation.start_printer()
        while True:
            try:
                line = input("you> ")
            except (EOFError, KeyboardInterrupt):
                print()
                break
            if line.strip() in {"/quit", "/exit"}:
                break
            switch = AS_COMMAND.match(line.strip())
            if switch:
                conversation.stop_printer()
                number, called = switch.group(1), switch.group(2) or "Guest"
                conversation = person(number, called)
                print(f"You are now +{number} on WhatsApp; their messages since last time follow.")
                conversation.start_printer()
                continue
            conversation.say(line)
            stack.save_state()
        conversation.stop_printer()
    return 0


#: The `hitl` commands that may write (a rebuild, an escalation sweep, the schema registry); the others
#: only read, and leave the saved state as it was (a running `make run` keeps writing it).
HITL_WRITES = frozenset({"rebuild", "escalate", "schema"})


def cases(argv: list[str], state: Path) -> int:
    """`hitl` (the case platform's command line) on the cases of the local stack: those live in its
    moto DynamoDB table, saved in `state`, not in a SQLite file."""
    _quiet_logs_to_file()
    if not state.exists():
        print(
            f"No local state at {state}: nothing to read (make run keeps Memo's cases there).",
            file=sys.stderr,
        )
        return 2
    from caseplatform import cli as hitl
    from memo.local.stack import LocalStack

    stack = LocalStack(state_file=state, start_poller=False).start()
    try:
        return hitl.main(["--store", f"dynamodb://{os.environ['CASES_TABLE_NAME']}", *argv])
    finally:
        stack.stop(save=bool(argv) and argv[0] in HITL_WRITES)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="memo-local", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("reset", help="delete the chat's saved local state")
    hitl = sub.add_parser("cases", help="the hitl command line on the local stack's cases (hitl --help)")
    hitl.add_argument("--state", type=Path, default=None, help="saved local data (data/local/state.json)")
    hitl.add_argument("hitl_args", nargs=argparse.REMAINDER, help="a hitl command: queue, show CASE_ID, ...")
    for name in ("serve", "chat"):
        cmd = sub.add_parser(name)
        cmd.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8080")))
        cmd.add_argument("--host", default="127.0.0.1")
        if name == "chat":
            cmd.add_argument("--wa-id", default="972501234567")
            cmd.add_argument("--name", default="Dana")
            cmd.add_argument(
                "--state", type=Path, default=None, help="saved local data (data/local/state.json)"
            )
    args = parser.parse_args(argv)
    if args.command == "reset":
        from memo.local import persist

        path = persist.STATE_FILE
        print(f"Deleted {path}." if persist.reset(path) else f"Nothing to delete: {path} does not exist.")
        return 0
    if args.command == "serve":
        return serve(args.port, args.host)
    from memo.local import persist

    if args.command == "cases":
        return cases(args.hitl_args, args.state or persist.STATE_FILE)

    return chat(args.port, args.host, args.wa_id, args.name, args.state or persist.STATE_FILE)


if __name__ == "__main__":
    sys.exit(main())
