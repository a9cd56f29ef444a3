"""Answer metrics: the numbers of docs/measures.md, cases worked by hand (the working is in the comments),
SQuAD 2.0's official functions as an independent reference, and the edit distance checked
three ways (rapidfuzz, our bit-parallel fallback, the textbook table)."""

from __future__ import annotations

import collections
import random
import re
import string
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein
from retrieval_metrics import InputError, OptionError
from retrieval_metrics.answers.levenshtein import distance_backend, python_levenshtein_distance
from retrieval_metrics.answers.metrics import (
    anls_score,
    edit_similarity_score,
    exact_match_score,
    normalize_basic,
    normalize_squad,
    score_answers,
    token_f1_score,
)

ROOT = Path(__file__).resolve().parents[1]

SPEC_REFERENCES = ["The Eiffel Tower", ["Paris", "City of Paris"]]
SPEC_ANSWERS = ["eiffel tower.", "Paris, France"]


# ---------------------------------------------------------- docs/measures.md's example

def test_spec_numbers():
    assert exact_match_score(SPEC_REFERENCES, SPEC_ANSWERS) == 0.5
    assert round(token_f1_score(SPEC_REFERENCES, SPEC_ANSWERS), 3) == 0.833
    assert round(anls_score(SPEC_REFERENCES, SPEC_ANSWERS), 3) == 0.344
    assert round(edit_similarity_score(SPEC_REFERENCES, SPEC_ANSWERS), 4) == 0.5048


def test_spec_numbers_per_item():
    # EM: "eiffel tower." -> "eiffel tower" = "The Eiffel Tower" -> "eiffel tower" (1);
    #     "paris france" is neither "paris" nor "city of paris" (0).
    assert exact_match_score(SPEC_REFERENCES, SPEC_ANSWERS, average=None) == [1.0, 0.0]
    # F1 item 2: against "paris": 1 common token, 2 + 1 tokens: 2*1/3 = 2/3;
    #            against "city of paris": 1 common, 2 + 3 tokens: 2/5. Best 2/3.
    # Mean: (1 + 2/3) / 2 = 5/6.
    assert token_f1_score(SPEC_REFERENCES, SPEC_ANSWERS, average=None) == [1.0, 2 / 3]
    assert token_f1_score(SPEC_REFERENCES, SPEC_ANSWERS) == 5 / 6
    # ANLS (basic normalisation) item 1: "the eiffel tower" (16) -> "eiffel tower." (13):
    #   delete "th", keep "e", delete " e", keep "iffel tower", insert "." = 5 edits;
    #   1 - 5/16 = 11/16 = 0.6875.
    # Item 2: "paris" -> "paris, france": insert ", france" = 8 edits of 13: 5/13 = 0.3846;
    #   "city of paris" is farther (11 edits of 13). 5/13 < 0.5 -> 0. Mean 0.6875 / 2 = 0.34375.
    assert anls_score(SPEC_REFERENCES, SPEC_ANSWERS, average=None) == [0.6875, 0.0]
    assert anls_score(SPEC_REFERENCES, SPEC_ANSWERS) == 0.34375
    # Edit similarity (text as given) item 1: "The Eiffel Tower" -> "eiffel tower.": delete
    #   "Th", keep "e", delete " E", keep "iffel ", T -> t, keep "ower", insert "." = 6 edits;
    #   (16 - 6) / 16 = 0.625. Item 2: 5/13. Mean (0.625 + 5/13) / 2 = 0.50480769...
    assert edit_similarity_score(SPEC_REFERENCES, SPEC_ANSWERS, average=None) == [0.625, 5 / 13]
    assert edit_similarity_score(SPEC_REFERENCES, SPEC_ANSWERS) == pytest.approx(
        (0.625 + 5 / 13) / 2, abs=1e-15)


# ---------------------------------------------------------------- punctuation and articles

def test_punctuation():
    # squad: "U.S.A." -> lower "u.s.a." -> no punctuation "usa" = "usa"
    assert exact_match_score(["USA"], ["U.S.A."]) == 1.0
    # basic keeps punctuation: "u.s.a." != "usa"
    assert exact_match_score(["USA"], ["U.S.A."], normalize="basic") == 0.0
    # SQuAD removes a hyphen without a space, joining the words: "rockandroll" is one token,
    # "rock and roll" three, none in common: F1 0.
    assert token_f1_score(["rock and roll"], ["rock-and-roll"]) == 0.0
    # "(Paris), France!" -> "paris france"; against "Paris": 2*1/(2+1) = 2/3
    assert token_f1_score(["Paris"], ["(Paris), France!"]) == 2 / 3
    # only ASCII punctuation is removed: "«paris»" is not "paris"
    assert exact_match_score(["Paris"], ["«Paris»"]) == 0.0


