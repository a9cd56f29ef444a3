"""scikit-learn scorers for rankings and answers (``make_corpus_scorer``,
``get_corpus_scorer``), on scikit-learn's own base class or a vendored copy of its contract."""
