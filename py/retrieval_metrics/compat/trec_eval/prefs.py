"""One query's preference judgements against its ranking, as trec_eval 10's
form_prefs_counts.c counts them; what every ``prefs_*`` measure reads.

1. Document ids (form_prefs_and_ranks): the results sorted by score, highest first, equal scores
   by document id *ascending* (not descending as for qrels: form_prefs_counts.c has its own
   comparison), cut to ``-M``; each judged document retrieved gets its rank among the judged
   retrieved ones (0, 1, ...), each judged document not retrieved the next ids in document id
   order. ``num_judged_ret`` of them are retrieved; a lower id is ranked higher.
2. Judgement groups (JGs): the judgement lines sorted by group, subgroup, rel_level descending,
   id. A group with one subgroup is a list of equivalence classes (ECs), one per rel_level,
   highest first: every document of a higher class is preferred to every one of a lower.
   A group with several subgroups is a preference relation (trec_eval's prefs array): within
   each subgroup, higher over lower, then closed under transitivity; a document given 0 in one
   line and above 0 in another, or a preference that closes a cycle, is refused (trec_eval
   stops or aborts).
3. Counts, per group: preferences A > B fulfilled and possible, where both are retrieved
   (``_ret``), exactly one is (implied, ``_imp``: fulfilled when A is the retrieved one) or
   neither is (``notoccur``, never fulfilled); the relevant (rel_level > 0) and non-relevant
   documents and how many are retrieved; and, over all groups, how many groups prefer id i to
   id j (trec_eval's unsigned short counts array, wrapping at 65536 as it does; built here
   row by row from the groups, only for the pair measures).

trec_eval's quirks are kept, because its output is the reference: an EC group whose highest
rel_level is exactly -3.0 (its "illegal" start value) loses its lowest class; in EC groups a
rel_level below 0 counts as non-relevant, in prefs-array groups as neither; a document listed
twice at one rel_level of an EC group is counted twice.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from functools import reduce
from itertools import accumulate
from operator import add

from .rankings import RankingError, refuse_repeats

#: form_prefs_counts.c's start value of the rel_level it compares each line with
ILLEGAL_LEVEL = -3.0
#: the counts array holds C unsigned shorts
USHORT = 0xFFFF


class Group:
    """One judgement group's counts (trec_eval's JG), and what the Rnonrel measures
    recount: ``ecs`` (the classes' sorted ids, highest rel_level first; None for a prefs-array
    group), ``levels`` (their rel_levels), ``closure`` (id -> ids it is preferred to) and
    ``rel`` (id -> rel_level; -1.0 for the ids the group does not judge) for the others."""

    __slots__ = ("ecs", "levels", "closure", "rel", "ful_ret", "poss_ret", "ful_imp",
                 "poss_imp", "notoccur", "num_rel", "num_rel_ret", "num_nonrel",
                 "num_nonrel_ret", "repeated")

    def __init__(self):
        self.ecs = self.levels = self.closure = self.rel = None
        self.ful_ret = self.poss_ret = self.ful_imp = self.poss_imp = self.notoccur = 0
        self.num_rel = self.num_rel_ret = self.num_nonrel = self.num_nonrel_ret = 0
        self.repeated = False  # an id listed twice in one class (EC groups)


class Prefs:
    """One query's preferences against its ranking (trec_eval's RESULTS_PREFS)."""

    __slots__ = ("groups", "num_judged", "num_judged_ret", "_pairs")

    def __init__(self, groups: list[Group], num_judged: int, num_judged_ret: int):
        self.groups = groups
        self.num_judged = num_judged
        self.num_judged_ret = num_judged_ret
        self._pairs = None

    def simple_pairs(self) -> bool:
        """Whether every pair of ids is preferred by at most one group, one way (one group,
        no id repeated in a class): then each pair's ratio is 1 or 0 and the pair measures
        are the counts' ratios, without the counts array."""
        return len(self.groups) == 1 and not self.groups[0].repeated

    def pair_sums(self) -> tuple[float, float, int, int, int]:
        """What m_prefs_pair*.c add up over the counts array (CA[i][j]: how many groups prefer
        id i to id j), for each pair i < j that some group orders: CA[i][j] / (CA[i][j] +
        CA[j][i]) added in C's order (both retrieved, row after row; then i retrieved and j
        not), and the number of such pairs in each of the three areas (both retrieved, one,
        neither). Returns (sum of the first area, sum of the first two, n1, n2, n3).

        Rather than the num_judged x num_judged array, each row is built from the groups: an
        id's row depends only on its class (and count of listings) in each EC group and, in
        a prefs-array group, on the id itself, so ids alike share one row.
        """
        if self._pairs is None:
            self._pairs = _pair_sums(self)
        return self._pairs