def test_articles():
    # "An apple" -> " apple" -> "apple"
    assert exact_match_score(["apple"], ["An apple"]) == 1.0
    # an article inside a word stays: "the theater" -> "theater"; "theatre" differs
    assert exact_match_score(["the theater"], ["theater"]) == 1.0
    assert exact_match_score(["the theater"], ["a theatre"]) == 0.0
    # punctuation goes first, so "the-end" becomes "theend", which holds no article
    assert normalize_squad("the-end") == "theend"
    # articles are removed anywhere, not only at the start: "cat a the dog" -> "cat dog"
    assert token_f1_score(["cat dog"], ["cat a the dog"]) == 1.0
    # basic keeps articles: "the eiffel tower" vs "eiffel tower" is 4 deletions of 16
    assert anls_score(["Eiffel Tower"], ["The Eiffel Tower"]) == 12 / 16


def test_token_f1_counts_repeated_tokens():
    # bags {cat: 2, dog: 1} and {cat: 1, dog: 2}: min counts cat 1 + dog 1 = 2 common;
    # F1 = 2*2 / (3 + 3) = 2/3 (a set-based F1 would say 1.0)
    assert token_f1_score(["cat dog dog"], ["cat cat dog"]) == 2 / 3
    # precision 1/4, recall 1/1: F1 = 2 * 1/4 * 1 / (1/4 + 1) = 0.4 = 2*1/(4+1)
    assert token_f1_score(["paris"], ["paris paris london rome"]) == pytest.approx(0.4)
    assert token_f1_score(["paris"], ["paris paris london rome"]) == 2 / 5


# ---------------------------------------------------------------- empty strings

def test_two_empty_strings_score_one_everywhere():
    # Equal after normalisation -> 1 on every metric (SQuAD 2.0's F1 rule, the ANLS script's
    # "length == 0 -> distance 0"); see answers.py's docstring.
    for metric in (exact_match_score, token_f1_score, anls_score, edit_similarity_score):
        assert metric([""], [""]) == 1.0, metric.__name__


def test_texts_that_normalise_to_nothing():
    # squad: "The." -> "the" -> "" and "a" -> "": both empty, so EM and F1 are 1
    assert exact_match_score(["a"], ["The."]) == 1.0
    assert token_f1_score(["a"], ["The."]) == 1.0
    # ... but against a real reference an empty answer scores 0 (no division by zero)
    assert token_f1_score(["Paris"], ["The."]) == 0.0
    assert token_f1_score([""], ["Paris"]) == 0.0
    # basic: "   " -> "" equals "" (ANLS 1); as given, "   " -> "" is 3 deletions of 3: 0
    assert anls_score([""], ["   "]) == 1.0
    assert edit_similarity_score([""], ["   "]) == 0.0


def test_one_empty_string_scores_zero():
    # distance from "" to "abc" is 3, the longer length 3: 1 - 3/3 = 0
    for metric in (exact_match_score, token_f1_score, anls_score, edit_similarity_score):
        assert metric(["abc"], [""]) == 0.0, metric.__name__
        assert metric([""], ["abc"]) == 0.0, metric.__name__


# ---------------------------------------------------------------- several references

def test_best_reference_counts():
    refs = [["color", "colour"]]
    # as given: "Colour" -> "color" is C->c and delete u: 2 of 6 -> 4/6;
    #           "Colour" -> "colour" is C->c: 1 of 6 -> 5/6. Best 5/6.
    assert edit_similarity_score(refs, ["Colour"]) == 5 / 6
    assert anls_score(refs, ["Colour"]) == 1.0  # basic: "colour" == "colour"
    # F1 best of: "new york city" vs "new york" 2*2/(3+2) = 0.8; vs "nyc" 0
    assert token_f1_score([["NYC", "New York"]], ["New York City"]) == 0.8
    # a reference given as a tuple, and a one-element list, are the same as the string
    assert exact_match_score([("Paris",)], ["paris"]) == exact_match_score(["Paris"], ["paris"])


