"""trec_eval 10's command line, read as its getopt_long reads it (trec_eval.c): short options
``hvqm:cl:nD:JN:M:R:T:oZ:`` (clustered, ``-qc``; values attached or next, ``-M100``,
``-m P.5``), the long ones (``--measure=P.5``, any unambiguous prefix), ``--`` ending the
options, and the two files anywhere among them (GNU getopt moves them to the end).
"""

from __future__ import annotations

from typing import NamedTuple

SHORT = "hvqm:cl:nD:JN:M:R:T:oZ:"
LONG = {"help": "h", "version": "v", "query_eval_wanted": "q", "measure": "m",
        "complete_rel_info_wanted": "c", "level_for_rel": "l", "nosummary": "n",
        "Debug_level": "D", "Judged_docs_only": "J", "Number_docs_in_coll": "N",
        "Max_retrieved_per_topic": "M", "Rel_info_format": "R", "Results_format": "T",
        "Output_old_results_format": "o", "Zscore": "Z"}
MAXLONG = 2147483647

USAGE = ("Usage: trec_eval [-h] [-q] {-m measure}* trec_rel_file trec_top_file\n"
         "   -h: Give full help information, including other options\n"
         "   -q: In addition to summary evaluation, give evaluation for each query\n"
         "   -m: calculate and print measures indicated by 'measure'\n"
         "       ('-m all_qrels' prints all qrels measures, '-m official' is default)\n")


class UsageError(Exception):
    """The command line trec_eval would refuse (the message says why)."""


class Options(NamedTuple):
    """What the command line asks (trec_eval's EPI)."""

    query: bool = False
    complete: bool = False  # -c
    summary: bool = True  # not -n
    relevance_level: int = 1
    num_docs: int = 0  # -N
    max_docs: int = MAXLONG  # -M
    judged_only: bool = False  # -J
    rel_format: str = "qrels"
    results_format: str = "trec_results"
    zscores: str | None = None
    debug_query: bytes | None = None
    measures: tuple = ()  # the -m values, in order
    help: bool = False
    version: bool = False
    files: tuple = ()


def _takes_value(letter: str) -> bool:
    return SHORT[SHORT.index(letter) + 1:SHORT.index(letter) + 2] == ":"


def parse(argv: list[str]) -> Options:
    """The options of trec_eval's argv (without the program name).

    >>> o = parse(["-q", "-mP.5,10", "-c", "-M100", "--measure=map", "q.txt", "r.txt"])
    >>> o.query, o.complete, o.max_docs, o.measures, o.files
    (True, True, 100, ('P.5,10', 'map'), ('q.txt', 'r.txt'))
    >>> parse(["qrels", "-qJ", "run"]).judged_only
    True
    """
    from .cnum import atol
    given: list[tuple[str, str | None]] = []
    files: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "--":
            files.extend(argv[i:])
            break
        if arg.startswith("--"):
            name, eq, value = arg[2:].partition("=")
            matches = [n for n in LONG if n.startswith(name)]
            if name in LONG:
                matches = [name]
            if len(matches) != 1:
                word = "ambiguous" if matches else "unrecognized"
                raise UsageError(f"{word} option '--{name}'")
            letter = LONG[matches[0]]
            if _takes_value(letter):
                if not eq:
                    if i >= len(argv):
                        raise UsageError(f"option '--{matches[0]}' requires an argument")
                    value = argv[i]
                    i += 1
                given.append((letter, value))
            else:
                if eq:
                    raise UsageError(f"option '--{matches[0]}' doesn't allow an argument")
                given.append((letter, None))
            continue
        if arg.startswith("-") and arg != "-":
            j = 1
            while j < len(arg):
                letter = arg[j]
                j += 1
                if letter not in SHORT.replace(":", ""):
                    raise UsageError(f"invalid option -- '{letter}'")
                if _takes_value(letter):
                    if j < len(arg):
                        value = arg[j:]
                    elif i < len(argv):
                        value = argv[i]
                        i += 1
                    else:
                        raise UsageError(f"option requires an argument -- '{letter}'")
                    given.append((letter, value))
                    break
                given.append((letter, None))
            continue
        files.append(arg)
    options = Options()
    measures = []
    for letter, value in given:
        if letter == "h":
            options = options._replace(help=True)
        elif letter == "v":
            return options._replace(version=True)
        elif letter == "q":
            options = options._replace(query=True)
        elif letter == "m":
            measures.append(value)
        elif letter == "c":
            options = options._replace(complete=True)
        elif letter == "l":
            options = options._replace(relevance_level=atol(value))
        elif letter == "n":
            options = options._replace(summary=False)
        elif letter == "D":
            _level, dot, query = value.partition(".")
            if dot:
                options = options._replace(debug_query=query.encode("utf-8", "surrogateescape"))
        elif letter == "J":
            options = options._replace(judged_only=True)
        elif letter == "N":
            options = options._replace(num_docs=atol(value))
        elif letter == "M":
            max_docs = atol(value)
            if max_docs < 0:  # trec_eval 10 would print -nan for the interpolated precisions
                raise UsageError(f"-M{value}: the most documents per query must be 0 or more")
            options = options._replace(max_docs=max_docs)
        elif letter == "R":
            options = options._replace(rel_format=value)
        elif letter == "T":
            options = options._replace(results_format=value)
        elif letter == "Z":
            options = options._replace(zscores=value)
    return options._replace(measures=tuple(measures), files=tuple(files))
