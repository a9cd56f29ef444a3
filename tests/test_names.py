"""Metric names: every spelling of issue 9 to one spec, clear refusals, and the registry's
extension path (a measure with a parameter, declared in the test)."""

from __future__ import annotations

import pytest
from retrieval_metrics import evaluate
from retrieval_metrics.errors import OptionError
from retrieval_metrics.measures import grammar
from retrieval_metrics.measures import registry as names
from retrieval_metrics.measures.grades import no_relevant
from retrieval_metrics.measures.grammar import parse_metric
from retrieval_metrics.measures.registry import Measure, MetricSpec, Names, Param

SPELLINGS = {
    # ours
    "ndcg@3": ("ndcg", 3, "ndcg@3"), "mrr": ("rr", None, "rr"), "mrr@10": ("rr", 10, "mrr@10"),
    "hit_rate@1": ("hit_rate", 1, "hit_rate@1"), "recall@10": ("recall", 10, "recall@10"),
    "map": ("map", None, "map"), "rprec": ("rprec", None, "rprec"), "rr": ("rr", None, "rr"),
    "ap@5": ("map", 5, "ap@5"), "judged@10": ("judged", 10, "judged@10"),
    "precision@5": ("precision", 5, "precision@5"),
    # ir_measures
    "nDCG@10": ("ndcg", 10, "ndcg@10"), "RR@10": ("rr", 10, "mrr@10"), "RR": ("rr", None, "rr"),
    "P@5": ("precision", 5, "precision@5"), "R@100": ("recall", 100, "recall@100"),
    "AP": ("map", None, "map"), "AP@10": ("map", 10, "ap@10"), "Rprec": ("rprec", None, "rprec"),
    "Success@5": ("hit_rate", 5, "hit_rate@5"), "Judged@10": ("judged", 10, "judged@10"),
    # trec_eval
    "P_5": ("precision", 5, "precision@5"), "ndcg_cut_10": ("ndcg", 10, "ndcg@10"),
    "recip_rank": ("rr", None, "rr"), "success_5": ("hit_rate", 5, "hit_rate@5"),
    "map_cut_100": ("map", 100, "ap@100"), "recall_1000": ("recall", 1000, "recall@1000"),
    "ndcg": ("ndcg", None, "ndcg"), "P.5": ("precision", 5, "precision@5"),
    # spacing and case
    " NDCG @ 3 ": ("ndcg", 3, "ndcg@3"), "Hit_Rate@1": ("hit_rate", 1, "hit_rate@1"),
}


@pytest.mark.parametrize("name", SPELLINGS)
def test_spellings(name):
    measure, cutoff, key = SPELLINGS[name]
    spec = parse_metric(name)
    assert spec == MetricSpec(measure, cutoff, ())
    assert spec.key == key


@pytest.mark.parametrize("name, words", [
    ("ndgc@10", ["unknown metric 'ndgc@10'", "ndcg", "recall", "rprec", "P_5"]),
    ("ndcg@0", ["cutoff must be a whole number from 1"]),
    ("precision", ["'precision' needs a cutoff", "precision@10"]),
    ("ndcg_cut", ["needs a cutoff"]),
    ("success", ["needs a cutoff"]),
    ("rprec@5", ["takes no cutoff"]),
    ("recip_rank@5", ["takes no cutoff"]),
    ("ndcg(p=2)@5", ["unknown parameter 'p=2'", "none"]),
    ("", ["unknown metric"]),
    ("@5", ["unknown metric"]),
])
def test_refusals_say_what_is_valid(name, words):
    with pytest.raises(OptionError) as info:
        parse_metric(name)
    assert info.value.field == "metrics"
    for word in words:
        assert word in info.value.message


def test_a_non_string_name_is_an_option_error():
    with pytest.raises(OptionError, match="must be a string"):
        parse_metric(10)


def test_family_names_in_evaluate_expand_over_k_but_uncut_names_do_not():
    specs = grammar.family_specs(["recall", "mrr", "rr", "map", "ap", "hit_rate@1", "P_5",
                                "recip_rank"], (1, 3))
    assert [s.key for s in specs] == ["recall@1", "recall@3", "mrr@1", "mrr@3", "ap@1", "ap@3",
                                      "hit_rate@1", "precision@5", "rr", "map"]


