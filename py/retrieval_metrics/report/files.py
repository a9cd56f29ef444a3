"""Report files by suffix: written by ``Report.write``, read back by ``Report.read``.

- ``.json``: the whole report (strict JSON; an undefined value is null);
- ``.yaml`` / ``.yml``: the same data (needs PyYAML: the ``yaml`` extra);
- ``.toml``: the same data, but TOML has no null, so None fields are left out and come back
  as None / NaN from ``keys`` (needs tomli-w to write; Python 3.11's tomllib, or tomli, to read:
  the ``toml`` extra);
- ``.jsonl``: one object per scored query (for ``pandas.read_json(path, lines=True)``);
- ``.csv``: one row per scored query (``scope`` query), then the means (``scope`` mean), in the
  one CSV dialect of ``csvcells`` (an id written ``'=x`` reads back as ``=x``);
- ``.trec`` / ``.tsv`` (trec_eval's lines) and ``.txt`` (the table): written only.

JSON, YAML and TOML carry everything (settings, notices, inputs); JSONL and CSV carry the
numbers (keys, per-query values, means, missing queries), which is what ``Report.__eq__``
compares, so every readable file reads back to a report equal to the one written.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import stat
import sys

from ..errors import InputError, OptionError

WRITTEN = {"json": "json", "jsonl": "jsonl", "csv": "csv", "yaml": "yaml", "yml": "yaml",
           "toml": "toml", "trec": "trec", "tsv": "trec", "txt": "table", "table": "table"}
READABLE = ("json", "jsonl", "csv", "yaml", "toml")
EXTRAS = {"yaml": ("yaml", "PyYAML"), "tomli_w": ("toml", "tomli-w"), "tomli": ("toml", "tomli")}


class MissingDependency(ImportError):
    """An optional dependency a report format needs; the message names the extra to install."""


def optional(module: str, purpose: str):
    """``import module``, or MissingDependency naming the package extra that provides it."""
    try:
        return __import__(module)
    except ImportError:
        extra, package = EXTRAS[module]
        raise MissingDependency(f"{purpose} needs {package}: pip install "
                                f"\"retrieval-metrics[{extra}]\"", name=module) from None


# Names a shell hands over for a stream it already opened: written into that descriptor, never
# opened again (which would truncate a file appended to with >>) and never replaced.
_DESCRIPTOR = re.compile(r"/dev/(stdout|stderr)|/dev/fd/(\d+)|/proc/self/fd/(\d+)")


def write_text(path, text: str, inputs=()) -> None:
    """Writes ``text`` (UTF-8, line ends as given) to ``path`` without ever destroying what the
    path names:

    - ``-``, ``/dev/stdout``, ``/dev/stderr`` and ``/dev/fd/N``: into that open stream;
    - a path that exists and is not a regular file (a character device such as ``/dev/null``,
      a FIFO, a terminal): written into as it is, never replaced by a file;
    - a regular file, or a new one: atomically, into a temporary file in the same folder, then
      ``os.replace``, so that a write that fails half-way (a full disk, an interrupted run)
      leaves the old file whole, never an empty or cut one. A symbolic link is followed (its
      target is replaced), and an existing file keeps its permissions.

    ``inputs`` are the files the text was made from: writing onto one of them (the same path,
    or the same file by another name) is refused with OptionError before anything is touched,
    and so are a folder and a path in a folder that does not exist.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp(); run = os.path.join(folder, "run.trec")
    >>> write_text(run, "q1 Q0 d1 1 1.0 t\\n")
    >>> write_text(os.path.join(folder, ".", "run.trec"), "oops", inputs=[run])
    Traceback (most recent call last):
    ...
    retrieval_metrics.errors.OptionError: cannot write the output to ... it is one of the inputs (...run.trec); choose another file
    >>> open(run).read()
    'q1 Q0 d1 1 1.0 t\\n'
    >>> write_text(os.path.join(folder, "no such folder", "r.json"), "{}")
    Traceback (most recent call last):
    ...
    retrieval_metrics.errors.OptionError: cannot write .../no such folder/r.json: the folder .../no such folder does not exist
    """
    name = os.fspath(path)
    refuse_an_input(name, inputs)
    data = _utf8(text, path)
    if name == "-":
        _write_descriptor(1, data, name)
        return
    stream = _DESCRIPTOR.fullmatch(name)
    if stream:
        _write_descriptor({"stdout": 1, "stderr": 2}.get(stream.group(1)) or int(stream.group(2) or stream.group(3)),
                          data, name)
        return
    target = os.path.realpath(name)
    try:
        status = os.stat(target)
    except FileNotFoundError:
        status = None
    except OSError as exc:
        raise cannot_write(name, exc.strerror) from None
    if status is not None and stat.S_ISDIR(status.st_mode):
        raise cannot_write(name, "it is a folder; name a file in it")
    if status is not None and not stat.S_ISREG(status.st_mode):
        _write_into(name, data)  # a device, a FIFO: what it is stays what it is
        return
    folder = os.path.dirname(target) or "."
    if not os.path.isdir(folder):
        shown = os.path.dirname(name) or "."
        raise cannot_write(name, f"the folder {shown} does not exist")
    _replace_atomically(target, data, status, name)


def cannot_write(name, why: str) -> OptionError:
    """The one refusal of a write, naming the file and why (the CLI's --out and the API's
    write say the same words)."""
    return OptionError("out", f"cannot write {os.fspath(name)}: {why}")


def refuse_an_input(path, inputs) -> None:
    """OptionError when ``path`` names one of ``inputs`` (the CLI's --out and the API's write
    say the same words), before anything is read or written."""
    clash = output_is_input(path, inputs)
    if clash is not None:
        raise OptionError("out", f"cannot write the output to {os.fspath(path)}: it is one "
                          f"of the inputs ({clash}); choose another file")  # its own words


def _write_descriptor(fd: int, data: bytes, name: str) -> None:
    if fd in (1, 2):
        stream = sys.stdout if fd == 1 else sys.stderr
        stream.flush()  # what was printed before comes first
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view):]
    except OSError as exc:
        raise cannot_write(name, exc.strerror) from None


def _write_into(name: str, data: bytes) -> None:
    try:
        with open(name, "wb") as file:  # O_TRUNC does nothing to a device or a FIFO
            file.write(data)
    except OSError as exc:
        raise cannot_write(name, exc.strerror) from None


def _replace_atomically(target: str, data: bytes, status, name: str) -> None:
    import tempfile

    folder = os.path.dirname(target) or "."
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(target) + ".",
                                             suffix=".tmp")
    except OSError as exc:
        raise cannot_write(name, f"{exc.strerror} (in the folder {os.path.dirname(name) or '.'})") from None
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        if status is not None:
            os.chmod(temporary, status.st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _utf8(text: str, path) -> bytes:
    """The text as UTF-8, or OptionError naming the line that holds what UTF-8 cannot: a lone
    surrogate (half of a UTF-16 pair), which reaches an id from a Python string decoded with
    ``surrogateescape`` (a file name, bytes read so), never from this package's readers.

    >>> _utf8("q1\\td1\\nq\\udcff2\\td2\\n", "r.tsv")
    Traceback (most recent call last):
    ...
    retrieval_metrics.errors.OptionError: cannot write r.tsv: line 2 ('q\\udcff2\\td2') holds U+DCFF, a lone surrogate, which no UTF-8 file can hold; give that id as valid text (bytes.decode('utf-8', 'replace'), say)
    """
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        start = text.rfind("\n", 0, exc.start) + 1
        end = text.find("\n", exc.start)
        line = text[start:] if end < 0 else text[start:end]
        raise cannot_write(path, f"line {text.count(chr(10), 0, exc.start) + 1} ({line[:80]!r}) "
                           f"holds U+{ord(text[exc.start]):04X}, a lone surrogate, which no UTF-8 "
                           "file can hold; give that id as valid text (bytes.decode('utf-8', "
                           "'replace'), say)") from None


def output_is_input(path, inputs):
    """The first of ``inputs`` (paths; None and ``-`` skipped) that is the file ``path``
    names, by path or as the same file under another name (a hard or symbolic link), else
    None."""
    target = os.path.realpath(os.fspath(path))
    for given in inputs:
        if given is None or given == "-" or not isinstance(given, (str, bytes, os.PathLike)):
            continue
        given = os.fspath(given)
        same = os.path.realpath(given) == target
        if not same and os.path.exists(target) and os.path.exists(given):
            try:
                same = os.path.samefile(given, target)
            except OSError:
                same = False
        if same:
            return given
    return None


def format_of(path, format: str | None, allowed) -> str:
    if format is None:
        suffix = os.fspath(path).rsplit(".", 1)[-1].lower() if "." in os.fspath(path) else ""
        format = WRITTEN.get(suffix)
        if format is None:
            raise OptionError("format", f"cannot tell the report format from {os.fspath(path)!r}; "
                              f"use a suffix: {', '.join('.' + s for s in WRITTEN if s != 'table')}")
    format = WRITTEN.get(format, format)
    if format not in allowed:
        raise OptionError("format", f"report format {format!r} cannot be "
                          f"{'read' if allowed is READABLE else 'written'}; use one of "
                          f"{', '.join(allowed)}")
    return format


def render(report, format: str) -> str:
    if format in ("yaml", "toml"):
        return dump_data(report.to_dict(), format)
    from .render import RENDERERS
    return RENDERERS[format](report)


def dump_data(data: dict, format: str) -> str:
    """A report's dict as YAML or TOML (TOML has no null: a None is left out, and the readers
    put it back), with the optional package named when it is missing; the engine's reports
    and the retriever's evaluations write these two formats alike."""
    if format == "yaml":
        yaml = optional("yaml", "Writing a .yaml report")
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    tomli_w = optional("tomli_w", "Writing a .toml report")
    return tomli_w.dumps(without_none(data))


