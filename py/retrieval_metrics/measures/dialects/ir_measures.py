"""ir_measures' measure strings (``P(rel=2)@5``, ``nDCG(dcg='exp-log2')@10``, ``SetF(beta=0.5)``,
``IPrec@0.3``, ``NumRel``, ...), read with ir_measures' own grammar (a Python expression:
``Name(param=literal, ...)@at``) and computed as the provider ir_measures 0.4 picks for that
measure and those parameters computes it (pytrec_eval for most; msmarco for ``RR@k``; gdeval
for ``ERR@k`` and ``nDCG(dcg='exp-log2')@k``; cwl_eval for ``RBP(rel=..)``; its judged
provider for ``Judged``; ranx for the uncut ``nDCG(dcg='exp-log2')``).

A string ir_measures refuses, or has no provider for, is refused, naming what it would need.
``rel`` given in the string is that measure's relevance level; without it, the evaluation's
``relevance_threshold`` (default 1, ir_measures' default). Report keys are
``ir_measures:`` and ir_measures' own text form with parameters in alphabetical order.

>>> from retrieval_metrics.measures.grammar import parse_metric
>>> parse_metric("P(rel=2)@5", dialect="ir_measures").key
'ir_measures:P(rel=2)@5'
>>> parse_metric("ir_measures:nDCG(gains={0:0,1:1,2:3})@10").key
'ir_measures:nDCG(gains={2:3})@10'
"""

from __future__ import annotations

import ast

from ...errors import OptionError
from .. import trec_ranked as t
from ..core import (
    average_precision,
    hit_rate,
    ndcg,
    precision,
    r_precision,
    recall,
    reciprocal_rank,
)
from ..err import ERR_MAX_GRADE, err_at
from ..grades import num_rel_ret
from ..rbp import rbp
from ..registry import (
    MEASURES,
    About,
    Measure,
    MetricSpec,
    Names,
    Param,
    register_dialect,
    register_reading,
)
from ..trec_rel_list import rel_list
from .ranx_arith import ranx_ndcg
from .regrade import regraded
from .trec_eval_9 import iprec_at_recall_908

TOOL = "ir_measures"
PREFIX = TOOL + ":"
NOT_PROVIDED = object()  # a parameter without a default (ir_measures' NOT_PROVIDED)
#: cwl_eval's depth (ir_measures passes max_n=1000): RBP reads the top 1000 only
CWL_MAX_N = 1000


class _Param:
    """One of ir_measures' ParamInfo: its type, choices and default (``NOT_PROVIDED``: none)."""

    def __init__(self, dtype, default=NOT_PROVIDED, choices=None, required=False):
        self.dtype, self.default, self.choices, self.required = dtype, default, choices, required


def _rel(default=1):
    return _Param(int, default)


_JUDGED = _Param(bool, False)
_CUTOFF = _Param(int)
_CUTOFF_REQUIRED = _Param(int, required=True)

