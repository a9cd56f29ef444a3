#!/usr/bin/env python3
"""Serve a built page folder (default dist/) on 127.0.0.1 with the headers the page wants.

    python3 scripts/static_server.py [--port 8000] [--dir dist]

Standard library only. Adds a Content-Security-Policy header (the page also carries it as a meta
tag, but a module worker only obeys its own response's policy), `no-cache` so a rebuilt page is
picked up at once (unchanged files still answer 304), the JavaScript / WebAssembly types, and
cross-origin isolation (COOP/COEP), which lets the page stop a running computation instantly.
A file the build compressed (``<file>.br``, ``<file>.gz`` beside it) is sent compressed when the
request's Accept-Encoding takes it, Brotli first, with ``Vary: Accept-Encoding``: the runtime's
20 MB cross the link as about 6 MB. Any static host works as well (most compress by themselves);
this is for local and offline use and for the tests.
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import http.server
import os
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; "
       "style-src 'self'; img-src 'self' data:; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'none'; frame-ancestors 'none'")


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
        ".json": "application/json", ".whl": "application/zip", ".zip": "application/zip",
        ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
        ".csv": "text/csv; charset=utf-8", ".webmanifest": "application/manifest+json", ".svg": "image/svg+xml", ".tsv": "text/plain; charset=utf-8", ".txt": "text/plain; charset=utf-8",
        "": "text/plain; charset=utf-8",
    }

    ENCODINGS = (("br", ".br"), ("gzip", ".gz"))

    def accepted(self) -> set[str]:
        """The content codings the request's Accept-Encoding takes (a q of 0 refuses one)."""
        taken = set()
        for part in self.headers.get("Accept-Encoding", "").split(","):
            name, _, params = part.strip().partition(";")
            q = params.strip()
            if q.startswith("q="):
                try:
                    if float(q[2:]) == 0:
                        continue
                except ValueError:
                    continue
            taken.add(name.strip().lower())
        return taken

    def send_head(self):
        """A compressed copy of the file when there is one and the request takes it; otherwise
        what SimpleHTTPRequestHandler sends (folders, 404s, 304s, plain files)."""
        path = self.translate_path(self.path)
        if not os.path.isfile(path):
            return super().send_head()
        taken = self.accepted()
        for coding, suffix in self.ENCODINGS:
            if coding in taken and os.path.isfile(path + suffix):
                return self.send_compressed(path, path + suffix, coding)
        self.vary = any(os.path.isfile(path + suffix) for _, suffix in self.ENCODINGS)
        return super().send_head()

    def send_compressed(self, path: str, copy: str, coding: str):
        modified = os.stat(path).st_mtime
        since = self.headers.get("If-Modified-Since")
        if since and "If-None-Match" not in self.headers:
            try:
                if int(modified) <= email.utils.parsedate_to_datetime(since).timestamp():
                    self.send_response(304)
                    self.send_header("Vary", "Accept-Encoding")
                    self.end_headers()
                    return None
            except (TypeError, ValueError, OverflowError, IndexError):
                pass
        file = open(copy, "rb")
        try:
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(path))
            self.send_header("Content-Encoding", coding)
            self.send_header("Vary", "Accept-Encoding")
            self.send_header("Content-Length", str(os.fstat(file.fileno()).st_size))
            self.send_header("Last-Modified", self.date_time_string(int(modified)))
            self.end_headers()
            return file
        except BaseException:
            file.close()
            raise

    vary = False

    def end_headers(self) -> None:
        if self.vary:
            self.send_header("Vary", "Accept-Encoding")
            self.vary = False
        if self.server.isolate:
            # Cross-origin isolation lets the page cancel a computation in the worker at once
            # (a SharedArrayBuffer interrupt) instead of restarting the runtime.
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # quiet unless asked
        if self.server.verbose:
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    verbose = False
    isolate = True


def make_server(directory: Path, port: int = 0, verbose: bool = False, isolate: bool = True) -> Server:
    """A server on 127.0.0.1 (port 0 picks a free one); call serve_forever() or start_in_thread().

    isolate=False leaves out the cross-origin isolation headers, as a plain static host would.
    """
    server = Server(("127.0.0.1", port), functools.partial(Handler, directory=str(directory)))
    server.verbose = verbose
    server.isolate = isolate
    return server


def start_in_thread(directory: Path, isolate: bool = True) -> tuple[Server, str]:
    server = make_server(directory, isolate=isolate)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", type=Path, default=ROOT / "dist")
    args = parser.parse_args()
    if not (args.dir / "index.html").exists():
        raise SystemExit(f"{args.dir}/index.html is missing: run `npm run build` first")
    server = make_server(args.dir, args.port, verbose=True)
    print(f"Serving the calculator at http://127.0.0.1:{server.server_address[1]}/  (Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