def test_anls_threshold_is_inclusive():
    # "ab" -> "ac": 1 edit of 2, similarity exactly 0.5: kept (the ANLS script zeroes only
    # values below 0.5)
    assert anls_score(["ab"], ["ac"]) == 0.5
    # one deletion of two: the lengths alone allow 1/2 at best, and 1/2 is reached
    assert anls_score(["ab"], ["a"]) == 0.5
    assert anls_score([["abcd", "ab"]], ["a"]) == 0.5  # the first reference allows 1/4 at most
    # "abcd" -> "abxy": 2 of 4 = 0.5 kept; "abc" -> "axy": 2 of 3, 1/3 -> 0
    assert anls_score(["abcd", "abc"], ["abxy", "axy"], average=None) == [0.5, 0.0]
    # the best reference is thresholded, not the mean: max(1/3 -> 0, 3/4) = 0.75
    assert anls_score([["wxyz", "abce"]], ["abcd"]) == 0.75
    assert edit_similarity_score(["abc"], ["axy"]) == 1 / 3


# ---------------------------------------------------------------- Unicode

def test_unicode_counts_code_points():
    # "Café" -> "cafe": C->c, é->e: 2 of 4 = 0.5
    assert edit_similarity_score(["Café"], ["cafe"]) == 0.5
    # é decomposed (e + U+0301) is 2 code points: "Café" (4) -> "Cafe\u0301" (5):
    # é->e, insert U+0301: 2 of 5 -> 3/5. NFC as a normalize callable makes them equal.
    assert edit_similarity_score(["Café"], ["Cafe\u0301"]) == 3 / 5
    nfc = lambda text: unicodedata.normalize("NFC", text)  # noqa: E731
    assert edit_similarity_score(["Café"], ["Cafe\u0301"], normalize=nfc) == 1.0
    # a thumbs-up with a skin-tone modifier is one grapheme, two code points: 1 insertion of 2
    assert edit_similarity_score(["\U0001F44D"], ["\U0001F44D\U0001F3FD"]) == 0.5
    # astral characters are one code point each: "😀😀" -> "😀😁" is 1 of 2
    assert anls_score(["\U0001F600\U0001F600"], ["\U0001F600\U0001F601"]) == 0.5


def test_unicode_case_and_space():
    # str.lower handles non-ASCII capitals: "ÉCOLE" -> "école"
    assert exact_match_score(["école"], ["ÉCOLE"]) == 1.0
    # lower case, not case folding: "straße" != "strasse"; str.casefold makes them equal
    assert exact_match_score(["STRASSE"], ["Straße"]) == 0.0
    assert exact_match_score(["STRASSE"], ["Straße"], normalize=str.casefold) == 1.0
    # a no-break space is whitespace to str.split: "New\xa0York" -> "new york"
    assert exact_match_score(["new york"], ["New\u00a0York"]) == 1.0
    # accents are kept by SQuAD's normalisation: "café" != "cafe"; F1 0, 1 token each
    assert token_f1_score(["cafe"], ["Café"]) == 0.0


# ---------------------------------------------------------------- options and shapes

def test_normalize_choices():
    # None: the text as given. "Paris" vs "paris" differ.
    assert exact_match_score(["Paris"], ["paris"], normalize=None) == 0.0
    # edit similarity with squad: "the eiffel tower" ... "eiffel tower" both -> "eiffel tower"
    assert edit_similarity_score(["The Eiffel Tower"], ["eiffel tower."], normalize="squad") == 1.0
    assert normalize_basic("  A\tB  ") == "a b"
    with pytest.raises(OptionError) as info:
        exact_match_score(["a"], ["a"], normalize="lower")
    assert info.value.field == "normalize"
    with pytest.raises(TypeError, match="returned int"):
        exact_match_score(["a"], ["a"], normalize=len)


def test_average_choices():
    assert exact_match_score(["a", "b"], ["a", "c"], average=None) == [1.0, 0.0]
    with pytest.raises(OptionError) as info:
        exact_match_score(["a"], ["a"], average="macro")
    assert info.value.field == "average"
    assert exact_match_score([], [], average=None) == []
    with pytest.raises(InputError, match="no answers to score"):
        exact_match_score([], [])


