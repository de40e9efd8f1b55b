"""The exact analysis of a paytable on a shoe: the summary, depleted shoes against the
brute-force reference, and warnings for rules that settle nothing."""

from __future__ import annotations

from fractions import Fraction

import naive
import numpy as np
import pytest
from helpers import HEAD, write_paytable
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import Shoe, analyze
from analyzer.analysis.exact import SUMMARY_COLUMNS
from analyzer.cli.main import main

FEW = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_summary_is_indexed_by_bet_and_mode_whatever_the_modes() -> None:
    """The index was ``bet`` for one mode and (bet, mode) for several, and the columns
    held ``mode`` only in the first case: code reading a summary had to know which."""
    summary = analyze(mode="commission").summary
    both = analyze(mode="both").summary
    for frame in (summary, both):
        assert list(frame.index.names) == ["bet", "mode"]
        assert list(frame.columns) == SUMMARY_COLUMNS
    assert both.index.is_unique and len(both) == 2 * len(summary)
    assert (
        summary.loc[("tie", "commission"), "house_edge"]
        == -analyze(mode="commission").result("tie").expected_value
    )
    assert summary.loc[("player_pair", "commission"), "max_round"] == 60
    assert summary["rtp"].map(type).eq(Fraction).all()
    assert both.loc[("banker", "no_commission"), "house_edge"] == (
        analyze(mode="no_commission").result("banker").house_edge
    )


def test_analyze_takes_a_shipped_name_or_a_path(tmp_path) -> None:
    from analyzer import AnalyzerError, load_paytable
    from analyzer.files import shipped_folder

    by_name = analyze(paytable="ez-baccarat")
    assert by_name.paytable == load_paytable("ez-baccarat")
    path = tmp_path / "ez.toml"
    path.write_bytes(
        (
            shipped_folder("analyzer.paytables", "shipped") / "paytables" / "ez-baccarat.toml"
        ).read_bytes()
    )
    assert analyze(paytable=path).summary.equals(by_name.summary)
    with pytest.raises(AnalyzerError, match="unknown paytable 'no-such'") as caught:
        analyze(paytable="no-such")
    assert "\n" not in str(caught.value)


def test_an_analysis_shows_itself_as_its_summary() -> None:
    analysis = analyze(paytable="ez-baccarat")
    assert analysis.to_frame().equals(analysis.summary)
    assert "<table" in analysis._repr_html_() and "Dragon 7" in analysis._repr_html_()


def test_repr_is_short_and_about_the_shoe_analysed() -> None:
    """Its dataclass repr ran to thousands of characters and showed the paytable's own
    decks=8 for a 6-deck shoe. The best bet: Wizard of Odds ("Baccarat", house edge by
    decks) gives the Banker's 6-deck edge as 1.0558%, an RTP of 98.9442%."""
    analysis = analyze(shoe=Shoe.standard(6))
    text = repr(analysis)
    assert len(text) < 300 and "\n" not in text
    assert "6 decks (312 cards)" in text and "decks=8" not in text
    assert "modes commission, no_commission" in text
    assert f"{len(analysis.results)} (bet, mode) results" in text
    assert "max RTP 98.9442% (banker, commission)" in text


@st.composite
def depleted(draw):
    """One deck with up to 40 of its cards dealt out. The 12 to 52 cards left are drawn as
    cards, so a failure shrinks towards a small shoe."""
    counts = [[0] * 4 for _ in range(13)]
    cells = [(r, s) for r in range(13) for s in range(4)]
    left = draw(st.integers(12, 52))
    for r, s in draw(st.lists(st.sampled_from(cells), min_size=left, max_size=left, unique=True)):
        counts[r][s] = 1
    return counts


@pytest.mark.slow
@FEW
@given(depleted())
def test_depleted_analysis_matches_reference(suit_counts) -> None:
    array = np.array(suit_counts, dtype=np.int64)
    shoe = Shoe(array.sum(axis=1), array)
    reference = naive.reference_counts(suit_counts)
    for result in analyze(shoe=shoe).results:
        assert result.expected_value == naive.expected_value(reference, result.bet.id, result.mode)


