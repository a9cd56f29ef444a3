"""``retrieval-metrics trec_eval ARGS...``: trec_eval 10's evaluation loop (trec_eval.c), its
sums and its printing, so that the output is byte for byte trec_eval's.

For each judged query in id order (byte order) that has results (or every judged query, with
``-c``: a query without results gets trec_eval's stand-in ranking of one unjudged document, and
its num_ret, utility, relstring, unj and rbp_resid are then cleared), each asked-for measure is
computed in trec_eval's table order, printed with ``-q``, optionally turned into a z-score
(``-Z``), and added to the sums, query after query as C adds doubles; the ``all`` line divides
each sum by the number of queries (counts stay sums, gm_map and gm_bpref are exp(mean log)).

One departure, said on stderr: trec_eval 10.0 stops with status 4 ("result qid ... not found
in qrels") when a judged query has no results and -c is not given; its usage text, and 9.0.8,
average over the queries with both judgements and results, and so does this mode.
"""

from __future__ import annotations

import math
import os
import sys

from ...measures.aggregation import MIN_GEO_MEAN
from ...measures.trec_rel_list import RelList
from ...report.wording import agreeing
from . import table
from .cmdline import USAGE, Options, UsageError, parse
from .cnum import fixed, whole
from .files import FileError, read_qrels, read_qrels_jg, read_results, read_zscores
from .prefs_files import read_prefs, read_qrels_prefs
from .rankings import RankingError, judged_of, ranked_by_score, ranked_docnos, rel_list

PROG = "retrieval-metrics trec_eval"
MISSING_ZSCORE = -1000000.0
#: trec_eval's stand-in ranking for a judged query without results under -c
BOGUS = [(b"ceci_nest_pas_un_docno", 1.0)]
REL_FORMATS = ("qrels", "qrels_jg", "prefs", "qrels_prefs")
#: the judgements each -R format gives the measures
READS = {"qrels": "qrels", "qrels_jg": "qrels_jg", "prefs": "prefs", "qrels_prefs": "prefs"}


class Refusal(Exception):
    """What trec_eval would refuse, in one line."""


class Query:
    """One query's judgements and ranking, read lazily by the measures (``rels()``: the
    RelList; ``groups()``: one per judgement group; ``prefs()``: the preference counts)."""

    def __init__(self, options: Options, judgements, results, docnos=None):
        self.options = options
        self.judgements = judgements
        self.results = results  # [(docno, sim)] in file order (None when ``docnos`` is given)
        self._rels = self._groups = self._prefs = None
        self._docnos = docnos  # the ranking, best first, cut to -M

    def docnos(self) -> list[bytes]:
        if self._docnos is None:
            self._docnos = ranked_docnos(self.results, self.options.max_docs)
        return self._docnos

    def rels(self) -> RelList:
        if self._rels is None:
            judged, levels = judged_of(self.judgements)
            self._rels = rel_list(self.docnos(), judged, levels, self.options.relevance_level,
                                  self.options.judged_only)
        return self._rels

    def groups(self) -> list[RelList]:
        if self._groups is None:
            groups = []
            for group in self.judgements:
                judged, levels = judged_of(group)
                groups.append(rel_list(self.docnos(), judged, levels,
                                       self.options.relevance_level, self.options.judged_only))
            self._groups = groups
        return self._groups

    def prefs(self):
        if self._prefs is None:
            from .prefs import counts
            self._prefs = counts(self.judgements, self.results, self.options.max_docs)
        return self._prefs


class Marked:
    """A measure asked for, initialised as trec_eval's init_meas does it."""

    def __init__(self, measure: table.TrecMeasure, text: str | None):
        self.measure = measure
        self.text = text
        try:
            self.params = table.read_params(measure, text)
        except table.ParamError as exc:
            raise Refusal(f"-m {measure.name}.{text}: {exc}") from None
        self.names = table.value_names(measure, self.params, text)


