"""The C/W/L family (Moffat, Bailey, Scholer and Thomas, TOIS 2017) as cwl_eval computes it
(Azzopardi, Thomas and Moffat, SIGIR 2019; its ``cwl/ruler/measures``): NERR8@k, NERR9@k,
NERR10, NERR11, INST, INSQ, BPM@k, RBP and TBG, with their registry entries.

A C/W/L measure is a user model: C(i), the chance that a reader at rank i goes on to rank i +
1, gives W(i), the share of the reader's attention rank i gets, W(1) = 1 / sum over j of
C(1)...C(j - 1) and W(i) = W(1) C(1)...C(i - 1). cwl_eval reports five numbers for each, and
the parameter ``quantity`` picks one (``inst(quantity=etu)``); the default is the first, the expected utility per document
examined, EU = sum of W(i) gain(i), as ir_measures reports it. With L(i) = C(1)...C(i - 1) (1 -
C(i)), the chance of stopping at rank i, and cwl_eval's unit costs: ETU = sum of L(i) times the
gain to rank i, EC = sum of W(i) (1 each), ETC = sum of L(i) i, ED = 1 / W(1) (``_do_score`` in
cwl_eval's ``cwl_metrics.py``). L reads C at the last of the 1000 ranks too, so where a
reader may go past rank 1000 (INSQ, INST, RBP, NERR10/11) the L(i) sum to less than 1, exactly
as cwl_eval computes them. TBG defines W(i) itself; its C(i) is W(i + 1) / W(i) (0 at the last
rank), as cwl_eval derives it, and its L from those.

As cwl_eval runs them (and ir_measures through it): the ranking is read to depth 1000
(``--max_depth``), shorter rankings padded with documents of gain 0; each document costs 1
(no cost file); an unjudged document has gain 0 (the lower bound; residuals are not
computed). Gains lie in [0, 1]: a grade g (below 0 read as 0) becomes (min(max(g, min_rel),
max_rel) - min_rel) / (max_rel - min_rel), ir_measures' ``min_rel``/``max_rel``; without
``max_rel`` the gain is 1 for a grade at or above the relevance threshold and 0 below, as
ir_measures' ``RBP(rel=...)``. Sums are exact (``math.fsum``) where cwl_eval's numpy sums
round, so values agree with cwl_eval's to about 1e-15.
"""

from __future__ import annotations

import math
from math import fsum

from ..errors import OptionError
from .registry import About, Measure, Names, Param, register

#: cwl_eval's --max_depth default: every ranking is read (and padded) to this depth
CWL_DEPTH = 1000
#: cwl_eval's defaults
TBG_HALFLIFE = 224.0
#: cwl_eval's five numbers per measure, in its order (``get_scores``): expected utility per
#: document, expected total utility, expected cost per document, expected total cost, depth
QUANTITIES = ("eu", "etu", "ec", "etc", "ed")


def cwl_gains(grades, threshold: int = 1, min_rel: int = 0, max_rel: float | None = None,
              depth: int = CWL_DEPTH) -> list[float]:
    """Each ranked document's gain in [0, 1], to ``depth`` (unjudged: 0): scaled from
    ``min_rel``..``max_rel`` (grades below 0 read as 0), or without ``max_rel`` 1 at or above
    the relevance threshold, else 0.

    >>> cwl_gains([3, None, 1, -1], min_rel=0, max_rel=2), cwl_gains([2, 1, None], threshold=2)
    ([1.0, 0.0, 0.5, 0.0], [1.0, 0.0, 0.0])
    """
    out = []
    for g in grades[:depth]:
        if g is None:
            out.append(0.0)
        elif max_rel is None:
            out.append(1.0 if g >= threshold else 0.0)
        else:
            rel = min(max(max(g, 0), min_rel), max_rel)
            out.append((rel - min_rel) / (max_rel - min_rel))
    return out


def _reach(continuation) -> list[float]:
    """C(1)...C(i - 1) for each rank i (1 at rank 1), multiplied in order as numpy's cumprod."""
    reach = [1.0]
    p = 1.0
    for c in continuation[:-1]:
        p *= c
        reach.append(p)
    return reach


