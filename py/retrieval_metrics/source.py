"""Where an input's text comes from (a str, bytes or a file) and how it is read: whole, for
the line-by-line reader and every error message, or a megabyte at a time as bytes, for the
fast reader of large whitespace files."""

from __future__ import annotations

import os
import re

from .errors import InputError


class InputFile(os.PathLike):
    """A file to be read by the parser itself (pathlib would cost the CLI 15 ms of imports)."""

    def __init__(self, path):
        self.path = os.fspath(path)

    def __fspath__(self) -> str:
        return self.path

    def __repr__(self) -> str:
        return f"InputFile({self.path!r})"


def decode(data, source: str) -> str:
    """Text from a box, bytes or a file (a Path: read here, so its bytes are freed as soon as
    they are decoded); refuses what is not UTF-8 text, drops a byte-order mark."""
    if isinstance(data, os.PathLike):
        try:
            with open(os.fspath(data), "rb") as file:
                data = file.read()
        except OSError as exc:
            raise InputError(source, f"cannot read {os.fspath(data)!r}: {exc.strerror}",
                             expected="a readable file") from None
    if isinstance(data, (bytes, bytearray, memoryview)):
        data = bytes(data)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            raise InputError(source, f"this is not UTF-8 text (byte 0x{data[exc.start]:02x} "
                             f"at offset {exc.start:,})", line=line,
                             expected="UTF-8 text") from None
    else:
        text = data
    if text.startswith("\ufeff"):
        text = text[1:]
    nul = text.find("\x00")
    if nul >= 0:
        raise InputError(source, "this looks like a binary file (it contains NUL bytes)",
                         line=text.count("\n", 0, nul) + 1, expected="text")
    return text


class NeedsFullText(Exception):
    """The streaming reader met something only the whole-text reader handles or explains."""


READ_BYTES = 1 << 20


class Text:
    """One input's text, from a str, bytes or a file, read no more than the job needs.

    A clean whitespace file streams through ``blocks()``, a megabyte of the file at a time, so
    neither its bytes nor its text is ever whole in memory; everything else (and every error
    message) uses ``full()``, the whole decoded text, read once and kept.
    """

    def __init__(self, data, source: str, progress=None):
        self.data = data
        self.source = source
        self.progress = progress  # progress(source, done, total), called as blocks are read
        self._full = None

    def full(self) -> str:
        if self._full is None:
            self._full = decode(self.data, self.source)
        return self._full

    def head(self, size: int = 1 << 16) -> str:
        """The start of the text, for detection only (a bad byte is reported by full())."""
        if self._full is not None or not isinstance(self.data, (os.PathLike, bytes, bytearray)):
            return self.full()[:size]
        if isinstance(self.data, os.PathLike):
            try:
                with open(os.fspath(self.data), "rb") as file:
                    raw = file.read(size)
            except OSError:
                return self.full()[:size]  # raises the InputError that names the file
        else:
            raw = bytes(self.data[:size])
        return raw.decode("utf-8", "replace").removeprefix("\ufeff")

    def blocks(self):
        """The text as UTF-8 bytes, in pieces of about a megabyte that end at line ends;
        raises NeedsFullText for bytes that are not plain UTF-8 text (the whole-text reader
        then says where). Bytes, because ``bytes.split`` splits on exactly trec_eval's ASCII
        whitespace, and faster than ``str.split``."""
        data = self.data if self._full is None else self._full
        blocks = self._blocks(data)
        if self.progress is None:
            yield from blocks
            return
        total = os.path.getsize(os.fspath(data)) if isinstance(data, os.PathLike) else len(data)
        done = 0
        for block in blocks:
            yield block
            done += len(block)
            self.progress(self.source, min(done, total), total)

    def _blocks(self, data):
        if isinstance(data, str):
            yield from _str_blocks(data)
            return
        if isinstance(data, (bytes, bytearray, memoryview)):
            data = bytes(data)
            start, size = 0, len(data)
            while start < size:
                end = data.find(b"\n", start + READ_BYTES)
                end = size if end < 0 else end + 1
                yield _checked(data[start:end], start == 0)
                start = end
            return
        try:
            file = open(os.fspath(data), "rb")
        except OSError:
            raise NeedsFullText from None
        with file:
            carry = b""
            first = True
            while True:
                raw = file.read(READ_BYTES)
                if not raw:
                    break
                raw = carry + raw
                cut = raw.rfind(b"\n") + 1
                if cut:
                    raw, carry = raw[:cut], raw[cut:]
                else:
                    carry, raw = raw, b""
                    continue
                yield _checked(raw, first)
                first = False
            if carry:
                yield _checked(carry, first)


def _str_blocks(text: str):
    text = text.removeprefix("\ufeff")
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start + READ_BYTES)
        end = size if end < 0 else end + 1
        try:
            raw = text[start:end].encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: not text the line reader accepts either
            raise NeedsFullText from None
        if b"\x00" in raw:
            raise NeedsFullText
        yield raw
        start = end


def _checked(raw: bytes, first: bool) -> bytes:
    if first and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\x00" in raw:
        raise NeedsFullText
    if not raw.isascii():
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            raise NeedsFullText from None
    return raw


def looks_like_json(text: str) -> bool:
    """An object or an array after any leading whitespace: no row format starts that way, and
    an array gets the JSON reader's clear refusal rather than a reading as one odd CSV cell."""
    return _JSON_START.match(text) is not None


_JSON_START = re.compile(r"[ \t\n\r\v\f]*[{\[]")