def test_mappings_are_aligned_by_id():
    refs = {"q2": "Paris", "q1": ["The Eiffel Tower"]}
    answers = {"q1": "eiffel tower.", "q2": "Lyon"}
    assert exact_match_score(refs, answers, average=None) == {"q2": 0.0, "q1": 1.0}
    assert exact_match_score(refs, answers) == 0.5
    with pytest.raises(InputError, match="no answer for 'q3'"):
        exact_match_score({**refs, "q3": "x"}, answers)
    with pytest.raises(TypeError, match="both be mappings"):
        exact_match_score(refs, ["a", "b"])


def test_length_mismatch_is_a_clear_error():
    with pytest.raises(InputError) as info:
        token_f1_score(["a", "b"], ["a", "b", "c"])
    assert info.value.message == "answers: 3 answers for 2 references"
    assert info.value.expected == "one answer per item, in the order of the references"


def test_wrong_types_are_refused():
    with pytest.raises(TypeError, match="not a single str"):
        exact_match_score("Paris", ["Paris"])
    with pytest.raises(TypeError, match=r"answers, item 2: expected a string, found NoneType"):
        exact_match_score(["a", "b"], ["a", None])
    with pytest.raises(TypeError, match=r"references, item 1: expected strings, found int"):
        exact_match_score([["a", 1]], ["a"])
    with pytest.raises(InputError, match="item 1 has an empty list of references"):
        exact_match_score([[]], ["a"])
    with pytest.raises(OptionError, match="unknown answer metric"):
        score_answers("bleu", ["a"], ["a"])


def test_sequences_of_other_kinds():
    # generators, tuples and numpy arrays of strings are sequences of items
    np = pytest.importorskip("numpy")
    assert exact_match_score(np.array(["Paris", "Lyon"]), (a for a in ["paris", "Nice"])) == 0.5


# ---------------------------------------------------------------- SQuAD 2.0's own functions

def _squad_normalize_answer(s):
    """SQuAD 2.0's evaluate-v2.0.py, normalize_answer (verbatim apart from layout)."""
    def remove_articles(text):
        regex = re.compile(r'\b(a|an|the)\b', re.UNICODE)
        return re.sub(regex, ' ', text)

    def white_space_fix(text):
        return ' '.join(text.split())

    def remove_punc(text):
        exclude = set(string.punctuation)
        return ''.join(ch for ch in text if ch not in exclude)

    return white_space_fix(remove_articles(remove_punc(s.lower())))


def _squad_get_tokens(s):
    if not s:
        return []
    return _squad_normalize_answer(s).split()


def _squad_compute_exact(a_gold, a_pred):
    return int(_squad_normalize_answer(a_gold) == _squad_normalize_answer(a_pred))


def _squad_compute_f1(a_gold, a_pred):
    gold_toks = _squad_get_tokens(a_gold)
    pred_toks = _squad_get_tokens(a_pred)
    common = collections.Counter(gold_toks) & collections.Counter(pred_toks)
    num_same = sum(common.values())
    if len(gold_toks) == 0 or len(pred_toks) == 0:
        return int(gold_toks == pred_toks)
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(pred_toks)
    recall = 1.0 * num_same / len(gold_toks)
    return (2 * precision * recall) / (precision + recall)


_answer_text = st.lists(
    st.sampled_from(["the", "a", "an", "The", "A", "paris", "Paris", "tower", "x", "é", "ß",
                     ".", ",", "-", "!", "(", ")", "'", " ", "  ", "\t", "\u00a0", "«", "theater",
                     "an.", "a-b"]),
    max_size=8).map("".join)


@pytest.mark.slow
@given(st.lists(_answer_text, min_size=1, max_size=3), _answer_text)
def test_agrees_with_squad_official_functions(golds, pred):
    # SQuAD takes the best over its gold answers, as we do
    assert exact_match_score([golds], [pred]) == max(_squad_compute_exact(g, pred) for g in golds)
    # 2PR/(P+R) rounds three times, 2c/(n+m) once: equal to within a few ulps
    assert token_f1_score([golds], [pred]) == pytest.approx(
        max(_squad_compute_f1(g, pred) for g in golds), rel=1e-15, abs=0)


# ---------------------------------------------------------------- the edit distance

