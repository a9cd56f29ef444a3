"""Scores for generated answers against reference answers: exact match, token F1, ANLS and
edit similarity.

Each item has one answer and one or more acceptable references (a string, or a list of
strings); the best reference counts. Definitions (docs/measures.md, "Answer metrics"):

- ``exact_match_score``: 1 when the normalised answer equals a normalised reference, else 0.
- ``token_f1_score``: F1 of the bags of tokens (whitespace-split, after normalisation):
  with c tokens in common (counted with multiplicity), F1 = 2c / (answer tokens + reference
  tokens), the same number as 2PR / (P + R) of SQuAD's script.
- Every per-item score is computed exactly (a fraction) and rounded once; a mean is the exact
  mean of the fractions, rounded once (so the example's token F1 below is 5/6 = 0.8333333333333334).
- ``anls_score``: the normalised Levenshtein similarity 1 - distance / max(len a, len b),
  scored 0 when below 0.5 (Biten et al., 2019, ST-VQA), after ``normalize="basic"``.
- ``edit_similarity_score``: the same similarity with no threshold and, by default, no
  normalisation.

Normalisation (``normalize=``): ``"squad"`` as SQuAD's official script (lower case, ASCII
punctuation removed, the articles a / an / the removed, whitespace collapsed), ``"basic"`` as
the ANLS script (lower case, trimmed, whitespace collapsed), ``None`` (the text as given) or
any callable from str to str, applied to answers and references alike.

Empty text: two strings that are equal after normalisation score 1 on every metric, even when
both are empty ("" or an answer that was only "The."), and an empty string against a non-empty
one scores 0. For token F1 this is SQuAD 2.0's rule (its script returns
``int(gold_toks == pred_toks)`` when either side has no token); SQuAD 1.1's script gave 0 for
two empty strings, which would disagree with exact match. For ANLS it is the ANLS script's
rule (an empty pair has normalised distance 0). Lengths and distances count Unicode code
points (see ``levenshtein``).

The example of docs/measures.md:

>>> references = ["The Eiffel Tower", ["Paris", "City of Paris"]]
>>> answers = ["eiffel tower.", "Paris, France"]
>>> exact_match_score(references, answers)
0.5
>>> round(token_f1_score(references, answers), 3)   # 1.0; max(2/3, 0.4)
0.833
>>> round(anls_score(references, answers), 3)       # 1 - 5/16 = 0.6875; 5/13 < 0.5 -> 0
0.344
>>> round(edit_similarity_score(references, answers), 4)  # 10/16 = 0.625; 5/13 = 0.3846
0.5048
>>> token_f1_score(references, answers, average=None)
[1.0, 0.6666666666666666]
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction

from ..errors import InputError, OptionError
from .levenshtein import levenshtein_distance

NORMALIZE_CHOICES = ("squad", "basic", None)
AVERAGE_CHOICES = ("mean", None)

_NO_PUNCTUATION = str.maketrans("", "", string.punctuation)  # deletes each ASCII punctuation mark
_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)


def normalize_squad(text: str) -> str:
    """SQuAD's ``normalize_answer``: lower case, ASCII punctuation removed, then the articles
    a / an / the, then whitespace collapsed (in that order, as the official script does).

    >>> normalize_squad("  The  Eiffel-Tower, (Paris)! ")
    'eiffeltower paris'
    >>> normalize_squad("¿Qué?")  # only ASCII punctuation goes
    '¿qué'
    """
    text = text.lower()
    text = text.translate(_NO_PUNCTUATION)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def normalize_basic(text: str) -> str:
    """The ANLS script's normalisation: lower case, trimmed, whitespace collapsed;
    punctuation and articles kept.

    >>> normalize_basic("  The Eiffel\\tTower. ")
    'the eiffel tower.'
    """
    return " ".join(text.lower().split())


def normalizer(normalize) -> Callable[[str], str]:
    if normalize is None:
        return _identity
    if callable(normalize):
        return _checked(normalize)
    if normalize == "squad":
        return normalize_squad
    if normalize == "basic":
        return normalize_basic
    raise OptionError("normalize", f'normalize must be "squad", "basic", None or a function '
                                   f"from str to str, found {normalize!r}")


def _identity(text: str) -> str:
    return text


def _checked(function):
    def normalize(text: str) -> str:
        result = function(text)
        if not isinstance(result, str):
            raise TypeError(f"normalize({text!r}) returned {type(result).__name__}, "
                            "expected str")
        return result
    return normalize


# One item: an answer and its normalised references -> its exact score, a Fraction in
# [0, 1], so that a mean is the exact rational mean rounded once (5/6, not the mean of 1.0
# and the float nearest 2/3, which is one unit in the last place lower).

ZERO, ONE, HALF = Fraction(0), Fraction(1), Fraction(1, 2)


def exact_match(references: list[str], answer: str) -> Fraction:
    """1 when the answer equals one of the (already normalised) references, else 0."""
    return ONE if answer in references else ZERO


def token_f1(references: list[str], answer: str) -> Fraction:
    """The best token F1 of an (already normalised) answer over its references.

    "paris france" against "paris": 1 token in common, 2 + 1 tokens, F1 = 2 / 3.

    >>> token_f1(["paris", "city of paris"], "paris france")
    Fraction(2, 3)
    """
    answer_tokens = answer.split()
    answer_bag = Counter(answer_tokens)
    best = ZERO
    for reference in references:
        reference_tokens = reference.split()
        if not reference_tokens or not answer_tokens:
            value = ONE if reference_tokens == answer_tokens else ZERO
        else:
            common = sum((answer_bag & Counter(reference_tokens)).values())
            value = Fraction(2 * common, len(answer_tokens) + len(reference_tokens))
        if value > best:
            best = value
    return best


def edit_similarity(references: list[str], answer: str, floor: Fraction = ZERO) -> Fraction:
    """The best 1 - distance / max(len a, len b) over the references; 1 for two empty strings.

    A distance is at least the difference of the lengths, so a reference's similarity is at
    most shorter / longer: a reference whose bound cannot beat the best so far (or reach
    ``floor``, below which the caller scores 0 anyway) is not measured. The result is the same;
    a long answer against a short reference costs nothing.

    >>> edit_similarity(["paris, france"], "paris")  # 8 deletions of 13: 5/13
    Fraction(5, 13)
    """
    best = ZERO
    for reference in references:
        longest = max(len(reference), len(answer))
        if longest == 0:
            return ONE
        bound = Fraction(min(len(reference), len(answer)), longest)
        if bound <= best or bound < floor:
            continue
        value = Fraction(longest - levenshtein_distance(reference, answer), longest)
        if value > best:
            best = value
    return best


def anls(references: list[str], answer: str) -> Fraction:
    """Edit similarity scored 0 below the 0.5 threshold (0.5 itself counts, as in the ANLS
    script: ``if question_result < 0.5: question_result = 0``).

    >>> anls(["ab"], "ac"), anls(["abc"], "axy")  # 1/2 kept; 1/3 < 1/2 -> 0
    (Fraction(1, 2), Fraction(0, 1))
    >>> anls(["Paris"], "The capital of France is Paris")  # 5/30 at best: not measured
    Fraction(0, 1)
    """
    value = edit_similarity(references, answer, HALF)
    return value if value >= HALF else ZERO


METRICS: dict[str, tuple[Callable[[list[str], str], Fraction], str | None]] = {
    # name: (per-item score, default normalisation)
    "exact_match": (exact_match, "squad"),
    "token_f1": (token_f1, "squad"),
    "anls": (anls, "basic"),
    "edit_similarity": (edit_similarity, None),
}


def _items(references, answers) -> tuple[list, list[list[str]], list[str]]:
    """(keys or None, references per item, answers) after checking shapes and types."""
    if isinstance(references, Mapping) or isinstance(answers, Mapping):
        if not (isinstance(references, Mapping) and isinstance(answers, Mapping)):
            raise TypeError("references and answers must both be mappings keyed by item id, "
                            "or both be sequences aligned by position")
        missing = [key for key in references if key not in answers]
        extra = [key for key in answers if key not in references]
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"no answer for {_some(missing)}")
            if extra:
                parts.append(f"no reference for {_some(extra)}")
            raise InputError("answers", "the ids of references and answers differ: "
                             + "; ".join(parts), expected="one answer for each reference id")
        keys = list(references)
        references = [references[key] for key in keys]
        answers = [answers[key] for key in keys]
    else:
        keys = None
        _same_index(references, answers)
        references = _sequence(references, "references")
        answers = _sequence(answers, "answers")
        if len(references) != len(answers):
            raise InputError("answers", f"{len(answers):,} answer{_s(len(answers))} for "
                             f"{len(references):,} reference{_s(len(references))}",
                             expected="one answer per item, in the order of the references")
    checked_refs = []
    for number, refs in enumerate(references, 1):
        where = f"item {keys[number - 1]!r}" if keys else f"item {number}"
        if isinstance(refs, str):
            checked_refs.append([refs])
            continue
        if isinstance(refs, (bytes, Mapping)) or not isinstance(refs, Iterable):
            raise TypeError(f"references, {where}: expected a string or a list of strings, "
                            f"found {type(refs).__name__}")
        refs = list(refs)
        if not refs:
            raise InputError("references", f"{where} has an empty list of references",
                             expected="at least one acceptable answer per item")
        for ref in refs:
            if not isinstance(ref, str):
                raise TypeError(f"references, {where}: expected strings, found "
                                f"{type(ref).__name__} ({ref!r})")
        checked_refs.append(refs)
    for number, answer in enumerate(answers, 1):
        if not isinstance(answer, str):
            where = f"item {keys[number - 1]!r}" if keys else f"item {number}"
            raise TypeError(f"answers, {where}: expected a string, found "
                            f"{type(answer).__name__} ({answer!r})")
    return keys, checked_refs, list(answers)


def _same_index(references, answers) -> None:
    """Two pandas Series are aligned by position only when they share their index: after a
    sort or a split, position i of one is not item i of the other."""
    def index(values):
        kind = type(values)
        if kind.__module__.partition(".")[0] == "pandas" and kind.__name__ == "Series":
            return values.index
        return None

    ref_index, answer_index = index(references), index(answers)
    if ref_index is not None and answer_index is not None and not ref_index.equals(answer_index):
        raise InputError("answers", "the references and the answers are Series with different "
                         "indexes; by position they would pair different items: use "
                         "answers.reindex(references.index), or reset_index(drop=True) on both",
                         expected="Series with the same index")


def _sequence(values, name: str) -> list:
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a list with one entry per item, not a single "
                        f"{type(values).__name__} (wrap one item in a list: [{values!r}])")
    if not isinstance(values, Iterable):
        raise TypeError(f"{name} must be a list with one entry per item, found "
                        f"{type(values).__name__}")
    return list(values)


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _some(keys: list) -> str:
    shown = ", ".join(repr(key) for key in keys[:5])
    return shown + (f" and {len(keys) - 5:,} more" if len(keys) > 5 else "")


def score_answers(metric: str, references, answers, *, normalize="default",
                  average: str | None = "mean"):
    """One answer metric by name (``exact_match``, ``token_f1``, ``anls``,
    ``edit_similarity``): the mean over the items, or with ``average=None`` the value per item
    (a list, or a dict when references and answers are mappings keyed by item id).

    >>> score_answers("exact_match", {"a": "Paris"}, {"a": "paris!"}, average=None)
    {'a': 1.0}
    """
    try:
        per_item, default = METRICS[metric]
    except KeyError:
        raise OptionError("metric", f"unknown answer metric {metric!r}; choose one of "
                                    f"{', '.join(METRICS)}") from None
    if average not in AVERAGE_CHOICES:
        raise OptionError("average", f'average must be "mean" or None, found {average!r}')
    norm = normalizer(default if normalize == "default" else normalize)
    keys, references, answers = _items(references, answers)
    values = [per_item([norm(ref) for ref in refs], norm(answer))
              for refs, answer in zip(references, answers)]
    if average is None:
        floats = [float(value) for value in values]
        return dict(zip(keys, floats)) if keys is not None else floats
    return exact_mean(values)


def exact_mean(values: list[Fraction]) -> float:
    """The mean of exact per-item scores, rounded once to the nearest float.

    >>> exact_mean([Fraction(1), Fraction(2, 3)])  # 5/6
    0.8333333333333334
    """
    if not values:
        raise InputError("answers", "there are no answers to score",
                         expected="at least one item")
    return float(sum(values, ZERO) / len(values))


def exact_match_score(references, answers, *, normalize="squad", average="mean"):
    """Share of answers equal to one of their references after SQuAD normalisation.

    >>> exact_match_score([["Paris", "City of Paris"]], ["the city of Paris."])
    1.0
    """
    return score_answers("exact_match", references, answers, normalize=normalize,
                         average=average)


def token_f1_score(references, answers, *, normalize="squad", average="mean"):
    """Mean over the items of the best token F1 against any reference (SQuAD).

    >>> token_f1_score(["the big red car"], ["a red car"])  # big red car / red car: 2*2/(3+2)
    0.8
    """
    return score_answers("token_f1", references, answers, normalize=normalize,
                         average=average)


def anls_score(references, answers, *, normalize="basic", average="mean"):
    """Average Normalised Levenshtein Similarity with the 0.5 threshold (ST-VQA, DocVQA).

    >>> anls_score(["Tower"], [" tower "])
    1.0
    """
    return score_answers("anls", references, answers, normalize=normalize, average=average)


def edit_similarity_score(references, answers, *, normalize=None, average="mean"):
    """Mean best 1 - Levenshtein distance / longer length, no threshold, text as given.

    >>> edit_similarity_score(["Tower"], ["tower"])  # one substitution in 5
    0.8
    """
    return score_answers("edit_similarity", references, answers, normalize=normalize,
                         average=average)


__all__ = ["exact_match_score", "token_f1_score", "anls_score", "edit_similarity_score",
           "score_answers", "normalize_squad", "normalize_basic"]
