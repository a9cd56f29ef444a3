"""The project's static server (scripts/static_server.py) behind a slow link, for the page bench's
first-visit timing: every byte it sends, to the page, its workers and the service worker alike,
crosses one shared link of ``mbit`` Mbit/s, each request waits ``rtt_ms`` first (a new
connection's handshake and the request's round trip), and the bytes are counted.

Throttling here rather than in the browser: Chromium's network emulation is set per target, and
a module worker, its helpers and the service worker are targets of their own; a link at the
server slows them all, as a real one does, and counts what crossed it (compressed, headers
included).
"""

from __future__ import annotations

import functools
import threading
import time
from pathlib import Path

from pagekit import _load_static_server  # tests/browser/pagekit.py: scripts/static_server.py

static_server = _load_static_server()

CHUNK = 16 * 1024


class Link:
    """One shared link: transfers take turns a chunk at a time, at ``rate`` bytes a second."""

    def __init__(self, mbit: float, rtt_ms: float):
        self.rate = mbit * 1e6 / 8
        self.rtt = rtt_ms / 1000
        self.lock = threading.Lock()
        self.free_at = 0.0
        self.sent = 0

    def send(self, n: int) -> None:
        with self.lock:
            start = max(time.monotonic(), self.free_at)
            self.free_at = start + n / self.rate
            self.sent += n
            wait = self.free_at - time.monotonic()
        if wait > 0:
            time.sleep(wait)

    def reset(self) -> int:
        with self.lock:
            sent, self.sent = self.sent, 0
            return sent


class ThrottledWriter:
    def __init__(self, raw, link: Link):
        self.raw = raw
        self.link = link

    def write(self, data) -> int:
        view = memoryview(data)
        for start in range(0, len(view), CHUNK):
            piece = view[start:start + CHUNK]
            self.link.send(len(piece))
            self.raw.write(piece)
        return len(view)

    def flush(self) -> None:
        self.raw.flush()

    def __getattr__(self, name):
        return getattr(self.raw, name)


class ThrottledHandler(static_server.Handler):
    def setup(self) -> None:
        super().setup()
        self.wfile = ThrottledWriter(self.wfile, self.server.link)

    def handle_one_request(self) -> None:
        time.sleep(self.server.link.rtt * 2)  # the connection's handshake, then the request's trip
        super().handle_one_request()


class QuietServer(static_server.Server):
    def handle_error(self, request, client_address) -> None:
        """A browser that closes a connection mid-download (a context closed) is no error."""
        import sys
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def start(directory: Path, mbit: float, rtt_ms: float = 20) -> tuple[static_server.Server, str, Link]:
    """A throttled server in a thread: (server, its address, the link that counts its bytes)."""
    server = QuietServer(("127.0.0.1", 0), functools.partial(ThrottledHandler, directory=str(directory)))
    server.link = Link(mbit, rtt_ms)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/", server.link
