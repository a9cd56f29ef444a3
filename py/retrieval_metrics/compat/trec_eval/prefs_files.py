"""trec_eval 10's preference judgements, read as its get_prefs.c and get_qrels_prefs.c read
them, in bytes.

- prefs (``-R prefs``): ``qid judgement_group subgroup docno rel_level``, five fields split on
  ASCII whitespace; within one subgroup a document with a higher rel_level is preferred to one
  with a lower; 0 means judged not relevant.
- qrels_prefs (``-R qrels_prefs``): an ordinary qrels file, ``qid iter docno rel``, read as
  prefs whose judgement group is the iter field and whose subgroup is ``0`` on every line.

A line starting with ``#`` is a comment, and so is not the line after it (trec_eval skips one
comment line before each line it reads, as it does in qrels); a blank line is malformed. The
rel_level is C's ``atof`` of its field. One departure: a comment on the last line makes
trec_eval 10 read past its buffer (it crashes); here it is a comment like any other.

Each reader returns ``qid -> [(jg, jsg, docno, rel_level)]`` in file order, qids in byte order,
and raises ``FileError`` with the line number and what was expected; a rel_level that is not a
number (``nan``) is refused, as trec_eval's sorts cannot order it.
"""

from __future__ import annotations

from .cnum import atof
from .files import FileError, numbered_fields, read_bytes

PrefsLine = tuple  # (jg, jsg, docno, rel_level)


def _queries(rows, path: str, what: str, jsg_of) -> dict[bytes, list[PrefsLine]]:
    queries: dict[bytes, list] = {}
    for number, fields in rows:
        level = atof(fields[-1])
        if level != level:
            raise FileError(f"{what} file '{path}', line {number}: rel_level "
                            f"'{fields[-1].decode(errors='replace')}' is not a number")
        qid, jg = fields[0], fields[1]
        queries.setdefault(qid, []).append((jg, jsg_of(fields), fields[-2], level))
    return {qid: queries[qid] for qid in sorted(queries)}


_rows = numbered_fields  # the same walk as the qrels readers'


def read_prefs(path: str) -> dict[bytes, list[PrefsLine]]:
    """``-R prefs``: qid -> [(jg, jsg, docno, rel_level)].

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("wb", delete=False) as f:
    ...     _ = f.write(b"# c\\n2 u1 s1 d2 1\\n1 u1 s2 d9 0.5\\n")
    >>> read_prefs(f.name)
    {b'1': [(b'u1', b's2', b'd9', 0.5)], b'2': [(b'u1', b's1', b'd2', 1.0)]}
    >>> os.unlink(f.name)
    """
    data = read_bytes(path, "prefs")
    rows = _rows(data, path, "prefs", 5,
                     "query judgement_group subgroup document rel_level")
    return _queries(rows, path, "prefs", lambda fields: fields[2])


def read_qrels_prefs(path: str) -> dict[bytes, list[PrefsLine]]:
    """``-R qrels_prefs``: a qrels file as prefs, judgement group = iter, subgroup ``0``.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("wb", delete=False) as f:
    ...     _ = f.write(b"1 0 d1 2\\n1 0 d2 0\\n")
    >>> read_qrels_prefs(f.name)
    {b'1': [(b'0', b'0', b'd1', 2.0), (b'0', b'0', b'd2', 0.0)]}
    >>> os.unlink(f.name)
    """
    data = read_bytes(path, "qrels")
    rows = _rows(data, path, "qrels_prefs", 4, "query iteration document relevance")
    return _queries(rows, path, "qrels_prefs", lambda fields: b"0")