#: ir_measures 0.4's measures this reading computes: name -> (its parameters, the
#: parameter ``@`` sets)
SIGNATURES = {
    "P": ({"cutoff": _CUTOFF_REQUIRED, "rel": _rel(), "judged_only": _JUDGED}, "cutoff"),
    "R": ({"cutoff": _CUTOFF_REQUIRED, "rel": _rel(), "judged_only": _JUDGED}, "cutoff"),
    "RR": ({"cutoff": _CUTOFF, "rel": _rel(), "judged_only": _JUDGED}, "cutoff"),
    "AP": ({"cutoff": _CUTOFF, "rel": _rel(), "judged_only": _JUDGED}, "cutoff"),
    "nDCG": ({"cutoff": _CUTOFF, "dcg": _Param(str, "log2", ("log2", "exp-log2")),
              "gains": _Param(dict), "judged_only": _JUDGED}, "cutoff"),
    "Rprec": ({"rel": _rel(), "judged_only": _JUDGED}, "cutoff"),
    "Bpref": ({"rel": _rel()}, "cutoff"),
    "infAP": ({"rel": _rel()}, "cutoff"),
    "NumQ": ({}, "cutoff"),
    "NumRel": ({"rel": _rel()}, "cutoff"),
    "NumRet": ({"rel": _Param(int)}, "cutoff"),
    "SetP": ({"rel": _rel(), "relative": _Param(bool, False), "judged_only": _JUDGED}, "cutoff"),
    "SetR": ({"rel": _rel()}, "cutoff"),
    "SetF": ({"rel": _rel(), "beta": _Param(float, 1.0), "judged_only": _JUDGED}, "cutoff"),
    "SetAP": ({"rel": _rel(), "judged_only": _JUDGED}, "cutoff"),
    "Success": ({"cutoff": _CUTOFF_REQUIRED, "rel": _rel(), "judged_only": _JUDGED}, "cutoff"),
    "IPrec": ({"recall": _Param(float, required=True), "rel": _rel(), "judged_only": _JUDGED},
              "recall"),
    "Judged": ({"cutoff": _CUTOFF}, "cutoff"),
    "ERR": ({"cutoff": _CUTOFF}, "cutoff"),
    "RBP": ({"cutoff": _CUTOFF, "p": _Param(float, 0.8), "rel": _Param(int)}, "cutoff"),
}
#: ir_measures' other names for them (its registry's aliases)
ALIASES = {"Precision": "P", "Recall": "R", "MRR": "RR", "MAP": "AP", "NDCG": "nDCG",
           "RPrec": "Rprec", "BPref": "Bpref"}
#: names with parameters of their own: ir_measures' NumRelRet is NumRet(rel=1)
PRESETS = {"NumRelRet": ("NumRet", {"rel": 1}), "SetRelP": ("SetP", {"relative": True})}
#: ir_measures' measures this reading does not compute (unless a measure of this package
#: declares the name in ``Names.peers["ir_measures"]``), and why
NOT_READ = {
    "Accuracy": "a diagnostic that ir_measures leaves out for queries without a relevant "
                "document retrieved and that fails when none non-relevant follows the last one",
}
PROVIDED_ELSEWHERE = {  # the provider ir_measures runs for the other measures
    **{n: "pyndeval (ndeval)" for n in ("alpha_nDCG", "alpha_DCG", "α_nDCG", "α_DCG", "ERR_IA",
                                         "nERR_IA", "NRBP", "nNRBP", "P_IA", "AP_IA", "MAP_IA",
                                         "StRecall")},
    **{n: "cwl_eval" for n in ("INST", "INSQ", "NERR8", "NERR9", "NERR10", "NERR11", "BPM",
                               "SDCG")},
    "Compat": "compat",
}


# --- reading a string ---------------------------------------------------------------------

def read(text: str) -> MetricSpec:
    """An ir_measures measure string to the spec of the entry computing it."""
    name, params = parse(text)
    if name in PRESETS:
        base, preset = PRESETS[name]
        params = {**preset, **params}
        name = base
    name = ALIASES.get(name, name)
    if name not in SIGNATURES:
        return _declared(text, name, params)
    signature, _at = SIGNATURES[name]
    _validate(text, name, params, signature)
    _check_provider(text, name, params)
    cutoff = params.pop("cutoff", None)
    stored = []
    for key, value in sorted(params.items()):
        default = signature[key].default
        if key == "gains":
            value = tuple(sorted((int(a), int(b)) for a, b in value.items() if a != b))
            if not value:
                continue
        elif value == default and not (key == "rel"):
            continue
        stored.append((key, value))
    return MetricSpec(PREFIX + name, cutoff, tuple(stored))


