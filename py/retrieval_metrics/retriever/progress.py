"""How far a long evaluation has got: the caller's callback, or a text bar on a terminal."""

from __future__ import annotations

import sys
import time
from typing import Any, Callable

BAR_WIDTH = 30
REDRAW_SECONDS = 0.1


def progress_reporter(progress: Any, label: str, stream=None) -> Callable[[int, int], None] | None:
    """``progress(done, total)`` to call after each step, or None for silence.

    ``progress`` is a callable (called as is), ``False`` (silence), or ``None`` / ``True``: a
    text bar on ``stream`` (stderr by default), drawn only when that stream is a terminal, so
    logs and pipes never fill with carriage returns.

    >>> seen = []
    >>> report = progress_reporter(lambda done, total: seen.append((done, total)), "queries")
    >>> report(1, 2); report(2, 2); seen
    [(1, 2), (2, 2)]
    >>> import io
    >>> progress_reporter(None, "queries", io.StringIO()) is None  # not a terminal
    True
    """
    if progress is False:
        return None
    if callable(progress) and progress is not True:
        return progress
    if progress is not None and progress is not True:
        from ..errors import OptionError
        raise OptionError("progress", f"progress must be a callable, True, False or None, "
                          f"found {progress!r}")
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    if isatty is None or not isatty():
        return None
    return TextBar(label, stream)


class TextBar:
    """``label  12/100 [#####.....]`` redrawn in place at most ten times a second, ended by a
    new line when the last step is reported."""

    def __init__(self, label: str, stream):
        self.label = label
        self.stream = stream
        self.drawn_at = -REDRAW_SECONDS

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self.drawn_at < REDRAW_SECONDS:
            return
        self.drawn_at = now
        self.stream.write("\r" + bar(self.label, done, total) + ("\n" if done >= total else ""))
        self.stream.flush()


def bar(label: str, done: int, total: int) -> str:
    """One line of the text bar.

    >>> bar("queries", 3, 4)
    'queries 3/4 [######################........]'
    """
    filled = BAR_WIDTH * done // total if total else BAR_WIDTH
    width = len(str(total))
    return f"{label} {done:>{width}}/{total} [{'#' * filled}{'.' * (BAR_WIDTH - filled)}]"