def _table_distance(a: str, b: str) -> int:
    """The textbook dynamic-programming table, one row at a time (Wagner and Fischer, 1974)."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        diagonal, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            diagonal, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, diagonal + (ca != cb))
    return row[-1]


def test_distance_by_hand():
    # kitten -> sitting: k->s, e->i, insert g
    assert python_levenshtein_distance("kitten", "sitting") == 3
    # flaw -> lawn: delete f, insert n
    assert python_levenshtein_distance("flaw", "lawn") == 2
    assert python_levenshtein_distance("", "") == 0
    assert python_levenshtein_distance("abc", "") == 3
    # a pattern longer than 64 code points (one machine word in rapidfuzz's blocks): 70 a's
    # against 70 a's with the middle one changed
    assert python_levenshtein_distance("a" * 70, "a" * 35 + "b" + "a" * 34) == 1


# small alphabets make near-misses likely; the full range (lone surrogates included, as a
# JavaScript string may hold them) checks that nothing assumes a narrow character set
_small = st.text(alphabet="abé\u0301\U0001F600 ", max_size=150)
_any = st.text(alphabet=st.characters(exclude_categories=()), max_size=80)


@pytest.mark.slow
@given(st.one_of(_small, _any), st.one_of(_small, _any))
def test_fallback_equals_rapidfuzz_and_the_table(a, b):
    expected = _table_distance(a, b)
    assert python_levenshtein_distance(a, b) == expected
    assert Levenshtein.distance(a, b) == expected


@pytest.mark.slow
@given(_small, st.integers(0, 150), st.integers(0, 5), _small)
def test_fallback_equals_rapidfuzz_on_near_copies(a, at, cut, insert):
    # a copy of a with a piece cut out and another put in: long common prefix and suffix
    b = a[:at] + insert + a[at + cut:]
    assert python_levenshtein_distance(a, b) == Levenshtein.distance(a, b)
    assert python_levenshtein_distance(b, a) == Levenshtein.distance(a, b)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fallback_equals_rapidfuzz_on_long_texts(seed):
    # thousands of code points: the bit vectors span hundreds of machine words, and every
    # step's high bits (above the pattern's length) must never leak into the low ones
    rng = random.Random(seed)
    words = ["".join(rng.choice("abcdeé") for _ in range(rng.randint(1, 7))) for _ in range(300)]
    a = " ".join(rng.choice(words) for _ in range(rng.randint(400, 900)))
    b = " ".join(rng.choice(words) for _ in range(rng.randint(400, 900)))
    edited = a[:1000] + b[:500] + a[1200:]  # a near copy, with a long common suffix
    for x, y in ((a, b), (b, a), (a, edited), (a, a[::-1])):
        assert python_levenshtein_distance(x, y) == Levenshtein.distance(x, y)


@pytest.mark.slow
@given(st.lists(st.text(alphabet="ab c", max_size=30), min_size=1, max_size=4),
       st.text(alphabet="ab c", max_size=30))
def test_edit_similarity_and_anls_equal_the_anls_script(references, answer):
    # the ANLS script's loop: every reference measured, the best 1 - d / max kept, below 0.5
    # scored 0; the metrics skip references whose length alone rules them out
    from retrieval_metrics.answers.metrics import anls, edit_similarity
    similarities = [1 - Levenshtein.distance(r, answer) / max(len(r), len(answer))
                    if max(len(r), len(answer)) else 1.0 for r in references]
    best = max(similarities)
    assert float(edit_similarity(references, answer)) == pytest.approx(best, abs=1e-15)
    assert float(anls(references, answer)) == pytest.approx(best if best >= 0.5 else 0.0,
                                                            abs=1e-15)


def test_rapidfuzz_is_used_when_installed():
    assert distance_backend() == "rapidfuzz"


@pytest.mark.slow
def test_without_rapidfuzz_the_fallback_gives_the_spec_numbers():
    code = (
        "import sys; sys.modules['rapidfuzz'] = None\n"
        "from retrieval_metrics.answers.metrics import anls_score, edit_similarity_score\n"
        "from retrieval_metrics.answers.levenshtein import distance_backend\n"
        f"refs, answers = {SPEC_REFERENCES!r}, {SPEC_ANSWERS!r}\n"
        "print(distance_backend(), anls_score(refs, answers),"
        " round(edit_similarity_score(refs, answers), 4))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT / "py")}, check=True)
    assert out.stdout.split() == ["python", "0.34375", "0.5048"]
