"""Score a live retriever: run each query through it, time it, and score what came back.

The project scores rankings and never searches: the retriever is the caller's (anything with
``search(query)``, or a plain callable). :func:`evaluate_retrieval` asks it for every query
(on a thread pool when ``max_workers > 1``, for network retrievers), reads each answer with
:mod:`.responses`, refuses partial rankings unless told otherwise, and scores the rankings with
the same metric code as everything else. The result, :class:`RetrievalEvaluation`, carries the
means, the per-query values, each query's status and latency, and writes and reads like every
report.
"""

from __future__ import annotations

import math
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from ..errors import InputError, OptionError
from .progress import progress_reporter
from .responses import is_success, read_response
from .result import RetrievalEvaluation

__all__ = ["evaluate_retrieval", "RetrievalEvaluation", "RetrieverError", "DegradedSearchError",
           "DegradedSearchWarning", "RetrievalTimeoutWarning", "ERROR_STATUS",
           "TIMEOUT_STATUS", "DEFAULT_METRICS"]

DEFAULT_METRICS = ("recall@10", "mrr", "ndcg@10")
ON_DEGRADED = ("raise", "warn")
ON_ERROR = ("raise", "record")
#: the status recorded for a query whose retriever call raised, with ``on_error="record"``
ERROR_STATUS = "error"
#: the status recorded for a query whose retriever gave no answer within ``timeout`` seconds
TIMEOUT_STATUS = "timeout"


class RetrieverError(RuntimeError):
    """The retriever raised on a query: ``.query_id``, ``.query``; the original is the cause."""

    def __init__(self, message: str, query_id: Any, query: Any):
        super().__init__(message)
        self.query_id = query_id
        self.query = query


class DegradedSearchError(RetrieverError):
    """A response's status says part of the search did not run (``.status``)."""

    def __init__(self, message: str, query_id: Any, query: Any, status: str):
        super().__init__(message, query_id, query)
        self.status = status


class DegradedSearchWarning(UserWarning):
    """``on_degraded="warn"``: partial rankings were scored as they came."""


class RetrievalTimeoutWarning(UserWarning):
    """``timeout``: some queries got no answer in time; they were scored on an empty ranking."""


class _Outcome(NamedTuple):
    status: str
    ids: list
    seconds: float
    error: str | None