def cwl_quantity(continuation, gains, quantity: str = "eu", weights=None) -> float:
    """One of cwl_eval's five numbers from C(1)..C(n) (``continuation``, n ranks) and the
    gains of those ranks: ``eu`` (sum of W(i) gain(i)), ``etu`` (sum of L(i) times the gain to
    rank i), ``ec`` (sum of W(i) cost(i), cost 1), ``etc`` (sum of L(i) times the cost to rank
    i, which is i) or ``ed`` (1 / W(1)); L(i) = C(1)...C(i - 1) (1 - C(i)). ``weights`` gives
    W itself (TBG's); else W(i) = C(1)...C(i - 1) / the sum of those products.

    RBP's C(i) = 1/2 over two ranks, gains 1, 1: W = 2/3, 1/3; L = 1/2, 1/4 (C(2) is read):
    ETU = 1/2 + 2/4, ETC = 1/2 + 2/4, ED = 3/2:

    >>> [cwl_quantity([0.5, 0.5], [1.0, 1.0], q) for q in QUANTITIES]
    [1.0, 1.0, 1.0, 1.0, 1.5]
    """
    if quantity not in QUANTITIES:
        raise OptionError("metrics", f"quantity must be one of {', '.join(QUANTITIES)}, "
                          f"found {quantity!r}")
    reach = _reach(continuation)
    if weights is None:
        w1 = 1.0 / fsum(reach)
        if quantity == "eu":
            return fsum((r * w1) * g for r, g in zip(reach, gains) if g)
        weights = [r * w1 for r in reach]
    elif quantity == "eu":
        return fsum(w * g for w, g in zip(weights, gains) if g)
    if quantity == "ec":
        return fsum(weights)
    if quantity == "ed":
        return 1.0 / weights[0]
    stop = [r * (1.0 - c) for r, c in zip(reach, continuation)]
    if quantity == "etc":
        return fsum(x * (i + 1.0) for i, x in enumerate(stop))
    total = _cumulative(list(gains) + [0.0] * (len(stop) - len(gains)))
    return fsum(x * t for x, t in zip(stop, total))


def _padded(gains, depth: int = CWL_DEPTH) -> list[float]:
    return gains + [0.0] * (depth - len(gains))


def _cumulative(gains):
    total, out = 0.0, []
    for g in gains:
        total += g
        out.append(total)
    return out


def nerr8(gains, k: int, depth: int = CWL_DEPTH, quantity: str = "eu") -> float:
    """NERR, equation 8 of Azzopardi, Mackenzie and Moffat (ICTIR 2021): C(i) = 1 - gain(i)
    for i < k, 0 from k on.

    Gains 0.5, 1: C = 0.5, 0 (k = 2): W = 2/3, 1/3:

    >>> round(nerr8([0.5, 1.0], k=2, depth=2), 12)
    0.666666666667
    """
    g = _padded(gains, depth)
    return cwl_quantity([1 - g[i] if i < k - 1 else 0.0 for i in range(depth)], g, quantity)


def nerr9(gains, k: int, depth: int = CWL_DEPTH, quantity: str = "eu") -> float:
    """NERR, equation 9: C(i) = i / (i + 1) (1 - gain(i)) for i < k, 0 from k on.

    >>> nerr9([0.0, 1.0], k=2, depth=2)  # C(1) = 1/2: W = 2/3, 1/3
    0.3333333333333333
    """
    g = _padded(gains, depth)
    return cwl_quantity([(1.0 * (i + 1) / (i + 2.0)) * (1.0 - g[i]) if i < k - 1 else 0.0
                         for i in range(depth)], g, quantity)


def nerr10(gains, p: float = 0.9, depth: int = CWL_DEPTH, quantity: str = "eu") -> float:
    """NERR, equation 10: C(i) = p (1 - gain(i)), to the full depth.

    >>> nerr10([1.0], p=0.9, depth=3)  # C(1) = 0: all attention on rank 1
    1.0
    """
    g = _padded(gains, depth)
    return cwl_quantity([p * (1 - x) for x in g], g, quantity)


def nerr11(gains, T: float = 1.0, depth: int = CWL_DEPTH, quantity: str = "eu") -> float:
    """NERR, equation 11: C(i) = ((i + 2T - 1) / (i + 2T))^2 (1 - gain(i)).

    >>> round(nerr11([0.0, 1.0], T=1.0, depth=2), 12), round(4 / 13, 12)  # C(1) = (2/3)^2
    (0.307692307692, 0.307692307692)
    """
    g = _padded(gains, depth)
    return cwl_quantity([((((i + 1) + (2.0 * T) - 1.0) / ((i + 1) + (2.0 * T))) ** 2.0)
                         * (1.0 - x) for i, x in enumerate(g)], g, quantity)


