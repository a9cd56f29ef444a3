"""k as people type it: one wording for every refusal, the same in the API, the CLI and the page.

`5,,10` (an empty entry, or a half-typed `5,`) and `10,5,5` (a cutoff twice) used to pass silently
as (5, 10); they are refused now, so a typo is seen rather than scored.
"""

import pytest
from retrieval_metrics import evaluate
from retrieval_metrics.errors import OptionError
from retrieval_metrics.page import web
from retrieval_metrics.scoring.settings import parse_k

EXPECTED = "give whole numbers from 1 to 1,000,000, each once, such as 1,5,10"


@pytest.mark.parametrize("k, start", [
    ("5,,10", "k has an empty entry between commas in '5,,10'"),
    ("5,", "k has an empty entry between commas in '5,'"),
    (",5", "k has an empty entry between commas in ',5'"),
    ("10,5,5", "k gives 5 twice"),
    ("5 5", "k gives 5 twice"),
    ([10, 5, 5], "k gives 5 twice"),
    ("0", "k cannot be"),
    ("x", "k cannot be"),
    (0, "k cannot be"),
    ("", "k is empty"),
    ("  ", "k is empty"),
])
def test_every_refusal_has_one_wording(k, start):
    with pytest.raises(OptionError) as caught:
        parse_k(k)
    message = str(caught.value)
    assert message.startswith(start)
    assert EXPECTED in message
    assert caught.value.field == "k"


@pytest.mark.parametrize("k, expected", [("10,1, 5", (1, 5, 10)), ("5", (5,)), ([3, 1], (1, 3)), (" 1 , 2 ", (1, 2))])
def test_good_k_is_sorted(k, expected):
    assert parse_k(k) == expected


def test_the_page_and_the_api_refuse_alike():
    qrels, run = "q1 0 d1 1\n", "q1 Q0 d1 1 2.0 r\n"
    out = web.analyse(qrels, run, {"k": "10,5,5"})
    assert out["errors"]["options"]["field"] == "k"
    with pytest.raises(OptionError) as caught:
        evaluate(qrels, run, k="10,5,5")
    assert out["errors"]["options"]["message"] == str(caught.value)


def test_the_cli_refuses_alike(tmp_path, capsys):
    from retrieval_metrics.cli import main

    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text("q1 0 d1 1\n")
    run.write_text("q1 Q0 d1 1 2.0 r\n")
    assert main([str(qrels), str(run), "-k", "5,,10"]) == 2
    with pytest.raises(OptionError) as caught:
        parse_k("5,,10")
    assert str(caught.value) in capsys.readouterr().err
