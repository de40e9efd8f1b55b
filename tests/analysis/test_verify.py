"""Published claims checked against exact values."""

from __future__ import annotations

import naive
import pytest
from helpers import run, write_claims

from analyzer import AnalyzerError, Shoe, seed_paytable
from analyzer.analysis.verify import load_claims, published_max_rtp, verify_claims
from analyzer.paytables.claims import claims_from_dict
from analyzer.paytables.model import paytable_from_dict


def test_mode_must_be_named_when_it_matters(tmp_path, capsys) -> None:
    path = write_claims(
        tmp_path,
        'paytable = "seed-game"\n[[claim]]\nbet = "banker"\n'
        'quantity = "house_edge"\nvalue = "1.06%"\n',
    )
    code, _, err = run(capsys, "verify", str(path))
    assert code == 2 and "claim 1: house_edge of 'banker' differs by mode" in err


def _claims(*items: dict) -> list:
    return claims_from_dict({"paytable": "seed-game", "claim": list(items)}, "c.toml", None)


def test_each_kind_of_claim_checked_against_the_exact_values() -> None:
    claims = _claims(
        {"quantity": "max_rtp", "value": "98.94%"},
        # 14.3596% to four places; printed with three, 14.360% (half rounds up).
        {"bet": "tie", "quantity": "house_edge", "value": "14.360%"},
        {"bet": "tie", "quantity": "house_edge", "value": "14.359%", "rounding": "truncate"},
        {"bet": "tie", "quantity": "house_edge", "value": "14.359%"},
        # Payouts are compared as a multiset, in any order.
        {"bet": "lucky_six", "quantity": "payouts", "value": ["20:1", "12:1"]},
        {"bet": "lucky_six", "quantity": "payouts", "value": ["12:1"]},
        {"bet": "player_pair", "quantity": "max_round", "value": 60},
        {"bet": "tie", "quantity": "max_round", "value": 50},
    )
    rows = verify_claims(claims)
    passed = ["PASS", "PASS", "PASS", "FAIL", "PASS", "FAIL", "PASS", "FAIL"]
    assert rows["result"].tolist() == passed
    assert rows["computed"].tolist()[:4] == [
        "98.94% (banker, commission)",
        "14.360%",
        "14.359%",
        "14.360%",
    ]
    assert rows["computed"].tolist()[6:] == ["60", "none"]
    assert rows["bet"].tolist()[0] == "(game)"


def test_a_claim_on_a_shoe_other_than_the_full_one() -> None:
    shoe = Shoe.standard(1)
    reference = naive.reference_counts(shoe.suit_counts.tolist())
    edge = -naive.expected_value(reference, "tie", "commission")  # 15.7461%
    printed = f"{float(100 * edge):.2f}%"
    claims = _claims(
        {"bet": "tie", "quantity": "house_edge", "value": printed},
        {"bet": "tie", "quantity": "house_edge", "value": "14.36%"},  # eight decks' edge
    )
    assert verify_claims(claims, shoe)["result"].tolist() == ["PASS", "FAIL"]
    assert verify_claims(claims)["result"].tolist() == ["FAIL", "PASS"]


def test_published_max_rtp_comes_from_the_shipped_claims() -> None:
    assert published_max_rtp(seed_paytable()) == "98.94%"
    bet = {"id": "t", "rule": [{"when": "true", "pays": 1}]}
    other = paytable_from_dict({"name": "T", "bet": [bet]})
    assert published_max_rtp(other) is None


def test_unknown_claims_name() -> None:
    with pytest.raises(AnalyzerError, match=r"^unknown claims 'nope': give a \.toml file"):
        load_claims("nope")
    assert load_claims("seed-game")[0].quantity == "max_rtp"


def test_a_figure_printed_with_the_typographic_minus_sign(tmp_path, capsys) -> None:
    """A tie paying 10:1 favours the player: with Wizard of Odds' 8-deck counts (475,627,
    426,473,216 ties of 4,998,398,275,503,360 sequences) its house edge is
    1 - 11 x 0.0951560 = -4.6716%, which a page typesets with a minus sign (U+2212)."""
    (tmp_path / "p.toml").write_text(
        'name = "T"\nmodes = ["m"]\n[[bet]]\nid = "tie"\n[[bet.rule]]\n'
        'when = "winner == \'tie\'"\npays = "10:1"\n'
    )
    claim = '[[claim]]\nbet = "tie"\nquantity = "house_edge"\nvalue = "{}"\n'
    path = write_claims(
        tmp_path, 'paytable = "p.toml"\n' + claim.format("\u22124.67%") + claim.format("-4.68%")
    )
    code, out, err = run(capsys, "verify", str(path))
    assert code == 1 and err == ""
    assert "PASS claim 1: house_edge of tie [" in out
    assert "published \u22124.67%, exact -4.67%" in out
    assert "FAIL (last digit) claim 2" in out and "published -4.68%, exact -4.67%" in out


def test_one_paytable_however_spelt_is_analysed_once(tmp_path, monkeypatch) -> None:
    """p.toml, ./p.toml, its absolute path and a copy are one paytable: one analysis."""
    import analyzer.analysis.verify as verify

    (tmp_path / "p.toml").write_text(
        'name = "P"\nmodes = ["m"]\n[[bet]]\nid = "tie"\nrule = [{ when = "winner == '
        "'tie'\", pays = 8 }]\n",
        encoding="utf-8",
    )
    (tmp_path / "copy.toml").write_text((tmp_path / "p.toml").read_text(), encoding="utf-8")
    analysed = []
    real_analyze = verify.analyze
    monkeypatch.setattr(verify, "analyze", lambda **kw: analysed.append(kw) or real_analyze(**kw))
    monkeypatch.chdir(tmp_path)
    claims = []
    for spelling in ("p.toml", "./p.toml", str(tmp_path / "p.toml"), "copy.toml"):
        claims += claims_from_dict(
            {
                "paytable": spelling,
                "claim": [{"bet": "tie", "quantity": "house_edge", "value": "14.36%"}],
            },
            str(tmp_path / "c.toml"),
            tmp_path,
        )
    rows = verify_claims(claims)
    assert rows["result"].tolist() == ["PASS"] * 4
    assert len(analysed) == 1
