"""Per-query values of named metrics for rankings held in Python: the bridge between the
retriever harness and the package's metric code.

Until ``ranking_metrics`` exists this goes through ``evaluate()`` with dicts.
"""

from __future__ import annotations

from .errors import OptionError
from .metrics import CUTOFF_METRICS

_FULL = {"mrr": "rr", "rr": "rr", "map": "map", "rprec": "rprec"}


def per_query_values(judgements: dict, rankings: dict, names: list[str], *, zero_division="warn",
                     relevance_threshold=1, duplicates="raise") -> dict:
    from .evaluate import evaluate
    if isinstance(zero_division, float) and zero_division != zero_division:
        zero_division = "nan"
    parsed = {}
    for name in names:
        base, _, cut = name.partition("@")
        if cut:
            if base not in CUTOFF_METRICS or not cut.isdigit() or int(cut) < 1:
                raise OptionError("metrics", f"unknown metric {name!r}")
            parsed[name] = (base, int(cut), f"{base}@{int(cut)}")
        elif base in _FULL:
            parsed[name] = (_FULL[base], None, _FULL[base])
        else:
            raise OptionError("metrics", f"unknown metric {name!r}")
    ks = sorted({k for _, k, _ in parsed.values() if k}) or [1]
    bases = list(dict.fromkeys(base for base, _, _ in parsed.values()))
    qrels = {str(q): ({str(d): g for d, g in j.items()} if isinstance(j, dict) else [str(d) for d in j])
             for q, j in judgements.items()}
    run = {str(q): [str(d) for d in ids] for q, ids in rankings.items()}
    report = evaluate(qrels, run, k=ks, metrics=bases, zero_division=zero_division,
                      missing="zero")
    return {q: {name: report.per_query[str(q)][key] for name, (_, _, key) in parsed.items()}
            for q in judgements}


def check_metric_name(name: str) -> None:
    _parse(name)


def _parse(name):
    base, _, cut = name.partition("@")
    if cut:
        if base not in CUTOFF_METRICS or not cut.isdigit() or int(cut) < 1:
            raise OptionError("metrics", f"unknown metric {name!r}")
    elif base not in _FULL:
        raise OptionError("metrics", f"unknown metric {name!r}")


def mean_value(y_true, y_pred, name: str, **options) -> float:
    from collections.abc import Mapping

    from .scoring import mean
    if not isinstance(y_true, Mapping):
        y_true = dict(enumerate(y_true))
    if not isinstance(y_pred, Mapping):
        y_pred = dict(enumerate(y_pred))
    values = per_query_values(y_true, {q: list(v) for q, v in y_pred.items()}, [name], **options)
    return mean([v[name] for v in values.values()])
