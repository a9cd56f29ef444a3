"""A small in-memory index to score, and a wrapper that gives a user's search function its shape.

The project scores rankings; these two exist so that a whole evaluation can be written with
the package alone (documents in, a report out) and so that a user's own search function answers
in the same shape. Both answer :class:`.corpus.SearchResponse` objects, which
``evaluate_retrieval`` and the scorers read directly, and both are scikit-learn style
estimators (``fit``, ``predict``, ``get_params``, ``set_params``), so ``GridSearchCV`` can tune
their ``top_k`` (or any other setting) without the package importing scikit-learn.

- :class:`RetrievalIndex`: ``RetrievalIndex(config).build(documents)``; ``.search(query)``
  ranks by :class:`.config.RetrievalConfig`'s ``match_mode`` (BM25 keyword, strict all-terms,
  or hybrid keyword + embedding by reciprocal-rank fusion). A hybrid search without a query
  embedding answers the keyword ranking with the status ``"degraded"``, which
  ``evaluate_retrieval`` refuses unless ``on_degraded="warn"``.
- :class:`CustomRetrievalIndex`: ``CustomRetrievalIndex(search_function)``; ``.search(query)``
  reads whatever the function returned by ``evaluate_retrieval``'s rules
  (:mod:`.responses`) and answers it as a response.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from ..errors import InputError, OptionError
from .bm25 import TermIndex, ranked, tokens
from .config import FIELDS, RetrievalConfig, checked_top_k
from .corpus import DEGRADED, SUCCESS, CorpusDocument, SearchHit, SearchResponse
from .evaluate import DegradedSearchError
from .fusion import as_vector, cosine_ranking, norm, reciprocal_rank_fusion
from .responses import HIT_FIELDS, is_success, read_response

__all__ = ["RetrievalIndex", "CustomRetrievalIndex"]

EXPECTED_DOCUMENTS = "a list of CorpusDocument(doc_id, input_path, chunk_index, text)"


class _SearchEstimator:
    """``fit`` / ``predict`` / ``get_params`` / ``set_params``: what scikit-learn's model
    selection calls on an estimator, over ``search(query)``. ``X`` is the queries (a list, or
    ``{query_id: query}``), ``y`` their judgements (not used: an index learns nothing from
    training queries, but ``GridSearchCV`` calls ``fit`` before it scores)."""

    _PARAMS: tuple[str, ...] = ()

    def search(self, query: Any) -> SearchResponse:  # pragma: no cover
        raise NotImplementedError

    def predict(self, X: Any) -> list | dict:
        """One ranking (a list of document ids, best first) per query, in the shape of ``X``.
        A response whose status is not success raises ``DegradedSearchError``: a partial
        ranking is never scored unnoticed."""
        if isinstance(X, Mapping):
            return {qid: self._ranking(qid, query) for qid, query in X.items()}
        if isinstance(X, (str, bytes)) or not isinstance(X, Iterable):
            raise InputError("queries", f"predict(X) takes a list of queries, found "
                             f"{type(X).__name__}", expected="[query, ...] or {query_id: query}")
        return [self._ranking(position, query) for position, query in enumerate(X)]

    def _ranking(self, qid: Any, query: Any) -> list:
        response = self.search(query)
        if not is_success(response.status):
            raise DegradedSearchError(
                f"query {qid!r}: the search answered with status {response.status!r}"
                f"{'' if response.message is None else ' (' + response.message + ')'}, so the "
                "ranking is partial; evaluate_retrieval(..., on_degraded=\"warn\") scores it "
                "anyway", qid, query, response.status)
        return response.doc_ids

    def get_params(self, deep: bool = True) -> dict:
        """The constructor's arguments, as scikit-learn's ``clone`` wants them."""
        return {name: getattr(self, name) for name in self._PARAMS}

    def set_params(self, **params) -> _SearchEstimator:  # pragma: no cover
        raise NotImplementedError

    def __sklearn_clone__(self):
        """scikit-learn's ``clone``: the same settings and documents, not built. The settings
        and documents are immutable, so they are shared rather than deep-copied (an embedding
        function's model is never copied)."""
        return type(self)(**self.get_params(deep=False))

    def __sklearn_tags__(self):
        """Called by scikit-learn 1.6 and later only (so imported only then): not a classifier
        or regressor; ``X`` is a list of query texts; ``y`` (judgements) is optional."""
        from sklearn.utils import InputTags, Tags, TargetTags
        return Tags(estimator_type=None, target_tags=TargetTags(required=False),
                    input_tags=InputTags(one_d_array=True, two_d_array=False, string=True))

    def _unknown(self, name: str, known: Iterable[str]) -> OptionError:
        return OptionError(name, f"{type(self).__name__} has no parameter {name!r}; its "
                           f"parameters are {', '.join(known)}")


class RetrievalIndex(_SearchEstimator):
    """An in-memory index over :class:`.corpus.CorpusDocument` chunks, searched by the
    :class:`.config.RetrievalConfig`'s ``match_mode``; each search answers a
    :class:`.corpus.SearchResponse` of at most ``top_k`` hits.

    Scores: BM25 (``"keyword"``, ``"strict"``, and a degraded ``"hybrid"``) or the fused
    reciprocal-rank score (``"hybrid"``). Equal scores keep the documents' order.

    As an estimator: ``fit(X, y)`` builds the index from ``documents`` (the queries teach it
    nothing); ``predict(X)`` gives one ranking of ids per query; ``get_params()`` has
    ``config``, ``documents`` and (with ``deep=True``) every config field by name, and
    ``set_params(top_k=1)`` changes one (``GridSearchCV(index, {"top_k": [1, 2]})``).

    >>> docs = [CorpusDocument("d1", "a.txt", 0, "hemoglobin carries oxygen"),
    ...         CorpusDocument("d2", "a.txt", 1, "platelets help blood clot")]
    >>> index = RetrievalIndex(RetrievalConfig(top_k=5)).build(docs)
    >>> response = index.search("what carries oxygen")
    >>> [(hit.rank, hit.doc.doc_id) for hit in response.hits], response.status
    ([(1, 'd1')], 'success')
    >>> index.set_params(match_mode="strict").search("blood clot").doc_ids
    ['d2']
    >>> index.predict(["oxygen", "nothing"])
    [['d1'], []]
    """

    def __init__(self, config: RetrievalConfig | None = None,
                 documents: Iterable[CorpusDocument] | None = None):
        if config is None:
            config = RetrievalConfig()
        if not isinstance(config, RetrievalConfig):
            raise OptionError("config", f"config must be a RetrievalConfig, found "
                              f"{type(config).__name__}")
        self.config = config
        self.documents = None if documents is None else checked_documents(documents)
        self._terms: TermIndex | None = None
        self._vectors: list | None = None
        self._norms: list | None = None
        self._embedded_with: Callable | None = None

    _PARAMS = ("config", "documents")

    def __repr__(self) -> str:
        built = "not built" if self._terms is None else f"{len(self.documents)} documents"
        return f"RetrievalIndex({self.config!r}, {built})"

    # ---- building ------------------------------------------------------------------------

    def build(self, documents: Iterable[CorpusDocument]) -> RetrievalIndex:
        """Indexes ``documents`` (replacing any before) and returns the index.

        Each (doc_id, chunk_index) appears once; ids are all ``str`` or all ``int``. In
        ``"hybrid"`` mode the embedding function embeds every document now: every vector must
        be finite, non-zero and of one length."""
        self.documents = checked_documents(documents)
        self._terms = TermIndex([doc.text for doc in self.documents])
        self._vectors = self._norms = self._embedded_with = None
        if self.config.match_mode == "hybrid" and self.config.embedding_function is not None:
            self._embed_documents()
        return self

    def fit(self, X: Any = None, y: Any = None) -> RetrievalIndex:
        """Builds the index from its ``documents`` (what ``GridSearchCV`` calls)."""
        if self.documents is None:
            raise OptionError("documents", "the index has no documents to build from: pass "
                              "RetrievalIndex(config, documents=...) or call build(documents)")
        return self.build(self.documents)

    def _embed_documents(self) -> None:
        embed = self.config.embedding_function
        vectors, norms = [], []
        for doc in self.documents:
            what = f"document {doc.doc_id!r} (chunk {doc.chunk_index})"
            vector = embed(doc.text)
            if vector is None:
                raise InputError("documents", f"{what}: the embedding function returned None",
                                 expected="a vector for every document")
            vector = as_vector(vector, "documents", what)
            if vectors and len(vector) != len(vectors[0]):
                raise InputError("documents", f"{what}: the embedding has {len(vector)} numbers, "
                                 f"the first document's {len(vectors[0])}",
                                 expected="vectors of one length")
            length = norm(vector)
            if length == 0:
                raise InputError("documents", f"{what}: the embedding is all zeros, which has no "
                                 "cosine similarity", expected="a non-zero vector")
            vectors.append(vector)
            norms.append(length)
        self._vectors, self._norms, self._embedded_with = vectors, norms, embed

    def set_params(self, **params) -> RetrievalIndex:
        """Changes ``config``, ``documents`` or any config field by name (``top_k=1``); a
        built index is rebuilt when its documents change."""
        known = ("config", "documents", *FIELDS)
        for name in params:
            if name not in known:
                raise self._unknown(name, known)
        config = params.get("config", self.config)
        if not isinstance(config, RetrievalConfig):
            raise OptionError("config", f"config must be a RetrievalConfig, found "
                              f"{type(config).__name__}")
        self.config = config.replace(**{k: v for k, v in params.items() if k in FIELDS})
        if "documents" in params:
            documents = params["documents"]
            if self._terms is not None and documents is not None:
                self.build(documents)
            else:
                self.documents = None if documents is None else checked_documents(documents)
                self._terms = None
        return self

    def get_params(self, deep: bool = True) -> dict:
        params = super().get_params(deep)
        if deep:
            params.update({name: getattr(self.config, name) for name in FIELDS})
        return params

    # ---- searching -----------------------------------------------------------------------

    def search(self, query: str) -> SearchResponse:
        """The hits for ``query``, best first, at most ``top_k``; see the class's doc."""
        if self._terms is None:
            raise OptionError("documents", "the index is not built: call build(documents) (or "
                              "fit) before search")
        if not isinstance(query, str):
            raise InputError("query", f"a query is a str, found {type(query).__name__}",
                             expected="the query's text")
        config = self.config
        terms = tokens(query)
        scores = self._terms.scores(terms, config.bm25_k1, config.bm25_b)
        status, message = SUCCESS, None
        if config.match_mode == "keyword":
            ranking = ranked(scores)
        elif config.match_mode == "strict":
            holding = self._terms.holding_all(terms)
            ranking = ranked({position: scores[position] for position in holding})
        else:
            ranking = ranked(scores)
            vector, missing = self._query_vector(query)
            if vector is None:
                status = DEGRADED
                message = f"hybrid search without a query embedding ({missing}): keyword only"
            else:
                by_embedding = cosine_ranking(vector, self._vectors, self._norms)
                ranking = reciprocal_rank_fusion(
                    [[p for p, _ in ranking], [p for p, _ in by_embedding]], config.rrf_k)
        if config.top_k is not None:
            ranking = ranking[: config.top_k]
        docs = self.documents
        hits = tuple(SearchHit(docs[p].doc_id, score, rank, docs[p])
                     for rank, (p, score) in enumerate(ranking, 1))
        return SearchResponse(query, hits, status, message)

    def _query_vector(self, query: str) -> tuple[tuple | None, str | None]:
        """The query's vector, or (None, why there is none)."""
        embed = self.config.embedding_function
        if embed is None:
            return None, "no embedding function"
        if self._embedded_with is not embed:  # set_params changed the function or the mode
            self._embed_documents()
        vector = embed(query)
        if vector is None:
            return None, "the embedding function returned None for the query"
        vector = as_vector(vector, "query", "the query")
        if len(vector) != len(self._vectors[0]):
            raise InputError("query", f"the query's embedding has {len(vector)} numbers, the "
                             f"documents' {len(self._vectors[0])}",
                             expected="vectors of one length")
        if norm(vector) == 0:
            return None, "the query's embedding is all zeros"
        return vector, None


class CustomRetrievalIndex(_SearchEstimator):
    """A user's ``search_function(query)`` in the index's shape: ``.search(query)`` answers a
    :class:`.corpus.SearchResponse` with at most ``top_k`` hits (None: all).

    The function may return anything ``evaluate_retrieval`` reads: ids, ``(id, score)``
    pairs, ``{id: score}``, hits with ``.doc_id`` / ``.doc.doc_id``, or a response with a
    ``status`` (kept: a status other than success stays a partial ranking). Each hit's
    ``score`` is the one the answer gives (a ``.score``, a ``"score"`` key, an ``(id, score)``
    pair's second, a ``{id: score}`` value), else None; its ``doc`` is the
    :class:`.corpus.CorpusDocument` the answer holds, else the document of that id among
    ``documents`` (given here or by ``build``; an id shared by several chunks has no single
    document), else None.

    ``fit`` learns nothing (returns the index); ``predict``, ``get_params``, ``set_params`` as
    :class:`RetrievalIndex` (parameters ``search_function``, ``top_k``, ``documents``).

    >>> index = CustomRetrievalIndex(lambda query: [("d3", 2.5), ("d1", 0.5)], top_k=1)
    >>> response = index.search("blood cells")
    >>> [(hit.doc_id, hit.score, hit.rank) for hit in response.hits], response.status
    ([('d3', 2.5, 1)], 'success')
    """

    _PARAMS = ("search_function", "top_k", "documents")

    def __init__(self, search_function: Callable[[Any], Any], top_k: int | None = None,
                 documents: Iterable[CorpusDocument] | None = None):
        if not callable(search_function):
            raise OptionError("search_function", f"search_function must be a function from a "
                              f"query to its results, found {type(search_function).__name__}")
        self.search_function = search_function
        self.top_k = checked_top_k(top_k)
        self.documents = None if documents is None else checked_documents(documents)
        self._by_id = _documents_by_id(self.documents)

    def __repr__(self) -> str:
        name = getattr(self.search_function, "__name__", type(self.search_function).__name__)
        return f"CustomRetrievalIndex({name}, top_k={self.top_k!r})"

    def build(self, documents: Iterable[CorpusDocument]) -> CustomRetrievalIndex:
        """Keeps ``documents`` to give hits their ``doc``; returns the index."""
        self.documents = checked_documents(documents)
        self._by_id = _documents_by_id(self.documents)
        return self

    def fit(self, X: Any = None, y: Any = None) -> CustomRetrievalIndex:
        return self

    def set_params(self, **params) -> CustomRetrievalIndex:
        for name in params:
            if name not in self._PARAMS:
                raise self._unknown(name, self._PARAMS)
        if "search_function" in params:
            if not callable(params["search_function"]):
                raise OptionError("search_function", "search_function must be a function from "
                                  "a query to its results")
            self.search_function = params["search_function"]
        if "top_k" in params:
            self.top_k = checked_top_k(params["top_k"])
        if "documents" in params:
            documents = params["documents"]
            self.documents = None if documents is None else checked_documents(documents)
            self._by_id = _documents_by_id(self.documents)
        return self

    def search(self, query: Any) -> SearchResponse:
        answer = self.search_function(query)
        if isinstance(answer, Iterator):
            answer = list(answer)
        status, ids = read_response(answer)
        raw = _hits_of(answer)
        message = getattr(answer, "message", None) if isinstance(answer, SearchResponse) else None
        if isinstance(raw, Mapping):
            found = [(raw[doc_id], None) for doc_id in ids]
        elif isinstance(raw, (list, tuple)) and len(raw) == len(ids):
            found = [_score_and_doc(hit) for hit in raw]
        else:
            found = [(None, None)] * len(ids)
        if self.top_k is not None:
            ids = ids[: self.top_k]
        hits = tuple(SearchHit(doc_id, _number(score), rank, doc or self._by_id.get(doc_id))
                     for rank, (doc_id, (score, doc)) in enumerate(zip(ids, found), 1))
        return SearchResponse(query, hits, status, message)


def checked_documents(documents: Any) -> tuple[CorpusDocument, ...]:
    """``documents`` as a tuple, or an ``InputError`` saying what is wrong with them."""
    if isinstance(documents, Mapping):
        raise InputError("documents", "documents are a mapping; wrap each text as "
                         "CorpusDocument(doc_id, input_path, chunk_index, text)",
                         expected=EXPECTED_DOCUMENTS)
    if isinstance(documents, (str, bytes)) or not isinstance(documents, Iterable):
        raise InputError("documents", f"documents must be a list of CorpusDocument, found "
                         f"{type(documents).__name__}", expected=EXPECTED_DOCUMENTS)
    docs = tuple(documents)
    if not docs:
        raise InputError("documents", "there are no documents to index",
                         expected=EXPECTED_DOCUMENTS)
    seen: dict[tuple, int] = {}
    for number, doc in enumerate(docs, 1):
        if not isinstance(doc, CorpusDocument):
            raise InputError("documents", f"document {number} is a {type(doc).__name__}, not a "
                             "CorpusDocument", expected=EXPECTED_DOCUMENTS)
        key = (doc.doc_id, doc.chunk_index)
        if key in seen:
            raise InputError("documents", f"document {doc.doc_id!r} chunk {doc.chunk_index} is "
                             f"given twice (documents {seen[key]} and {number})",
                             expected="each (doc_id, chunk_index) once")
        seen[key] = number
    kinds = {type(doc.doc_id).__name__ for doc in docs}
    if len(kinds) > 1:
        raise InputError("documents", "the document ids mix str and int: '1' and 1 would never "
                         "match the judgements' ids", expected="ids of one type: all str or all int")
    return docs


def _documents_by_id(documents: tuple | None) -> dict:
    """``{doc_id: document}`` for the ids held by exactly one chunk."""
    by_id: dict = {}
    for doc in documents or ():
        by_id[doc.doc_id] = None if doc.doc_id in by_id else doc
    return {doc_id: doc for doc_id, doc in by_id.items() if doc is not None}


def _hits_of(answer: Any) -> Any:
    """The answer's hits as given: a response's ``hits``/``results``/``documents``, else the
    answer (which :func:`.responses.read_response` has already read for the ids)."""
    if isinstance(answer, Mapping):
        for name in HIT_FIELDS:
            if isinstance(answer.get(name), (list, tuple, Mapping)):
                return answer[name]
        return answer
    if isinstance(answer, (list, tuple)):
        return answer
    for name in HIT_FIELDS:
        hits = getattr(answer, name, None)
        if hits is not None:
            return hits
    return answer


def _score_and_doc(hit: Any) -> tuple[Any, CorpusDocument | None]:
    if isinstance(hit, CorpusDocument):
        return None, hit
    if isinstance(hit, (tuple, list)) and len(hit) == 2:
        return hit[1], None
    if isinstance(hit, Mapping):
        doc = hit.get("doc")
        return hit.get("score"), doc if isinstance(doc, CorpusDocument) else None
    doc = getattr(hit, "doc", None)
    return getattr(hit, "score", None), doc if isinstance(doc, CorpusDocument) else None


def _number(score: Any) -> float | None:
    if isinstance(score, numbers.Real) and not isinstance(score, bool):
        return float(score)
    return None
