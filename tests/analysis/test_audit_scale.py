"""The audit at the scale issue 22 states: a clean log of a million rounds passes every
test of the fit at 0.01 (false alarms controlled) and has no finding; the same log with
a third card drawn against the rules once in 100,000 rounds, a ninth copy of a card in
an 8-deck shoe and a shoe dealt twice has exactly those findings, at their rows; and a
log whose shoes are stacked until the Banker wins 2% more often fails the fit. (A
mis-settled payout, which needs payout columns, is found in tests/analysis/test_audit.py.)

These deal their shoes with the dealer's kernel and feed the audit directly (no file),
some 15 s in all on this machine."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from audit_logs import dealt_log

from analyzer import analyze, load_paytable
from analyzer.analysis.audit import P1, P2, P3, Audit
from analyzer.game.cards import CARD_VALUES

# Slow throughout (logs of a hundred thousand to a million rounds):
# left out of the quick check, pytest -m 'not slow'.
pytestmark = pytest.mark.slow

MILLION = 1_000_000


@pytest.fixture(scope="module")
def seed_game():
    return load_paytable("seed-game")


@pytest.fixture(scope="module")
def million(seed_game):
    return dealt_log(seed_game, MILLION, seed=2026)


def audited(paytable, blocks, fit: bool):
    audit = Audit(paytable, fit=fit, level=0.01)
    for block in blocks:
        audit.feed(block)
    return audit.result()


def test_a_clean_log_of_a_million_rounds_has_no_finding_and_passes_every_test(
    seed_game, million
) -> None:
    result = audited(seed_game, million, fit=True)
    assert result.rounds >= MILLION and result.total == 0
    assert len(result.fit.run) >= 12 and result.fit.failed == ()
    assert result.fit.shoe_aware_rounds == result.rounds


def logged_as_dealt(block, cards: np.ndarray):
    """The block with ``cards``, its scores and winners logged as those cards make them
    (a table that deals wrongly logs what it dealt)."""
    values = np.where(cards >= 0, CARD_VALUES[np.maximum(cards, 0)], 0)
    player = (values[:, 0] + values[:, 2] + values[:, 4]) % 10
    banker = (values[:, 1] + values[:, 3] + values[:, 5]) % 10
    winner = np.where(player > banker, 0, np.where(banker > player, 1, 2))
    return replace(block, cards=cards, player_score=player, banker_score=banker, winner=winner)


def _stood_without_a_natural(block) -> np.ndarray:
    values = CARD_VALUES[np.maximum(block.cards, 0)]
    player2 = (values[:, P1] + values[:, P2]) % 10
    banker2 = (values[:, 1] + values[:, 3]) % 10
    stood = block.cards[:, P3] < 0
    return np.flatnonzero(stood & np.isin(player2, (6, 7)) & (banker2 < 8))


def test_faults_once_in_100000_rounds_are_found_at_their_rows_and_only_there(
    seed_game, million
) -> None:
    blocks = list(million)
    expected = []
    # A third card drawn by a Player who stands on 6 or 7, once in every 100,000 rounds:
    # a card the shoe dealt fewer than 8 of (the cut card leaves some), so no copy is
    # found extra.
    for target in range(50_000, MILLION, 100_000):
        b = next(i for i, block in enumerate(blocks) if block.rows[-1] >= target)
        block = blocks[b]
        i = int(_stood_without_a_natural(block)[-1])
        dealt = np.concatenate([block.cards[block.cards >= 0], block.burns[0]])
        card = int(np.flatnonzero(np.bincount(dealt, minlength=52) < 8)[0])
        cards = block.cards.copy()
        cards[i, P3] = card
        blocks[b] = logged_as_dealt(block, cards)
        expected.append(("draw", int(block.rows[i])))
    # A ninth copy of a card in one 8-deck shoe: a Banker's first card made one the shoe
    # already holds 8 of, where it comes.
    b = len(blocks) // 3
    block = blocks[b]
    seen = np.bincount(
        np.concatenate([block.cards[block.cards >= 0], block.burns[0]]), minlength=52
    )
    full = int(np.flatnonzero(seen == 8)[0])
    cards = block.cards.copy()
    last = len(cards) - 1
    cards[last, 1] = full  # the Banker's first card of the shoe's last round
    blocks[b] = logged_as_dealt(block, cards)
    expected.append(("cards", int(block.rows[last])))
    # A shoe dealt twice: shoe 5's cards again as the last shoe of the log.
    again = blocks[4]
    n = len(again)
    row = int(blocks[-1].rows[-1]) + 1
    blocks.append(
        replace(
            again,
            rows=np.arange(row, row + n),
            shoes=np.full(n, "again", dtype=object),
        )
    )
    expected.append(("repeat", row))
    result = audited(seed_game, blocks, fit=False)
    found = [(f.check, f.row) for f in result.findings]
    # The changed Banker card can also make the Banker's draw wrong: at that row only.
    extra = [f for f in found if f not in expected]
    assert extra in ([], [("draw", int(block.rows[last]))]), extra
    assert sorted(set(found) - set(extra)) == sorted(expected)
    assert len([f for f in expected if f[0] == "draw"]) == 10


def test_a_log_stacked_until_the_banker_wins_2_percent_more_often_fails(seed_game) -> None:
    blocks = dealt_log(seed_game, 200_000, seed=7, stack=0.018)
    winners = np.concatenate([block.winner for block in blocks])
    exact = analyze(paytable=seed_game, bets=["banker"], mode="commission")
    banker_wins = float(exact.result("banker").hit_frequency)
    assert np.mean(winners == 1) >= 1.02 * banker_wins  # the fault, as the issue states it
    result = audited(seed_game, blocks, fit=True)
    assert result.total == 0  # every card is a real shoe's: only the fit can show it
    failed = {t.key for t in result.fit.failed}
    assert {"frequency:banker", "shoe_aware:banker"} <= failed, failed
