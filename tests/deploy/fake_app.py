"""A stand-in for an app process, started by tests/deploy/test_deploy.py in a few milliseconds where Streamlit takes
seconds: `python fake_app.py PORT` answers GET /_stcore/health with "ok" and any other GET with "PORT", and keeps a
child in its process group, as an app process keeps its trainings."""

from __future__ import annotations

import http.server
import subprocess
import sys


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        body = b"ok" if self.path == "/_stcore/health" else str(self.server.server_port).encode()
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
