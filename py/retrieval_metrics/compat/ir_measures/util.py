"""ir_measures' ``util`` converters: ``QrelsConverter`` and ``RunConverter`` take judgements or a
run in any of the shapes ir_measures takes (an iterable of namedtuples, ``Qrel`` /
``ScoredDoc``; a pandas DataFrame with those columns; a dict of dicts) and give it back in each
(``as_dict_of_dict``, ``as_namedtuple_iter``, ``as_pd_dataframe``; a run also
``as_sorteddict``), with ir_measures' ValueError, in its words, for any other. pandas is
imported only when a DataFrame is asked for.

>>> from retrieval_metrics.compat.ir_measures import ScoredDoc
>>> RunConverter([ScoredDoc("1", "A", 0.2), ScoredDoc("1", "B", 0.9)]).as_sorteddict()["1"][0]
ScoredDoc(query_id='1', doc_id='B', score=0.9)
>>> QrelsConverter(object()).as_dict_of_dict()
Traceback (most recent call last):
...
ValueError: unknown qrels format: unexpected format; please provide either: (1) an iterable of namedtuples (fields ('query_id', 'doc_id', 'relevance'), e.g., from ir_measures.Qrel); (2) a pandas DataFrame with columns ('query_id', 'doc_id', 'relevance'); or (3) a dict-of-dict
"""

from __future__ import annotations

import itertools

from .api import Qrel, ScoredDoc

__all__ = ["QrelsConverter", "RunConverter", "Qrel", "ScoredDoc"]


class _Converter:
    """What both converters share; ``ROW`` is the namedtuple, ``KIND`` "qrels" or "run"."""

    ROW: type = Qrel
    KIND = "qrels"

    def __init__(self, data, strict: bool = True):
        self.data = data
        self.strict = strict  # False: a DataFrame's missing columns are not an error
        self._predicted = None

    def _required(self) -> tuple:
        return tuple(f for f in self.ROW._fields if f not in self.ROW._field_defaults)

    def predict_type(self) -> tuple[str, str | None]:
        """(``dict_of_dict`` | ``pd_dataframe`` | ``namedtuple_iter`` | ``UNKNOWN``, why)."""
        if self._predicted:
            return self._predicted
        result, error = "UNKNOWN", None
        required = self._required()
        if isinstance(self.data, dict):
            result = "dict_of_dict"
        elif hasattr(self.data, "itertuples"):
            columns = list(self.data.columns)
            missing = [f for f in required if f not in columns]
            if missing and self.strict:
                error = f"DataFrame missing columns: {missing} (found {columns})"
            else:
                result = "pd_dataframe"
        elif hasattr(self.data, "__iter__"):
            self.data, peek = itertools.tee(self.data, 2)
            end = object()
            item = next(peek, end)
            if isinstance(item, tuple) and hasattr(item, "_fields"):
                missing = [f for f in required if f not in item._fields]
                if missing:
                    error = f"namedtuple iter missing fields: {missing} (found {list(item._fields)})"
                else:
                    result = "namedtuple_iter"
            elif item is end:
                result = "namedtuple_iter"
            else:
                error = "iterable not a namedtuple iterator"
        else:
            name = "Qrel" if self.KIND == "qrels" else "ScoredDoc"
            error = (f"unexpected format; please provide either: (1) an iterable of namedtuples "
                     f"(fields {required}, e.g., from ir_measures.{name}); (2) a pandas "
                     f"DataFrame with columns {required}; or (3) a dict-of-dict")
        self._predicted = (result, error)
        return self._predicted

    def as_namedtuple_iter(self):
        kind, error = self.predict_type()
        if kind == "namedtuple_iter":
            yield from self.data
        elif kind == "dict_of_dict":
            for query_id, docs in self.data.items():
                for doc_id, value in docs.items():
                    yield self.ROW(query_id, doc_id, value)
        elif kind == "pd_dataframe":
            extra = [f for f in self.ROW._fields[3:] if f in self.data.columns]
            for row in self.data.itertuples():
                yield self.ROW(*(getattr(row, f) for f in self.ROW._fields[:3] + tuple(extra)))
        else:
            raise ValueError(f"unknown {self.KIND} format: {error}")

    def as_dict_of_dict(self) -> dict:
        if self.predict_type()[0] == "dict_of_dict":
            return self.data
        out: dict = {}
        for row in self.as_namedtuple_iter():
            out.setdefault(row.query_id, {})[row.doc_id] = row[2]
        return out

    def as_pd_dataframe(self):
        import pandas  # only when a DataFrame is asked for
        if self.predict_type()[0] == "pd_dataframe":
            return self.data
        frame = pandas.DataFrame(self.as_namedtuple_iter())
        return frame if len(frame) else pandas.DataFrame([], columns=list(self.ROW._fields))


class QrelsConverter(_Converter):
    """Judgements in any of ir_measures' shapes, given back in each."""

    ROW, KIND = Qrel, "qrels"

    def as_pd_dataframe(self):
        frame = super().as_pd_dataframe()
        if self.predict_type()[0] == "pd_dataframe" and "iteration" not in frame.columns:
            return frame.assign(iteration=["0"] * len(frame))
        return frame


class RunConverter(_Converter):
    """A run in any of ir_measures' shapes, given back in each."""

    ROW, KIND = ScoredDoc, "run"

    def as_sorteddict(self) -> dict:
        """{query: its ScoredDocs, highest score first (equal scores in the order given)}."""
        per_query: dict = {}
        for row in self.as_namedtuple_iter():
            per_query.setdefault(row.query_id, []).append(row)
        return {q: sorted(rows, key=lambda r: r.score, reverse=True)
                for q, rows in per_query.items()}
