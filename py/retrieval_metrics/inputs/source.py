"""Where an input's text comes from (a str, bytes or a file) and how it is read: whole, for
the line-by-line reader and every error message, or a megabyte at a time as bytes, for the
fast reader of large whitespace files."""

from __future__ import annotations

import os
import re

from ..errors import InputError
from .records import Notice


class InputFile(os.PathLike):
    """A file to be read by the parser itself (pathlib would cost the CLI 15 ms of imports)."""

    def __init__(self, path):
        self.path = os.fspath(path)

    def __fspath__(self) -> str:
        return self.path

    def __repr__(self) -> str:
        return f"InputFile({self.path!r})"


GZIP_MAGIC = b"\x1f\x8b"
MAX_UNZIPPED = 1 << 31  # 2 GB of text: more is a zip bomb, not a run


def wrapping(head: bytes) -> str | None:
    r"""What the first bytes of a file say it is wrapped in, for ``unwrap``: "gzip" (its magic
    bytes, whatever the file's name), "UTF-16 LE" or "UTF-16 BE" (a byte-order mark, or, as
    PowerShell's ``Out-File`` may write it without one, a zero byte beside nearly every ASCII
    character), else None.

    >>> wrapping(b"\x1f\x8b\x08"), wrapping("q1 0 d1 1\n".encode("utf-16")), wrapping(b"q\x001\x00 \x00")
    ('gzip', 'UTF-16 LE', 'UTF-16 LE')
    >>> wrapping("q1 0 d1 1".encode("utf-16-be")), wrapping(b"q1 0 d1 1"), wrapping(b"\x00\x01")
    ('UTF-16 BE', None, None)
    """
    if head.startswith(GZIP_MAGIC):
        return "gzip"
    if head.startswith(b"\xff\xfe") and not head.startswith(b"\xff\xfe\x00\x00"):
        return "UTF-16 LE"
    if head.startswith(b"\xfe\xff"):
        return "UTF-16 BE"
    sample = head[:4096]
    pairs = len(sample) // 2
    if pairs < 2:
        return None
    even, odd = sample[0:pairs * 2:2], sample[1:pairs * 2:2]
    for name, zeros, chars in (("UTF-16 LE", odd, even), ("UTF-16 BE", even, odd)):
        if zeros.count(0) >= 0.9 * pairs and chars.count(0) == 0:
            return name
    return None


def unwrap(data: bytes, source: str) -> tuple[bytes | str, list[str]]:
    """``(data, steps)``: gzip data decompressed and UTF-16 decoded (to str), with what was
    done in ``steps`` (["gzip", "UTF-16 LE"]), for the notice; other bytes as they came.
    A gzip stream that is cut or corrupt, or UTF-16 that is not, is an InputError."""
    steps = []
    kind = wrapping(data[:4096])
    if kind == "gzip":
        import gzip
        import zlib
        # Read in blocks, not read(MAX_UNZIPPED + 1): 2**31 + 1 does not fit the size of a
        # read on a 32-bit build (Pyodide's WebAssembly), where that call raises OverflowError.
        blocks, size = [], 0
        try:
            with gzip.GzipFile(fileobj=__import__("io").BytesIO(data)) as file:
                while size <= MAX_UNZIPPED:
                    block = file.read(1 << 24)
                    if not block:
                        break
                    blocks.append(block)
                    size += len(block)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(source, f"this gzip file cannot be decompressed ({exc}); is it "
                             "cut short?", expected="a whole .gz file, or the text itself") from None
        data = b"".join(blocks)
        del blocks
        if len(data) > MAX_UNZIPPED:
            raise InputError(source, "this gzip file holds more than 2 GB of text",
                             expected="a smaller file") from None
        steps.append("gzip")
        kind = wrapping(data[:4096])
    if kind and kind.startswith("UTF-16"):
        codec = "utf-16-le" if kind.endswith("LE") else "utf-16-be"
        body = data[2:] if data[:2] in (b"\xff\xfe", b"\xfe\xff") else data
        try:
            data = body.decode(codec)
        except UnicodeDecodeError as exc:
            raise InputError(source, f"this looks like {kind} text, but byte {exc.start:,} "
                             f"is not ({exc.reason})", expected="UTF-8 or UTF-16 text") from None
        steps.append(kind)
    return data, steps


def unwrap_notices(steps: list[str], noun: str) -> list[Notice]:
    """The notice that an input was decompressed or decoded before it was read."""
    if not steps:
        return []
    what = {"gzip": "decompressed (gzip)", "UTF-16 LE": "decoded from UTF-16 (little-endian)",
            "UTF-16 BE": "decoded from UTF-16 (big-endian)"}
    return [Notice("decoded", "info",
                   f"{noun}: the file was {' and '.join(what[s] for s in steps)} before "
                   "it was read.", 1)]


