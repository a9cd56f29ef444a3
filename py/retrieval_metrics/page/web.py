"""The page's entry points for a Python caller: both boxes and the settings in, plain data out.

Each is one method of the page's one ``page.session.Session`` (``SESSION``, which the worker
answers its requests with too), so a question about the last result (``inspect``,
``precision_recall``, ``precision_recall_many``, ``download``) is answered from what that
session kept. The arithmetic is ``page.analysis``'s.
"""

from __future__ import annotations

from .analysis import Kept, unjudged_in_top
from .session import Session

#: the page's session: these functions' and the worker's
SESSION = Session()


def analyse(qrels_text, run_text, options: dict | None = None, baseline_text="",
            progress=None) -> dict:
    """Scores what can be scored; ``errors`` says per box (and for the settings) what cannot:
    ``analysis.analyse``'s answer (its docstring has the baseline, progress, unjudged counts
    and readings); the parsed inputs are kept for ``inspect``, ``precision_recall`` and
    ``download``.

    >>> out = analyse("q1 0 d1 1", "q1 Q0 d1 1 2.5 run", {"k": "1"})
    >>> out["report"]["mean"]["ndcg@1"], out["errors"]["run"]
    (1.0, None)
    """
    return SESSION.analyse(None, qrels_text, run_text, options, baseline_text, progress)


def _scored(qrels, run, options, baseline) -> None:
    """Reads and scores these texts first, unless both are None (the last scored inputs)."""
    if qrels is None and run is None:
        return
    if isinstance(options, dict):  # inspect's depth is not a setting of the scoring
        options = {name: value for name, value in options.items() if name != "depth"}
    out = analyse(qrels, run, options, baseline or "")
    if not SESSION.has("analyse"):
        from ..errors import OptionError
        for box, error in out["errors"].items():
            if error:
                raise OptionError(error.get("field", box), error["message"])
        raise OptionError("inputs", "nothing to score")


def inspect(qrels, run, query: str, options: dict | None = None, baseline="") -> dict:
    """One query of the last scored inputs (``qrels`` and ``run`` None, as the page's worker
    calls it) or of these texts: its ranking to ``options["depth"]`` (default the largest
    k) with each document's grade, the relevant documents never retrieved, its values, and
    the baseline's ranking beside it (``page.one_query.inspect_query``). Errors come back as
    ``{"error": {"field", "message"}}``.

    >>> out = inspect("q1 0 d1 1\\nq1 0 d2 1", "q1 Q0 d3 1 2 r\\nq1 Q0 d1 2 1 r", "q1", {"k": 5})
    >>> [(r["doc"], r["status"]) for r in out["run"]["ranking"]], out["run"]["never_retrieved"]
    ([('d3', 'unjudged'), ('d1', 'relevant')], [{'doc': 'd2', 'grade': 1}])
    """
    from ..errors import OptionError
    from .session import StaleRequest
    try:
        _scored(qrels, run, options, baseline)
        return SESSION.inspect(None, None, query, options)
    except OptionError as exc:
        return {"error": {"field": exc.field, "message": exc.message}}
    except StaleRequest:
        return {"error": {"field": "inputs", "message": "nothing has been scored yet"}}


def precision_recall(qrels=None, run=None, options: dict | None = None, baseline="") -> dict:
    """trec_eval's 11-point interpolated precision (iprec_at_recall), averaged over the scored
    queries, for the run and (when it is a run) the baseline: ``{"recall": [0.0, ..., 1.0],
    "runs": [{"name": "run", "precision": [...], "queries": n}, ...]}``.

    >>> curve = precision_recall("q1 0 d1 1", "q1 Q0 d1 1 2 r", {})
    >>> curve["runs"][0]["precision"][0], len(curve["recall"])
    (1.0, 11)
    """
    from ..errors import OptionError
    from .session import StaleRequest
    try:
        _scored(qrels, run, options, baseline)
        return SESSION.precision_recall(None)
    except OptionError as exc:
        return {"error": exc.to_dict()}
    except StaleRequest:
        return {"error": {"field": "inputs", "message": "nothing has been scored yet"}}


