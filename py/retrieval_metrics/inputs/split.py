"""Large, clean TREC-style files read query by query, split across processes.

A run of a million lines and more is read fastest by more than one core, and in the least
memory when each query is scored as soon as its last line is read. Both need the file to be
simple: every line of the same number of whitespace-separated fields, and each query's lines
together (as every TREC run is written). ``QueryRows`` reads a byte range of such a file in C-level
splits and hands over one query at a time; ``parts`` cuts a file into ranges at query
boundaries; ``in_processes`` runs one range per process (forked children, each sending its
answer back pickled) and the first in this one.

Whatever is not that simple (a comment, a blank line, a line of another width, a query whose
lines are apart) raises ``NotClean``, and the caller reads the file the ordinary way, which
also words every error: this module never explains anything.
"""

from __future__ import annotations

import io
import os
import pickle
import sys
from itertools import groupby

#: files below this size are read in one process (forking costs more than it saves)
SPLIT_MIN_BYTES = 16 << 20
#: at most this many processes: each one's interpreter counts in the memory used
MAX_PARTS = 2
BLOCK = 1 << 20  # bytes read at a time
PIECE = 1 << 14  # bytes split at a time: their tokens stay in the CPU cache
_MARK = b"\x00"  # stands for a line end among the tokens (the files may not hold NUL bytes)