def decode(data, source: str) -> str:
    """Text from a box, bytes or a file (see ``read_text``), without the count of lines that
    were not UTF-8."""
    return read_text(data, source)[0]


def read_text(data, source: str) -> tuple[str, tuple[int, int] | None]:
    """``(text, legacy)``: the text of a box, bytes or a file (a Path: read here, so its bytes
    are freed as soon as they are decoded), without a byte-order mark; refuses NUL bytes.

    Bytes are UTF-8, except that every line that is not valid UTF-8 is read as Windows-1252
    (what Latin-1 files really are), so its ids match what the person sees in an editor;
    ``legacy`` is then ``(lines read so, first such line number)``, else None.

    >>> read_text(b"q1 caf\\xe9\\nq2 caf\\xc3\\xa9\\n", "run")
    ('q1 café\\nq2 café\\n', (1, 1))
    """
    if isinstance(data, os.PathLike):
        try:
            with open(os.fspath(data), "rb") as file:
                data = file.read()
        except OSError as exc:
            raise InputError(source, f"cannot read {os.fspath(data)!r}: {exc.strerror}",
                             expected="a readable file") from None
    legacy = None
    if isinstance(data, (bytes, bytearray, memoryview)):
        data, _ = unwrap(bytes(data), source)
    if isinstance(data, (bytes, bytearray, memoryview)):
        text, legacy = decode_bytes(bytes(data))
    else:
        text = data
    if text.startswith("\ufeff"):
        text = text[1:]
    nul = text.find("\x00")
    if nul >= 0:
        raise InputError(source, "this looks like a binary file (it contains NUL bytes)",
                         line=text.count("\n", 0, nul) + 1, expected="text")
    return text, legacy


# Windows-1252 as browsers read it (WHATWG): the five bytes it leaves undefined stand for the
# control characters of the same number, as in Latin-1, so no byte is ever refused or lost.
_WINDOWS_1252 = "".join(bytes([b]).decode("cp1252", "ignore") or chr(b) for b in range(256))


def decode_bytes(data: bytes) -> tuple[str, tuple[int, int] | None]:
    """UTF-8, line by line reading each line that is not UTF-8 as Windows-1252 (the rule of
    ``read_text``); lines end at ``\\n`` (at ``\\r`` in a file with no ``\\n``, as the readers
    split them). One C-speed decode when the whole text is UTF-8.

    >>> decode_bytes(b"ok\\n\\x93quoted\\x94 caf\\xc3\\xa9 \\xe9\\n")  # one line mixes both
    ('ok\\n“quoted” cafÃ© é\\n', (1, 2))
    """
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        bad_at = exc.start
    end = b"\n" if b"\n" in data or b"\r" not in data else b"\r"
    start = data.rfind(end, 0, bad_at) + 1  # every line before this one is UTF-8
    pieces = [data[:start].decode("utf-8")]
    first_line = data.count(end, 0, start) + 1
    count = 0
    for line in data[start:].split(end):
        try:
            pieces.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            pieces.append(line.decode("latin-1").translate(_WINDOWS_1252_TABLE))
            count += 1
    return pieces[0] + end.decode().join(pieces[1:]), (count, first_line)


_WINDOWS_1252_TABLE = {i: ord(c) for i, c in enumerate(_WINDOWS_1252) if ord(c) != i}


def legacy_notices(legacy: tuple[int, int] | None, noun: str) -> list[Notice]:
    """The warning that some lines were not UTF-8 and were read as Windows-1252."""
    if not legacy:
        return []
    count, first = legacy
    if count == 1:
        what = f"line {first:,} is not UTF-8 text and was"
    else:
        what = f"{count:,} lines are not UTF-8 text (the first is line {first:,}) and were"
    return [Notice("not_utf8", "warning",
                   f"{noun}: {what} read as Windows-1252 (Latin-1); save the file as UTF-8 to "
                   "be sure its ids read as intended.", count)]


_LINE_START_BOM = re.compile("(?<=[\n\r])\ufeff+")


def strip_inner_boms(text: str) -> tuple[str, tuple[int, int] | None]:
    """``(text, found)``: the text without the byte-order marks that start a line inside it
    (two files joined with ``cat``, each saved with one), where they would become part of
    that line's query id; ``found`` is ``(how many, the first one's line)``, else None. A
    mark elsewhere in a line is a character of its id and stays.

    >>> strip_inner_boms("q1 d1 1\\n\\ufeffq2 d2 1\\n")
    ('q1 d1 1\\nq2 d2 1\\n', (1, 2))
    """
    if text.isascii():  # O(1) on a str: no mark to look for
        return text, None
    first = _LINE_START_BOM.search(text)
    if first is None:
        return text, None
    line = text.count("\n", 0, first.start()) + 1 if "\n" in text else (
        text.count("\r", 0, first.start()) + 1)
    stripped, count = _LINE_START_BOM.subn("", text)
    return stripped, (count, line)


