"""ir_measures' ``parse_trec_measure``: a trec_eval measure name (``P_5,10``, ``ndcg_cut.10``,
``set_F.0.5``, ``official``) as ir_measures' measure objects, read as ir_measures 0.4.3 reads
it: its table of trec_eval's names, trec_eval's default parameters, and trec_eval's nicknames
(``official``...) as ``compat.pytrec_eval.supported_nicknames`` lists them (pytrec_eval's),
skipping what it cannot read with the line ir_measures prints.

>>> from retrieval_metrics.compat.ir_measures import P
>>> parse_trec_measure("P_5,10")
[P@5, P@10]
>>> parse_trec_measure("set_F.1.0,0.5")
[SetF, SetF(beta=0.5)]
"""

from __future__ import annotations

import re

from . import api

__all__ = ["parse_trec_measure"]

_CUTOFFS = [5, 10, 15, 20, 30, 100, 200, 500, 1000]
_RECALL = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
#: trec_eval's name -> (measure, the parameter its suffix sets, trec_eval's default values);
#: a measure of None: a name ir_measures knows and does not read
TREC_NAMES = {
    "ndcg": (api.nDCG, None, None), "P": (api.P, "cutoff", _CUTOFFS),
    "map_cut": (api.AP, "cutoff", _CUTOFFS), "Rndcg": (None, None, None),
    "num_nonrel_judged_ret": (None, None, None), "set_map": (api.SetAP, None, None),
    "11pt_avg": (None, None, None), "relative_P": (None, None, None),
    "gm_map": (None, None, None), "binG": (None, None, None), "set_P": (api.SetP, None, None),
    "infAP": (api.infAP, None, None), "bpref": (api.Bpref, None, None),
    "num_rel_ret": (api.NumRelRet, None, None), "ndcg_rel": (None, None, None),
    "recip_rank": (api.RR, None, None), "recall": (api.R, "cutoff", _CUTOFFS),
    "set_recall": (api.SetR, None, None), "utility": (None, None, None),
    "set_relative_P": (api.SetRelP, None, None), "num_ret": (api.NumRet, None, None),
    "num_rel": (api.NumRel, None, None), "ndcg_cut": (api.nDCG, "cutoff", _CUTOFFS),
    "Rprec": (api.Rprec, None, None), "Rprec_mult": (None, None, None),
    "relstring": (None, None, None), "gm_bpref": (None, None, None),
    "num_q": (api.NumQ, None, None), "map": (api.AP, None, None), "G": (None, None, None),
    "success": (api.Success, "cutoff", [1, 5, 10]), "set_F": (api.SetF, "beta", [1.0]),
    "iprec_at_recall": (api.IPrec, "recall", _RECALL),
}
# pytrec_eval's pattern: a name, then "." or "_" and comma-separated numbers
_SUFFIXED = r"{}[\._]([0-9]+(\.[0-9]+)?(,[0-9]+(\.[0-9]+)?)*)"


def parse_trec_measure(measure: str) -> list:
    """The measures ``measure`` names (see the module docstring); ValueError for a name it
    does not know or does not read, in ir_measures' words."""
    from ..pytrec_eval import supported_nicknames
    if measure in supported_nicknames:
        result, skipped = [], []
        for name in sorted(supported_nicknames[measure]):
            try:
                result += parse_trec_measure(name)
            except ValueError:
                if name != "runid":
                    skipped.append(name)
        if skipped:
            print(f"skipped {skipped}: measures not yet supported")
        return result
    if measure in TREC_NAMES:
        made, parameter, defaults = TREC_NAMES[measure]
        if made is None:
            raise ValueError(f"known trec name {measure}, but not yet supported")
        if parameter is not None and defaults is not None:
            return [made(**{parameter: value}) for value in defaults]
        return [made]
    found = next(((name, match) for name in TREC_NAMES
                  if (match := re.match(_SUFFIXED.format(re.escape(name)), measure))), None)
    if found is None:
        raise ValueError(f"unkonwn measure {measure}")  # ir_measures' spelling
    name, match = found
    made, parameter, _defaults = TREC_NAMES[name]
    if made is None:
        raise ValueError(f"known trec name {measure}, but not yet supported")
    if parameter is None:
        raise ValueError(f"unknown argument for {measure}: {match.group(1)}")
    dtype = api.SIGNATURES[made.NAME][0][parameter].dtype
    return [made(**{parameter: dtype(value)}) for value in match.group(1).split(",")]