def without_none(value):
    if isinstance(value, dict):
        return {k: without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_none(v) for v in value]
    return value


def read_file_text(path) -> str:
    """A report file's text, or InputError naming the file (missing, unreadable, not UTF-8)."""
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8", newline="") as file:
            return file.read()
    except UnicodeDecodeError as exc:
        raise InputError(name, f"not UTF-8 text (byte {exc.start:,}); a report file is UTF-8",
                         expected="a report written by Report.write") from None
    except OSError as exc:
        raise InputError(name, f"cannot read it: {exc.strerror}",
                         expected="a readable report file") from None


def load_data(text: str, fmt: str, name: str, row_key: str = "query"):
    """The data of a JSON, YAML or TOML report's text, or a list of the objects of a JSONL
    report's lines; a malformed or cut-off file is an InputError naming the file and the
    line, never the parser's own exception.

    >>> load_data('{"per_query": {', "json", "r.json")
    Traceback (most recent call last):
    ...
    retrieval_metrics.errors.InputError: r.json, line 1: not valid JSON (Expecting property name enclosed in double quotes at column 16); is the file cut short?
    """
    expected = f"a {fmt.upper()} report written by Report.write"
    if fmt == "json":
        return _json(text, name, expected)
    if fmt == "jsonl":
        rows = []
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip():
                row = _json(line, name, expected, number)
                if not isinstance(row, dict) or row_key not in row:
                    raise InputError(name, f"each line should be an object with a \"{row_key}\" "
                                     "field", line=number, text=line, expected=expected)
                rows.append(row)
        return rows
    if fmt == "yaml":
        yaml = optional("yaml", "Reading a .yaml report")
        try:
            return yaml.safe_load(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise InputError(name, f"not valid YAML ({problem}); is the file cut short?",
                             line=None if mark is None else mark.line + 1,
                             expected=expected) from None
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        tomllib = optional("tomli", "Reading a .toml report")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(name, f"not valid TOML ({exc}); is the file cut short?",
                         expected=expected) from None


def _json(text: str, name: str, expected: str, line: int | None = None):
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = f" at column {exc.colno}"
        raise InputError(name, f"not valid JSON ({exc.msg}{where}); is the file cut short?",
                         line=line if line is not None else exc.lineno,
                         expected=expected) from None
    except RecursionError:
        raise InputError(name, "not a report: its JSON is nested too deeply",
                         expected=expected) from None


def read(cls, path, format: str | None = None):
    fmt = format_of(path, format, READABLE)
    name = os.fspath(path)
    text = read_file_text(path)
    if fmt in ("json", "yaml", "toml"):
        from .schema import check_report_dict
        data = check_report_dict(load_data(text, fmt, name), name)  # wrong values first, then
        _complete(data, name, fmt)  # what is missing
        return cls.from_dict(data, name)
    if fmt == "jsonl":
        return _from_rows(cls, load_data(text, fmt, name), name)
    return _from_csv(cls, text, name)


#: what every report file written by Report.write holds (TOML leaves out None values only)
FIELDS = ("k", "metrics", "keys", "gain", "missing", "zero_division", "relevance_threshold",
          "per_query", "mean", "scored_queries", "missing_queries", "notices", "inputs")


def _complete(data, name: str, fmt: str) -> None:
    """A JSON, YAML or TOML report file holds every field ``to_dict`` writes, and each input
    summary its description (the last field): a file cut at a line end can still parse (YAML,
    TOML), and must not be read as a smaller report."""
    if not isinstance(data, dict):
        return  # report_from_dict says what it is instead
    absent = [field for field in FIELDS if field not in data]
    if fmt == "toml" and "zero_division" in absent:  # never None, but tolerate an old file
        absent.remove("zero_division")
    if absent:
        raise InputError(name, f"the report has no {', '.join(absent)}; is the file cut short?",
                         expected=f"a {fmt.upper()} report written by Report.write")
    inputs = data.get("inputs")
    if isinstance(inputs, dict):
        for box, summary in inputs.items():
            if isinstance(summary, dict) and "description" not in summary:
                raise InputError(name, f"the description of the input {box!r} is missing; is "
                                 "the file cut short?",
                                 expected=f"a {fmt.upper()} report written by Report.write")


def _from_rows(cls, rows: list[dict], name: str = "report"):
    """A report from ``.jsonl`` rows: the means are recomputed the engine's way."""
    from ..measures.aggregation import aggregate
    keys = [k for k in (rows[0] if rows else {}) if k not in ("query", "missing")]
    per_query = {}
    for number, row in enumerate(rows, 1):
        values = {}
        for k in keys:
            value = row.get(k)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise InputError(name, f"query {row['query']!r}, {k}: expected a number or "
                                 f"null, found {str(value)[:60]!r}", line=number,
                                 expected="a JSONL report written by Report.write")
            values[k] = _number(value)
        per_query[row["query"]] = values
    means = {k: aggregate(k, [values[k] for values in per_query.values()]) for k in keys} if rows else {}
    missing = [row["query"] for row in rows if row.get("missing")]
    return cls.from_dict({"keys": keys, "per_query": per_query, "mean": means,
                          "missing_queries": missing, **_unknown_settings(keys)}, name)


def _from_csv(cls, text: str, name: str = "report"):
    from .csvcells import read_text_cell
    expected = "a CSV report written by Report.write (scope,query,metrics...,missing)"
    try:
        rows = list(csv.reader(io.StringIO(text), strict=True))
    except csv.Error as exc:
        raise InputError(name, f"not valid CSV ({exc})", expected=expected) from None
    if not rows or rows[0][:2] != ["scope", "query"] or rows[0][-1:] != ["missing"]:
        raise InputError(name, "this CSV is not a report (its header should start with "
                         "scope,query and end with missing)", line=1, expected=expected)
    keys = rows[0][2:-1]
    per_query, means, missing = {}, {}, []
    for number, row in enumerate(rows[1:], 2):
        if not row:
            continue
        if len(row) != len(rows[0]):
            raise InputError(name, f"expected {len(rows[0])} cells as in the header, found "
                             f"{len(row)}; is the file cut short?", line=number,
                             text=",".join(row), expected=expected)
        scope, query, values, flag = row[0], read_text_cell(row[1]), row[2:-1], row[-1]
        if scope not in ("query", "mean") or flag not in ("true", "false", ""):
            raise InputError(name, f"the scope should be query or mean and missing true or "
                             f"false, found {scope!r} and {flag!r}", line=number,
                             text=",".join(row), expected=expected)
        parsed = {}
        for k, v in zip(keys, values):
            try:
                parsed[k] = math.nan if v == "" else float(v)
            except ValueError:
                raise InputError(name, f"{k}: expected a number or an empty cell, found "
                                 f"{v[:60]!r}", line=number, text=",".join(row),
                                 expected=expected) from None
        if scope == "mean":
            means = parsed
            continue
        if means:
            raise InputError(name, "a query row after the means row", line=number,
                             text=",".join(row), expected=expected)
        per_query[query] = parsed
        if flag == "true":
            missing.append(query)
    if per_query and not means:
        raise InputError(name, "there is no means row (scope mean) after the queries; is the "
                         "file cut short?", expected=expected)
    _means_match(per_query, means, keys, name, expected)
    return cls.from_dict({"keys": keys, "per_query": per_query, "mean": means,
                          "missing_queries": missing, **_unknown_settings(keys)}, name)


def _means_match(per_query: dict, means: dict, keys: list[str], name: str, expected: str) -> None:
    """The means row is the aggregate of the query rows (each measure's own: gm_map's is
    geometric): a last row cut inside a number ("0.33" -> "0.3") still parses."""
    from ..measures.aggregation import aggregate
    for key in keys:
        if key not in means:
            continue
        want = aggregate(key, [values[key] for values in per_query.values()])
        got = means[key]
        if got != got:
            continue  # an empty cell: a report made by hand may leave its means undefined
        if want != want or not math.isclose(want, got, rel_tol=1e-9, abs_tol=1e-12):
            raise InputError(name, f"the means row gives {key} = {got!r}, but the query rows "
                             f"average {want!r}; is the file cut short or edited?",
                             expected=expected)


def _number(value) -> float:
    return math.nan if value is None else value


def _unknown_settings(keys: list[str]) -> dict:
    """What JSONL and CSV files do not say, as far as their keys tell it."""
    ks = sorted({int(k.rpartition("@")[2]) for k in keys if k.rpartition("@")[2].isdigit()})
    metrics = list(dict.fromkeys(k.partition("@")[0] for k in keys))
    return {"k": ks, "metrics": metrics}
