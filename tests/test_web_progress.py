"""web.analyse's progress callback: the page's progress bar for large inputs depends on it."""

import pytest
from retrieval_metrics.page import web

LINES = 60_000  # a few megabytes: several blocks of reading


def _texts():
    qrels = "".join(f"q{i % 50} 0 d{i} {i % 3}\n" for i in range(5_000))
    run = "".join(f"q{i // 1200} Q0 d{i} {i % 1200 + 1} {1000 - (i % 1200) / 7:.6f} t\n"
                  for i in range(LINES))
    return qrels, run


@pytest.mark.slow
def test_progress_reaches_every_stage_in_order_and_ends_at_the_total():
    qrels, run = _texts()
    for as_bytes in (False, True):
        calls = []
        q, r = (qrels.encode(), run.encode()) if as_bytes else (qrels, run)
        out = web.analyse(q, r, {"k": 10}, "", lambda *a, calls=calls: calls.append(a))
        assert out["report"] is not None
        stages = [c[0] for c in calls]
        assert stages[0] == "qrels" and stages[-1] == "scoring"
        assert stages.index("run") > stages.index("qrels")
        run_calls = [c for c in calls if c[0] == "run"]
        assert len(run_calls) >= 2, "a multi-megabyte run is reported in several steps"
        done = [c[1] for c in run_calls]
        assert done == sorted(done) and done[-1] == run_calls[-1][2] == len(r)


@pytest.mark.slow
def test_without_a_callback_nothing_changes():
    qrels, run = _texts()
    assert web.analyse(qrels, run, {"k": 10})["report"] == \
        web.analyse(qrels, run, {"k": 10}, "", lambda *a: None)["report"]


def test_an_unknown_format_or_third_column_is_an_options_error_not_a_traceback():
    for options in ({"run_format": "xml"}, {"qrels_format": 3}, {"third_column": "middle"},
                    {"baseline_format": "pdf"}):
        out = web.analyse("q1 0 d1 1\n", "q1 d1\n", options)
        assert out["errors"]["options"]["field"] == next(iter(options)), options
        assert out["report"] is None