def inst(gains, T: float = 1.0, depth: int = CWL_DEPTH, quantity: str = "eu") -> float:
    """INST (Moffat, Bailey, Scholer and Thomas, ADCS 2015): C(i) = ((i + T + T_i - 1) / (i
    + T + T_i))^2, T_i = T - the gain so far (to rank i).

    >>> inst([1.0, 0.0], T=1.0, depth=2)  # T_1 = 0: C(1) = (1/2)^2: W = 4/5, 1/5
    0.8
    """
    g = _padded(gains, depth)
    cont = []
    for i, so_far in enumerate(_cumulative(g)):
        t_i = T - so_far
        cont.append((((i + 1.0) + T + t_i - 1.0) / ((i + 1.0) + T + t_i)) ** 2.0)
    return cwl_quantity(cont, g, quantity)


def insq(gains, T: float = 1.0, depth: int = CWL_DEPTH, quantity: str = "eu") -> float:
    """INSQ (Moffat, Scholer and Thomas, ADCS 2012): C(i) = ((i + 2T - 1) / (i + 2T))^2.

    >>> round(insq([0.0, 1.0], T=1.0, depth=2), 12), round(4 / 13, 12)  # C(1) = (2/3)^2
    (0.307692307692, 0.307692307692)
    """
    g = _padded(gains, depth)
    return cwl_quantity([(((i + 1.0) + (2.0 * T) - 1.0) / ((i + 1.0) + (2.0 * T))) ** 2.0
                         for i in range(depth)], g, quantity)


def bpm(gains, T: float = 1.0, K: int = 10, depth: int = CWL_DEPTH, quantity: str = "eu") -> float:
    """The static Bejeweled Player Model (Zhang et al., SIGIR 2017), cwl_eval's: C(i) = 1
    while the gain so far is below T and the cost so far (i documents) below K, else 0.

    >>> bpm([0.0, 1.0, 1.0], T=1.0, K=10, depth=3)  # stops after rank 2: W = 1/2, 1/2
    0.5
    """
    g = _padded(gains, depth)
    cont, going = [], True
    for i, so_far in enumerate(_cumulative(g)):
        going = going and so_far < T and (i + 1.0) < K
        cont.append(1.0 if going else 0.0)
    return cwl_quantity(cont, g, quantity)


def cwl_rbp(gains, p: float = 0.8, depth: int = CWL_DEPTH, quantity: str = "eu") -> float:
    """Rank-biased precision as a C/W/L measure: C(i) = p, W normalised over the ``depth``
    ranks (so (1 - p) / (1 - p^depth) times the usual RBP sum).

    >>> cwl_rbp([1.0, 0.0], p=0.5, depth=2)  # W = 2/3, 1/3
    0.6666666666666666
    """
    g = _padded(gains, depth)
    return cwl_quantity([p] * depth, g, quantity)


def sdcg(gains, k: int, depth: int = CWL_DEPTH, quantity: str = "eu") -> float:
    """Scaled DCG@k, cwl_eval's NDCG-k (its ``NDCGCWLMetric``): C(i) = log(i + 1) / log(i + 2)
    for i < k, 0 from k on, so W(i) is 1 / log2(i + 1) over the sum of those of the top k: DCG@k
    over the DCG@k of k documents of gain 1.

    >>> round(sdcg([1.0, 0.0, 1.0], k=2, depth=3), 12)  # 1 / (1 + 1 / log2(3))
    0.613147192765
    """
    g = _padded(gains, depth)
    return cwl_quantity([math.log(i + 1) / math.log(i + 2) if i < k else 0.0
                         for i in range(1, depth + 1)], g, quantity)


def cwl_precision(gains, k: int, depth: int = CWL_DEPTH, quantity: str = "eu") -> float:
    """P@k as a C/W/L measure (cwl_eval's ``PrecisionCWLMetric``): C(i) = 1 for i < k, 0
    from k on; with gains in [0, 1], graded precision.

    >>> cwl_precision([1.0, 0.0, 0.5], k=2, depth=3)
    0.5
    """
    g = _padded(gains, depth)
    return cwl_quantity([1.0] * (k - 1) + [0.0] * (depth - k + 1), g, quantity)


