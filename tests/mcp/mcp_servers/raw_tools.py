"""A stdio server written by hand (raw JSON-RPC, no SDK) that serves TOOLS.json, two a page.

    python raw_tools.py TOOLS.json

The tool definitions go on the wire exactly as written in the file, key order included.
It starts in a fraction of the time an SDK server takes, which keeps the CLI tests short.
"""

from __future__ import annotations

import json
import sys

from _pidfile import record_pid

PAGE = 2


def answer(request_id: object, result: object) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}) + "\n")
    sys.stdout.flush()


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as handle:
        tools = json.load(handle)
    for line in sys.stdin:
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if method == "initialize":
            info = {"name": "raw-json", "version": "0.1"}
            answer(request_id, {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                                "serverInfo": info})  # fmt: skip
        elif method == "tools/list":
            start = int((message.get("params") or {}).get("cursor") or 0)
            page = {"tools": tools[start : start + PAGE]}
            if start + PAGE < len(tools):
                page["nextCursor"] = str(start + PAGE)
            answer(request_id, page)


if __name__ == "__main__":
    record_pid()
    main()
