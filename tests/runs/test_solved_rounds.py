"""``count`` and ``dealt`` on games with a player's decision (:mod:`analyzer.analysis.solved`,
:mod:`analyzer.runs.solved_rounds`): each round priced, and a Lucky Draw round played, by
the best play solved on the cards left; against plain-Python deals of the rounds, the
exact analysis of each composition, and the exact as-dealt figure; the run weighed and
refused before any work when too large."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from dealt_reference import reference_as_dealt
from helpers import run

from analyzer import analyze
from analyzer.analysis.solved import MAX_SOLVED_ROUNDS
from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_CARDS
from analyzer.game.shoe import Shoe
from analyzer.paytables.library import as_paytable
from analyzer.paytables.model import with_values
from analyzer.runs.as_dealt import DealRule, DealtJob, dealt_partition, dealt_summary
from analyzer.runs.family_dealt import exact_dealt
from analyzer.runs.solved_rounds import deal_solved_shoe
from tests import naive_family as naive

ENTER = (("enter", "standard"),)
PEEK_VALUES = {"s1": Fraction(1, 4), "s2": Fraction(35, 64), "s3": Fraction(1, 8)}


def _counts(cards: list[int]) -> np.ndarray:
    return np.bincount(np.asarray(cards, dtype=np.int64), minlength=N_CARDS)


def _seen(dealt):  # the player's two cards and the dealer's first, by point value
    return (naive.value(dealt[0]), naive.value(dealt[2]), naive.value(dealt[1]))


def test_a_lucky_draw_shoe_is_played_by_each_rounds_own_best_play() -> None:
    """Every round of a shuffled deck: its EV is the exact analysis of the cards left, and
    the cards it takes are those a plain-Python round takes when the player draws exactly
    where that composition's strategy table says drawing is best."""
    table = as_paytable("lucky-draw-baccarat-1")
    rng = np.random.default_rng(3)
    cards = rng.permutation(N_CARDS)
    start, cut = 3, N_CARDS - 14
    starts, ev = deal_solved_shoe(table, ENTER, cards, start, cut, False, np.ones(N_CARDS, int))
    assert starts[0] == start and len(starts) >= 6
    names = [naive.card_name(int(c)) for c in cards]
    for i, at in enumerate(starts.tolist()):
        left = _counts(cards[at:]).reshape(13, 4)
        analysis = analyze(paytable=table, shoe=Shoe(left.sum(axis=1)))
        assert ev[i, 0] == pytest.approx(float(analysis.result("enter").expected_value), abs=1e-15)
        seen = _seen(names[at : at + 4])
        choice = next(c for c in analysis.choices[ENTER[0]] if c.seen == seen)
        played = naive.lucky_draw_round(names[at:], choice.best == "draw", Fraction(2))
        if i + 1 < len(starts):
            assert starts[i + 1] - at == played["taken"]
        else:  # the last round: the cut card came out in it
            assert at + played["taken"] > cut


def test_peek_sampled_within_its_interval_of_the_exact() -> None:
    """Peek Baccarat's rounds are dealt by punto banco's rules whatever the raise; each
    is priced by its reveals' best raises solved on its cards. Exact (every order of a
    tiny shoe by rank, each composition's best raises solved: the tests' reference DP)
    and sampled agree, and both differ from the figure off the top; the package's
    --exact, which prices fixed nets by point value, refuses it in one line."""
    table = with_values(as_paytable("peek-baccarat"), unknowns=PEEK_VALUES, jackpot=None)
    shoe = (3, 0, 0, 0, 1, 0, 0, 3, 2, 0, 0, 0, 3)
    columns = (("player", "standard"), ("banker", "standard"))
    job = DealtJob(table, columns, shoe, DealRule(6, "none"), 4)
    with pytest.raises(AnalyzerError, match="sample it") as refused:
        exact_dealt(job, progress=False)
    assert "\n" not in str(refused.value)
    exact = reference_as_dealt(job, progress=False)
    sampled = dealt_summary(
        job, [dealt_partition(job, 0, 200)], [r["rtp_off_the_top"] for r in exact]
    )
    for got, want in zip(sampled, exact, strict=True):
        figures, exact_rtp = got["without_limit"], want["without_limit"]["rtp"]
        assert isinstance(exact_rtp, Fraction)
        assert abs(figures["rtp"] - float(exact_rtp)) <= 4.5 * figures["rtp_se"]
        # Raising on what the cards left favour gains: the dealt figure is above the top's.
        assert want["without_limit"]["difference"] > 0


def test_lucky_draw_exact_is_refused_in_one_line() -> None:
    job = DealtJob(as_paytable("lucky-draw-baccarat-2"), ENTER, (4,) * 13, DealRule(14))
    with pytest.raises(AnalyzerError, match="sample it") as error:
        exact_dealt(job, progress=False)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("command", ["count", "dealt"])
@pytest.mark.parametrize(
    "paytable", [["lucky-draw-baccarat-1"], ["peek-baccarat", "--unknowns", "s1=1/4,s2=1/2,s3=1/8"]]
)
def test_a_run_too_large_is_refused_before_any_work(tmp_path, capsys, command, paytable) -> None:
    work = tmp_path / "w"
    bet = "player" if "peek-baccarat" in paytable else "enter"
    argv = [command, "--paytable", *paytable, "--shoes", "300", "--bet", bet, "--no-progress"]
    code, out, err = run(capsys, *argv, "--work-dir", str(work))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and f"at most {MAX_SOLVED_ROUNDS:,} rounds" in err, err
    assert "deal fewer shoes (--shoes)" in err and "minutes of one core" in err
    assert not work.exists()


def test_count_and_dealt_take_lucky_draw_on_small_runs(tmp_path, capsys) -> None:
    argv = ["--paytable", "lucky-draw-baccarat-2", "--decks", "1", "--shoes", "2"]
    quiet = ["--no-progress", "--work-dir", str(tmp_path), "--workers", "1", "--format", "json"]
    code, out, err = run(capsys, "dealt", *argv, *quiet)
    assert code == 0, err
    row = json.loads(out)["bets"][0]
    assert row["bet"] == "enter" and row["with_limit"]["rtp"] is not None
    code, out, err = run(capsys, "count", *argv, "--bet", "enter", "--perfect", *quiet)
    assert code == 0, err
    assert json.loads(out)["bets"][0]["rounds_per_shoe"] > 5
