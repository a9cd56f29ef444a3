"""The page's measure catalogue: every registered measure as plain data, in the chooser's order,
drawn from the registry alone (the CLI's ``-m`` help reads it too), in ``About.order``.
"""

from __future__ import annotations

from .registry import CHOOSER_GROUPS, MEASURES, Measure, trec_names


def catalogue() -> list[dict]:
    """Every measure as plain data, in the chooser's order (its groups, then registration
    ``About.order``): what the page draws its measure chooser and definitions from.

    ``value`` is the name to ask for: evaluate's family word at k (``mrr``: MRR at each k), an
    uncut name for the whole ranking (``map``, ``ndcg_whole``), or a group's name for a measure
    whose parameter takes trec_eval's default list (``iprec_at_recall``: its 11 points).

    >>> [(m["value"], m["label"]) for m in catalogue() if m["value"] in ("mrr", "rr", "ap")]
    [('mrr', 'MRR'), ('ap', 'AP'), ('rr', 'RR')]
    """
    out = []
    for group in CHOOSER_GROUPS:
        for m in MEASURES.values():
            if group not in m.about.groups:
                continue
            at_k = group == "cutoff"
            if at_k:
                value, shown = m.names.cut_name or m.name, m.names.cut_label or m.names.label
            else:
                value, shown = m.names.whole_name or m.name, m.names.label
            if group == "trec":
                shown = _trec_pattern(m, False) or shown
            out.append({
                "value": value,
                "label": shown or value,
                "group": group,
                "group_label": CHOOSER_GROUPS[group],
                "cutoff": "required" if at_k else "none",
                "params": {p: v for p, v in m.defaults().items() if v is not None},
                "description": m.about.description,
                "citation": m.about.citation,
                "trec_eval": _trec_pattern(m, at_k),
                "names": dict(m.names.peers),
                "default": m.about.default and at_k,
            })
    return out


def _trec_pattern(m: Measure, at_k: bool) -> str | None:
    """trec_eval's name for the chooser: with ``k`` for the cutoff (``ndcg_cut_k``)."""
    name = m.trec.name
    if name is None:
        return None
    if at_k:
        cut = name.cut if isinstance(name, trec_names) else None
        return cut.format(k="k") if cut else None
    defaults = {p: v for p, v in m.defaults().items() if v is not None}
    if m.params and not defaults:
        return m.name  # a trec_eval measure whose parameter list is its group (iprec_at_recall)
    return name(None, {}) or (name(None, defaults) if defaults else None)
