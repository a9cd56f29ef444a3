"""The two errors the engine raises for anything a person typed.

One type per kind of mistake, each carrying structured fields, so that the page can put the
message next to the right box and the CLI can print one line, neither of them parsing text.
"""

from __future__ import annotations

SOURCE_NAMES = {"qrels": "judgements", "run": "results", "baseline": "baseline"}


class InputError(ValueError):
    """Unreadable judgements or results: which box, which line, what was found and expected.

    >>> err = InputError("run", "expected 6 columns, found 5", line=2, text="q1 Q0 d1 1 0.5")
    >>> str(err)
    'results, line 2: expected 6 columns, found 5'
    """

    def __init__(self, source: str, problem: str, *, line: int | None = None,
                 text: str | None = None, expected: str | None = None):
        self.source = source
        self.problem = _shorten(problem, 400)  # a cell of megabytes quoted whole would freeze a page
        self.line = line
        self.text = None if text is None else _shorten(text)
        self.expected = expected or ""
        where = SOURCE_NAMES.get(source, source)
        if line is not None:
            where += f", line {line}"
        self.message = f"{where}: {self.problem}"
        super().__init__(self.message)

    def to_dict(self) -> dict:
        return {"source": self.source, "line": self.line, "text": self.text,
                "expected": self.expected, "problem": self.problem, "message": self.message}


class OptionError(ValueError):
    """A setting that cannot be used (k < 1, an unknown gain, ...), named by its field.

    >>> str(OptionError("k", "k cannot be '0': give whole numbers from 1 to 10"))
    "k cannot be '0': give whole numbers from 1 to 10"
    """

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(message)

    def to_dict(self) -> dict:
        return {"field": self.field, "message": self.message}


def did_you_mean(name, known) -> str:
    """`` (did you mean 'x'?)`` for the known name nearest ``name``, or "" when none is near:
    the words every refusal of an unknown name ends with.

    >>> did_you_mean("metric", ["metrics", "k"]), did_you_mean("zzz", ["k"])
    (" (did you mean 'metrics'?)", '')
    """
    import difflib
    near = difflib.get_close_matches(str(name), sorted(known), n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


def _shorten(text: str, limit: int = 200) -> str:
    """Keeps an offending line readable in a message even when it is a megabyte of garbage."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"