def mark(options: Options) -> list[Marked]:
    """The measures asked for, in trec_eval's table order, with their parameters (the first
    ``-m name.params`` of each name gives them)."""
    wanted = set()
    params: dict[str, str] = {}
    for value in options.measures or ("official",):
        name, dot, text = value.partition(".")
        if dot:
            if not text:
                raise Refusal(f"-m {value}: a '.' must be followed by parameters")
            params.setdefault(name, text)
        if name in table.NICKNAMES:
            wanted.update(table.NICKNAMES[name])
        elif name in table.BY_NAME:
            wanted.add(name)
        else:
            raise Refusal(f"illegal measure '{name}' (trec_eval's measures: "
                          f"{', '.join(m.name for m in table.MEASURES)}; nicknames: "
                          f"{', '.join(table.NICKNAMES)})")
    return [Marked(m, params.get(m.name)) for m in table.MEASURES if m.name in wanted]


def evaluate(options: Options) -> tuple[str, list[str]]:
    """trec_eval's output for these options, and the notices for stderr."""
    if options.rel_format not in REL_FORMATS:
        raise Refusal(f"illegal rel_format '{options.rel_format}' (known: "
                      f"{', '.join(REL_FORMATS)})")
    if options.results_format != "trec_results":
        raise Refusal(f"illegal retrieval results format '{options.results_format}' (known: "
                      "trec_results)")
    qrels_path, results_path = options.files
    if options.rel_format == "qrels":
        judgements = read_qrels(qrels_path)
    elif options.rel_format == "qrels_jg":
        judgements = read_qrels_jg(qrels_path)
    elif options.rel_format == "prefs":
        judgements = read_prefs(qrels_path)
    else:
        judgements = read_qrels_prefs(qrels_path)
    try:  # trec_eval reads the results first: their errors come before these
        zscores = read_zscores(options.zscores) if options.zscores is not None else None
        marked = mark(options)
        reads = READS[options.rel_format]
        for m in marked:
            if m.measure.reads and m.measure.reads != reads:
                raise Refusal(f"measure '{m.measure.name}' needs -R "
                              f"{'qrels' if m.measure.reads == 'qrels' else m.measure.reads}"
                              f" judgements; -R {options.rel_format} has none of its kind")
        early = None
    except (Refusal, FileError) as exc:
        early = exc
    measured = None
    # (a FIFO or a process substitution can be read only once: only a regular file is split)
    if early is None and options.rel_format in ("qrels", "qrels_jg") \
            and options.debug_query is None and os.path.isfile(results_path):
        measured = _measure_split(results_path, judgements, marked, options)
    if measured is None:
        results, run_id = read_results(results_path)
        if early is not None:
            raise early
    else:
        measured, run_id = measured
    z = "Z" if zscores is not None else ""
    sums = {name: 0.0 for m in marked for name in m.names}
    lines: list[bytes] = []
    num_queries = 0
    left_out = []
    for qid, judged in judgements.items():
        if options.debug_query is not None and qid != options.debug_query:
            continue
        if measured is not None:
            got = measured.get(qid)
        else:
            ranking = results.get(qid)
            got = None if ranking is None else \
                measure_query(Query(options, judged, ranking), marked, False, qid)
        if got is None:
            if not options.complete:
                left_out.append(qid)
                continue
            got = measure_query(Query(options, judged, BOGUS), marked, True, qid)
        values, strings = got
        if zscores is not None:
            _to_zscores(zscores.get(qid), values)
        text_qid = qid
        for m in marked:
            if m.measure.average == "none" and m.measure.kind != "relstring":
                continue
            for name in m.names:
                if m.measure.kind != "relstring":
                    sums[name] += values[name]
            if not options.query or not m.measure.per_query:
                continue
            for name in m.names:
                if m.measure.kind == "relstring":
                    lines.append(b"%-22s\t%s\t'%s'" % (name.encode(), text_qid,
                                                       strings[name].encode()))
                elif m.measure.kind == "long" and not z:
                    lines.append(b"%-22s\t%s\t%s" % (name.encode(), text_qid,
                                                     whole(values[name]).encode()))
                else:
                    lines.append(b"%s%-22s\t%s\t%s" % (z.encode(), name.encode(), text_qid,
                                                       fixed(values[name]).encode()))
        num_queries += 1
    notices = []
    if left_out:
        shown = ", ".join(q.decode(errors="replace") for q in left_out[:5])
        more = f" and {len(left_out) - 5} more" if len(left_out) > 5 else ""
        notices.append(f"{PROG}: {len(left_out)} judged quer{'y has' if len(left_out) == 1 else 'ies have'} "
                       f"no results ({shown}{more}) and {agreeing(len(left_out), 'is')} "
                       "left out, as trec_eval's usage text says (trec_eval 10.0 stops with "
                       "status 4 here); -c scores them 0")
    if num_queries == 0:
        raise Refusal("no queries with both results and relevance info")
    if options.summary:
        count = len(judgements) if options.complete else num_queries
        for m in marked:
            lines.extend(_final(m, sums, count, num_queries, options, judgements, run_id, z))
    return (b"\n".join(lines) + b"\n" if lines else b""), notices


