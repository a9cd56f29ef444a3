"""Speed of the answer metrics' edit distance: our pure-Python fallback (the page's, since
Pyodide has no rapidfuzz) against rapidfuzz's C and the textbook dynamic-programming table, in
the same process, on the same pairs; then web.analyse_answers on 10,000 items with each backend.

    .venv/bin/python bench/answers_bench.py [--repeat 5]

Pairs: answer-like texts (a reference and a variant with a few edits) of 10-60, 100-300 and
1,000-3,000 characters, plus unrelated pairs of the middle size. Times are the best of --repeat
runs; ratios are against rapidfuzz (same distances checked on every pair).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

from rapidfuzz.distance import Levenshtein  # noqa: E402
from retrieval_metrics.answers import levenshtein  # noqa: E402
from retrieval_metrics.answers.levenshtein import python_levenshtein_distance  # noqa: E402

WORDS = ("the tower paris eiffel city of france river seine built in 1889 by gustave iron "
         "lattice wrought metres tall visitors année café über straße 東京").split()


def table_distance(a: str, b: str) -> int:
    """Wagner-Fischer, one row at a time: the obvious pure-Python version."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        diagonal, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            diagonal, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, diagonal + (ca != cb))
    return row[-1]


def text(rng: random.Random, low: int, high: int) -> str:
    size = rng.randint(low, high)
    out = []
    while sum(map(len, out)) + len(out) < size:
        out.append(rng.choice(WORDS))
    return " ".join(out)[:size]


def variant(rng: random.Random, s: str) -> str:
    chars = list(s)
    for _ in range(max(1, len(s) // 15)):
        i = rng.randrange(len(chars) + 1)
        op = rng.choice("ids")
        if op == "i":
            chars.insert(i, rng.choice("abcdefé. "))
        elif chars and i < len(chars):
            if op == "d":
                del chars[i]
            else:
                chars[i] = rng.choice("xyzé")
    return "".join(chars)


def pairs(seed: int = 0) -> dict[str, list[tuple[str, str]]]:
    rng = random.Random(seed)
    sets = {}
    for name, low, high, count in (("short (10-60)", 10, 60, 2000), ("medium (100-300)", 100, 300, 500),
                                   ("long (1k-3k)", 1000, 3000, 20)):
        sets[name] = [(s, variant(rng, s)) for s in (text(rng, low, high) for _ in range(count))]
    sets["unrelated (100-300)"] = [(text(rng, 100, 300), text(rng, 100, 300)) for _ in range(500)]
    return sets


def best(function, data, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for a, b in data:
            function(a, b)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'pairs':<22}{'n':>6}{'rapidfuzz':>12}{'ours':>12}{'table':>12}{'ours/rf':>10}{'table/ours':>12}")
    for name, data in pairs().items():
        for a, b in data:
            assert python_levenshtein_distance(a, b) == Levenshtein.distance(a, b), (a, b)
        rf = best(Levenshtein.distance, data, args.repeat)
        ours = best(python_levenshtein_distance, data, args.repeat)
        table = best(table_distance, data, 1 if "long" in name else max(1, args.repeat // 2))
        print(f"{name:<22}{len(data):>6}{rf * 1e3:>10.2f}ms{ours * 1e3:>10.2f}ms{table * 1e3:>10.1f}ms"
              f"{ours / rf:>10.1f}{table / ours:>12.1f}")

    from retrieval_metrics.page.web import analyse_answers
    rng = random.Random(1)
    refs, answers = [], []
    for i in range(10_000):
        ref = text(rng, 5, 80)
        refs.append(f'{{"id": "q{i}", "references": ["{ref}", "{text(rng, 5, 40)}"]}}')
        answers.append(f'{{"id": "q{i}", "answer": "{variant(rng, ref)}"}}')
    refs_text, answers_text = "\n".join(refs), "\n".join(answers)
    for backend, function in (("rapidfuzz", Levenshtein.distance), ("python", python_levenshtein_distance)):
        levenshtein._BACKEND = function
        start = time.perf_counter()
        out = analyse_answers(refs_text, answers_text, {})
        print(f"analyse_answers, 10,000 items, two references each, {backend}: "
              f"{time.perf_counter() - start:.2f} s (edit similarity {out['report']['mean']['edit_similarity']:.6f})")
    levenshtein._BACKEND = None


if __name__ == "__main__":
    main()
