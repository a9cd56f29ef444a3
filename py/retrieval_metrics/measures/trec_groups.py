"""trec_eval's ``-m`` groups: ``official`` (what trec_eval prints without ``-m``), ``all_trec``
(every measure of trec_eval's all_trec that this package computes, in trec_eval's order, with
its default parameters) and ``set``. Members are metric names, read by the registry when a
group is asked for, so this module needs none of the measure modules.

>>> from retrieval_metrics.measures.grammar import family_specs
>>> [spec.key for spec in family_specs(["set"], (10,))][:3]
['num_q', 'num_ret', 'num_rel']
"""

from __future__ import annotations

from .registry import GROUPS, MetricSpec, register_group
from .trec_eval_rows import NICKNAMES, TREC_CUTOFFS, TREC_EVAL_ORDER  # noqa: F401 (TREC_CUTOFFS: read from here too)


def official() -> list:
    """What ``trec_eval`` prints without ``-m`` (but runid, which is not a number)."""
    return (["num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
             "recip_rank"] + GROUPS["iprec_at_recall"]() + [f"P_{k}" for k in TREC_CUTOFFS])


def all_trec() -> list:
    """trec_eval 10's ``-m all_trec`` with its default parameters, in its order, less runid
    and relstring, which are not numbers (``retrieval-metrics trec_eval``
    prints them)."""
    rbp_at_trec_p = (("p", 0.9),)
    return (official() + [f"recall_{k}" for k in TREC_CUTOFFS]
            + ["infAP", "gm_bpref"] + GROUPS["rprec_mult"]()
            + ["utility", "11pt_avg", "binG", "G", "ndcg_whole", "ndcg_rel", "Rndcg"]
            + [f"ndcg_cut_{k}" for k in TREC_CUTOFFS] + [f"map_cut_{k}" for k in TREC_CUTOFFS]
            + [f"relative_P_{k}" for k in TREC_CUTOFFS] + ["success_1", "success_5", "success_10"]
            + ["set_P", "set_relative_P", "set_recall", "set_map", "set_F",
               "num_nonrel_judged_ret", MetricSpec("rbp", None, rbp_at_trec_p),
               MetricSpec("rbp_resid", None, rbp_at_trec_p), "unj_5", "unj_10", "unj_20"])


def set_group() -> list:
    """trec_eval's ``set`` nickname (``trec_eval_rows.NICKNAMES``, what the ``trec_eval`` mode
    prints) in trec_eval's order, less runid, which is not a number: each of its measures has
    the same name here."""
    wanted = set(NICKNAMES["set"]) - {"runid"}
    return [name for name in TREC_EVAL_ORDER if name in wanted]


register_group("official", official)
register_group("all_trec", all_trec)
register_group("set", set_group)
