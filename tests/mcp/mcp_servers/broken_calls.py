"""A hand-written stdio server (raw JSON-RPC) that lists one tool, then fails its tools/call.

python broken_calls.py bad-result|die-on-call
"""

from __future__ import annotations

import json
import sys

from _pidfile import record_pid

INIT_RESULT = {
    "protocolVersion": "2025-06-18",
    "capabilities": {"tools": {}},
    "serverInfo": {"name": "broken-calls", "version": "0.0.1"},
}
TOOL = {
    "name": "get_weather",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
}


def send(request_id: object, result: object) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}) + "\n")
    sys.stdout.flush()


def main(mode: str) -> None:
    for line in sys.stdin:
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if method == "initialize":
            send(request_id, INIT_RESULT)
        elif method == "tools/list":
            send(request_id, {"tools": [TOOL]})
        elif method == "tools/call" and mode == "bad-result":
            send(request_id, {"content": "not a list of blocks"})
        elif method == "tools/call":
            print("segfault in get_weather", file=sys.stderr, flush=True)
            sys.exit(5)


if __name__ == "__main__":
    record_pid()
    main(sys.argv[1])
