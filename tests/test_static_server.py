"""scripts/static_server.py sends the build's compressed copies by the request's Accept-Encoding
(issue 37: the first visit's 20 MB cross the link as about 6 MB), and the original otherwise."""

from __future__ import annotations

import gzip
import threading
import urllib.request
from pathlib import Path

import pytest
from browser.pagekit import _load_static_server

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("site")
    original = b"q1 0 d1 1\n" * 500
    (folder / "index.html").write_bytes(b"<!doctype html><title>t</title>")
    (folder / "qrels.txt").write_bytes(original)
    (folder / "qrels.txt.gz").write_bytes(gzip.compress(original, mtime=0))
    (folder / "qrels.txt.br").write_bytes(b"not really brotli, but only the server's choice is tested")
    (folder / "plain.txt").write_bytes(b"no copies")
    server = _load_static_server().make_server(folder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", original, folder
    server.shutdown()


def get(url: str, accept: str | None, **headers):
    request = urllib.request.Request(url, headers={**({"Accept-Encoding": accept} if accept is not None else {}),
                                                   **headers})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def test_brotli_first_when_the_request_takes_it(site):
    url, _, folder = site
    status, headers, body = get(url + "qrels.txt", "gzip, deflate, br")
    assert status == 200
    assert headers["Content-Encoding"] == "br"
    assert headers["Vary"] == "Accept-Encoding"
    assert headers["Content-Type"].startswith("text/plain")  # the original's type, not the copy's
    assert body == (folder / "qrels.txt.br").read_bytes()
    assert int(headers["Content-Length"]) == len(body)


def test_gzip_when_brotli_is_not_taken(site):
    url, original, _ = site
    for accept in ("gzip", "gzip, br;q=0", "br;q=0, gzip;q=0.5"):
        status, headers, body = get(url + "qrels.txt", accept)
        assert headers["Content-Encoding"] == "gzip", accept
        assert gzip.decompress(body) == original


def test_the_original_without_accept_encoding(site):
    url, original, _ = site
    for accept in (None, "", "identity", "gzip;q=0, br;q=0"):
        status, headers, body = get(url + "qrels.txt", accept)
        assert status == 200 and body == original, accept
        assert "Content-Encoding" not in headers
        assert headers["Vary"] == "Accept-Encoding"  # a cache must not hand this to a br client


def test_a_file_without_copies_is_sent_as_it_is(site):
    url, _, _ = site
    status, headers, body = get(url + "plain.txt", "gzip, br")
    assert (status, body) == (200, b"no copies")
    assert "Content-Encoding" not in headers and "Vary" not in headers


def test_a_compressed_copy_answers_304_when_unchanged(site):
    url, _, _ = site
    _, headers, _ = get(url + "qrels.txt", "br")
    status, _, body = get(url + "qrels.txt", "br", **{"If-Modified-Since": headers["Last-Modified"]})
    assert (status, body) == (304, b"")


def test_missing_files_and_folders_as_before(site):
    url, _, _ = site
    assert get(url + "nothing.txt", "br")[0] == 404
    status, _, body = get(url, "br")
    assert status == 200 and b"<title>t</title>" in body
