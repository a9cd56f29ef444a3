"""``retrieval-metrics trec_eval -R prefs / -R qrels_prefs``, byte for byte against trec_eval 10
itself (built from tests/peer/ by conftest.py's fixture).

The generated preference files exercise what form_prefs_counts.c distinguishes: judgement
groups with one subgroup (equivalence classes by rel_level, a document listed twice, levels
below 0, fractional levels) and with several (a partial order closed under transitivity),
groups that contradict each other on the same documents (the pair measures' counts), groups
with more non-relevant documents than relevant ones and fewer (the Rnonrel recounts), judged
documents never retrieved, retrieved documents never judged, equal scores in the run (the
preference code breaks them by document id ascending, not descending), queries only in the
run, and, with ``-c``, queries only in the judgements. Every generated file is consistent
(trec_eval aborts on contradictions inside one group), and levels below 0 only where
trec_eval reads inside its arrays.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from trec_eval_collections import ours, run_trec_eval, write_pair

pytestmark = pytest.mark.slow  # peer comparisons: the full tier runs them


def _ec_levels(rng: random.Random, docs: list[str]) -> list[tuple[str, float]]:
    """One subgroup: any levels, a document now and then listed twice at its level; a class
    below 0 only when the last class holds at least as many documents as there are relevant
    ones (else trec_eval's Rnonrel recount reads past the class)."""
    choices = (0.0, 0.0, 1.0, 1.0, 2.0, 3.0, 0.5, 2.25, -1.0)
    levels = [(d, rng.choice(choices)) for d in docs]
    negative = [d for d, lv in levels if lv < 0]
    relevant = [d for d, lv in levels if lv > 0]
    if negative and len(negative) < len(relevant):
        levels = [(d, 0.0 if lv < 0 else lv) for d, lv in levels]
    if levels and rng.random() < 0.3:
        levels.append(rng.choice(levels))
    return levels


def _array_levels(rng: random.Random, docs: list[str], subgroups: int):
    """Several subgroups agreeing with one hidden order (so the closure has no cycle): each
    document has a true value (below 0, 0 or relevant) and each subgroup shows a subset of them
    through its own non-decreasing map: a relevant document is above 0 everywhere, a document
    below 0 is shown as 0 in some subgroups (all of them at once) and below 0 in others, so
    which line of a document comes last decides whether it counts as non-relevant."""
    truth = {d: rng.choice((-1, 0, 0, 0, 0, 1, 2, 3, 4)) for d in docs}
    out = []
    for s in range(subgroups):
        shown = rng.sample(docs, rng.randint(2, len(docs))) if len(docs) > 2 else docs
        squash = rng.choice((1, 2, 3))
        below = rng.choice((-2.0, 0.0))
        for d in shown:
            t = truth[d]
            level = 0.0 if t == 0 else (below if t < 0 else float(1 + (t - 1) // squash) + s)
            out.append((f"s{s}", d, level))
    return out


def _prefs_collection(seed: int, tmp: Path, *, missing: bool) -> tuple[Path, Path]:
    rng = random.Random(seed)
    prefs, run = [], []
    queries = [f"{500 + i}" for i in range(rng.randint(5, 8))] + ["q7", "Q1"]
    for n, qid in enumerate(queries):
        pool = [f"P{seed}-{qid}-{i:02d}" for i in range(rng.randint(4, 40))]
        for jg in range(rng.randint(1, 4)):
            docs = rng.sample(pool, rng.randint(min(2, len(pool)), min(len(pool), 18)))
            if rng.random() < 0.5:
                for d, level in _ec_levels(rng, docs):
                    prefs.append(f"{qid} u{jg} only {d} {level:g}")
            else:
                for sub, d, level in _array_levels(rng, docs, rng.randint(2, 4)):
                    prefs.append(f"{qid} u{jg} {sub} {d} {level:g}")
        if missing and n in (1, 4):
            continue
        ranked = rng.sample(pool, rng.randint(0, len(pool)))
        ranked += [f"U{seed}-{qid}-{i}" for i in range(rng.randint(0, 5))]  # never judged
        if not ranked:
            ranked = [f"U{seed}-{qid}-x"]
        scores = [rng.choice((1, 2, 3, 4, 5, 6, 7, 8)) / 4 for _ in ranked]  # many ties
        for doc, score in zip(ranked, scores):
            run.append(f"{qid} Q0 {doc} 0 {score:g} run{seed}")
    run += [f"888 Q0 X{i} 0 {i}.5 run{seed}" for i in range(3)]  # only in the run
    rng.shuffle(prefs)
    rng.shuffle(run)
    prefs_path, run_path = tmp / f"prefs{seed}", tmp / f"run{seed}"
    prefs_path.write_text("\n".join(prefs) + "\n")
    run_path.write_text("\n".join(run) + "\n")
    return prefs_path, run_path


def _qrels_collection(seed: int, tmp: Path, *, missing: bool) -> tuple[Path, Path]:
    """qrels read as prefs: the iter field is the judgement group (several here), grades 0-3."""
    rng = random.Random(seed)
    qrels, run = [], []
    queries = [f"{700 + i}" for i in range(rng.randint(4, 7))]
    for n, qid in enumerate(queries):
        pool = [f"D{seed}-{qid}-{i:03d}" for i in range(rng.randint(10, 120))]
        for it in range(rng.choice((1, 1, 2, 3))):
            for d in rng.sample(pool, rng.randint(1, len(pool))):
                qrels.append(f"{qid} {it} {d} {rng.choice((0, 0, 0, 1, 1, 2, 3))}")
        if missing and n == 2:
            continue
        ranked = rng.sample(pool, rng.randint(1, len(pool)))
        scores = [rng.randint(1, 30) for _ in ranked]
        run += [f"{qid} Q0 {d} 0 {s} run{seed}" for d, s in zip(ranked, scores)]
    rng.shuffle(qrels)
    return write_pair(tmp, seed, qrels, run)


PREFS_COMMANDS = [
    "-q -m all_prefs -R prefs",
    "-c -q -m all_prefs -R prefs",
    "-q -M 12 -m all_prefs -R prefs",
    "-q -J -l 3 -m prefs -R prefs",
    "-c -n -m all_prefs -R prefs",
    "-q -m prefs_pair -m prefs_avgjg_Rnonrel -m prefs_avgjg_Rnonrel_ret -m num_q -R prefs",
    "-q -m all_prefs -R qrels_prefs",
    "-c -q -M 40 -m all_prefs -R qrels_prefs",
]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("command", PREFS_COMMANDS)
def test_generated_prefs_match_trec_eval_10(trec_eval_10, tmp_path, capsysbinary, command,
                                            seed):
    make = _qrels_collection if "qrels_prefs" in command else _prefs_collection
    judgements, run = make(seed, tmp_path, missing="-c" in command.split())
    args = [*command.split(), str(judgements), str(run)]
    expected = run_trec_eval(trec_eval_10, args)
    assert expected.returncode == 0, expected.stderr
    status, printed, err = ours(args, capsysbinary)
    assert (status, err) == (0, b"")
    assert printed == expected.stdout


# --- hand-worked cases, each also against trec_eval 10 ---------------------------------------

def _files(tmp: Path, prefs: str, run: str) -> list[str]:
    (tmp / "p").write_text(prefs)
    (tmp / "r").write_text(run)
    return [str(tmp / "p"), str(tmp / "r")]


def _values(printed: bytes) -> dict[str, str]:
    return {line.split(b"\t")[0].strip().decode(): line.split(b"\t")[2].decode()
            for line in printed.splitlines() if line.split(b"\t")[1] == b"1"}


def test_equal_scores_are_broken_by_document_id_ascending(trec_eval_10, tmp_path, capsysbinary):
    """d1 (2) > d2 (1) > d3 (0); the run scores d3 and d1 equally (5), d2 lower (4). The
    preference code orders equal scores by id ascending: d1, d3, d2, so d1 > d2 and d1 > d3
    are fulfilled, d2 > d3 is not: 2/3. (Descending, as for qrels, would give d3, d1, d2: 1/3.)"""
    files = _files(tmp_path, "1 u s d1 2\n1 u s d2 1\n1 u s d3 0\n",
                   "1 Q0 d3 1 5 r\n1 Q0 d1 2 5 r\n1 Q0 d2 3 4 r\n")
    args = ["-q", "-m", "all_prefs", "-R", "prefs", *files]
    status, printed, _err = ours(args, capsysbinary)
    assert status == 0
    values = _values(printed)
    assert values["prefs_simp"] == "0.6667" and values["prefs_num_prefs_ful"] == "2"
    assert printed == run_trec_eval(trec_eval_10, args).stdout


def test_rnonrel_recount_compares_the_last_class_with_itself(trec_eval_10, tmp_path,
                                                            capsysbinary):
    """One relevant d1 and three non-relevant d2-d4 (R = 1 < N = 3), run d1, d2, d3: the
    intended prefs_avgjg_Rnonrel keeps d1 > d2 (the first non-relevant one), fulfilled: 1/1.
    trec_eval 10's recalculate() also pairs every document of the last class with that first
    one (its loop over classes runs to the last), three more preferences, none fulfilled:
    1/4 = 0.25. This mode prints what trec_eval prints; prefs_avgjg is 3/3."""
    files = _files(tmp_path, "1 u s d1 1\n1 u s d2 0\n1 u s d3 0\n1 u s d4 0\n",
                   "1 Q0 d1 1 3 r\n1 Q0 d2 2 2 r\n1 Q0 d3 3 1 r\n")
    args = ["-q", "-m", "all_prefs", "-R", "prefs", *files]
    status, printed, _err = ours(args, capsysbinary)
    assert status == 0
    values = _values(printed)
    assert (values["prefs_avgjg_Rnonrel"], values["prefs_avgjg"]) == ("0.2500", "1.0000")
    assert printed == run_trec_eval(trec_eval_10, args).stdout


def test_a_group_starting_at_minus_3_loses_its_lowest_class(trec_eval_10, tmp_path,
                                                           capsysbinary):
    """form_prefs_counts.c counts a group's classes from its start value -3.0: group u's
    levels -3, -4, -5 make 2 classes, not 3 (d1 > d2 only), group v adds d1 > d3: 2 possible
    preferences where 3 + 1 were judged."""
    files = _files(tmp_path, "1 u s d1 -3\n1 u s d2 -4\n1 u s d3 -5\n1 v s d1 2\n1 v s d3 1\n",
                   "1 Q0 d1 1 3 r\n1 Q0 d2 2 2 r\n1 Q0 d3 3 1 r\n")
    args = ["-q", "-m", "all_prefs", "-R", "prefs", *files]
    status, printed, _err = ours(args, capsysbinary)
    assert status == 0 and _values(printed)["prefs_num_prefs_poss"] == "2"
    assert printed == run_trec_eval(trec_eval_10, args).stdout


def test_pair_measures_without_the_counts_array_are_the_same(tmp_path, monkeypatch):
    """With one group and no id repeated, the pair measures are read from the group's counts
    (no counts array); they equal the general computation over the counts array."""
    from retrieval_metrics.compat.trec_eval import files, prefs, prefs_files, prefs_measures
    names = ("prefs_pair", "prefs_pair_ret", "prefs_pair_imp")
    simple = []
    for seed in range(1, 6):
        for make, read in ((_prefs_collection, prefs_files.read_prefs),
                           (_qrels_collection, prefs_files.read_qrels_prefs)):
            judged, run = make(seed, tmp_path, missing=False)
            results, _run_id = files.read_results(str(run))
            for qid, lines in read(str(judged)).items():
                p = prefs.counts(lines, results.get(qid, []), 10 ** 9)
                if p.simple_pairs():
                    simple.append((p, [prefs_measures.VALUES[n](p) for n in names]))
    monkeypatch.setattr(prefs.Prefs, "simple_pairs", lambda self: False)
    for p, fast in simple:
        assert [prefs_measures.VALUES[n](p) for n in names] == fast
    assert len(simple) > 20 and any(0 < v < 1 for _p, fast in simple for v in fast)


# --- refusals: one line, exit 2, where trec_eval stops, aborts or reads past its arrays -------

@pytest.mark.parametrize("prefs,run,words,theirs", [
    ("1 u s d1 2\n1 u t d1 0\n1 u s d2 1\n", "1 Q0 d1 1 2 r\n", "both 0 and non-0", 4),
    ("1 u s d1 2\n1 u s d2 1\n1 u t d2 3\n1 u t d1 1\n", "1 Q0 d1 1 2 r\n", "contradict", -6),
    ("1 u s d1 2\n1 u s d1 1\n1 u s d2 0\n", "1 Q0 d1 1 2 r\n", "two different rel_levels", 4),
    ("1 u s d1 2\n\n1 u s d2 1\n", "1 Q0 d1 1 2 r\n", "line 2: malformed line", 2),
    ("1 u s d1 2\n1 u s d2 1 x\n", "1 Q0 d1 1 2 r\n", "line 2: malformed line", 2),
    ("1 u s d1 nan\n1 u s d2 1\n", "1 Q0 d1 1 2 r\n", "line 1: rel_level 'nan' is not a number",
     None),
    ("1 u s d1 1\n1 u s d2 1\n1 u s d3 0\n1 u s d4 0\n1 u s d5 -1\n",
     "1 Q0 d1 1 3 r\n1 Q0 d2 2 2 r\n1 Q0 d5 3 1 r\n", "reads past its arrays", 0),
    ("1 u s d1 2\n1 u s d2 1\n", "1 Q0 d1 1 2 r\n1 Q0 d1 2 1 r\n", "listed twice", 4),
])
def test_prefs_refusals(trec_eval_10, tmp_path, capsysbinary, prefs, run, words, theirs):
    args = ["-q", "-m", "all_prefs", "-R", "prefs", *_files(tmp_path, prefs, run)]
    status, printed, err = ours(args, capsysbinary)
    assert status == 2 and printed == b""
    assert len(err.decode().strip().splitlines()) == 1 and words in err.decode()
    if theirs is not None:  # 0: trec_eval prints a value read from outside its arrays
        assert run_trec_eval(trec_eval_10, args).returncode == theirs


def test_a_comment_on_the_last_line_is_a_comment(trec_eval_10, tmp_path, capsysbinary):
    """trec_eval 10 reads past its buffer after a comment on the last line (it crashes here);
    this mode skips it: the output is trec_eval's for the file without it."""
    run = "1 Q0 d3 1 5 r\n1 Q0 d1 2 5 r\n"
    args = ["-q", "-m", "all_prefs", "-R", "prefs",
            *_files(tmp_path, "1 u s d1 2\n1 u s d2 1\n1 u s d3 0\n# the end\n", run)]
    status, printed, err = ours(args, capsysbinary)
    assert (status, err) == (0, b"")
    (tmp_path / "p").write_text("1 u s d1 2\n1 u s d2 1\n1 u s d3 0\n")
    assert printed == run_trec_eval(trec_eval_10, args).stdout


def test_the_counts_array_wraps_at_65536_as_trec_evals_unsigned_short(trec_eval_10, tmp_path,
                                                                      capsysbinary):
    """65536 groups prefer d1 to d2 and one group prefers d3 > d2 > d1 (run d1, d2, d3).
    trec_eval's counts array holds unsigned shorts: CA[d1][d2] = 65536 is 0, so every pair's
    share is 0 / 1 and prefs_pair is 0, where without the wrap it would be (65536/65537 + 0 +
    0) / 3 = 0.3333; prefs_simp, which counts per group, is 65536 / 65539 = 1.0000."""
    groups = "".join(f"1 g{g} s d1 1\n1 g{g} s d2 0\n" for g in range(65536))
    files = _files(tmp_path, groups + "1 zz s d1 0\n1 zz s d2 1\n1 zz s d3 2\n",
                   "1 Q0 d1 1 3 r\n1 Q0 d2 2 2 r\n1 Q0 d3 3 1 r\n")
    args = ["-q", "-m", "all_prefs", "-R", "prefs", *files]
    status, printed, _err = ours(args, capsysbinary)
    assert status == 0
    values = _values(printed)
    assert (values["prefs_pair"], values["prefs_simp"]) == ("0.0000", "1.0000")
    assert printed == run_trec_eval(trec_eval_10, args).stdout


def test_zscores_of_preference_measures(trec_eval_10, tmp_path, capsysbinary):
    """-Z with -R prefs: each value named in the z-score file for its query becomes
    (value - mean) / stddev, the others -1000000, as trec_eval prints them. (The first query
    and prefs_pair are left out of the z-score file: trec_eval 10's binary searches read one
    past their arrays for a name that sorts after every one in the file, and crash.)"""
    from retrieval_metrics.compat.trec_eval.prefs_measures import VALUES
    prefs, run = _prefs_collection(3, tmp_path, missing=False)
    queries = sorted({line.split()[0] for line in prefs.read_text().splitlines()})
    names = [n for n in ("runid", "num_q", *VALUES) if n != "prefs_pair"]
    zscores = tmp_path / "z"
    zscores.write_text("".join(f"{q} {m} 0.{i + 3} 0.2\n" for i, q in enumerate(queries[1:])
                               for m in names))
    args = ["-q", "-Z", str(zscores), "-m", "all_prefs", "-R", "prefs", str(prefs), str(run)]
    status, printed, err = ours(args, capsysbinary)
    assert (status, err) == (0, b"")
    simp = [line.split(b"\t")[2] for line in printed.splitlines()
            if line.startswith(b"Zprefs_simp ") and b"\tall\t" not in line]
    assert simp[0] == b"-1000000.0000" and b"-1000000.0000" not in simp[1:]
    expected = run_trec_eval(trec_eval_10, args)
    assert expected.returncode == 0
    assert printed == expected.stdout