def test_unsatisfiable_rule_is_a_warning(tmp_path, capsys) -> None:
    path = write_paytable(
        tmp_path,
        HEAD
        + """
[[bet]]
id = "x"
[[bet.rule]]
when = "player_cards == 3 and player_natural"
pays = "5:1"
[[bet.rule]]
when = "winner == 'tie'"
pays = "8:1"
[[bet.rule]]
when = "winner == 'tie' and player_score == 0"
pays = "100:1"
""",
    )
    assert main(["report", "--paytable", str(path), "--format", "json"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2
    assert "rule 1 (player_cards == 3 and player_natural) settles no round: no round can" in err[0]
    assert "rule 3" in err[1] and "earlier rules settle every round it matches" in err[1]


def test_the_kept_request_takes_any_flag_and_list_of_modes() -> None:
    """What an analysis keeps for the next one is keyed by what it is given: a truth
    value for ``symbolic`` and a paytable's modes as a list are as good as bools and
    tuples (found by a hostile-input helper: both were tracebacks)."""
    from dataclasses import replace

    from analyzer import seed_paytable

    expected = analyze(bets=["tie"]).results[0].expected_value
    for flag in ([], {}, np.array(False)):
        assert analyze(bets=["tie"], symbolic=flag).results[0].expected_value == expected
    listed = replace(seed_paytable(), modes=list(seed_paytable().modes))
    assert len(analyze(paytable=listed).results) == 36


def test_a_symbolic_analysis_has_a_short_repr() -> None:
    from analyzer import load_paytable

    analysis = analyze(paytable=load_paytable("golden-wealth-baccarat"), symbolic=True)
    assert repr(analysis).endswith("figures in the multipliers' unknowns>")


def test_counts_nothing_was_settled_on_are_worked_out_when_first_read() -> None:
    """A paytable whose every bet is on the cards settles none on the enumerator's
    counts: the analysis works them out when they are first read, once, and they are the
    enumerator's own; an analysis that settles bets on them has them from the start (the
    seed game's bets on pairs alone are settled on the pair states' counts, the others on
    the value walk's: its joint counts too are worked out when first read)."""
    from analyzer import load_paytable
    from analyzer.engine.enumerator import mixture_outcomes
    from analyzer.game.cards import parse_cards
    from analyzer.game.rules import STANDARD_MIXTURE

    shoe = Shoe.standard(1).remove(parse_cards("AS 7H 7D KC 9S"))
    analysis = analyze(paytable=load_paytable("perfect-9"), shoe=shoe)
    assert "counts" not in vars(analysis)
    counts = analysis.counts
    assert analysis.counts is counts
    walked = mixture_outcomes(shoe, counts.pair_detail, STANDARD_MIXTURE)
    assert np.array_equal(counts.counts, walked.counts)
    assert counts.denominator == walked.denominator
    assert analysis.outcomes.ways.sum() == walked.counts.sum() == walked.denominator
    assert "counts" in vars(analyze(shoe=shoe, bets=["player", "tie"]))
    assert "counts" not in vars(analyze(shoe=shoe))


def test_an_analysis_pickles_with_its_counts_to_come() -> None:
    """An analysis whose counts are not worked out yet travels to another process (a
    worker) and back, and works them out there."""
    import pickle

    from analyzer import load_paytable

    shoe = Shoe.standard(1)
    analysis = pickle.loads(pickle.dumps(analyze(paytable=load_paytable("perfect-9"), shoe=shoe)))
    assert "counts" not in vars(analysis)
    from analyzer.engine.enumerator import mixture_outcomes
    from analyzer.game.rules import STANDARD_MIXTURE

    walked = mixture_outcomes(shoe, analysis.counts.pair_detail, STANDARD_MIXTURE)
    assert np.array_equal(analysis.counts.counts, walked.counts)