def measure_query(query: Query, marked: list[Marked], bogus: bool, qid: bytes):
    """(value of each asked-for name, relstring of each relstring name) of one query, the
    measures computed in trec_eval's table order; ``bogus``: the stand-in ranking of a judged
    query without results (-c), whose num_ret, utility, unj and rbp_resid trec_eval clears."""
    values: dict[str, float] = {}
    strings: dict[str, str] = {}
    for m in marked:
        kind = m.measure.kind
        if kind == "runid":
            continue
        try:
            if kind == "relstring":
                # trec_eval clears the stand-in's string only under its plain name
                cleared = bogus and m.names[0] == "relstring"
                strings[m.names[0]] = "" if cleared else _relstring(query, m.params)
                values[m.names[0]] = 0.0
                continue
            got = m.measure.calc(query, m.params)
        except RankingError as exc:
            raise Refusal(f"query {qid.decode(errors='replace')}: {exc}") from None
        except ValueError as exc:
            raise Refusal(f"measure '{m.measure.name}': {exc}") from None
        for name, value in zip(m.names, got):
            values[name] = value
    if bogus:
        for name in values:
            if name == "num_ret" or name == "utility" or name.startswith("unj") \
                    or name == "rbp_resid":
                values[name] = 0.0
    return values, strings


def _measure_split(path: str, judgements, marked: list[Marked], options: Options):
    """(qid -> measure_query's values, the run id) of a results file simple enough for
    ``inputs.split`` (six fields a line, each query's lines together, scores that C's atof
    and Python's float read alike), read and measured query by query, split across processes
    when it is large; None when it is not that simple or anything fails, and then the file is
    read again the ordinary way (which words any error as trec_eval would meet it)."""
    from ...inputs.split import NotClean, QueryRows, in_processes, parts

    names = [name for m in marked if m.measure.kind != "runid" for name in m.names]

    def work(span):
        rows = QueryRows(path, span[0], span[1], 6, (2, 4))
        out = {}
        qids = []
        for qid, (docnos, sims) in rows:
            qids.append(qid)
            judged = judgements.get(qid)
            if judged is None:
                continue
            if b"_" in b"".join(sims):  # float() reads 1_5 as 15, atof as 1
                raise NotClean("an underscore in a score")
            ranked = ranked_by_score(docnos, list(map(float, sims)), options.max_docs)
            values, strings = measure_query(Query(options, judged, None, ranked), marked,
                                            False, qid)
            if len(values) != len(names):
                raise NotClean("a measure gave another number of values than it has names")
            out[qid] = (list(values.values()), strings)
        return out, qids, rows.rows, rows.last[5:6]

    try:
        answers = in_processes(work, parts(path))
    except (NotClean, Refusal, RankingError, ValueError, OSError):
        return None
    measured = {}
    seen = 0
    for out, qids, _rows, _last in answers:
        seen += len(qids)
        for qid, (values, strings) in out.items():
            measured[qid] = (dict(zip(names, values)), strings)
    if not answers or len({q for a in answers for q in a[1]}) != seen:
        return None  # no lines, or a query's lines in two ranges
    return measured, answers[-1][3][0]


