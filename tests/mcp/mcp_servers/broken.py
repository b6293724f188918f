"""A hand-written stdio server that fails in the way MODE names (raw JSON-RPC, no SDK).

python broken.py crash|exit-after-initialize|garbage|silent|stubborn|slow-initialize|
                 slow-list|malformed|not-a-list|refused|banner|grandchild
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

from _pidfile import record_pid

INIT_RESULT = {
    "protocolVersion": "2025-06-18",
    "capabilities": {"tools": {}},
    "serverInfo": {"name": "broken", "version": "0.0.1"},
}


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def send(request_id: object, result: object) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}) + "\n")
    sys.stdout.flush()


def serve(on_list: object = None, init_delay: float = 0.0) -> None:
    """Answer initialize (after init_delay), then tools/list with on_list(request_id)."""
    for line in sys.stdin:
        message = json.loads(line)
        method = message.get("method")
        if method == "initialize":
            time.sleep(init_delay)
            send(message["id"], INIT_RESULT)
        elif method == "tools/list" and callable(on_list):
            on_list(message["id"])


def crash() -> None:
    say("starting broken server")
    say("fatal: config file /etc/broken.toml not found")
    sys.exit(1)


def exit_after_initialize() -> None:
    def leave(_request_id: object) -> None:
        say("panic: out of licences")
        sys.exit(4)

    serve(leave)


def garbage() -> None:
    # Only ever writes text that is not JSON-RPC, and never answers.
    print("Server ready! Listening on stdio...", flush=True)  # the classic mistake
    say("logging to stdout by mistake")
    for line in sys.stdin:
        print(f"got {len(line)} bytes, no idea what they mean", flush=True)


def banner() -> None:
    # A banner and a log line on stdout, then a correct conversation.
    print("Server ready! Listening on stdio...", flush=True)
    print("INFO loaded 1 tool", flush=True)

    def listed(request_id: object) -> None:
        tool = {"name": "echo", "description": "Echo the text.",
                "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                                "required": ["text"]}}  # fmt: skip
        send(request_id, {"tools": [tool]})

    serve(listed)


def silent() -> None:
    say("waiting for a database that never comes")
    for _ in sys.stdin:
        pass
    time.sleep(60)  # stdin closed: still does not exit on its own


def stubborn() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    say("ignoring SIGTERM")
    time.sleep(120)


def slow_list() -> None:
    def late(request_id: object) -> None:
        say("listing tools takes a while")
        time.sleep(60)
        send(request_id, {"tools": []})

    serve(late)


def malformed() -> None:
    def bad(request_id: object) -> None:
        say("sending tools")
        send(
            request_id,
            {
                "tools": [
                    {"name": "ok", "inputSchema": {"type": "object"}},
                    {"description": "no name", "inputSchema": "object"},
                ]
            },
        )

    serve(bad)


def not_a_list() -> None:
    serve(lambda request_id: send(request_id, {"tools": "none today"}))


def refused() -> None:
    # Every tool is readable, but the SDK's ListToolsResult refuses the list (annotations
    # must be an object): a client built on the SDK loses both tools.
    def listed(request_id: object) -> None:
        send(request_id, {"tools": [
            {"name": "ok", "description": "Fine.", "inputSchema": {"type": "object"}},
            {"name": "odd", "description": "Odd annotations.", "inputSchema": {"type": "object"},
             "annotations": "read-only"},
        ]})  # fmt: skip

    serve(listed)


def grandchild() -> None:
    helper = (
        "import sys; sys.path.insert(0, sys.argv[1]); import _pidfile, time; "
        "_pidfile.record_pid(); time.sleep(120)"
    )
    subprocess.Popen([sys.executable, "-c", helper, sys.path[0]])
    time.sleep(0.5)  # let the grandchild record its pid
    say("spawned a worker, then crashed")
    sys.exit(2)


MODES = {
    "crash": crash,
    "exit-after-initialize": exit_after_initialize,
    "garbage": garbage,
    "silent": silent,
    "stubborn": stubborn,
    "slow-initialize": lambda: serve(init_delay=60),
    "slow-list": slow_list,
    "malformed": malformed,
    "not-a-list": not_a_list,
    "refused": refused,
    "banner": banner,
    "grandchild": grandchild,
}

if __name__ == "__main__":
    record_pid()
    MODES[sys.argv[1]]()