def opened(source):
    """``source`` as a binary file: a path opened, or bytes read in place (the page hands
    over a file's bytes; ``io.BytesIO`` shares them rather than copying)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return io.BytesIO(source)
    return open(source, "rb")


class NotClean(Exception):
    """The file (or the work on it) is not for this reader: read it the ordinary way."""


class QueryRows:
    """The lines of ``path`` (a file's path, or its bytes) from byte ``start`` to ``end`` (both at line starts), query by
    query: iterating gives ``(query id, [cells of each wanted column])``, ids and cells as
    bytes, in file order. ``rows`` counts the lines read and ``last`` is the last line's
    cells. Raises NotClean on a line that is not ``width`` fields, on any of the ``refuse``
    bytes (or, with ``ascii_only``, any byte above 127), or on a query whose lines are not
    together.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("wb", delete=False) as f:
    ...     _ = f.write(b"q1 Q0 a 1 2.5 r\\nq1 Q0 b 2 1.5 r\\nq2 Q0 c 1 9 r")
    >>> rows = QueryRows(f.name, 0, os.path.getsize(f.name), 6, (2, 4))
    >>> list(rows), rows.rows, rows.last
    ([(b'q1', [[b'a', b'b'], [b'2.5', b'1.5']]), (b'q2', [[b'c'], [b'9']])], 3, [b'q2', b'Q0', b'c', b'1', b'9', b'r'])
    >>> os.unlink(f.name)
    """

    def __init__(self, path: str, start: int, end: int, width: int, columns: tuple[int, ...],
                 refuse: tuple[bytes, ...] = (b"#",), ascii_only: bool = False):
        self.path, self.start, self.end = path, start, end
        self.width, self.columns, self.refuse = width, columns, (_MARK, *refuse)
        self.ascii_only = ascii_only
        self.rows = 0
        self.last: list[bytes] = []

    def __iter__(self):
        seen: set[bytes] = set()
        query = None
        cells: list[list[bytes]] = []
        for piece in self._pieces():
            for qid, part in self._split(piece):
                if qid == query:
                    for have, more in zip(cells, part):
                        have += more
                    continue
                if query is not None:
                    yield query, cells
                if qid in seen:
                    raise NotClean(f"query {qid!r}: its lines are not together")
                seen.add(qid)
                query, cells = qid, part
        if query is not None:
            yield query, cells

    def _pieces(self):
        """Pieces of about PIECE bytes, each ending with a line end."""
        left = self.end - self.start
        rest = b""
        with opened(self.path) as file:
            file.seek(self.start)
            while left > 0:
                block = file.read(min(BLOCK, left))
                if not block:
                    break
                left -= len(block)
                block = rest + block if rest else block
                cut = block.rfind(b"\n") + 1
                rest = block[cut:]
                start, size = 0, cut
                while start < size:
                    stop = block.find(b"\n", start + PIECE, size)
                    stop = size if stop < 0 else stop + 1
                    yield block[start:stop]
                    start = stop
        if rest:
            yield rest + b"\n"  # the last line, without its line end

    def _split(self, piece: bytes):
        for byte in self.refuse:
            if byte in piece:
                raise NotClean(f"{byte!r} in the file")
        if self.ascii_only and not piece.isascii():
            raise NotClean("a byte above 127 in the file")
        lines = piece.count(b"\n")
        tokens = piece.replace(b"\n", b" \x00 ").split()
        width = self.width
        stride = width + 1
        if len(tokens) != stride * lines or tokens[width::stride].count(_MARK) != lines:
            raise NotClean("a line of another width, or a blank line")
        self.rows += lines
        self.last = tokens[-stride:-1]
        columns = [tokens[c::stride] for c in self.columns]
        row = 0
        for qid, same in groupby(tokens[0::stride]):
            end = row + len(list(same))
            yield qid, [column[row:end] for column in columns]
            row = end


def parts(path: str, count: int | None = None) -> list[tuple[int, int]]:
    """``[start, end)`` byte ranges of ``path``, each starting where a query's lines start
    (its first field differs from the line before): one range for a file below
    SPLIT_MIN_BYTES, else about equal ones, one per process (``cores()``, at most MAX_PARTS),
    or ``count`` of them.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("wb", delete=False) as f:
    ...     _ = f.write(b"q1 a\\nq1 b\\nq1 c\\nq2 d\\nq3 e\\n")
    >>> parts(f.name, 2), parts(f.name, 1)
    ([(0, 20), (20, 25)], [(0, 25)])
    >>> os.unlink(f.name)
    """
    size = os.path.getsize(path)
    if count is None:
        count = min(cores(), MAX_PARTS) if size >= SPLIT_MIN_BYTES else 1
    bounds = [0]
    with open(path, "rb") as file:
        for i in range(1, count):
            at = _query_start(file, max(size * i // count, bounds[-1]))
            if at is not None and at > bounds[-1]:
                bounds.append(at)
    bounds.append(size)
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


def query_starts(source, count: int) -> list[int]:
    """Where ``count`` about equal parts of ``source`` (a path or bytes) start, each where a
    query's lines start: ``parts``' cuts, for a caller that hands the parts out itself (the
    page's workers). The first is 0; fewer come back when the queries are too few."""
    with opened(source) as file:
        size = file.seek(0, io.SEEK_END)
        bounds = [0]
        for i in range(1, count):
            at = _query_start(file, max(size * i // count, bounds[-1]))
            if at is not None and at > bounds[-1] and at < size:
                bounds.append(at)
    return bounds


def _query_start(file, near: int) -> int | None:
    """The offset of the first line after the one holding byte ``near`` whose first field
    differs from the line's before it; None when the file ends first (or a query runs on
    for more than 64 blocks)."""
    file.seek(near)
    text = file.read(BLOCK)
    pos = text.find(b"\n") + 1
    if pos == 0:
        return None
    offset = near + pos  # where the line at text[pos] starts
    previous = None
    while True:
        end = text.find(b"\n", pos)
        if end < 0:
            more = file.read(BLOCK)
            if not more or len(text) - pos > 64 * BLOCK:
                return None
            text = text[pos:] + more
            pos = 0
            continue
        field = text[pos:end].split(None, 1)[:1]
        if previous is not None and field != previous:
            return offset
        previous = field
        offset += end + 1 - pos
        pos = end + 1


def cores() -> int:
    """The processes worth starting: the cores this process may run on, when it can fork
    safely (a POSIX system, no other thread that a fork would leave half-way), else 1."""
    if not hasattr(os, "fork") or sys.platform in ("emscripten", "wasi"):
        return 1
    import threading
    if threading.active_count() > 1:
        return 1
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def in_processes(work, ranges: list) -> list:
    """``[work(r) for r in ranges]``, the first here and each other in a forked child that
    sends its answer back pickled. Raises NotClean when a child fails (the caller then does
    the work the ordinary way); the children are always waited for."""
    if len(ranges) < 2:
        return [work(r) for r in ranges]
    sys.stdout.flush()
    sys.stderr.flush()
    children = []  # (pid, the pipe's read end, or None once read)
    try:
        for r in ranges[1:]:
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: work, answer, leave without running the parent's exits
                os.close(read)
                try:
                    answer = pickle.dumps((True, work(r)), pickle.HIGHEST_PROTOCOL)
                except BaseException as exc:  # noqa: BLE001 (any failure: the parent falls back)
                    answer = pickle.dumps((False, f"{type(exc).__name__}: {exc}"))
                with os.fdopen(write, "wb") as out:
                    out.write(answer)
                os._exit(0)
            os.close(write)
            children.append([pid, read])
        answers = [work(ranges[0])]
        for child in children:
            with os.fdopen(child[1], "rb") as pipe:
                child[1] = None
                data = pipe.read()
            ok, value = pickle.loads(data) if data else (False, "no answer")
            if not ok:
                raise NotClean(f"a process failed: {value}")
            answers.append(value)
        return answers
    finally:
        for pid, read in children:
            if read is not None:  # this process failed first: the child's work is not wanted
                os.close(read)
                try:
                    os.kill(pid, 9)
                except OSError:
                    pass
            os.waitpid(pid, 0)