QRELS = {"q1": {"d1": 2, "d4": 1}, "q2": ["d3"]}
RUN = {"q1": ["d4", "d2", "d1"], "q2": ["d5", "d3"]}


def test_evaluate_takes_names_with_their_own_cutoff():
    # q1: d4 relevant at rank 1 -> hit 1, P_2 = 1/2; q2: d5 not, d3 at rank 2 -> hit 0, P_2 = 1/2
    report = evaluate(QRELS, RUN, k=3, metrics=["hit_rate@1", "P_2", "ndcg"])
    assert report.keys == ["hit_rate@1", "precision@2", "ndcg@3"]
    assert report.mean["hit_rate@1"] == 0.5
    assert report.mean["precision@2"] == 0.5


@pytest.fixture
def scaled_recall():
    """A made-up measure with a parameter, declared as the module docstring says."""
    measure = names.register(Measure(
        "scaled_recall", lambda q, k, scale: scale * sum(1 for g in q.binary[:k] if g) / q.num_relevant,
        params={"scale": Param(1.0)}, undefined=no_relevant,
        names=Names(aliases=("sr",))))
    yield measure
    del names.MEASURES["scaled_recall"], names.BY_NAME["scaled_recall"]
    del names.ALIASES["scaled_recall"], names.ALIASES["sr"]


def test_a_registered_measure_with_a_parameter(scaled_recall):
    spec = parse_metric("SR(scale=2)@2")
    assert spec == MetricSpec("scaled_recall", 2, (("scale", 2.0),))
    assert spec.key == "scaled_recall(scale=2.0)@2"
    assert parse_metric("sr(scale=1)@2").key == "scaled_recall@2"  # a default is left out
    # q1: d4 (1) and d2 (unjudged) in the top 2, 2 relevant -> 2 * 1/2; q2: d3 at 2 of 1 -> 2 * 1
    report = evaluate(QRELS, RUN, metrics=["sr(scale=2)@2"])
    assert report.per_query["q1"]["scaled_recall(scale=2.0)@2"] == 1.0
    assert report.per_query["q2"]["scaled_recall(scale=2.0)@2"] == 2.0
    with pytest.raises(OptionError, match="scale must be a number"):
        parse_metric("sr(scale=x)@2")


def test_an_alias_cannot_name_two_measures():
    with pytest.raises(ValueError, match="already names"):
        names.register(Measure(
            "other", lambda q, k: 0.0,
            names=Names(aliases=("p",))))
    assert "other" not in names.BY_NAME and "other" not in names.ALIASES


def test_only_the_exact_family_words_expand_in_evaluate():
    # "ndcg" is evaluate's family (each k); ir_measures' "nDCG" and "R" are the whole ranking
    specs = grammar.family_specs(["R", "nDCG", "ndcg"], (5,))
    assert [s.key for s in specs] == ["ndcg@5", "recall", "ndcg"]


def test_evaluate_with_k_none_keys_the_names_as_written():
    # the retriever case's names (docs/api.md): recall@1, mrr (no cutoff), ndcg@3, as given
    report = evaluate(QRELS, RUN, k=None, metrics=["recall@1", "mrr", "nDCG@3", "RR"])
    assert report.keys == ["recall@1", "mrr", "nDCG@3", "RR"]
    # q1: d4 of {d1, d4} -> 1/2; q2: d5 -> 0. mrr: (1 + 1/2) / 2. nDCG@3: the spec's 0.6956
    assert report.mean["recall@1"] == 0.25
    assert report.mean["mrr"] == report.mean["RR"] == 0.75
    assert round(report.mean["nDCG@3"], 4) == 0.6956
    assert report.k == (1, 3)


@pytest.mark.parametrize("name, tool", [
    ("P(rel=2)@5", "ir_measures"), ("AP(rel=2)", "ir_measures"), ("RR(rel=2)", "ir_measures"),
    ("SetF(beta=0.5)", "ir_measures"), ("dcg@5", "ranx"), ("ndcg_burges@5", "ranx"),
])
def test_a_peer_name_refused_says_whose_it_is_and_how_to_ask_for_it_first(name, tool):
    with pytest.raises(OptionError) as caught:
        parse_metric(name)
    first = str(caught.value).split(". ")[0]
    assert first.startswith(f"{name!r} is {tool}") and f"write {tool}:{name}" in first
    assert f"dialect={tool!r}" in first
    assert parse_metric(f"{tool}:{name}") == parse_metric(name, dialect=tool)  # what it says works


