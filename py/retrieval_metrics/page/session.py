"""What the page's worker keeps between requests, and the one object that answers them.

The worker (worker.js) holds one ``Session`` and sends each request of the page to the method
of the same name (``analyse``, ``analyse_many``, ``analyse_answers``, ``inspect``,
``precision_recall``, ``download``, ``measures``, ``run_names``), with the request's id and
the message's fields as keyword arguments. The last result of each kind of analysis is kept
here under the id of the request that made it, so a later question about it (one query, the
curve, a file) names that id in ``of`` and is refused as stale (``StaleRequest``) once a newer
request has replaced it. Nothing about a request is kept in JavaScript.

Texts arrive as str, bytes, or (in Pyodide) a JavaScript Uint8Array; options as dicts or
JavaScript objects; both are made plain Python here, so the worker has no Python of its own.

>>> session = Session()
>>> out = session.analyse(1, qrels="q1 0 d1 1", run="q1 Q0 d1 1 2.5 run", options={"k": "1"})
>>> out["report"]["mean"]["ndcg@1"], session.precision_recall(2, of=1)["runs"][0]["precision"][0]
(1.0, 1.0)
>>> session.analyse(3, qrels="q1 0 d1 1", run="", options={})["report"] is None
True
>>> session.precision_recall(4, of=1)
Traceback (most recent call last):
  ...
retrieval_metrics.page.session.StaleRequest: that result is no longer the one kept (request 1)
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import InputError, OptionError
from . import analysis


class Split(NamedTuple):
    """A run being scored in parts (``plan_parts`` to ``analyse_parts``): the request, the
    plan, the run's and the judgements' bytes, the options, and the first part once scored."""

    request: object
    plan: object  # page.parts.Plan
    run: bytes
    qrels: object
    options: dict
    first: object = None  # scoring.split.PartScores; None: not scored yet; False: not clean


class StaleRequest(LookupError):
    """A question about a result the session no longer keeps (a newer request replaced it);
    the worker tells the page, which drops the question."""


def plain(value, depth: int = -1):
    """A JavaScript value (Pyodide's JsProxy) as Python data: an array's or object's contents
    copied into lists and dicts (``depth`` levels deep; -1: all), a Uint8Array into bytes;
    Python values as they are."""
    if value is None or isinstance(value, (str, bytes, bytearray, int, float, bool, list, dict)):
        return value
    if isinstance(value, memoryview):
        return value.tobytes()
    if hasattr(value, "to_bytes") and hasattr(value, "to_py"):  # a typed array
        return value.to_bytes()
    if hasattr(value, "to_py"):
        return value.to_py(depth=depth)
    return value


def text(value, name: str = "box"):
    """A box's content: str, bytes, or a JavaScript Uint8Array; nothing is an empty box;
    anything else (a number, a list) one InputError naming the box.

    >>> text(12, "qrels")
    Traceback (most recent call last):
    ...
    retrieval_metrics.errors.InputError: judgements: the box holds a number, not text
    """
    value = plain(value)
    if value is None:
        return ""
    if isinstance(value, bytearray):
        return bytes(value)
    if not isinstance(value, (str, bytes)):
        kind = {bool: "true or false", int: "a number", float: "a number", list: "a list",
                dict: "an object"}.get(type(value), f"a {type(value).__name__}")
        raise InputError(name, f"the box holds {kind}, not text", expected="text or a file's bytes")
    return value


class Session:
    """The page's requests, answered, with the last result of each analysis kept by request id.

    ``request`` is the id of the request being answered (None for a Python caller); ``of``
    names the request whose result a question is about (None: the last one kept)."""

    def __init__(self):
        self._kept = {}  # "analyse" | "analyse_many" | "analyse_answers" -> (request id, kept)
        self._split = None  # a Split while a run is being scored in parts
        self._unread = None  # (the run's bytes, options): a run scored in parts, not yet parsed

    def _keep(self, kind: str, request, kept) -> None:
        if kept is not None:
            self._kept[kind] = (request, kept)

    def kept(self, kind: str, of=None):
        """The kept result of ``kind`` (of request ``of`` when given); StaleRequest when there
        is none, or it is another request's."""
        request, kept = self._kept.get(kind, (None, None))
        if kept is None or (of is not None and of != request):
            raise StaleRequest("that result is no longer the one kept"
                               + (f" (request {of})" if of is not None else ""))
        if kind == "analyse" and kept.rankings is None and self._unread is not None:
            kept = self._read_split_run(request, kept)
        return kept

    def _read_split_run(self, request, kept):
        """A run scored in parts is read whole when a question first needs its rankings (one
        query up close, the curve, a file): as ``analyse`` reads it."""
        from ..inputs.runs import parse_run
        run, options = self._unread
        self._unread = None
        rankings = parse_run(run, options.get("run_format", "auto"),
                             options.get("third_column", "auto"), "run",
                             kept.judgements.summary.format)
        kept = kept._replace(rankings=rankings)
        self._kept["analyse"] = (request, kept)
        return kept

    def has(self, kind: str) -> bool:
        """Whether a result of ``kind`` is kept."""
        return kind in self._kept

    def analyse(self, request=None, qrels="", run="", options=None, baseline="", progress=None):
        """``page.analysis.analyse`` of the boxes; its inputs are kept for ``inspect``,
        ``precision_recall`` and ``download``."""
        self._kept.pop("analyse", None)  # the previous inputs are freed before these are read
        self._split = self._unread = None
        out, kept = analysis.analyse(text(qrels, "qrels"), text(run, "run"), plain(options), text(baseline, "baseline"),
                                     progress)
        self._keep("analyse", request, kept)
        return out

    def plan_parts(self, request=None, qrels="", run="", options=None, baseline="", workers=1,
                   min_bytes=None):
        """The first step of ``analyse`` in parts (``page.parts``): where the run's parts start
        (``{"starts": [0, ...]}``, their number at most ``workers``), or ``{"starts": None}``
        when the run is not for this path (the worker then asks ``analyse``). The run's bytes
        stay here for ``analyse_parts``."""
        from . import parts
        self._kept.pop("analyse", None)
        self._split = self._unread = None
        qrels, run, options = text(qrels, "qrels"), text(run, "run"), dict(plain(options) or {})
        found = parts.plan(qrels, run, options, text(baseline, "baseline"), int(workers),
                           parts.SPLIT_MIN_BYTES if min_bytes is None else int(min_bytes))
        if found is None:
            return {"starts": None}
        self._split = Split(request, found, run, qrels, options)
        return {"starts": found.starts}

    def _split_of(self, of) -> Split:
        """The run being scored in parts for request ``of``; StaleRequest when it is not."""
        if self._split is None or (of is not None and self._split.request != of):
            raise StaleRequest("that run is no longer the one being scored in parts")
        return self._split

    def score_part(self, request=None, qrels="", run="", options=None):
        """One part of a run cut by ``plan_parts``, scored by a worker that was handed it
        (``page.parts.score_part``)."""
        from . import parts
        return parts.score_part(text(qrels, "qrels"), text(run, "run"), dict(plain(options) or {}))

    def score_first_part(self, request=None, of=None):
        """The first part of the run ``plan_parts`` cut, scored here while the other workers
        score theirs (``{"clean": bool}``)."""
        from . import parts
        split = self._split_of(of)
        self._split = split._replace(first=parts.score_first(split.plan, split.run) or False)
        return {"clean": self._split.first is not False}

    def analyse_parts(self, request=None, of=None, parts=(), progress=None):
        """The last step: the first part scored here, the others' answers (``score_part``, in
        file order) merged into ``analyse``'s answer, kept as ``analyse`` keeps its inputs
        (the run read whole only when a question needs it). A part that was not clean, or
        ``parts`` None (the other workers failed): the run is read the ordinary way
        (``analyse``), from the bytes kept."""
        from . import parts as split_parts
        split = self._split_of(of)
        self._split = None
        if progress is not None:
            progress("scoring", 0, 1)
        parts = plain(parts, 1)  # None: the other workers failed (read the ordinary way)
        merged = None if parts is None or split.first is False else split_parts.merge(
            split.plan, split.run, [dict(plain(p)) for p in parts], split.first)
        if merged is None:
            return self.analyse(request, split.qrels, split.run, split.options, progress=progress)
        out, kept = merged
        self._keep("analyse", request, kept)
        self._unread = (split.run, split.options)
        return out

    def analyse_many(self, request=None, qrels="", runs=(), options=None, progress=None):
        """``page.analysis.analyse_many``, with every compared run's precision-recall curve
        (``curves``, None when nothing was compared). ``runs``: ``{name: text}`` or
        ``[name, text]`` pairs."""
        self._kept.pop("analyse_many", None)
        runs = plain(runs, depth=1)  # a file's bytes stay a Uint8Array until ``text`` copies them
        pairs = runs.items() if hasattr(runs, "items") else runs
        named = [(str(plain(name)), text(body)) for name, body in (plain(p, 1) for p in pairs)]
        out, kept = analysis.analyse_many(text(qrels, "qrels"), named, plain(options), progress)
        out["curves"] = analysis.precision_recall_many(kept) if kept is not None else None
        self._keep("analyse_many", request, kept)
        return out

    def analyse_answers(self, request=None, references="", answers="", options=None):
        """The Answers mode (``answers.report.analyse_answers``); a scored answer is kept for
        ``download``."""
        from ..answers.report import analyse_answers
        self._kept.pop("analyse_answers", None)
        out = analyse_answers(text(references, "references"), text(answers, "answers"), plain(options))
        self._keep("analyse_answers", request, out if out["report"] is not None else None)
        return out

    def inspect(self, request=None, of=None, query="", options=None):
        """One query of the inputs request ``of`` analysed (``page.analysis.inspect``); a bad
        depth comes back as ``{"error": {"field", "message"}}``."""
        kept = self.kept("analyse", of)
        try:
            return analysis.inspect(kept, str(plain(query)), plain(options))
        except (OptionError, ValueError) as exc:
            return {"error": {"field": getattr(exc, "field", "depth"),
                              "message": getattr(exc, "message", str(exc))}}

    def precision_recall(self, request=None, of=None):
        """The precision-recall curve of the inputs request ``of`` analysed."""
        return analysis.precision_recall(self.kept("analyse", of))

    def precision_recall_many(self, request=None, of=None):
        """The precision-recall curve of every run request ``of`` (an ``analyse_many``)
        compared; None when it compared nothing (``of`` None: the last such request)."""
        if of is None and not self.has("analyse_many"):
            return None
        return analysis.precision_recall_many(self.kept("analyse_many", of))

    def download(self, request=None, of=None, kind="", meta=None):
        """The file ``kind`` of request ``of``'s result: ``{"name", "type", "text"}``."""
        kind = str(plain(kind))
        source = analysis.download_source(kind)
        if of is None and not self.has(source):
            raise OptionError("download", {"analyse_many": "no runs have been compared yet",
                                           "analyse_answers": "no answers have been scored yet"}
                              .get(source, "nothing has been scored yet"))
        return analysis.download(kind, plain(meta), self.kept(source, of))

    def measures(self, request=None):
        """The measure chooser's entries, from the registry (``page.web.measures``)."""
        from ..measures.catalogue import catalogue
        return [dict(entry) for entry in catalogue()]

    def run_names(self, request=None, paths=()):
        """The names the many-runs box gives files (``page.web.run_names``)."""
        from ..inputs.run_names import name_clashes
        from ..inputs.run_names import run_names as names_of
        paths = [str(path) for path in plain(paths)]
        names = names_of(paths)
        return {"names": names, "notices": name_clashes(paths, names)}


__all__ = ["Session", "StaleRequest", "plain", "text"]
