"""The streamable-HTTP form against real servers on 127.0.0.1: tools, redirects, credentials."""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp_support import free_port
from mcp_support import http_server as serving_http

from toollens.core.errors import TargetError
from toollens.mcp import ConnectOptions, fetch_tools

pytest.importorskip("mcp")
pytestmark = pytest.mark.network_ok  # loopback only


@pytest.fixture(scope="module")
def http_server() -> Iterator[str]:
    with serving_http("sdk_tools.py", "output") as url:
        yield url


def test_tools_over_http(http_server: str) -> None:
    listed = fetch_tools(f"mcp:{http_server}", ConnectOptions(timeout=10))
    assert listed.info.name == "sdk-tools"
    assert [t.name for t in listed.tools] == ["forecast"]
    assert listed.tools[0].output_schema is not None
    one = fetch_tools(f"mcp:{http_server}#forecast", ConnectOptions(timeout=10))
    assert one.tools == listed.tools


def test_nothing_listening_is_one_line() -> None:
    port = free_port()
    with pytest.raises(TargetError) as info:
        fetch_tools(f"mcp:http://127.0.0.1:{port}/mcp", ConnectOptions(timeout=5))
    message = str(info.value)
    assert f"MCP server 'http://127.0.0.1:{port}/mcp' cannot be reached" in message
    assert "\n" not in message


class _Recorder(http.server.BaseHTTPRequestHandler):
    """Answers every request with a redirect to another host, and records what it received."""

    seen: list[dict[str, str]] = []  # noqa: RUF012 - shared with the test on purpose
    location = ""

    def _redirect(self) -> None:
        type(self).seen.append(dict(self.headers))
        self.send_response(307)
        self.send_header("Location", self.location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_GET = do_DELETE = _redirect

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def _serving(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[int]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd.server_address[1]
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_redirect_to_another_host_is_not_followed_and_no_credentials_are_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Credentials toollens was not given: a .netrc for the host (httpx reads it by default).
    netrc = tmp_path / "netrc"
    netrc.write_text("machine 127.0.0.1 login user password secret\n", encoding="utf-8")
    monkeypatch.setenv("NETRC", str(netrc))
    elsewhere = free_port()  # nothing must ever reach this "other host"
    _Recorder.seen = []
    _Recorder.location = f"http://localhost:{elsewhere}/mcp"
    with _serving(_Recorder) as port, pytest.raises(TargetError) as info:
        fetch_tools(f"mcp:http://127.0.0.1:{port}/mcp", ConnectOptions(timeout=5))
    message = str(info.value)
    assert f"redirected to http://localhost:{elsewhere}/mcp" in message
    assert "\n" not in message
    assert _Recorder.seen, "the server was asked"
    assert all("authorization" not in {k.lower() for k in h} for h in _Recorder.seen)
    assert all("cookie" not in {k.lower() for k in h} for h in _Recorder.seen)


class _NotMcp(http.server.BaseHTTPRequestHandler):
    """Answers every request with 200 and a body that is not MCP (a login page, plain text)."""

    content_type = "text/html"
    body = b"<html>please log in</html>"

    def _answer(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Type", self.content_type)
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    do_POST = do_GET = do_DELETE = _answer

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.mark.parametrize(
    ("content_type", "body", "said"),
    [
        ("text/html", b"<html>please log in</html>", "Unexpected content type: text/html"),
        ("application/json", b"hello there", "Failed to parse JSON response"),
    ],
)
def test_an_answer_that_is_not_mcp_is_one_line(content_type: str, body: bytes, said: str) -> None:
    handler = type("Handler", (_NotMcp,), {"content_type": content_type, "body": body})
    with _serving(handler) as port, pytest.raises(TargetError) as info:
        fetch_tools(f"mcp:http://127.0.0.1:{port}/mcp", ConnectOptions(timeout=5))
    message = str(info.value)
    assert message.startswith(f"MCP server 'http://127.0.0.1:{port}/mcp' failed during initialize")
    assert said in message
    assert "\n" not in message