def evaluate_retrieval(retriever: Any, queries: Any, qrels: Any, metrics: Any = DEFAULT_METRICS,
                       *, on_degraded: str = "raise", on_error: str = "raise",
                       k: int | None = None, max_workers: int = 1, progress: Any = None,
                       zero_division: Any = "warn", relevance_threshold: int = 1,
                       duplicates: str = "raise", doc_id: Callable | None = None,
                       timeout: float | None = None) -> RetrievalEvaluation:
    """Runs every query through ``retriever`` and scores the rankings against ``qrels``.

    - ``retriever``: an object with ``search(query)``, or a callable ``retriever(query)``.
      Its answer may take any shape :mod:`retrieval_metrics.retriever.responses` reads (ids, ``(id,
      score)`` pairs, ``{id: score}``, hits with ``.doc_id`` or ``.doc.doc_id``, or a response
      with a ``status`` and ``hits``/``results``/``documents``).
    - ``queries``: ``{query_id: query}``, or a sequence of queries (ids 0, 1, ...), which
      ``qrels`` must then match by position. Queries run, and are reported, in this order.
    - ``qrels``: judgements per query id (a collection of relevant ids, or ``{doc_id: grade}``);
      every query needs an entry; entries for other queries are not used.
    - ``metrics``: names such as ``"recall@10"``, ``"mrr"``, ``"ndcg@3"``; the result is keyed
      by the names as given.
    - ``on_degraded``: a status other than success (see :func:`.responses.is_success`) means
      a partial ranking: ``"raise"`` a :class:`DegradedSearchError` naming the query and
      status, or ``"warn"``: score it, keep the status, and emit a
      :class:`DegradedSearchWarning`.
    - ``on_error``: a retriever that raises is a :class:`RetrieverError` naming the query
      (``"raise"``), or (``"record"``) the query gets the status ``"error"``, an empty ranking
      (so it scores 0) and the message in ``.errors``.
    - ``k``: keep only the first k ids of each ranking (None: all).
    - ``max_workers``: queries run on that many threads; the result does not depend on it.
    - ``progress``: ``progress(done, total)`` after each query; None: a text bar on stderr
      when stderr is a terminal; False: nothing.
    - ``zero_division``, ``relevance_threshold``, ``duplicates``: as in ``ranking_metrics``.
    - ``doc_id``: a function from one hit to its document id, for hits in a shape not read by
      default (``lambda hit: hit.metadata["source"]``).
    - ``timeout``: seconds to wait for each query's answer (None: for ever). A query with no
      answer in time gets the status ``"timeout"``, an empty ranking (so it scores 0, as a
      failed search would in use) and a message in ``.errors``; the other queries run and are
      kept, and a :class:`RetrievalTimeoutWarning` names the late ones. Python cannot stop a
      thread, so the late call goes on in the background (a daemon thread, which does not keep
      the program alive); its answer, if it ever comes, is not used. Needs threads (not in
      Pyodide).

    >>> texts = {"q one": ["d1", "d2"], "q two": ["d3", "d2"]}
    >>> result = evaluate_retrieval(texts.get, {"q1": "q one", "q2": "q two"},
    ...                             {"q1": ["d1"], "q2": ["d2"]}, ["recall@1", "mrr"])
    >>> result.metrics, result.status_counts
    ({'recall@1': 0.5, 'mrr': 0.75}, {'success': 2})
    """
    names = _metric_names(metrics)
    _choice("on_degraded", on_degraded, ON_DEGRADED)
    _choice("on_error", on_error, ON_ERROR)
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise OptionError("k", f"k must be a whole number >= 1 or None, found {k!r}")
    if isinstance(max_workers, bool) or not isinstance(max_workers, int) or max_workers < 1:
        raise OptionError("max_workers", f"max_workers must be a whole number >= 1, found "
                          f"{max_workers!r}")
    if max_workers > 1 and sys.platform == "emscripten":
        raise OptionError("max_workers", "max_workers > 1 needs threads, which Pyodide does not "
                          "have; use max_workers=1")
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not (
                math.isfinite(timeout) and timeout > 0):
            raise OptionError("timeout", f"timeout must be a number of seconds > 0 or None, "
                              f"found {timeout!r}")
        if sys.platform == "emscripten":
            raise OptionError("timeout", "timeout needs threads, which Pyodide does not have")
    _check_scoring_options(zero_division, relevance_threshold, duplicates)
    if doc_id is not None and not callable(doc_id):
        raise OptionError("doc_id", f"doc_id must be a function from a hit to its id, found "
                          f"{doc_id!r}")
    search = _search_function(retriever)
    pairs = _query_pairs(queries)
    if not pairs:
        raise InputError("queries", "there are no queries to run",
                         expected="at least one query")
    judgements = _judgements_for(qrels, pairs, queries)
    report = progress_reporter(progress, "queries")

    def run(qid: Any, query: Any) -> _Outcome:
        outcome = _ask(search, qid, query, on_error, doc_id)
        if outcome.error is None and not is_success(outcome.status) and on_degraded == "raise":
            raise DegradedSearchError(
                f"query {qid!r}: the retriever answered with status {outcome.status!r}, so part "
                "of the search did not run and the ranking is partial; pass "
                "on_degraded=\"warn\" to score it anyway", qid, query, outcome.status)
        return outcome

    started = time.perf_counter()
    if timeout is None:
        outcomes = _run_all(run, pairs, max_workers, report)
    else:
        outcomes = _run_with_timeout(run, pairs, max_workers, report, float(timeout))
    wall = time.perf_counter() - started
    late = [qid for (qid, _), o in zip(pairs, outcomes) if o.status == TIMEOUT_STATUS]
    if late:
        shown = ", ".join(map(repr, late[:10])) + (f" and {len(late) - 10} more"
                                                   if len(late) > 10 else "")
        warnings.warn(f"{len(late)} quer{'y' if len(late) == 1 else 'ies'} got no answer within "
                      f"{timeout:g} s and scored 0 on an empty ranking (status "
                      f"\"{TIMEOUT_STATUS}\"): {shown}", RetrievalTimeoutWarning, stacklevel=2)

    rankings = {qid: (o.ids if k is None else o.ids[:k]) for (qid, _), o in zip(pairs, outcomes)}
    degraded = [(qid, o.status) for (qid, _), o in zip(pairs, outcomes)
                if o.error is None and not is_success(o.status)]
    if degraded:
        shown = ", ".join(f"{qid!r} ({status})" for qid, status in degraded[:10])
        more = f" and {len(degraded) - 10} more" if len(degraded) > 10 else ""
        warnings.warn(f"{len(degraded)} quer{'y' if len(degraded) == 1 else 'ies'} scored on a "
                      f"partial ranking: {shown}{more}", DegradedSearchWarning, stacklevel=2)
    per_query = _score(judgements, rankings, names, zero_division=zero_division,
                       relevance_threshold=relevance_threshold, duplicates=duplicates)
    qids = [qid for qid, _ in pairs]
    return RetrievalEvaluation(
        names, qids, per_query,
        statuses={qid: o.status for qid, o in zip(qids, outcomes)},
        latencies={qid: o.seconds for qid, o in zip(qids, outcomes)},
        errors={qid: o.error for qid, o in zip(qids, outcomes) if o.error is not None},
        wall_seconds=wall,
        settings={"k": k, "on_degraded": on_degraded, "on_error": on_error,
                  "zero_division": _plain(zero_division),
                  "relevance_threshold": relevance_threshold, "duplicates": duplicates})