def analyse_many(qrels_text, runs, options: dict | None = None, progress=None) -> dict:
    r"""Several runs against one judgements box, compared with a baseline: ``analysis.
    analyse_many``'s answer (its docstring has the runs, options and progress), with every
    compared run's precision-recall curve (``curves``); the result is kept for
    ``precision_recall_many`` and ``download``.

    >>> out = analyse_many("q1 0 d1 1\nq2 0 d2 1", {"a": "q1 d1\nq2 d3", "b": "q1 d1\nq2 d2"},
    ...                    {"k": "1", "metrics": "recall"})
    >>> out["comparison"]["differences"]["b"]["recall@1"]["delta"], out["errors"]["runs"]
    (0.5, {'a': None, 'b': None})
    >>> out["exports"]["markdown"].splitlines()[2]
    '| a (baseline) | 0.5000 |'
    """
    return SESSION.analyse_many(None, qrels_text, runs, options, progress)


def precision_recall_many() -> dict | None:
    """The 11-point interpolated precision-recall curve (``precision_recall``'s shape) of every
    run the last ``analyse_many`` compared, each over its own scored queries; None when it
    compared nothing.

    >>> _ = analyse_many("q1 0 d1 1", [("a", "q1 d1"), ("b", "q1 d2\\nq1 d1")], {"k": "2"})
    >>> [(r["name"], r["precision"][0]) for r in precision_recall_many()["runs"]]
    [('a', 1.0), ('b', 0.5)]
    """
    return SESSION.precision_recall_many(None)


def analyse_answers(references_text, answers_text, options: dict | None = None) -> dict:
    """The Answers mode: references and answers (str or UTF-8 bytes) to per-item scores,
    means and notices; see ``answers.report.analyse_answers`` and docs/page.md.

    >>> analyse_answers('{"id": "q1", "reference": "Paris"}', "q1,paris")["report"]["mean"]
    {'exact_match': 1.0, 'token_f1': 1.0, 'anls': 1.0, 'edit_similarity': 0.8}
    """
    return SESSION.analyse_answers(None, references_text, answers_text, options)


def measures() -> list[dict]:
    """The measures the page's chooser offers, in its order: the registry's catalogue
    (``{"value", "label", "group", "description", "trec_eval", "default"}`` each; ``value`` is
    the name ``options["metrics"]`` takes; ``group`` is ``"cutoff"``, ``"whole"`` or
    ``"trec"``). A measure added to the registry is on the page with no other change.

    >>> entries = measures()
    >>> {"recall", "ndcg"} <= {e["value"] for e in entries if e["default"]}
    True
    """
    return SESSION.measures()


def download(kind: str, meta: dict | None = None) -> dict:
    """The file ``kind`` of the last result the page was shown (``{"name", "type", "text"}``):
    the report's files (``downloads.REPORT_KINDS``) of the last ``analyse``, the many-run files
    (``MANY_KINDS``) of the last ``analyse_many``, the Answers mode's (``ANSWER_KINDS``) of the
    last ``analyse_answers``. ``meta`` (what made it) heads the JSON files. The session checks
    that the page asks about the result it shows; here, only that there is one.

    >>> _ = analyse("q1 0 d1 1", "q1 Q0 d1 1 2.5 run", {"k": "1", "metrics": ["recall"]})
    >>> download("report-csv")["text"].splitlines()
    ['scope,query,recall@1,missing', 'query,q1,1.0,false', 'mean,,1.0,']
    """
    return SESSION.download(None, None, kind, meta)


def run_names(paths) -> dict:
    """The names the many-runs box gives files dropped on it: the command line's
    (``inputs.run_names.run_names``: the file name without its extension, as much of the path
    or the extension as tells two apart), with ``name_clashes``' sentences saying how.

    >>> run_names(["x.trec", "x.run", "y.trec"])
    {'names': ['x.trec', 'x.run', 'y'], 'notices': ['x.trec and x.run would both be named x: named x.trec and x.run.']}
    """
    return SESSION.run_names(None, paths)


__all__ = ["SESSION", "Kept", "analyse", "analyse_many", "analyse_answers", "download", "inspect", "measures",
           "run_names", "precision_recall", "precision_recall_many", "unjudged_in_top"]