def parse(text: str) -> tuple[str, dict]:
    """ir_measures.parse_measure's grammar: one Python expression, ``Name``, ``Name(k=v, ...)``
    and either with ``@value``; parameter values are literals."""
    if not isinstance(text, str):
        raise OptionError("metrics", f"an ir_measures measure must be a string, found {text!r}")
    try:
        body = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise OptionError("metrics", f"{text!r} is not an ir_measures measure string, such as "
                          "P@10, nDCG(dcg='exp-log2')@10 or SetF(beta=0.5)") from None
    at = None
    if isinstance(body, ast.BinOp) and isinstance(body.op, ast.MatMult):
        at = _literal(text, body.right)
        body = body.left
    params = {}
    if isinstance(body, ast.Call):
        if body.args or any(k.arg is None for k in body.keywords):
            raise OptionError("metrics", f"{text!r}: ir_measures' parameters are named, such as "
                              "P(rel=2)@5")
        params = {k.arg: _literal(text, k.value) for k in body.keywords}
        body = body.func
    if not isinstance(body, ast.Name):
        raise OptionError("metrics", f"{text!r} is not an ir_measures measure string, such as "
                          "P@10 or AP(rel=2)")
    name = body.id
    if at is not None:
        base = PRESETS.get(name, (name,))[0]
        signature = SIGNATURES.get(ALIASES.get(base, base))
        params[signature[1] if signature else "cutoff"] = at
    return name, params


def _literal(text, node):
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise OptionError("metrics", f"{text!r}: ir_measures' parameter values are literals "
                          "(numbers, 'text', True, {0: 0, 1: 1})") from None


def _validate(text, name, params, signature) -> None:
    unknown = sorted(set(params) - set(signature))
    if unknown:
        raise OptionError("metrics", f"{text!r}: ir_measures' {name} has no parameter "
                          f"{unknown[0]!r} (its parameters: {', '.join(signature) or 'none'})")
    for key, info in signature.items():
        if key not in params:
            if info.required:
                at = "@" if SIGNATURES.get(name, (None, "cutoff"))[1] == key else ""
                raise OptionError("metrics", f"{text!r}: ir_measures' {name} needs {key}"
                                  + (f", such as {name}@10" if at and key == "cutoff" else
                                     f", such as {name}@0.5" if at else ""))
            continue
        value = params[key]
        if not isinstance(value, info.dtype) or (info.dtype is int and isinstance(value, bool)
                                                 and key != "judged_only"):
            raise OptionError("metrics", f"{text!r}: ir_measures refuses {key}={value!r} "
                              f"({key} must be {info.dtype.__name__}"
                              + (", such as 1.0" if info.dtype is float else "") + ")")
        if info.choices and value not in info.choices:
            raise OptionError("metrics", f"{text!r}: {key} must be one of "
                              f"{', '.join(map(repr, info.choices))}")
        if key == "cutoff" and value < 1:
            raise OptionError("metrics", f"{text!r}: the cutoff must be at least 1")
        if key == "gains" and not all(isinstance(a, int) and isinstance(b, int)
                                      for a, b in value.items()):
            raise OptionError("metrics", f"{text!r}: gains maps whole grades to whole gains, "
                              "such as {0: 0, 1: 1, 2: 3}")


def _check_provider(text, name, params) -> None:
    """Refuses what no ir_measures provider computes, so no number here is one ir_measures
    would not give."""
    def refuse(why):
        raise OptionError("metrics", f"{text!r}: ir_measures computes no such measure ({why})")
    judged_only = params.get("judged_only", False)
    if name == "RR" and "cutoff" in params and judged_only:
        refuse("RR@k comes from its msmarco provider, which has no judged_only")
    if name == "nDCG" and params.get("dcg", "log2") == "exp-log2":
        if "gains" in params or judged_only:
            refuse("nDCG(dcg='exp-log2') comes from gdeval or ranx, which take neither gains "
                   "nor judged_only")
    if name == "NumRel" and params.get("rel", 1) != 1:
        refuse("its pytrec_eval provider reads NumRel at rel=1 only")
    if name == "ERR" and "cutoff" not in params:
        refuse("ERR comes from gdeval, which needs a cutoff: ERR@20")
    if name == "RBP":
        if "cutoff" in params:
            refuse("RBP comes from cwl_eval, which reads the whole ranking: write RBP(rel=1)")
        if "rel" not in params:
            refuse("without rel, RBP would be graded, and no provider computes that; "
                   "binary RBP is RBP(rel=1)")


