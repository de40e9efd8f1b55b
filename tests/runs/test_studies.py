"""Counting claims: a published study's figure against shoes dealt with a fixed seed."""

from __future__ import annotations

import json

import pytest
from helpers import run, write_claims

from analyzer.analysis.exact import analyze
from analyzer.paytables.printed import printed_value

#: A study that bets every round (no tag counts, and every true count is at least -1000):
#: its edge when betting is the bet's average EV over the rounds dealt, which is the full
#: shoe's exact EV to within the spread of the shoes.
ALWAYS = 'tags = "A=0"\nthreshold = -1000\nshoes = 400\nseed = 7\n'


def _claim(statistic: str, value: str, extra: str = ALWAYS) -> str:
    return (
        'paytable = "seed-game"\n[[claim]]\nquantity = "counting"\nbet = "tie"\n'
        f'statistic = "{statistic}"\nvalue = "{value}"\n{extra}'
    )


def test_a_study_that_always_bets_has_the_exact_edge_and_one_that_is_far_off_fails(
    tmp_path, capsys
) -> None:
    exact = analyze(bets=["tie"]).result("tie").expected_value  # -14.36%, exact
    code, out, _ = run(
        capsys,
        "verify",
        str(write_claims(tmp_path, _claim("edge_when_bet", printed_value(exact, 2)))),
        "--format",
        "json",
    )
    (row,) = json.loads(out)["claims"]
    assert code == 0 and row["result"] == "PASS", row
    assert "within 3 SE" in row["note"] and "400 shoes of 8 decks, seed 7" in row["note"]
    code, out, _ = run(
        capsys, "verify", str(write_claims(tmp_path, _claim("edge_when_bet", "-10.00%")))
    )
    assert (
        code == 1
        and "FAIL claim 1: counting of edge_when_bet of the count A=0 at >= -1000 on tie [" in out
        and "beyond 3 SE" in out
    )
    code, out, _ = run(
        capsys, "verify", str(write_claims(tmp_path, _claim("bet_frequency", "100.0%")))
    )
    assert code == 0, out


def test_perfect_play_rounds_per_shoe() -> None:
    """Rounds per 8-deck shoe with the cut card 14 cards from the end: about 80 (a round
    takes 4.94 cards on average; 416 - 14 - the burn, over that)."""
    from analyzer.analysis.verify import verify_claims
    from analyzer.paytables.claims import claims_from_dict
    from analyzer.runs.studies import CountingStudies

    claim = {"quantity": "counting", "bet": "tie", "statistic": "rounds_per_shoe"}
    claims = claims_from_dict(
        {"paytable": "seed-game", "claim": [claim | {"value": "80", "shoes": 200}]}, "c", None
    )
    (row,) = verify_claims(claims, simulator=CountingStudies()).to_dict("records")
    assert row["result"] == "PASS", row


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('tags = "A=0"\n', "with 'tags' needs the study's 'threshold'"),
        ("threshold = 1\n", "without 'tags' is perfect play"),
        ('tags = "Z=1"\nthreshold = 1\n', "bad tag 'Z=1'"),
        ('last_round = "never"\n', "'last_round' must be one of cut-card, one-more"),
        ('true_count_decks = "all"\ntags = "A=1"\nthreshold = 1\n', "'true_count_decks' must be"),
        ("shoes = 5\n", "'shoes' must be from 100"),
        ("cut_card = 1000\n", "cut card must leave"),
    ],
)
def test_bad_studies_are_one_line_before_any_shoe_is_dealt(tmp_path, capsys, extra, message):
    path = write_claims(tmp_path, _claim("bet_frequency", "1%", extra))
    code, out, err = run(capsys, "verify", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_claims_about_one_study_share_one_run_of_its_shoes(tmp_path, capsys, monkeypatch) -> None:
    import analyzer.runs.studies as studies

    dealt = []
    real = studies.count_partition
    monkeypatch.setattr(
        studies, "count_partition", lambda job, i, n: dealt.append(n) or real(job, i, n)
    )
    body = _claim("bet_frequency", "100.0%")
    body += (
        body.split("\n", 1)[1]
        .replace("bet_frequency", "rounds_per_shoe")
        .replace('"100.0%"', '"80"')
    )
    body += _claim("bet_frequency", "100.0%", ALWAYS.replace("seed = 7", "seed = 8")).split(
        "\n", 1
    )[1]
    code, out, _ = run(capsys, "verify", str(write_claims(tmp_path, body)))
    assert code == 0 and out.count("PASS") == 3, out
    assert sum(dealt) == 2 * 400  # seed 7 once for two claims, seed 8 once