def _ask(search: Callable, qid: Any, query: Any, on_error: str, doc_id=None) -> _Outcome:
    """One timed call (``time.perf_counter`` around the call only) and its answer, read."""
    started = time.perf_counter()
    try:
        answer = search(query)
        if isinstance(answer, Iterator):  # a generator searches as it is read: time that too
            answer = list(answer)
    except Exception as error:
        seconds = time.perf_counter() - started
        message = f"{type(error).__name__}: {error}"
        if on_error == "record":
            return _Outcome(ERROR_STATUS, [], seconds, message)
        raise RetrieverError(f"query {qid!r}: the retriever raised {message}", qid,
                             query) from error
    seconds = time.perf_counter() - started
    status, ids = read_response(answer, qid, doc_id)
    return _Outcome(status, ids, seconds, None)


def _run_all(run: Callable, pairs: list, max_workers: int, report) -> list[_Outcome]:
    """Outcomes in query order, whatever order the threads finish in. On the first failure
    (or an interrupt) the queries not started yet are cancelled."""
    total = len(pairs)
    if max_workers == 1 or total < 2:
        outcomes = []
        for qid, query in pairs:
            outcomes.append(run(qid, query))
            if report is not None:
                report(len(outcomes), total)
        return outcomes
    # imported here: Pyodide, which has no threads, never needs it
    from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
    pool = ThreadPoolExecutor(max_workers=min(max_workers, total))
    try:
        futures = [pool.submit(run, qid, query) for qid, query in pairs]
        pending = set(futures)
        done_count = 0
        while pending:
            done, pending = wait(pending, return_when=FIRST_EXCEPTION)
            failed = [f for f in futures if f in done and f.exception() is not None]
            if failed:
                raise failed[0].exception()
            done_count += len(done)
            if report is not None:
                report(done_count, total)
        return [future.result() for future in futures]
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _run_with_timeout(run: Callable, pairs: list, max_workers: int, report,
                      timeout: float) -> list[_Outcome]:
    """Outcomes in query order, each call on a daemon thread of its own (at most
    ``max_workers`` waited for at a time), waited for ``timeout`` seconds: a call still
    running then is left behind and its query gets the status ``"timeout"``. The first
    failure is raised, as in ``_run_all``."""
    import threading
    total = len(pairs)
    outcomes: list = [None] * total
    changed = threading.Condition()
    finished: dict[int, tuple] = {}

    def call(index: int, qid: Any, query: Any) -> None:
        try:
            result = (run(qid, query), None)
        except BaseException as error:  # noqa: BLE001 - handed to the main thread
            result = (None, error)
        with changed:
            finished[index] = result
            changed.notify_all()

    active: dict[int, float] = {}  # index -> deadline
    next_index = done = 0
    while done < total:
        while next_index < total and len(active) < max_workers:
            qid, query = pairs[next_index]
            active[next_index] = time.perf_counter() + timeout
            threading.Thread(target=call, args=(next_index, qid, query), daemon=True,
                             name=f"retrieval-query-{next_index}").start()
            next_index += 1
        with changed:
            ready = [i for i in active if i in finished]
            if not ready:
                changed.wait(max(0.0, min(active.values()) - time.perf_counter()))
                ready = [i for i in active if i in finished]
        now = time.perf_counter()
        for index in ready:
            outcome, error = finished.pop(index)
            del active[index]
            if error is not None:
                raise error
            outcomes[index] = outcome
            done += 1
        for index in [i for i, deadline in active.items() if deadline <= now]:
            del active[index]
            outcomes[index] = _Outcome(TIMEOUT_STATUS, [], timeout,
                                       f"no answer within {timeout:g} s")
            done += 1
        if report is not None and (ready or done):
            report(done, total)
    return outcomes


