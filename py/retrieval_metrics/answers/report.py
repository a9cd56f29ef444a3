"""The page's Answers mode: two boxes (references, answers) in, per-item scores, means and
notices out, as plain data.

Each box is read on its own (``answers.text``), so the line under a box says what was detected
even while the other box is empty or wrong. The references box gives the references and the
answers box the answers; a box may hold both (JSONL objects with ``reference`` and
``answer``, or a CSV with a header naming both), and then fills in for an empty other box.

Counting rules (docs/counting.md, "Answers"; per item; the means are exact):

- the items are the ids with a reference, in the order of the references box;
- an item without an answer scores 0 on every metric (``missing="zero"``, the default) or is
  left out of the means (``missing="skip"``); a notice names them;
- an answer whose id has no reference is not scored; a notice names them;
- an id answered twice keeps its first answer; a notice names them;
- an id repeated in the references gathers all its references (the best one counts).
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import InputError, OptionError
from ..inputs.records import Notice
from ..inputs.source import is_blank
from ..report.wording import agreeing, counted, listed
from ..scoring.settings import ANSWERS_OPTIONS, choice, request_options
from .metrics import METRICS, exact_mean, normalizer
from .text import ANSWER_FORMATS, AnswerBox, parse_answer_box

ANSWER_METRICS = tuple(METRICS)
MISSING_ANSWERS = ("zero", "skip")


def analyse_answers(references_text, answers_text, options: dict | None = None) -> dict:
    """Scores what can be scored; ``errors`` says per box (and for the settings) what cannot.

    >>> out = analyse_answers('{"id": "q1", "reference": "The Eiffel Tower"}\\n'
    ...                       '{"id": "q2", "references": ["Paris", "City of Paris"]}',
    ...                       "q1,eiffel tower.\\nq2,\\"Paris, France\\"")
    >>> out["inputs"]["references"]["description"], out["inputs"]["answers"]["description"]
    ('JSONL: 2 lines, 2 items, 3 references', 'CSV: 2 columns (id, answer), 2 rows, 2 items, 2 answers')
    >>> {name: round(value, 4) for name, value in out["report"]["mean"].items()}
    {'exact_match': 0.5, 'token_f1': 0.8333, 'anls': 0.3438, 'edit_similarity': 0.5048}
    """
    errors = {"references": None, "answers": None, "options": None}
    inputs = {"references": None, "answers": None}
    result = {"inputs": inputs, "errors": errors, "report": None}
    try:
        options = request_options(options, ANSWERS_OPTIONS, "analyse_answers")
        formats = {box: choice(f"{box}_format", options.get(f"{box}_format", "auto"),
                               ANSWER_FORMATS) for box in ("references", "answers")}
        missing = choice("missing", options.get("missing", "zero"), MISSING_ANSWERS)
    except OptionError as exc:
        errors["options"] = exc.to_dict()
        return result
    texts = {"references": references_text, "answers": answers_text}
    boxes: dict[str, AnswerBox | None] = {"references": None, "answers": None}
    for name, text in texts.items():
        if _blank(text):
            continue
        try:
            boxes[name] = parse_answer_box(text, name, formats[name])
            inputs[name] = boxes[name].summary.to_dict()
        except InputError as exc:
            errors[name] = exc.to_dict()
    if errors["references"] or errors["answers"]:
        return result
    refs_box = boxes["references"] or boxes["answers"]
    answers_box = boxes["answers"] or boxes["references"]
    if refs_box is None:
        return result
    if not refs_box.summary.references:
        name = "references" if boxes["references"] else "answers"
        errors[name] = InputError(
            name, "there are no references here", expected='items with a "reference" or '
            '"references" (JSON), or rows of id, reference (CSV / TSV)').to_dict()
        return result
    if answers_box is refs_box and not refs_box.summary.answers:
        return result  # answers still to come: the detection line is all there is to show
    if not answers_box.summary.answers:
        errors["answers"] = InputError(
            "answers", "there are no answers here", expected='items with an "answer" (JSON), '
            "or rows of id, answer (CSV / TSV)").to_dict()
        return result
    result["report"] = score_boxes(boxes, refs_box, answers_box, missing)
    return result


def score_boxes(boxes: dict, refs_box: AnswerBox, answers_box: AnswerBox, missing: str) -> dict:
    """The report of two read boxes: per item, means and notices."""
    notices: list[Notice] = []
    for box in boxes.values():
        if box is not None:
            notices.extend(box.notices)
    references: dict[str, list[str]] = {}
    for record in refs_box.records:
        if record.references is not None:
            refs = references.setdefault(record.id, [])
            refs.extend(r for r in record.references if r not in refs)
    answers: dict[str, str] = {}
    differing: list[str] = []
    repeated: list[str] = []
    for record in answers_box.records:
        if record.answer is None:
            continue
        if record.id not in answers:
            answers[record.id] = record.answer
        elif answers[record.id] != record.answer:
            if record.id not in differing:
                differing.append(record.id)
        elif record.references is None and record.id not in repeated:
            repeated.append(record.id)  # a combined row repeats its answer by design
    if boxes["references"] and boxes["answers"]:
        if boxes["references"].summary.answers:
            notices.append(Notice(
                "answers_ignored", "info", f"references: {counted(boxes['references'].summary.answers, 'answer')} "
                "in this box ignored; the answers box gives the answers.",
                boxes["references"].summary.answers))
        if boxes["answers"].summary.references:
            notices.append(Notice(
                "references_ignored", "info", f"answers: {counted(boxes['answers'].summary.references, 'reference')} "
                "in this box ignored; the references box gives the references.",
                boxes["answers"].summary.references))
    unreferenced = [item for item in answers if item not in references]
    unanswered = [item for item in references if item not in answers]

    # each normalisation once per text, shared by the metrics that use it (EM and F1: squad)
    normalizers = {default: normalizer(default) for _, default in METRICS.values()}
    per_item = []
    exact: dict[str, list[Fraction]] = {name: [] for name in METRICS}
    for item, refs in references.items():
        answer = answers.get(item)
        if answer is None:
            if missing == "skip":
                continue
            values = {name: Fraction(0) for name in METRICS}
        else:
            texts = {default: ([norm(ref) for ref in refs], norm(answer))
                     for default, norm in normalizers.items()}
            values = {name: score(*texts[default]) for name, (score, default) in METRICS.items()}
        for name, value in values.items():
            exact[name].append(value)
        per_item.append({"id": item, "answer": answer, "references": list(refs),
                         **{name: float(value) for name, value in values.items()}})

    for code, level, ids, words in (
            ("missing_answers", "warning", unanswered,
             lambda n: f"{counted(n, 'item')} with a reference {agreeing(n, 'has')} no answer: "
                       f"{'scored 0 on every metric' if missing == 'zero' else 'left out of the means'}"
                       f" ({listed(unanswered)}); check that the answers' ids are the "
                       f"references' ones."),
            ("unreferenced_answers", "warning", unreferenced,
             lambda n: f"{counted(n, 'answer')} {agreeing(n, 'has')} no reference and "
                       f"{agreeing(n, 'is')} not scored ({listed(unreferenced)}); add "
                       f"{'its reference to score it' if n == 1 else 'their references to score them'}."),
            ("duplicate_answers", "warning", differing,
             lambda n: f"{counted(n, 'item')} {agreeing(n, 'has')} more than one different "
                       f"answer; the first is scored ({listed(differing)}): keep one answer per "
                       f"item to choose which."),
            ("repeated_answers", "info", repeated,
             lambda n: f"{counted(n, 'item')} {agreeing(n, 'has')} the same answer given more "
                       f"than once; it counts once ({listed(repeated)}).")):
        if ids:
            notices.append(Notice.about(code, level, words(len(ids)), ids))
    if not per_item:
        notices.append(Notice("no_scored_items", "warning",
                              "No item could be scored: no item with a reference has an answer; "
                              "check that the answers' ids are the references' ones.",
                              0))
    mean = {name: exact_mean(values) for name, values in exact.items()} if per_item else {}
    return {
        "metrics": list(METRICS),
        "normalize": {name: default for name, (_, default) in METRICS.items()},
        "missing": missing,
        "per_item": per_item,
        "mean": mean,
        "scored_items": len(per_item),
        "missing_items": unanswered,
        "unreferenced_answers": unreferenced,
        "notices": [notice.to_dict() for notice in notices],
    }


_blank = is_blank



__all__ = ["analyse_answers", "ANSWER_METRICS"]

