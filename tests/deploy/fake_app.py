"""A stand-in for an app process, started by tests/deploy/test_deploy.py in a few milliseconds where Streamlit takes
seconds: `python fake_app.py PORT` answers GET /_stcore/health with "ok", GET /media/big with 8 MB, any other GET
with "PORT" and a PUT with the size of its body, and keeps a child in its process group, as an app process keeps its
trainings."""

from __future__ import annotations

import http.server
import subprocess
import sys

BIG = 8_000_000  # bytes: about the app's upload cap


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        if self.path == "/media/big":
            self._answer(b"b" * BIG)
        else:
            self._answer(b"ok" if self.path == "/_stcore/health" else str(self.server.server_port).encode())

    def do_PUT(self) -> None:  # noqa: N802
        left = int(self.headers["Content-Length"])
        while left > 0:
            left -= len(self.rfile.read(min(left, 65536)))
        self._answer(self.headers["Content-Length"].encode())

    def _answer(self, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def main() -> None:
    """Serve on 127.0.0.1:PORT until killed."""
    subprocess.Popen(["sleep", "600"])  # a child, which must go when the process is killed
    with http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), _Handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