def _search_function(retriever: Any) -> Callable:
    search = getattr(retriever, "search", None)
    if callable(search):
        return search
    if callable(retriever):
        return retriever
    raise OptionError("retriever", f"the retriever must have a search(query) method or be "
                      f"callable, found {type(retriever).__name__}")


def _query_pairs(queries: Any) -> list[tuple[Any, Any]]:
    if isinstance(queries, Mapping):
        return list(queries.items())
    if isinstance(queries, (str, bytes)) or not isinstance(queries, Sequence):
        hint = "; pass series.to_dict()" if type(queries).__name__ == "Series" else ""
        raise InputError("queries", f"queries must be a {{query_id: query}} mapping or a list of "
                         f"queries, found {type(queries).__name__}{hint}",
                         expected="{query_id: query} or [query, ...]")
    return list(enumerate(queries))


def _judgements_for(qrels: Any, pairs: list, queries: Any) -> dict:
    """The judgements of the queries to run, keyed by their ids, in query order."""
    if isinstance(queries, Mapping):
        if not isinstance(qrels, Mapping):
            raise InputError("qrels", "the queries are a mapping by query id, so the judgements "
                             f"must be one too, found {type(qrels).__name__}",
                             expected="{query_id: judgements}")
        missing = [qid for qid, _ in pairs if qid not in qrels]
        if missing:
            shown = ", ".join(map(repr, missing[:10]))
            raise InputError("qrels", f"no judgements for quer{'y' if len(missing) == 1 else 'ies'} "
                             f"{shown}{' and more' if len(missing) > 10 else ''}",
                             expected="an entry for every query (an empty list if none is relevant)")
        return {qid: qrels[qid] for qid, _ in pairs}
    if isinstance(qrels, Mapping) or isinstance(qrels, (str, bytes)) or not isinstance(
            qrels, Sequence):
        raise InputError("qrels", "the queries are a list, so the judgements must be a list "
                         f"aligned with them by position, found {type(qrels).__name__}",
                         expected="[judgements of query 0, judgements of query 1, ...]")
    if len(qrels) != len(pairs):
        raise InputError("qrels", f"{len(qrels)} judgement entries for {len(pairs)} queries; "
                         "a list of judgements is aligned with the queries by position",
                         expected=f"{len(pairs)} entries")
    return {qid: qrels[qid] for qid, _ in pairs}


def _metric_names(metrics: Any) -> list[str]:
    """The names asked for (None: the defaults, as in ``evaluate``), read as the settings read
    them (``scoring.settings.metric_names``) and each parsed, so a bad one is refused before the
    first query runs, not after the last."""
    from ..measures.grammar import parse_metric
    from ..scoring.settings import metric_names
    names = metric_names(DEFAULT_METRICS if metrics is None else metrics)
    for name in names:
        parse_metric(name)
    return names


def _check_scoring_options(zero_division: Any, relevance_threshold: Any, duplicates: Any) -> None:
    """ranking_metrics' options, refused before the first query runs rather than after the
    last (a network retriever's calls are not free)."""
    from ..inputs.objects import DUPLICATES
    from ..scoring.functions import ZERO_DIVISION
    from ..scoring.settings import parse_threshold, parse_zero_division
    parse_zero_division(zero_division, ZERO_DIVISION)
    parse_threshold(relevance_threshold)
    _choice("duplicates", duplicates, DUPLICATES)


def _choice(field: str, value: Any, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise OptionError(field, f"{field} must be one of {', '.join(allowed)}, found {value!r}")


def _plain(value: Any) -> Any:
    """A JSON-able setting: NaN (zero_division=np.nan) as the string "nan"."""
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return value


def _score(judgements: dict, rankings: dict, names: list[str], **options) -> dict:
    """``{qid: {name: value}}`` in query order, by ``ranking_metrics`` (given mappings keyed by
    query id, so that its errors name the query)."""
    from ..scoring.functions import ranking_metrics
    qids = list(judgements)
    values = ranking_metrics(judgements, {q: rankings[q] for q in qids}, names, average=None,
                             **options)
    return {q: {name: values[name][i] for name in names} for i, q in enumerate(qids)}
