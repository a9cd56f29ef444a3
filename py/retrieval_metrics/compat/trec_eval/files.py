"""trec_eval 10's input files, read as its get_*.c read them, in bytes (ids are compared as C's
strcmp compares them, byte by byte).

- qrels (get_qrels.c): ``qid iter docno rel``, exactly four fields split on ASCII whitespace; a
  line starting with ``#`` is a comment (and so is not the line after it, even if it starts
  with ``#``, as trec_eval skips one comment line before each line it reads); a blank line is
  malformed.
- trec_results (get_trec_results.c): ``qid iter docno rank sim run_id [anything]``; blank lines
  and lines whose first non-blank character is ``#`` are skipped; the run id printed is the
  last line's.
- qrels_jg (get_qrels_jg.c): ``qid judgement_group docno rel``.
- z-scores (get_zscores.c): ``qid measure mean stddev``.

Each reader returns queries sorted by id (byte order), as trec_eval sorts them, and raises
``FileError`` with the line number (counted in the file) and what was expected.
"""

from __future__ import annotations

from itertools import groupby

from .cnum import atof, atol

SPACE = b" \t\n\v\f\r"


class FileError(Exception):
    """An input file trec_eval would refuse: the message names the file, the line and what
    was expected."""


def read_bytes(path: str, what: str) -> bytes:
    """The file's bytes, ending in a newline; ``-`` (results only) is standard input."""
    if path == "-" and what == "results":
        import sys
        data = sys.stdin.buffer.read()
    else:
        try:
            with open(path, "rb") as file:
                data = file.read()
        except OSError as exc:
            raise FileError(f"cannot read {what} file '{path}': {exc.strerror}") from None
    if not data:
        raise FileError(f"cannot read {what} file '{path}': it is empty")
    if not data.endswith(b"\n"):
        data += b"\n"
    return data


def _lines(data: bytes):
    """(line number, line) for each line, the newline left out."""
    return enumerate(data[:-1].split(b"\n"), 1)


def _fields_lines(data: bytes, path: str, what: str, count: int, form: str):
    """The four-field lines of qrels-like files, as get_qrels.c walks them."""
    return [fields for _number, fields in numbered_fields(data, path, what, count, form)]


def numbered_fields(data: bytes, path: str, what: str, count: int, form: str):
    """(line number, fields) of each line that is not a comment, as get_qrels.c and
    get_prefs.c walk them: a line starting with # is skipped, but not two in a row."""
    rows = []
    skip_comment = True
    for number, line in _lines(data):
        if skip_comment and line[:1] == b"#":
            skip_comment = False
            continue
        skip_comment = True
        fields = line.split()
        if len(fields) != count:
            raise FileError(f"{what} file '{path}', line {number}: malformed line (found "
                            f"{len(fields)} fields, expected {count}: {form})")
        rows.append((number, fields))
    return rows


def read_qrels(path: str) -> dict[bytes, list[tuple[bytes, int]]]:
    """qid -> [(docno, rel)] sorted by docno, qids in byte order.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("wb", delete=False) as f:
    ...     _ = f.write(b"# c\\n2 0 d2 1\\n1 0 d9 0\\n1 0 d1 2")
    >>> read_qrels(f.name)
    {b'1': [(b'd1', 2), (b'd9', 0)], b'2': [(b'd2', 1)]}
    >>> os.unlink(f.name)
    """
    data = read_bytes(path, "qrels")
    queries = _plain_qrels(data)
    if queries is None:
        queries = {}
        for qid, _iter, docno, rel in _fields_lines(data, path, "qrels", 4,
                                                     "query iteration document relevance"):
            queries.setdefault(qid, []).append((docno, atol(rel)))
    return {qid: sorted(queries[qid]) for qid in sorted(queries)}


def _plain_qrels(data: bytes) -> dict[bytes, list] | None:
    """qid -> [(docno, rel)] of qrels without comments, every line four fields and every
    grade a plain whole number (what atol and int read alike), read in C-level splits; None
    otherwise (the line-by-line reader then reads them, and words any error)."""
    if b"#" in data or b"\x00" in data:
        return None
    lines = data.count(b"\n")
    tokens = data.replace(b"\n", b" \x00 ").split()
    if len(tokens) != 5 * lines or tokens[4::5].count(b"\x00") != lines:
        return None
    grades = tokens[3::5]
    if b"_" in b"".join(grades) or max(map(len, grades), default=0) > 18:
        return None
    try:
        rels = list(map(int, grades))
    except ValueError:
        return None
    queries: dict[bytes, list] = {}
    row = 0
    docnos = tokens[2::5]
    for qid, same in groupby(tokens[0::5]):
        end = row + len(list(same))
        pairs = list(zip(docnos[row:end], rels[row:end]))
        if qid in queries:
            queries[qid] += pairs
        else:
            queries[qid] = pairs
        row = end
    return queries


def read_qrels_jg(path: str) -> dict[bytes, list[list[tuple[bytes, int]]]]:
    """qid -> judgement groups in byte order, each [(docno, rel)] sorted by docno."""
    data = read_bytes(path, "qrels")
    queries: dict[bytes, dict] = {}
    for qid, group, docno, rel in _fields_lines(data, path, "qrels_jg", 4,
                                                 "query judgement_group document relevance"):
        queries.setdefault(qid, {}).setdefault(group, []).append((docno, atol(rel)))
    out = {}
    for qid in sorted(queries):
        groups = []
        for group in sorted(queries[qid]):
            judged = sorted(queries[qid][group])
            for (a, _), (b, _) in zip(judged, judged[1:]):
                if a == b:
                    raise FileError(f"qrels file '{path}': document {a.decode(errors='replace')} "
                                    f"is judged twice for query {qid.decode(errors='replace')} "
                                    f"in judgement group {group.decode(errors='replace')}")
            groups.append(judged)
        out[qid] = groups
    return out


def read_results(path: str) -> tuple[dict[bytes, list[tuple[bytes, float]]], bytes]:
    """(qid -> [(docno, sim)] in file order, qids in byte order; the last line's run id).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("wb", delete=False) as f:
    ...     _ = f.write(b"2 Q0 a 1 1.5 r1\\n\\n  # note\\n1 Q0 b 1 2 r2 extra")
    >>> read_results(f.name)
    ({b'1': [(b'b', 2.0)], b'2': [(b'a', 1.5)]}, b'r2')
    """
    data = read_bytes(path, "results")
    queries: dict[bytes, list] = {}
    run_id = b""
    for number, line in _lines(data):
        fields = line.split()
        if not fields or fields[0][:1] == b"#":
            continue
        if len(fields) < 6:
            raise FileError(f"results file '{path}', line {number}: malformed line (found "
                            f"{len(fields)} fields, expected 6: query Q0 document rank score run)")
        queries.setdefault(fields[0], []).append((fields[2], atof(fields[4])))
        run_id = fields[5]
    if not queries:
        raise FileError(f"results file '{path}' has no result lines")
    return {qid: queries[qid] for qid in sorted(queries)}, run_id


def read_zscores(path: str) -> dict[bytes, dict[bytes, tuple[float, float]]]:
    """qid -> measure name -> (mean, standard deviation)."""
    data = read_bytes(path, "z-score")
    out: dict[bytes, dict] = {}
    for number, line in _lines(data):
        fields = line.split()
        if len(fields) != 4:
            raise FileError(f"z-score file '{path}', line {number}: malformed line (found "
                            f"{len(fields)} fields, expected 4: query measure mean stddev)")
        qid, measure, mean, stddev = fields
        out.setdefault(qid, {})[measure] = (atof(mean), atof(stddev))
    return out
