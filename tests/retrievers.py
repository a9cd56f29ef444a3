"""Small retrievers for the tests, on the retriever reference case of docs/api.md (no index of our own: the
project scores rankings and does not search)."""

from __future__ import annotations

import math
import re
from collections import Counter

# the reference case (docs/api.md, "Evaluating a retriever")
DOCS = {"d1": "hemoglobin carries oxygen in red blood cells",
        "d2": "platelets help blood clot",
        "d3": "white blood cells fight infection"}
QUERIES = {"q1": "what carries oxygen", "q2": "blood clotting cells"}
QRELS = {"q1": ["d1"], "q2": ["d2"]}
METRICS = ["recall@1", "mrr", "ndcg@3"]


def tokens(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


class BM25:
    """Okapi BM25 (k1 = 1.2, b = 0.75, idf = ln(1 + (N - n + 0.5) / (n + 0.5))) over lower-cased
    word tokens; returns the documents with a positive score, best first."""

    def __init__(self, docs: dict[str, str], k1: float = 1.2, b: float = 0.75):
        self.docs = {d: Counter(tokens(t)) for d, t in docs.items()}
        self.lengths = {d: sum(c.values()) for d, c in self.docs.items()}
        self.avgdl = sum(self.lengths.values()) / len(self.docs)
        self.k1, self.b = k1, b

    def idf(self, term: str) -> float:
        n = sum(term in c for c in self.docs.values())
        return math.log(1 + (len(self.docs) - n + 0.5) / (n + 0.5))

    def search(self, query: str) -> list[tuple[str, float]]:
        scores = {}
        for doc, counts in self.docs.items():
            s = 0.0
            for term in tokens(query):
                tf = counts[term]
                if tf:
                    norm = self.k1 * (1 - self.b + self.b * self.lengths[doc] / self.avgdl)
                    s += self.idf(term) * tf * (self.k1 + 1) / (tf + norm)
            if s > 0:
                scores[doc] = s
        return sorted(scores.items(), key=lambda item: -item[1])


class Strict:
    """Returns a document only when it holds the whole query as a phrase: nothing here."""

    def search(self, query: str) -> list[str]:
        return [d for d, text in DOCS.items() if query.lower() in text.lower()]