def inner_bom_notices(found: tuple[int, int] | None, noun: str) -> list[Notice]:
    """The notice that byte-order marks inside the text were taken out."""
    if not found:
        return []
    count, line = found
    where = (f"at the start of line {line:,}" if count == 1
             else f"at the start of {count:,} lines (the first is line {line:,})")
    return [Notice("inner_bom", "info",
                   f"{noun}: a byte-order mark (U+FEFF, which editors write at the start of a "
                   f"UTF-8 file) {where} was taken out, so that line's query id reads as "
                   "written (files joined with cat keep each one's mark).", count)]


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
        self.inner_boms = None  # (byte-order marks taken from line starts, the first's line)
        self.legacy = None  # (lines read as Windows-1252, the first one's number), once read
        self.steps: list[str] = []  # what unwrapping did (gzip, UTF-16), for the notice
        self._unwrapped = False

    def _unwrap(self) -> None:
        """A gzip or UTF-16 file (or bytes) becomes its text once, before anything reads it:
        the readers below then see an ordinary str."""
        if self._unwrapped:
            return
        self._unwrapped = True
        data = self.data
        if isinstance(data, os.PathLike):
            try:
                with open(os.fspath(data), "rb") as file:
                    head = file.read(4096)
            except OSError:
                return  # full() raises the InputError that names the file
            if wrapping(head) is None:
                return
            with open(os.fspath(data), "rb") as file:
                data = file.read()
        elif isinstance(data, (bytes, bytearray, memoryview)):
            if wrapping(bytes(data[:4096])) is None:
                return
            data = bytes(data)
        else:
            return
        self.data, self.steps = unwrap(data, self.source)

    def full(self) -> str:
        self._unwrap()
        if self._full is None:
            text, self.legacy = read_text(self.data, self.source)
            self._full, self.inner_boms = strip_inner_boms(text)
        return self._full

    def notices(self, noun: str) -> list[Notice]:
        """What reading the text itself changed (a gzip or UTF-16 file decoded, lines that were
        not UTF-8), for box ``noun``."""
        return (unwrap_notices(self.steps, noun) + legacy_notices(self.legacy, noun)
                + inner_bom_notices(self.inner_boms, noun))

    def head(self, size: int = 1 << 16) -> str:
        """The start of the text, for detection only (a bad byte is reported by full())."""
        self._unwrap()
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
        return decode_bytes(raw)[0].removeprefix("\ufeff")

    def blocks(self):
        """The text as UTF-8 bytes, in pieces of about a megabyte that end at line ends;
        raises NeedsFullText for bytes that are not plain UTF-8 text (the whole-text reader
        then says where). Bytes, because ``bytes.split`` splits on exactly trec_eval's ASCII
        whitespace, and faster than ``str.split``."""
        self._unwrap()
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
    if not text.isascii() and "\ufeff" in text:  # isascii: O(1) on a str
        raise NeedsFullText  # a byte-order mark inside: the whole-text reader takes it out
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
        if b"\xef\xbb\xbf" in raw:  # a byte-order mark inside: the whole-text reader takes it out
            raise NeedsFullText
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            raise NeedsFullText from None
    return raw


ASCII_BLANK = " \t\r\n\v\f"


def is_blank(text) -> bool:
    """Nothing but ASCII whitespace and byte-order marks: an empty box. Only ASCII counts, as in
    the readers (a box holding a lone U+0085 or a no-break space has content, and its reader
    says what is wrong with it).

    >>> is_blank(" \\n\\ufeff"), is_blank(b"\\xef\\xbb\\xbf\\t"), is_blank("\\x85"), is_blank(b"\\xc2\\x85")
    (True, True, False, False)
    """
    if isinstance(text, (bytes, bytearray, memoryview)):
        return not bytes(text).replace(b"\xef\xbb\xbf", b"").strip(ASCII_BLANK.encode())
    return not str(text).strip(ASCII_BLANK + "\ufeff")


def looks_like_json(text: str) -> bool:
    """An object or an array after any leading whitespace: no row format starts that way, and
    an array gets the JSON reader's clear refusal rather than a reading as one odd CSV cell."""
    return _JSON_START.match(text) is not None


_JSON_START = re.compile(r"[ \t\n\r\v\f]*[{\[]")
