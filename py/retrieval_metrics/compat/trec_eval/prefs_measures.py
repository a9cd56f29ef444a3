"""trec_eval 10's 14 preference measures (its m_prefs_*.c), over one query's ``prefs.Prefs``,
in the order of operations of its C, so that every printed digit agrees.

They read preference judgements (``-R prefs``, or a qrels file read as prefs with
``-R qrels_prefs``): judgement groups, subgroups and rel_levels, which the registry's graded
judgements (one grade per document) do not hold; so they live in trec_eval mode only.

- ``prefs_num_prefs_poss`` / ``_ful`` / ``_ful_ret``: counts of preferences possible,
  fulfilled, fulfilled with both documents retrieved (summed on the ``all`` line);
- ``prefs_simp``: fulfilled / possible over all groups; ``prefs_avgjg``: the same ratio per
  group, averaged over groups; ``prefs_pair``: per pair of documents, the share of groups whose
  preference the ranking fulfils, averaged over pairs; ``prefs_avgjg_Rnonrel``: avgjg with each
  group's non-relevant documents cut or padded to as many as its relevant ones;
- ``_ret``: only preferences between two retrieved documents; ``_imp``: also those where one
  of the two is retrieved (the default counts a preference between two unretrieved documents
  as possible and not fulfilled).

A value C never sets stays 0 (trec_eval zeroes each query's values first): a ratio with
nothing possible, and an avgjg whose sum is not above 0, a NaN included (a group with nothing
possible makes the Rnonrel sums 0/0).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from ...measures.trec_rel_list import cdiv
from .prefs import Group, Prefs
from .rankings import RankingError


def _ratio(ful: int, poss: int) -> float:
    return ful / poss if poss else 0.0


def _sums(p: Prefs, parts: tuple[str, ...], ful_parts: tuple[str, ...]) -> tuple[int, int]:
    ful = sum(getattr(g, part) for g in p.groups for part in ful_parts)
    poss = sum(getattr(g, part) for g in p.groups for part in parts)
    return ful, poss


ALL = ("poss_ret", "poss_imp", "notoccur")
IMP = ("poss_ret", "poss_imp")
RET = ("poss_ret",)
FUL = ("ful_ret", "ful_imp")
FUL_RET = ("ful_ret",)


def num_prefs_poss(p: Prefs) -> float:
    return float(_sums(p, ALL, ())[1])


def num_prefs_ful(p: Prefs) -> float:
    return float(_sums(p, (), FUL)[0])


def num_prefs_ful_ret(p: Prefs) -> float:
    return float(_sums(p, (), FUL_RET)[0])


def _simp(parts, ful_parts):
    def simp(p: Prefs) -> float:
        return _ratio(*_sums(p, parts, ful_parts))
    return simp


def _avgjg(parts, ful_parts):
    def avgjg(p: Prefs) -> float:
        total = 0.0
        for g in p.groups:
            ful = sum(getattr(g, part) for part in ful_parts)
            poss = sum(getattr(g, part) for part in parts)
            if poss:
                total += ful / poss
        return total / len(p.groups) if total > 0.0 else 0.0
    return avgjg


def _pair(areas: int, parts, ful_parts):
    """m_prefs_pair*.c: per pair of ids some group orders, the share of the groups ordering it
    that prefer the higher-ranked one, averaged over pairs; ``areas`` 3 (both retrieved, one,
    neither: the last counted as pairs only), 2 (the first two) or 1 (both retrieved)."""
    def pair(p: Prefs) -> float:
        if p.simple_pairs():  # each pair's ratio is 1 or 0: the sum is the count of 1s
            return _ratio(*_sums(p, parts, ful_parts))
        first, both, n1, n2, n3 = p.pair_sums()
        total, num_pairs = (first, n1) if areas == 1 else (both, n1 + n2)
        if areas == 3:
            num_pairs += n3
        return total / num_pairs if num_pairs else 0.0
    return pair


def _rnonrel(retrieved_only: bool):
    """m_prefs_avgjg_Rnonrel.c / _ret.c: per group, R relevant and N non-relevant documents
    (retrieved ones only, for _ret); N <= R: R * (R - N) fulfilled preferences added; N > R:
    recounted with only the first R of the last class (or, in a prefs-array group, the
    non-relevant documents up to the R-th)."""
    def rnonrel(p: Prefs) -> float:
        njr = p.num_judged_ret
        total = 0.0
        for g in p.groups:
            if retrieved_only:
                big_r, big_n = g.num_rel_ret, g.num_nonrel_ret
            else:
                big_r, big_n = g.num_rel, g.num_nonrel
            if big_r >= big_n:
                if retrieved_only:
                    ful, poss = g.ful_ret, g.poss_ret
                else:
                    ful = g.ful_ret + g.ful_imp
                    poss = g.poss_ret + g.poss_imp + g.notoccur
                ful += g.num_rel_ret * (big_r - big_n)
                poss += g.num_rel * (big_r - big_n)
            elif g.ecs is not None:
                ful, poss = _recount_ecs(g, njr, big_r, retrieved_only)
            else:
                ful, poss = _recount_array(g, njr, p.num_judged, retrieved_only)
            total += cdiv(ful, poss)
        return total / len(p.groups) if total > 0.0 else 0.0
    return rnonrel


def _recount_ecs(g: Group, njr: int, big_r: int, retrieved_only: bool) -> tuple[int, int]:
    """recalculate() of an EC group: the preferences between classes, the last left out, then
    of every class (the last one too, as trec_eval's loop runs) against the first R ids of the
    last class."""
    ecs = g.ecs
    last = ecs[-1]
    if big_r > len(last) and (not retrieved_only or all(i < njr for i in last)):
        raise RankingError("prefs_avgjg_Rnonrel: a judgement group's last rel_level class has "
                           f"fewer documents than its {big_r} relevant ones (rel_levels below "
                           "0); trec_eval 10 reads past its arrays here")
    ful = poss = 0

    def pairs(high: list[int], low: list[int]) -> tuple[int, int]:
        if retrieved_only:  # the loops stop at the first unretrieved id
            high = high[:bisect_left(high, njr)]
            low = low[:bisect_left(low, njr)]
            won = sum(len(low) - bisect_right(low, a) for a in high)
        else:
            won = sum(len(low) - bisect_right(low, a) for a in high if a < njr)
        return won, len(high) * len(low) - won

    for k1 in range(len(ecs)):
        for k2 in range(k1 + 1, len(ecs) - 1):
            won, lost = pairs(ecs[k1], ecs[k2])
            ful += won
            poss += lost
    new_last = last[:big_r]
    for ec in ecs:
        won, lost = pairs(ec, new_last)
        ful += won
        poss += lost
    return ful, poss + ful


def _recount_array(g: Group, njr: int, num_judged: int, retrieved_only: bool) -> tuple[int, int]:
    """recalculate() of a prefs-array group: the non-relevant ids after the (R+1)-th one
    (in id order; among the retrieved ones for _ret, R being num_rel all the same) left out."""
    rel = g.rel
    seen = 0
    first_discarded = njr if retrieved_only else num_judged
    for i in sorted(i for i, level in rel.items() if level == 0.0):
        if retrieved_only and i >= njr:
            break
        seen += 1
        if seen == g.num_rel + 1:
            first_discarded = i
            break

    def out(i: int) -> bool:
        return i >= first_discarded and rel.get(i, -1.0) == 0.0

    ful = poss = 0
    for i, reach in g.closure.items():
        if out(i) or (retrieved_only and i >= njr):
            continue
        for j in reach:
            if out(j) or (retrieved_only and j >= njr):
                continue
            if i < njr and j > i:
                ful += 1  # areas A1 and A3
            else:
                poss += 1
    return ful, poss + ful


VALUES = {
    "prefs_num_prefs_poss": num_prefs_poss,
    "prefs_num_prefs_ful": num_prefs_ful,
    "prefs_num_prefs_ful_ret": num_prefs_ful_ret,
    "prefs_simp": _simp(ALL, FUL),
    "prefs_pair": _pair(3, ALL, FUL),
    "prefs_avgjg": _avgjg(ALL, FUL),
    "prefs_avgjg_Rnonrel": _rnonrel(False),
    "prefs_simp_ret": _simp(RET, FUL_RET),
    "prefs_pair_ret": _pair(1, RET, FUL_RET),
    "prefs_avgjg_ret": _avgjg(RET, FUL_RET),
    "prefs_avgjg_Rnonrel_ret": _rnonrel(True),
    "prefs_simp_imp": _simp(IMP, FUL),
    "prefs_pair_imp": _pair(2, IMP, FUL),
    "prefs_avgjg_imp": _avgjg(IMP, FUL),
}