def _pair_sums(p: Prefs) -> tuple[float, float, int, int, int]:
    njr, nj = p.num_judged_ret, p.num_judged
    where: list[list] = [[] for _ in range(nj)]  # id -> [(group, its part of the row key)]
    reverse: dict[int, dict[int, list[int]]] = {}
    for n, g in enumerate(p.groups):
        if g.ecs is not None:
            for k, ec in enumerate(g.ecs):
                times: dict[int, int] = {}
                for i in ec:
                    times[i] = times.get(i, 0) + 1
                for i, m in times.items():
                    where[i].append((n, k, m))
        else:
            back: dict[int, list[int]] = {}
            for i, lows in g.closure.items():
                for j in lows:
                    back.setdefault(j, []).append(i)
            reverse[n] = back
            for i in g.closure.keys() | back.keys():
                where[i].append((n, i, 1))
    rows: dict[tuple, tuple] = {}

    def row(i: int) -> tuple:
        key = tuple(where[i])
        got = rows.get(key)
        if got is None:
            ahead = [0] * nj  # CA[i][j]
            behind = [0] * nj  # CA[j][i]
            for n, k, m in key:
                g = p.groups[n]
                if g.ecs is not None:
                    for k2, ec in enumerate(g.ecs):
                        if k2 != k:
                            side = ahead if k2 > k else behind
                            for j in ec:
                                side[j] += m
                else:
                    for j in g.closure.get(k, ()):
                        ahead[j] += 1
                    for j in reverse[n].get(k, ()):
                        behind[j] += 1
            if max(ahead) > USHORT or max(behind) > USHORT:
                ahead = [c & USHORT for c in ahead]
                behind = [c & USHORT for c in behind]
            ratios = array("d", [a / (a + b) if a else 0.0 for a, b in zip(ahead, behind)])
            ordered = array("q", accumulate((1 if a or b else 0 for a, b in zip(ahead, behind)),
                                            initial=0))
            if len(rows) > 256:
                rows.clear()
            got = rows[key] = (ratios, ordered)
        return got

    total = 0.0
    n1 = n2 = n3 = 0
    for i in range(njr):
        ratios, ordered = row(i)
        total = reduce(add, filter(None, ratios[i + 1:njr]), total)  # zeros add nothing
        n1 += ordered[njr] - ordered[i + 1]
    first = total
    for i in range(njr):
        ratios, ordered = row(i)
        total = reduce(add, filter(None, ratios[njr:]), total)
        n2 += ordered[nj] - ordered[njr]
    for i in range(njr, nj):
        ordered = row(i)[1]
        n3 += ordered[nj] - ordered[i + 1]
    return first, total, n1, n2, n3


def ranked_judged(results: list[tuple[bytes, float]], judged: set[bytes],
                  max_docs: int) -> list[bytes]:
    """The judged documents retrieved, best first, as form_prefs_and_ranks orders them (score
    descending, equal scores by document id ascending), after the cut to ``max_docs``;
    refuses a document listed twice among those kept.

    >>> ranked_judged([(b"c", 1.0), (b"a", 1.0), (b"x", 2.0), (b"b", 0.5)], {b"a", b"b", b"c"}, 3)
    [b'a', b'c']
    """
    docs = sorted(results, key=lambda d: d[0])
    docs.sort(key=lambda d: d[1], reverse=True)  # stable: equal scores keep ascending ids
    kept = [d for d, _sim in docs[:max(max_docs, 0)]]
    refuse_repeats(kept)
    return [d for d in kept if d in judged]


def counts(lines: list[tuple], results: list[tuple[bytes, float]], max_docs: int) -> Prefs:
    """The preference counts of one query: ``lines`` its judgements [(jg, jsg, docno,
    rel_level)], ``results`` its [(docno, score)].

    >>> p = counts([(b"u", b"s", b"d1", 2.0), (b"u", b"s", b"d2", 1.0), (b"u", b"s", b"d3", 0.0)],
    ...            [(b"d3", 5.0), (b"d1", 5.0), (b"d2", 4.0)], 1000)
    >>> g = p.groups[0]
    >>> p.num_judged_ret, g.ful_ret, g.poss_ret, g.num_rel, g.num_nonrel_ret
    (3, 2, 3, 2, 1)
    """
    judged = {line[2] for line in lines}
    retrieved = ranked_judged(results, judged, max_docs)
    ids = {d: i for i, d in enumerate(retrieved)}
    num_judged_ret = len(ids)
    for d in sorted(judged - ids.keys()):
        ids[d] = len(ids)
    ordered = sorted(((jg, jsg, level, ids[d], d) for jg, jsg, d, level in lines),
                     key=lambda x: (x[0], x[1], -x[2], x[3]))
    groups = []
    start = 0
    for end in range(1, len(ordered) + 1):
        if end == len(ordered) or ordered[end][0] != ordered[start][0]:
            group_lines = ordered[start:end]
            if len({line[1] for line in group_lines}) > 1:
                groups.append(_array_group(group_lines, num_judged_ret, len(ids)))
            else:
                groups.append(_ec_group(group_lines, num_judged_ret))
            start = end
    return Prefs(groups, len(ids), num_judged_ret)