def cwl_rr(gains, depth: int = CWL_DEPTH, quantity: str = "eu") -> float:
    """Reciprocal rank as a C/W/L measure (cwl_eval's ``RRCWLMetric``): C(i) = 1 until the
    first rank with a gain, 0 from it on (0 everywhere after the last rank read).

    >>> cwl_rr([0.0, 0.0, 1.0, 1.0], depth=4)
    0.3333333333333333
    """
    g = _padded(gains, depth)
    first = next((i for i, x in enumerate(g) if x > 0), len(g))
    return cwl_quantity([1.0] * first + [0.0] * (len(g) - first), g, quantity)


def cwl_ap(gains, depth: int = CWL_DEPTH, quantity: str = "eu") -> float:
    """Average precision as a C/W/L measure (cwl_eval's ``APCWLMetric``): with r(i) =
    gain(i) / i, C(i) = (the sum of r after rank i) / (the sum of r from rank i on), 0 where
    nothing follows; over the relevant documents retrieved (cwl_eval reads no others).

    >>> round(cwl_ap([1.0, 0.0, 1.0], depth=3), 12)  # (1 + 2/3) / 2
    0.833333333333
    """
    g = _padded(gains, depth)
    ratios = [x / (i + 1) for i, x in enumerate(g)]
    after = [0.0] * len(g)  # the sum of the ratios after each rank, added from the end
    for i in range(len(g) - 2, -1, -1):
        after[i] = after[i + 1] + ratios[i + 1]
    cont = [after[i] / (after[i] + ratios[i]) if after[i] > 0.0 else 0.0
            for i in range(len(g) - 1)] + [0.0]
    return cwl_quantity(cont, g, quantity)


def _decay(x: float, halflife: float) -> float:
    return (halflife * (2.0 ** (-x / halflife))) / math.log(2.0, math.e)


def tbg(gains, halflife: float = TBG_HALFLIFE, depth: int = CWL_DEPTH,
        quantity: str = "eu") -> float:
    """Time-biased gain (Smucker and Clarke, SIGIR 2012) as cwl_eval weighs it: W(i)
    proportional to the integral of the decay h 2^(-t/h) / ln 2 at t = the cost of the
    documents above rank i (1 each), normalised over the ``depth`` ranks.

    With h = 1, weights 1 and 1/2 over two ranks: W = 2/3, 1/3:

    >>> round(tbg([0.0, 1.0], halflife=1.0, depth=2), 12)
    0.333333333333
    """
    g = _padded(gains, depth)
    weights = [_decay(0.0, halflife)]
    norm = weights[0]
    for i in range(depth - 1):
        w = _decay(i + 1.0, halflife)
        norm = norm + w
        weights.append(w)
    weights = [w / norm for w in weights]
    if quantity == "eu":
        return fsum(w * x for w, x in zip(weights, g) if x)
    # cwl_eval's TBG C(i): W(i + 1) / W(i) (0 where W(i) is 0, and at the last rank)
    cont = [weights[i + 1] / weights[i] if weights[i] > 0.0 else 0.0 for i in range(depth - 1)]
    return cwl_quantity(cont + [0.0], g, quantity, weights)


# --- registry ------------------------------------------------------------------------------

def _gains(q, min_rel, max_rel):
    if max_rel is not None and max_rel <= min_rel:
        raise OptionError("metrics", f"max_rel ({max_rel:g}) must be above min_rel ({min_rel:g}): "
                          "gains are scaled from min_rel..max_rel to 0..1")
    return cwl_gains(q.grades, q.threshold, min_rel, max_rel)


def _compute(fn, cut: str | None = None):
    """The registry's compute(q, k, **params) for ``fn(gains, **params, quantity=...)``, the
    cutoff k passed as ``fn``'s parameter ``cut`` (NERR8/9's k, BPM's K)."""
    def compute(q, k, min_rel=0, max_rel=None, quantity="eu", **params):
        if cut is not None:
            params[cut] = k
        return fn(_gains(q, min_rel, max_rel), quantity=quantity, **params)
    return compute


_SCALE = {"min_rel": Param(0, description="the grade scaled to gain 0 (with max_rel)"),
          "max_rel": Param(None, description="the grade scaled to gain 1; unset: binary gains"),
          "quantity": Param("eu", choices=QUANTITIES,
                            description="what is expected: utility per document (eu), total "
                                        "utility (etu), cost (ec), total cost (etc), depth (ed)")}
