"""The page's one entry point: both boxes and the settings in, plain data out.

Each box is parsed on its own, so the line under a box can say what was detected even while
the other box is empty or wrong; errors come back as data for the page to place, never as a
traceback.
"""

from __future__ import annotations

from .errors import InputError, OptionError
from .evaluate import load, paused_gc, score
from .options import settings as make_settings
from .qrels import parse_qrels
from .runs import parse_run


def analyse(qrels_text: str, run_text: str, options: dict | None = None) -> dict:
    """Scores what can be scored; ``errors`` says per box (and for the settings) what cannot.

    >>> out = analyse("q1 0 d1 1", "q1 Q0 d1 1 2.5 run", {"k": "1"})
    >>> out["report"]["mean"]["ndcg@1"], out["errors"]
    (1.0, {'qrels': None, 'run': None, 'options': None})
    """
    options = dict(options or {})
    errors = {"qrels": None, "run": None, "options": None}
    inputs = {"qrels": None, "run": None}
    try:
        settings = make_settings(options.get("k", 10), options.get("gain", "linear"),
                                 options.get("missing", "zero"), options.get("metrics"))
    except OptionError as exc:
        settings = None
        errors["options"] = exc.to_dict()
    judgements = rankings = None
    with paused_gc():
        if qrels_text.strip():
            try:
                judgements = parse_qrels(qrels_text, options.get("qrels_format", "auto"))
                inputs["qrels"] = judgements.summary.to_dict()
            except InputError as exc:
                errors["qrels"] = exc.to_dict()
        if run_text.strip():
            try:
                rankings = parse_run(run_text, options.get("run_format", "auto"),
                                     options.get("third_column", "auto"))
                inputs["run"] = rankings.summary.to_dict()
            except InputError as exc:
                errors["run"] = exc.to_dict()
    report = None
    if judgements and rankings and settings:
        try:
            report = score(judgements, rankings, settings).to_dict()
        except InputError as exc:
            errors[exc.source] = exc.to_dict()
    return {"inputs": inputs, "errors": errors, "report": report}


__all__ = ["analyse", "load"]
