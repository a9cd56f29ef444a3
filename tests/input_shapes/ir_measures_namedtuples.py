# ir_measures' Qrel(query_id, doc_id, relevance, iteration) and ScoredDoc(query_id, doc_id, score)
NEEDS = ["ir_measures"]


def inputs():
    from ir_measures import Qrel, ScoredDoc
    qrels = [Qrel("q1", "d1", 2), Qrel("q1", "d4", 1), Qrel("q2", "d3", 1)]
    run = iter([ScoredDoc("q1", "d4", 3.0), ScoredDoc("q1", "d2", 2.0), ScoredDoc("q1", "d1", 1.0),
                ScoredDoc("q2", "d5", 0.5), ScoredDoc("q2", "d3", 0.25)])
    return qrels, run
EXPECTED = "reference"