def test_a_name_no_tool_reads_keeps_the_plain_refusal():
    with pytest.raises(OptionError, match=r"^unknown metric 'foo@5'; known: "):
        parse_metric("foo@5")


# --- a parameter's interval, checked once by the grammar for every measure ---------------------

@pytest.mark.parametrize("name, message", [
    # each gave a number with no meaning (rbp -1.625), or a traceback (INST: ZeroDivisionError,
    # alpha-nDCG at alpha 2: TypeError) before the intervals were declared
    ("rbp(p=1.5)", "'rbp(p=1.5)': p must be at least 0 and below 1, found 1.5"),
    ("rbp_resid(p=1)", "'rbp_resid(p=1)': p must be at least 0 and below 1, found 1"),
    ("INST(T=-1)", "'INST(T=-1)': T must be above 0, found -1"),
    ("alpha_ndcg(alpha=2)@5", "'alpha_ndcg(alpha=2)@5': alpha must be from 0 to 1, found 2"),
    ("err(max_grade=0)@5", "'err(max_grade=0)@5': max_grade must be at least 1, found 0"),
    ("tbg(halflife=0)", "'tbg(halflife=0)': halflife must be above 0, found 0"),
    ("nrbp(beta=1)", "'nrbp(beta=1)': beta must be above 0 and below 1, found 1"),
    ("set_F(beta=-1)", "'set_F(beta=-1)': beta must be at least 0, found -1"),
    ("ir_measures:Compat(p=2.0)", "'Compat(p=2.0)': p must be above 0 and below 1, found 2"),
])
def test_a_parameter_outside_its_interval_is_refused_by_name(name, message):
    with pytest.raises(OptionError) as caught:
        evaluate({"q1": {"a": 1}}, {"q1": ["a"]}, metrics=[name])
    assert caught.value.message == message


def test_the_ends_of_an_interval_that_are_in_it_are_read():
    # p = 0: the reader stops after the first document, so RBP is its gain (1 - 0) * 1;
    # alpha = 1: a subtopic seen once is worth nothing more (one relevant document: 1.0)
    report = evaluate({"q1": {"a": 1, "b": 1}}, {"q1": ["a", "b"]},
                      metrics=["rbp(p=0)", "alpha_ndcg(alpha=1)@5", "set_F(beta=0)"])
    assert report.mean == {"rbp(p=0.0)": 1.0, "alpha_ndcg(alpha=1.0)@5": 1.0,
                           "set_F(beta=0.0)": 1.0}


def test_every_parameter_is_a_param_with_a_description():
    for measure in names.MEASURES.values():
        for key, param in measure.params.items():
            assert isinstance(param, Param) and param.description, (measure.name, key)


def test_a_plain_default_is_refused_at_registration_naming_the_parameter():
    with pytest.raises(ValueError, match="parameter 'p' must be a Param"):
        names.register(Measure("flat", lambda q, k, p=1: 0.0, params={"p": 1}))
    assert "flat" not in names.BY_NAME


def test_the_order_is_explicit_and_the_core_measures_come_first():
    orders = [m.about.order for m in names.MEASURES.values()]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)
    assert list(names.MEASURES)[:4] == ["recall", "precision", "rr", "ndcg"]
    assert grammar.known_names().startswith("recall[@k], precision@k, rr, mrr@k, ndcg[@k]")


def test_the_names_once_imported_from_the_registry_still_are():
    from retrieval_metrics.measures.registry import label, parse_metric, trec_name
    assert parse_metric("P_5").key == "precision@5"
    assert (label("ndcg@10"), trec_name("ndcg@10")) == ("nDCG@10", "ndcg_cut_10")


@pytest.mark.parametrize("bounds", ["[0, 1", "[a, 1)", "[0, 1, 2]", "0, 1"])
def test_an_interval_that_does_not_read_as_one_is_refused_at_registration(bounds):
    with pytest.raises(ValueError, match=r"flat: p's bounds must read like '\[0, 1\)'"):
        names.register(Measure("flat", lambda q, k, p=1: 0.0, params={"p": Param(1, bounds=bounds)}))
    assert "flat" not in names.BY_NAME