_P = Param(0.9, bounds="[0, 1)", description="persistence: the chance of reading on to the next document")
_T = Param(1.0, bounds="(0, inf)", description="the units of gain the reader is after")
_CWL = "; as cwl_eval (Azzopardi, Thomas and Moffat, SIGIR 2019) computes it"
_NERR = "Azzopardi, Mackenzie and Moffat, ICTIR 2021" + _CWL
_GAIN = (" Gains: grade >= the relevance threshold (or, with max_rel, grades scaled from "
         "min_rel..max_rel to 0..1); the ranking read to depth 1000. quantity=etu, ec, etc or ed "
         "gives cwl_eval's expected total utility, expected cost, expected total cost or "
         "expected depth instead of the expected utility per document (eu).")
_BOUNDS = {"eu": (0.0, 1.0), "ec": (0.0, 1.0), "etu": (0.0, float(CWL_DEPTH)),
           "etc": (0.0, float(CWL_DEPTH)), "ed": (1.0, float(CWL_DEPTH))}
_COMMON = {"binary": False, "whole_ranking": True,
           "bounds": lambda params: _BOUNDS[params.get("quantity", "eu")]}

def _register(name, fn, *, label, cwl_class, citation, description, order, cut=None,
              params=None, in_ir_measures=True):
    """One C/W/L measure: whole-ranking unless ``cut`` names the parameter its cutoff k fills
    (then the cutoff is required); ir_measures' name is the label where it has the measure."""
    peers = {"ir_measures": label} if in_ir_measures else {}
    register(Measure(
        name, _compute(fn, cut), cutoff="none" if cut is None else "required",
        params={**(params or {}), **_SCALE}, **_COMMON,
        names=Names(label=label, peers={**peers, "cwl_eval": cwl_class}),
        about=About(**({} if cut else {"groups": ("whole",)}), citation=citation,
                    description=description + _GAIN, order=order)))


_register("nerr8", nerr8, cut="k", label="NERR8", cwl_class="NERReq8CWLMetric", citation=_NERR,
          description="C/W/L ERR (equation 8): the reader goes on with probability 1 - gain, and "
                      "stops at k.", order=340)
_register("nerr9", nerr9, cut="k", label="NERR9", cwl_class="NERReq9CWLMetric", citation=_NERR,
          description="C/W/L ERR (equation 9): the reader goes on with probability i/(i+1) (1 - "
                      "gain), and stops at k.", order=350)
_register("nerr10", nerr10, params={"p": _P}, label="NERR10", cwl_class="NERReq10CWLMetric",
          citation=_NERR, order=360,
          description="C/W/L ERR (equation 10): the reader goes on with probability p (1 - gain).")
_register("nerr11", nerr11, params={"T": _T}, label="NERR11", cwl_class="NERReq11CWLMetric",
          citation=_NERR, order=370,
          description="C/W/L ERR (equation 11): the reader goes on with INSQ's probability for "
                      "goal T times (1 - gain).")
_register("inst", inst, params={"T": _T}, label="INST", cwl_class="INSTCWLMetric", order=380,
          citation="Moffat, Bailey, Scholer and Thomas, ADCS 2015" + _CWL,
          description="INST: a reader after T units of gain, going on less likely as the gain "
                      "still wanted falls.")
_register("insq", insq, params={"T": _T}, label="INSQ", cwl_class="INSQCWLMetric", order=390,
          citation="Moffat, Scholer and Thomas, ADCS 2012" + _CWL,
          description="INSQ: the reader goes on with probability ((i + 2T - 1) / (i + 2T))^2.")
_register("bpm", bpm, cut="K", params={"T": _T}, label="BPM", cwl_class="BPMCWLMetric",
          order=400, citation="Zhang, Liu, Li, Zhang, Xu and Ma, SIGIR 2017" + _CWL,
          description="the static Bejeweled Player Model: the reader stops at T units of gain or "
                      "after k documents, whichever comes first.")
_register("cwl_rbp", cwl_rbp, params={"p": _P._replace(default=0.8)}, label="RBP (C/W/L)",
          cwl_class="RBPCWLMetric", in_ir_measures=False, order=410,
          citation="Moffat and Zobel, TOIS 2008" + _CWL,
          description="rank-biased precision as cwl_eval weighs it: persistence p, the weights "
                      "normalised over the 1000 ranks read (rbp is the unnormalised sum).")
_register("tbg", tbg, params={"halflife": Param(TBG_HALFLIFE, bounds="(0, inf)",
                                                description="the documents after which attention halves")},
          label="TBG", cwl_class="TBGCWLMetric", in_ir_measures=False, order=420,
          citation="Smucker and Clarke, SIGIR 2012" + _CWL,
          description="time-biased gain as cwl_eval weighs it, each document costing 1: attention "
                      "halves every halflife documents.")