def _relstring(query: Query, params) -> str:
    from ...measures.trec_ranked import relstring
    return relstring(query.rels(), params[0])


def _to_zscores(means: dict | None, values: dict[str, float]) -> None:
    """trec_eval's te_convert_to_zscore: (value - mean) / stddev for each value named in the
    z-score file for this query; -1000000 where it has none."""
    for name in values:
        found = means.get(name.encode()) if means is not None else None
        if found is None:
            values[name] = MISSING_ZSCORE
            continue
        mean, stddev = found
        if stddev:
            values[name] = (values[name] - mean) / stddev
        else:
            values[name] = 0.0 if values[name] == mean else MISSING_ZSCORE


def _final(m: Marked, sums, count: int, num_queries: int, options: Options, judgements,
           run_id: bytes, z: str) -> list[bytes]:
    """The ``all`` lines of one measure (its calc_avg and print_final)."""
    measure = m.measure
    if measure.kind == "runid":
        return [b"%-22s\tall\t%s" % (b"runid", run_id)]
    if measure.kind == "relstring":
        return []
    out = []
    for name in m.names:
        value = sums[name]
        if measure.average == "mean":
            if count:
                value /= count
        elif measure.average == "geometric":
            if count > 0:
                if options.complete:
                    value += (count - num_queries) * math.log(MIN_GEO_MEAN)
                value = math.exp(value / count)
        elif measure.average == "num_q":
            value = float(count)
        elif measure.average == "num_rel" and options.complete:
            value = float(sum(1 for judged in judgements.values()
                              for _d, rel in _judged_lines(judged, options) if rel > 0))
        if measure.kind == "long" and not z:
            out.append(b"%-22s\tall\t%s" % (name.encode(), whole(value).encode()))
        else:
            out.append(b"%s%-22s\tall\t%s" % (z.encode(), name.encode(), fixed(value).encode()))
    return out


def _judged_lines(judged, options: Options):
    if options.rel_format == "qrels_jg":
        return [line for group in judged for line in group]
    return judged


def main(argv: list[str]) -> int:
    """Runs trec_eval's command line ``argv`` (without the program name): its output on
    stdout, exit 0; a refusal as one line on stderr, exit 2."""
    try:
        options = parse(argv)
    except UsageError as exc:
        print(f"{PROG}: {exc}\n{USAGE}", file=sys.stderr, end="")
        return 2
    if options.version:
        from ...version import __version__
        print(f"{PROG}: retrieval-metrics {__version__}, reading trec_eval version 10.0's "
              "command line", file=sys.stderr)
        return 0
    if options.help:
        sys.stdout.write(help_text())
        return 0
    if len(options.files) != 2:
        print(f"{PROG}: expected two files (judgements, then results), found "
              f"{len(options.files)}\n{USAGE}", file=sys.stderr, end="")
        return 2
    try:
        text, notices = evaluate(options)
    except (Refusal, FileError) as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    for notice in notices:
        print(notice, file=sys.stderr)
    sys.stdout.flush()
    sys.stdout.buffer.write(text)
    sys.stdout.buffer.flush()
    return 0


def help_text() -> str:
    """``-h``: the options (trec_eval's, in its words) and the measures this mode computes."""
    from .cmdline import LONG
    options = ", ".join(f"-{letter} (--{name})" for name, letter in LONG.items())
    names = ", ".join(m.name for m in table.MEASURES)
    nicks = "; ".join(f"{k}: {' '.join(v)}" for k, v in table.NICKNAMES.items())
    return (f"{USAGE}\nretrieval-metrics trec_eval takes trec_eval 10's command line and prints "
            f"what it prints.\nOptions: {options}.\nMeasures (-m name[.params]): {names}.\n"
            f"Nicknames: {nicks}.\nRel formats (-R): {', '.join(REL_FORMATS)}; results format "
            "(-T): trec_results.\n")