def _declared(text, name, params) -> MetricSpec:
    """A measure of this package that declares ir_measures' name (``Names.peers``), with
    ir_measures' parameters as its own; else refused, naming what ir_measures runs."""
    for measure in MEASURES.values():
        if measure.names.peers.get(TOOL) == name:
            cutoff = params.pop("cutoff", None)
            unknown = sorted(set(params) - set(measure.params))
            if unknown:
                raise OptionError("metrics", f"{text!r}: {measure.name}, which computes "
                                  f"ir_measures' {name}, has no parameter {unknown[0]!r}")
            for key, value in params.items():
                refused = measure.params[key].check(text, key, value)
                if refused:
                    raise OptionError("metrics", refused)
            return MetricSpec(measure.name, cutoff,
                              tuple(sorted((k, v) for k, v in params.items()
                                           if v != measure.params[k].default)))
    if name in NOT_READ:
        raise OptionError("metrics", f"{text!r}: ir_measures' {name} is not computed here "
                          f"({NOT_READ[name]})")
    if name in PROVIDED_ELSEWHERE:
        raise OptionError("metrics", f"{text!r}: ir_measures' {name} (which it computes with "
                          f"{PROVIDED_ELSEWHERE[name]}) is not computed here yet")
    known = ", ".join(sorted(set(SIGNATURES) | set(ALIASES) | set(PRESETS)))
    raise OptionError("metrics", f"{text!r}: ir_measures has no measure {name!r}; known here: "
                      f"{known}")


register_dialect(TOOL, read)


# --- the entries ---------------------------------------------------------------------------

def _spell(name: str):
    at = SIGNATURES[name][1]

    def spell(cutoff, params):
        shown = []
        for key, value in sorted(params.items()):
            if key == at:
                continue
            if key == "gains":
                value = "{" + ",".join(f"{a}:{b}" for a, b in value) + "}"
            else:
                value = repr(value)
            shown.append(f"{key}={value}")
        text = PREFIX + name + (f"({','.join(shown)})" if shown else "")
        if at == "recall":
            return f"{text}@{params['recall']}"
        return text if cutoff is None else f"{text}@{cutoff}"
    return spell


def _q(q, p, gain="linear"):
    if not p.get("judged_only") and not p.get("gains") and p.get("rel") is None and gain == "linear":
        return q if q.gain == "linear" else regraded(q)
    return regraded(q, p.get("rel"), p.get("judged_only", False), p.get("gains", ()), gain)


def _nonzero_r(f):
    return lambda q, k, **p: (lambda qq: f(qq, k) if qq.num_relevant else 0.0)(_q(q, p))


def _ndcg(q, k, dcg="log2", gains=(), judged_only=False):
    if dcg == "exp-log2" and k is None:  # ranx's ndcg_burges (rel_lvl 1), the whole ranking
        return ranx_ndcg(q.grades, q.judged.values(), None, 1, burges=True)
    qq = _q(q, {"gains": gains, "judged_only": judged_only},
            "exponential" if dcg == "exp-log2" else "linear")
    if k is None:
        return ndcg(qq)
    value = ndcg(qq, k) if qq.ideal else 0.0
    return gdeval_printed(value) if dcg == "exp-log2" else value


def gdeval_printed(value: float) -> float:
    """A value as ir_measures reads it back from gdeval.pl, which prints 5 decimals.

    >>> gdeval_printed(0.4687499)
    0.46875
    """
    return float(f"{value:.5f}")


def _set_p(q, k, relative=False, **p):
    qq = _q(q, p)
    if relative:
        return t.set_relative_precision(rel_list(qq))
    return t.set_precision(rel_list(qq))


def _set_ap(q, k, **p):
    return t.set_map(rel_list(_q(q, p)))  # pytrec_eval's set_map: rel_ret^2 / (ret * rel)


def _num_ret(q, k, rel=None):
    return float(len(q.ranked)) if rel is None else float(num_rel_ret(_q(q, {"rel": rel}).grades, rel))


def _judged(q, k):
    grades = [q.judged.get(d) for d in q.ranked]
    top = grades[:k] if k else grades
    return sum(1 for g in top if g is not None) / len(top) if top else 0.0


def _err_at(q, k):
    return gdeval_printed(err_at(q, k, ERR_MAX_GRADE))


