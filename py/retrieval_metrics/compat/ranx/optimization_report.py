"""ranx's ``OptimizationReport`` (``optimize_fusion(..., return_optimization_report=True)``):
every parameter value a fusion method's search tried and its score, printed as ranx prints it.

ranx draws the table with rich; rich writing to a file (not a terminal) prints its box
characters and drops its colours, and that text is what ``str()`` gives here, character for
character, without rich (``tests/test_compat_ranx_fusion.py`` compares it with ranx's).

>>> print(OptimizationReport("rrf", ["10", "20"], [0.5, 0.75], "ndcg@10"), end="")
      RRF       
┏━━━━┳━━━━━━━━━┓
┃ k  ┃ NDCG@10 ┃
┡━━━━╇━━━━━━━━━┩
│ 10 │  0.500  │
│ 20 │  0.750  │
└────┴─────────┘
"""

from __future__ import annotations

__all__ = ["OptimizationReport"]

METHOD_LABELS = {"logn_isr": "LogN_ISR", "gmnz": "GMNZ", "mixed": "Mixed", "probfuse": "ProbFuse",
                 "rbc": "RBC", "rrf": "RRF", "slidefuse": "SlideFuse",
                 "w_bordafuse": "Weighted BordaFuse", "w_condorcet": "Weighted Condorcet",
                 "wmnz": "WMNZ", "wsum": "Weighted SUM"}
HYPERPARAMS_LABELS = {"logn_isr": "Sigma", "gmnz": "Gamma", "mixed": "Weights",
                      "probfuse": "# Segments", "rbc": "phi", "rrf": "k", "slidefuse": "w",
                      "w_bordafuse": "Weights", "w_condorcet": "Weights", "wmnz": "Weights",
                      "wsum": "Weights"}
METRIC_LABELS = {"hits": "Hits", "hit_rate": "Hit_Rate", "precision": "P", "recall": "Recall",
                 "f1": "F1", "r-precision": "R-Prec", "mrr": "MRR", "map": "MAP",
                 "ndcg": "NDCG", "ndcg_burges": "NDCG_Burges"}


class OptimizationReport:
    """The configurations tried (as ranx writes them: ``str`` of each), their scores, and the
    method and metric; ``str()`` is ranx's table."""

    def __init__(self, method: str, configs: list, results: list, metric: str,
                 rounding_digits: int = 3, show_percentages: bool = False):
        self.method, self.configs, self.results, self.metric = method, configs, results, metric
        self.rounding_digits, self.show_percentages = rounding_digits, show_percentages

    def get_metric_label(self, m: str) -> str:
        name, _, cutoff = m.partition("@")
        return f"{METRIC_LABELS[name]}@{cutoff}" if cutoff else METRIC_LABELS[name]

    def format_score(self, score: float) -> str:
        if self.show_percentages:
            digits = max(0, self.rounding_digits - 2)
            return f"%.{self.rounding_digits - 2}f" % round(score * 100, digits)
        return f"%.{self.rounding_digits}f" % round(score, self.rounding_digits)

    def to_table(self) -> str:
        """ranx's rich table as rich prints it to a file: title, heavy head, rows centred."""
        header = [HYPERPARAMS_LABELS[self.method], self.get_metric_label(self.metric)]
        rows = [[str(c), self.format_score(s)] for c, s in zip(self.configs, self.results)]
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(2)]

        def line(left, fill, middle, right):
            return left + middle.join(fill * (w + 2) for w in widths) + right

        def cells(edge, row):
            return edge + edge.join(f" {_centred(text, w)} " for text, w in zip(row, widths)) + edge
        table = [line("┏", "━", "┳", "┓"), cells("┃", header), line("┡", "━", "╇", "┩"),
                 *(cells("│", row) for row in rows), line("└", "─", "┴", "┘")]
        title = _centred(METHOD_LABELS[self.method], len(table[0]))
        return "\n".join([title, *table]) + "\n"

    def __str__(self) -> str:
        return self.to_table()

    __repr__ = __str__


def _centred(text: str, width: int) -> str:
    """``text`` centred in ``width`` as rich centres it (the odd space on the right)."""
    left = (width - len(text)) // 2
    return " " * left + text + " " * (width - len(text) - left)