def _ec_group(lines: list[tuple], njr: int) -> Group:
    """form_jg_ec and add_ec_pref_to_jg: one subgroup, classes by rel_level."""
    g = Group()
    ecs: list[list[int]] = []
    levels: list[float] = []
    for _jg, _jsg, level, i, _d in lines:
        if not levels or level != levels[-1]:
            ecs.append([])
            levels.append(level)
        ecs[-1].append(i)
    if levels[0] == ILLEGAL_LEVEL:  # trec_eval counts the classes from -3.0 on
        ecs, levels = ecs[:-1], levels[:-1]
    g.ecs, g.levels = ecs, levels
    g.repeated = any(len(set(ec)) != len(ec) for ec in ecs)
    seen: dict[int, int] = {}
    for k, ec in enumerate(ecs):
        for i in ec:
            if seen.setdefault(i, k) != k:
                doc = next(d for _j, _s, _l, x, d in lines if x == i)
                raise RankingError(f"document {doc.decode(errors='replace')} has two different "
                                   "rel_levels in one judgement subgroup")
    ret = [bisect_left(ec, njr) for ec in ecs]
    for k, ec in enumerate(ecs):
        if levels[k] > 0.0:
            g.num_rel_ret += ret[k]
            g.num_rel += len(ec)
        else:
            g.num_nonrel_ret += ret[k]
            g.num_nonrel += len(ec)
    for k1, high in enumerate(ecs):
        a_ret, a_not = ret[k1], len(high) - ret[k1]
        for k2 in range(k1 + 1, len(ecs)):
            low = ecs[k2]
            b_ret, b_not = ret[k2], len(low) - ret[k2]
            for a in high[:a_ret]:
                below = bisect_left(low, a, 0, b_ret)
                g.poss_ret += below  # a retrieved below b: not fulfilled
                g.ful_ret += b_ret - bisect_right(low, a, 0, b_ret)
            g.ful_imp += a_ret * b_not
            g.poss_imp += a_not * b_ret
            g.notoccur += a_not * b_not
    g.poss_ret += g.ful_ret
    g.poss_imp += g.ful_imp
    return g


def _array_group(lines: list[tuple], njr: int, num_judged: int) -> Group:
    """form_jg_pa, add_transitives and add_pa_pref_to_jg: several subgroups, a preference
    relation closed under transitivity."""
    g = Group()
    rel: dict[int, float] = {}
    for _jg, _jsg, level, i, d in lines:
        old = rel.get(i, -1.0)
        if (old > 0.0 and level == 0.0) or (old == 0.0 and level > 0.0):
            raise RankingError(f"document {d.decode(errors='replace')} has both 0 and non-0 "
                               "rel_level assigned in one judgement group")
        rel[i] = level
    edges: dict[int, set[int]] = {}
    start = 0
    for end in range(1, len(lines) + 1):
        if end == len(lines) or lines[end][1] != lines[start][1]:
            sub = lines[start:end]  # one subgroup, rel_level descending
            for x, (_jg, _jsg, level, i, _d) in enumerate(sub):
                lower = [j for _g, _s, lv, j, _dd in sub[x + 1:] if lv != level]
                if lower:
                    edges.setdefault(i, set()).update(j for j in lower if j != i)
            start = end
    closure: dict[int, set[int]] = {}
    for i in edges:
        reach: set[int] = set()
        stack = [i]
        while stack:
            for j in edges.get(stack.pop(), ()):
                if j not in reach:
                    reach.add(j)
                    stack.append(j)
        reach.discard(i)
        closure[i] = reach
    for i, reach in closure.items():
        for j in reach:
            if i in closure.get(j, ()):
                raise RankingError("judgement group "
                                   f"{lines[0][0].decode(errors='replace')}: its preferences "
                                   "contradict each other (one document is both above and "
                                   "below another; trec_eval aborts here)")
    g.closure, g.rel = closure, rel
    for i, level in rel.items():
        if level > 0.0:
            g.num_rel += 1
            g.num_rel_ret += i < njr
        elif level == 0.0:
            g.num_nonrel += 1
            g.num_nonrel_ret += i < njr
    for i, reach in closure.items():
        for j in reach:
            if i < njr:
                if j < i:
                    g.poss_ret += 1
                elif j < njr:
                    g.ful_ret += 1
                else:
                    g.ful_imp += 1
            elif j < njr:
                g.poss_imp += 1
            else:
                g.notoccur += 1
    g.poss_ret += g.ful_ret
    g.poss_imp += g.ful_imp
    return g