COMPUTE = {
    "P": lambda q, k, **p: precision(_q(q, p), k),
    "R": _nonzero_r(recall),
    "RR": lambda q, k, **p: reciprocal_rank(_q(q, p), k),
    "AP": _nonzero_r(average_precision),
    "nDCG": _ndcg,
    "Rprec": _nonzero_r(lambda qq, k: r_precision(qq)),
    "Bpref": lambda q, k, **p: t.bpref(rel_list(_q(q, p))),
    "infAP": lambda q, k, **p: t.inferred_ap(rel_list(_q(q, p))),
    "NumQ": lambda q, k: 1.0,
    "NumRel": lambda q, k, **p: float(_q(q, p).num_relevant),
    "NumRet": _num_ret,
    "SetP": _set_p,
    "SetR": lambda q, k, **p: t.set_recall(rel_list(_q(q, p))),
    "SetF": lambda q, k, beta=1.0, **p: t.set_f(rel_list(_q(q, p)), beta),
    "SetAP": _set_ap,
    "Success": lambda q, k, **p: hit_rate(_q(q, p), k),
    "IPrec": lambda q, k, recall, **p: (lambda qq: iprec_at_recall_908(qq.grades, qq.num_relevant, recall, qq.threshold))(_q(q, p)),
    "Judged": _judged,
    "ERR": _err_at,
    "RBP": lambda q, k, p=0.8, rel=1: rbp(_q(q, {"rel": rel}).grades[:CWL_MAX_N], p, rel),
}
DESCRIPTIONS = {
    "P": "ir_measures' P (pytrec_eval's P_k)", "R": "ir_measures' R (pytrec_eval's recall_k)",
    "RR": "ir_measures' RR (pytrec_eval's recip_rank; with a cutoff, msmarco's MRR@k)",
    "AP": "ir_measures' AP (pytrec_eval's map, map_cut_k)",
    "nDCG": "ir_measures' nDCG (pytrec_eval's ndcg, ndcg_cut_k; exp-log2: gdeval's at k, to 5 "
            "decimals as gdeval prints it, ranx's ndcg_burges without)",
    "Rprec": "ir_measures' Rprec", "Bpref": "ir_measures' Bpref", "infAP": "ir_measures' infAP",
    "NumQ": "ir_measures' NumQ: the number of queries (summed)",
    "NumRel": "ir_measures' NumRel: relevant documents (summed over queries)",
    "NumRet": "ir_measures' NumRet: documents retrieved, or with rel those relevant (summed)",
    "SetP": "ir_measures' SetP", "SetR": "ir_measures' SetR",
    "SetF": "ir_measures' SetF (trec_eval's set_F: beta weighs recall, unsquared)",
    "SetAP": "ir_measures' SetAP (set_P times set_recall)", "Success": "ir_measures' Success",
    "IPrec": "ir_measures' IPrec (pytrec_eval's iprec_at_recall: trec_eval 9.0.8's level * R + 0.9)",
    "Judged": "ir_measures' Judged: share of the top k with a judgement",
    "ERR": "ir_measures' ERR@k (gdeval's, to 5 decimals as gdeval prints it)",
    "RBP": "ir_measures' RBP(rel=..) (cwl_eval's: binary, the top 1000)",
}
_COUNTS = ("NumQ", "NumRel", "NumRet")

for _name, (_signature, _at) in SIGNATURES.items():
    _params = {k: Param(None if k == "rel" else (v.default if v.default is not NOT_PROVIDED else None))
               for k, v in _signature.items() if k != "cutoff"}
    if _name == "NumRet":
        _params = {"rel": Param(None)}
    register_reading(Measure(
        PREFIX + _name, COMPUTE[_name],
        cutoff="required" if _signature.get("cutoff") is _CUTOFF_REQUIRED else
               "optional" if "cutoff" in _signature else "none", params=_params, binary=False,
        whole_ranking=True, count=_name in _COUNTS, aggregate="sum" if _name in _COUNTS else "mean",
        names=Names(spell=_spell(_name), label=PREFIX + _name, peers={TOOL: _name}),
        about=About(groups=(), description=DESCRIPTIONS[_name])))
