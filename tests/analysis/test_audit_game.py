"""Auditing logs of the other games of the family: a clean log dealt by the project's own
dealers has no findings, each fault planted in one is found at its shoe, round and row,
and the chances the fit tests against are the games' own, checked by plain counting."""

from __future__ import annotations

import copy
import itertools
from fractions import Fraction

import numpy as np
import pytest
from audit_logs import write_csv, write_parquet
from game_audit_logs import random_action_rows, simulated_rows

from analyzer import load_paytable
from analyzer.analysis.audit_game import (
    CHECK_ORDER,
    PUNTO_BANCO_CHECKS,
    GameChances,
    checks_of,
    play_rounds,
)
from analyzer.errors import AnalyzerError
from analyzer.game.cards import RANKS
from analyzer.runs.audit_log import audit_log, read_log

ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@pytest.fixture(scope="module")
def dragon_tiger():
    return load_paytable("dragon-tiger")


@pytest.fixture(scope="module")
def three_card():
    return load_paytable("three-card-baccarat")


@pytest.fixture(scope="module")
def lucky_draw():
    return load_paytable("lucky-draw-baccarat-1")


@pytest.fixture(scope="module")
def dragon_rows():
    return simulated_rows("dragon-tiger", 3, seed=5)


@pytest.fixture(scope="module")
def three_card_rows():
    return simulated_rows("three-card-baccarat", 12, seed=6)


@pytest.fixture(scope="module")
def lucky_rows():
    return simulated_rows("lucky-draw-baccarat-1", 3, seed=7)


@pytest.fixture(scope="module")
def random_lucky_rows(lucky_draw):
    return random_action_rows(lucky_draw, 3, seed=8)


def audited(tmp_path, paytable, rows, fit=False, decks=None, name="log.csv"):
    return audit_log(write_csv(tmp_path / name, rows), paytable, decks, fit=fit)


def found(result, check: str) -> list:
    return [f for f in result.findings if f.check == check]


def where(result, check: str) -> list[tuple[int, str, int]]:
    return [(f.row, f.shoe, f.round) for f in found(result, check)]


def at(rows, i: int) -> tuple[int, str, int]:
    return (i + 1, rows[i]["shoe"], int(rows[i]["round"]))


# -- The checks each game runs ----------------------------------------------------------------


def test_each_game_runs_the_checks_that_apply_to_it(dragon_tiger, lucky_draw) -> None:
    assert checks_of(load_paytable("seed-game")) == PUNTO_BANCO_CHECKS
    assert checks_of(dragon_tiger) == tuple(c for c in CHECK_ORDER if c not in ("draw", "action"))
    assert checks_of(lucky_draw) == CHECK_ORDER  # the dealer's rule and the player's action


# -- Clean logs -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("paytable", "rows"),
    [
        ("dragon_tiger", "dragon_rows"),
        ("three_card", "three_card_rows"),
        ("lucky_draw", "lucky_rows"),
        ("lucky_draw", "random_lucky_rows"),
    ],
)
def test_a_log_the_dealers_dealt_has_no_findings(tmp_path, request, paytable, rows) -> None:
    paytable, rows = request.getfixturevalue(paytable), request.getfixturevalue(rows)
    result = audited(tmp_path, paytable, rows, fit=True)
    assert result.rounds == len(rows) and result.shoes == len({row["shoe"] for row in rows})
    assert result.findings == () and result.counts == dict.fromkeys(checks_of(paytable), 0)
    pays = [name for name in rows[0] if name.startswith("pay:")]
    assert len(result.payouts_checked) == len(pays) and not result.not_checkable
    assert result.fit.failed == ()
    assert all(t.p_value is not None for t in result.fit.tests), result.fit.tests


def test_a_parquet_log_of_a_game_reads_as_its_csv(tmp_path, lucky_draw, random_lucky_rows):
    from analyzer.runs.audit_log import read_log

    rows = random_lucky_rows
    csv_blocks = list(read_log(write_csv(tmp_path / "log.csv", rows), lucky_draw, 50))
    parquet = write_parquet(tmp_path / "log.parquet", rows)
    parquet_blocks = list(read_log(parquet, lucky_draw, 50))
    for name in ("rows", "rounds", "cards", "player_score", "banker_score", "winner", "action"):
        a = np.concatenate([getattr(b, name) for b in csv_blocks])
        b = np.concatenate([getattr(b, name) for b in parquet_blocks])
        assert np.array_equal(a, b), name
    assert audit_log(parquet, lucky_draw).total == 0


def test_the_rounds_are_scored_as_the_game_scores_them(
    tmp_path, three_card, three_card_rows
) -> None:
    """Three Card Baccarat by a plain reading of its rules: three picture cards beat all,
    then the higher points, then more picture cards; the log's winners and scores are
    these, and so are the audit's."""

    def strength(cards: str) -> tuple[int, int, int]:
        ranks = [card[:-1] for card in cards.split()]
        pictures = sum(rank in ("J", "Q", "K") for rank in ranks)
        points = sum(min(ORDER.index(rank) + 1, 10) % 10 for rank in ranks) % 10
        return (pictures == 3, points, pictures)

    (block,) = read_log(write_csv(tmp_path / "log.csv", three_card_rows), three_card, 10**6)
    played = play_rounds(three_card.game, block.cards, None, frozenset())
    for i, row in enumerate(three_card_rows):
        player, dealer = strength(row["player_cards"]), strength(row["dealer_cards"])
        winner = "player" if player > dealer else "dealer" if dealer > player else "tie"
        assert row["winner"] == winner == three_card.game.winners[played.winner[i]]
        assert int(row["dealer_score"]) == dealer[1] == played.scores[i, 1]


# -- Planted faults ---------------------------------------------------------------------------


def test_a_wrong_winner_and_score_are_found_at_their_row(tmp_path, dragon_tiger, dragon_rows):
    rows = copy.deepcopy(dragon_rows)
    i = next(k for k, row in enumerate(rows) if row["winner"] == "dragon" and k > 200)
    rows[i]["winner"] = "tiger"
    j = i + 3
    rows[j]["tiger_score"] = str(int(rows[j]["tiger_score"]) % 13 + 1)
    result = audited(tmp_path, dragon_tiger, rows)
    assert where(result, "winner") == [at(rows, i)]
    d, t = rows[i]["dragon_score"], rows[i]["tiger_score"]
    assert found(result, "winner")[0].text == (
        f"winner logged tiger: the cards make it dragon ({d} to {t})"
    )
    assert where(result, "score") == [at(rows, j)]
    assert found(result, "score")[0].text.startswith(
        f"tiger_score logged {rows[j]['tiger_score']}: the Tiger's card makes "
    )
    assert result.total == 2


def test_a_bad_payout_is_found_with_the_paytables_net(tmp_path, dragon_tiger, dragon_rows):
    rows = copy.deepcopy(dragon_rows)
    i = next(k for k, row in enumerate(rows) if row["winner"] == "tie" and k > 10)
    assert float(rows[i]["pay:dragon"]) == -0.5 and float(rows[i]["pay:tie"]) == 8
    rows[i]["pay:tie"] = "1"
    result = audited(tmp_path, dragon_tiger, rows)
    assert where(result, "payout") == [at(rows, i)] and result.total == 1
    assert found(result, "payout")[0].text == "pay:tie logged 1: the paytable settles it +8"


def test_a_hand_of_the_wrong_cards_is_a_deal_finding(tmp_path, dragon_tiger, dragon_rows):
    rows = copy.deepcopy(dragon_rows)
    rows[40]["dragon_cards"] += " 2C"  # a card too many in the hand
    result = audited(tmp_path, dragon_tiger, rows)
    assert where(result, "deal") == [at(rows, 40)]
    assert found(result, "deal")[0].text == "the Dragon holds 2 cards: Dragon Tiger deals it 1"
    # The round is not scored (nor its payouts checked); its cards count in the shoe.
    assert result.total == 1


def test_a_card_more_often_than_the_decks_hold_is_found(tmp_path, dragon_tiger) -> None:
    rows = simulated_rows("dragon-tiger", 2, seed=9, decks=1)
    # The 2nd copy, in one deck, of a card dealt earlier in the shoe.
    i = next(k for k in range(5, len(rows)) if rows[k]["shoe"] == rows[0]["shoe"])
    rows[i]["tiger_cards"] = rows[2]["dragon_cards"]
    result = audited(tmp_path, dragon_tiger, rows, decks=1)
    assert where(result, "cards") == [at(rows, i)]
    text = found(result, "cards")[0].text
    assert text == f"the 2nd {rows[2]['dragon_cards']} of the shoe: 1 deck holds 1"


def test_lucky_draw_faults_each_at_their_row(tmp_path, lucky_draw, random_lucky_rows) -> None:
    rows = copy.deepcopy(random_lucky_rows)
    # An action the cards deny: a round played "stand" whose Player drew no card, now
    # logged as "draw".
    a = next(
        k
        for k, r in enumerate(rows)
        if r["action"] == "stand" and len(r["player_cards"].split()) == 2
    )
    rows[a]["action"] = "draw"
    # A dealer's card against its rule: a dealer standing on 5 or more given a card.
    b = next(
        k
        for k, r in enumerate(rows)
        if k > a + 1
        and len(r["dealer_cards"].split()) == 2
        and sum(min(ORDER.index(c[:-1]) + 1, 10) for c in r["dealer_cards"].split()) % 10 >= 5
    )
    rows[b]["dealer_cards"] += " 5C"
    # A hand of the wrong cards: a Player of four.
    c = b + 2
    rows[c]["player_cards"] = " ".join([*rows[c]["player_cards"].split()[:2], "2D", "3D"])
    result = audited(tmp_path, lucky_draw, rows)
    assert where(result, "action") == [at(rows, a)]
    assert found(result, "action")[0].text == (
        "the action draw, yet the Player stood (draw gives it a third card)"
    )
    assert where(result, "draw") == [at(rows, b)]
    assert found(result, "draw")[0].text.startswith("the Dealer drew a third card on ")
    assert found(result, "draw")[0].text.endswith(" (its rule: it draws on 0-4)")
    assert where(result, "deal") == [at(rows, c)]
    assert found(result, "deal")[0].text == (
        "the Player holds 4 cards: Lucky Draw Baccarat deals it 2, and a third where the "
        "action draws it"
    )
    # The action changed the stake: a payout found there too; the cards planted are
    # copies the shoe deals later, its ninth there (a cards finding).
    assert {f.row for f in result.findings if f.check != "cards"} == {a + 1, b + 1, c + 1}


def test_a_payout_of_a_draw_is_twice_the_line(tmp_path, lucky_draw, random_lucky_rows) -> None:
    rows = copy.deepcopy(random_lucky_rows)
    i = next(k for k, r in enumerate(rows) if r["action"] == "draw" and r["winner"] == "dealer")
    assert float(rows[i]["pay:enter"]) == -2  # two base stakes lost
    rows[i]["pay:enter"] = "-1"
    result = audited(tmp_path, lucky_draw, rows)
    assert where(result, "payout") == [at(rows, i)] and result.total == 1
    assert found(result, "payout")[0].text == (
        "pay:enter logged -1: the paytable settles it -2 (2 base stakes)"
    )


#: Lucky Draw with side bets on single cards: the Player's pair, and the Player's third
#: card (a red card drawn; '' where the Player stood) against the Dealer's third.
LUCKY_SIDE_BETS = """
name = "Lucky Draw, side bets"
game = "lucky-draw-baccarat"
decks = 8
[[bet]]
id = "pair"
rule = [{ when = "player_card1_rank == player_card2_rank", pays = "11:1" }]
[[bet]]
id = "thirds"
rule = [
  { when = "player_card3_colour == 'red' and dealer_card3_rank == ''", pays = "3:1" },
  { when = "player_card3_rank == dealer_card3_rank", pays = "7:1" },
]
"""


def _side_net(row: dict) -> dict[str, float]:
    """Each side bet's payout of a logged round, settled by hand from its cards (a draw
    stakes two)."""
    player, dealer = row["player_cards"].split(), row["dealer_cards"].split()
    stake = 2 if row["action"] == "draw" else 1
    pair = 11 if player[0][:-1] == player[1][:-1] else -1
    third = [hand[2] if len(hand) > 2 else "" for hand in (player, dealer)]
    if third[0][-1:] in ("H", "D") and not third[1]:
        thirds = 3
    elif third[0][:-1] == third[1][:-1]:  # (both '' where neither drew)
        thirds = 7
    else:
        thirds = -1
    return {"pay:pair": float(stake * pair), "pay:thirds": float(stake * thirds)}


def test_side_bets_on_single_cards_are_checked_from_the_logged_cards(tmp_path) -> None:
    """A log of random actions whose side bets read single cards: every payout is the one
    settled by hand from the round's cards, the audit finds nothing, and a side bet's
    payout changed is found at its row."""
    path = tmp_path / "side.toml"
    path.write_text(LUCKY_SIDE_BETS, encoding="utf-8")
    paytable = load_paytable(str(path))
    rows = random_action_rows(paytable, 2, seed=9)
    for row in rows:
        assert {name: float(row[name]) for name in ("pay:pair", "pay:thirds")} == _side_net(row)
    kinds = {(len(r["player_cards"].split()), len(r["dealer_cards"].split())) for r in rows}
    assert kinds == {(2, 2), (2, 3), (3, 2), (3, 3)}
    assert {float(r["pay:pair"]) for r in rows} >= {11.0, 22.0, -1.0}
    assert audited(tmp_path, paytable, rows).findings == ()
    i = next(k for k, r in enumerate(rows) if float(r["pay:thirds"]) == 6.0)  # a drawn red
    rows[i]["pay:thirds"] = "-2.0"
    result = audited(tmp_path, paytable, rows, name="changed.csv")
    assert where(result, "payout") == [at(rows, i)] and result.total == 1
    assert found(result, "payout")[0].text == (
        "pay:thirds logged -2: the paytable settles it +6 (2 base stakes)"
    )


# -- Malformed logs ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("paytable", "text", "message"),
    [
        (
            "dragon-tiger",
            "shoe,round,dragon_cards\nA,1,KS\n",
            "header: no column 'tiger_cards' (a log of Dragon Tiger has the columns shoe, "
            "round, dragon_cards, tiger_cards; see audit --help)",
        ),
        (
            "dragon-tiger",
            "shoe,round,dragon_cards,tiger_cards,winner\nA,1,KS,4H,banker\n",
            "row 1, column 'winner': 'banker' is not a winner (dragon, tiger, tie)",
        ),
        (
            "dragon-tiger",
            "shoe,round,dragon_cards,tiger_cards,dragon_score\nA,1,KS,4H,14\n",
            "row 1, column 'dragon_score': '14' is not a score 1-13",
        ),
        (
            "dragon-tiger",
            "shoe,round,dragon_cards,tiger_cards\nA,1,KS,\n",
            "row 1, column 'tiger_cards': empty (every round deals the Tiger its cards)",
        ),
        (
            "lucky-draw-baccarat-1",
            "shoe,round,player_cards,dealer_cards\nA,1,KS 2H,4H 5D\n",
            "header: no column 'action'",
        ),
        (
            "lucky-draw-baccarat-1",
            "shoe,round,player_cards,dealer_cards,action\nA,1,KS 2H,4H 5D,double\n",
            "row 1, column 'action': 'double' is not an action (stand, draw)",
        ),
        (
            "lucky-draw-baccarat-1",
            "shoe,round,player_cards,dealer_cards,action\nA,1,KS 2H,4H 5D,\n",
            "row 1, column 'action': empty (every round of Lucky Draw Baccarat logs the "
            "action taken: stand, draw)",
        ),
    ],
)
def test_a_malformed_game_log_is_one_error(tmp_path, paytable, text, message) -> None:
    path = tmp_path / "log.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(AnalyzerError) as error:
        audit_log(path, load_paytable(paytable))
    assert str(error.value).startswith(f"{path}: {message}")
    assert "\n" not in str(error.value)


# -- The exact chances of the fit -------------------------------------------------------------


def test_dragon_tigers_chances_are_plain_counting(dragon_tiger) -> None:
    """Eight decks: 32 cards of each rank among 416; a tie is two of one rank."""
    chances = GameChances(dragon_tiger, 8)
    tie = Fraction(13 * 32 * 31, 416 * 415)
    assert chances.exact == {"dragon": (1 - tie) / 2, "tiger": (1 - tie) / 2, "tie": tie}
    suited = Fraction(52 * 8 * 7, 416 * 415)
    assert chances.bet_hits(dragon_tiger.bet("suited_tie", "standard")) == suited
    big = Fraction(6 * 32, 416)  # 8, 9, 10, J, Q, K
    assert chances.bet_hits(dragon_tiger.bet("dragon_big", "standard")) == big


def test_lucky_draws_chances_given_the_cards_seen_and_the_action(lucky_draw) -> None:
    """Given the Player's two cards and the dealer's first (their point values) and the
    action, a plain walk of the dealer's second card, the Player's drawn card and the
    dealer's own (on 0-4), from the eight decks less the three seen."""
    chances = GameChances(lucky_draw, 8)
    counts = [128] + [32] * 9  # cards of each point value in eight decks
    names = [a.name for a in lucky_draw.game.decision.actions]
    for seen, action in [((3, 5, 7), "stand"), ((0, 4, 2), "draw"), ((9, 9, 0), "draw")]:
        left = list(counts)
        for v in seen:
            left[v] -= 1
        tally = dict.fromkeys(("player", "dealer", "tie"), Fraction(0))
        p1, p2, d1 = seen
        for d2, x, y in itertools.product(range(10), repeat=3):
            rest, size = list(left), sum(left)
            chance = Fraction(rest[d2], size)
            rest[d2], size = rest[d2] - 1, size - 1
            player = (p1 + p2) % 10
            if action == "draw":
                chance *= Fraction(rest[x], size)
                rest[x], size = rest[x] - 1, size - 1
                player = (player + x) % 10
            elif x:
                continue
            dealer = (d1 + d2) % 10
            if dealer <= 4:
                chance *= Fraction(rest[y], size)
                dealer = (dealer + y) % 10
            elif y:
                continue
            winner = "player" if player > dealer else "dealer" if dealer > player else "tie"
            tally[winner] += chance
        assert sum(tally.values()) == 1
        total = 1
        key = chances.key(np.array([names.index(action)]), np.array([[p1, d1, p2, 5]]))
        given = chances.given[key[0]]
        for k, name in enumerate(lucky_draw.game.winners):
            assert given[k] == pytest.approx(float(tally[name] / total), rel=1e-12)


def test_a_decision_games_fit_is_given_what_was_seen_and_chosen(
    tmp_path, lucky_draw, random_lucky_rows
) -> None:
    result = audited(tmp_path, lucky_draw, random_lucky_rows, fit=True)
    keys = [t.key for t in result.fit.tests]
    assert keys == [
        "frequency:outcomes",
        "frequency:player",
        "frequency:dealer",
        "frequency:tie",
        "shoe_aware:player",
        "shoe_aware:dealer",
        "shoe_aware:tie",
    ]  # (the Enter bet wins exactly when the Player does: the outcome's test)
    given = [t for t in result.fit.tests if not t.key.startswith("shoe_aware")]
    assert all("given the cards seen and the action" in t.method for t in given)
    assert not any(note.startswith("shoe-aware test left out") for note in result.fit.notes)
    assert any(note.startswith("runs and serial correlation left out") for note in result.fit.notes)
    outcomes = result.fit.tests[0]
    assert sum(o for _, o, _ in outcomes.parts) == result.rounds
    assert sum(e for _, _, e in outcomes.parts) == pytest.approx(result.rounds)


def test_a_log_stacked_for_the_dragon_fails_its_tests(tmp_path, dragon_tiger) -> None:
    rows = [
        {name: cell for name, cell in row.items() if not name.startswith("pay:")}
        for row in simulated_rows("dragon-tiger", 4, seed=11)
    ]
    for row in rows[::2]:  # every other Tiger win logged the other way round
        if row["winner"] == "tiger":
            row["dragon_cards"], row["tiger_cards"] = row["tiger_cards"], row["dragon_cards"]
            row["dragon_score"], row["tiger_score"] = row["tiger_score"], row["dragon_score"]
            row["winner"] = "dragon"
    result = audited(tmp_path, dragon_tiger, rows, fit=True)
    failed = {t.key for t in result.fit.failed}
    assert {"frequency:outcomes", "frequency:dragon", "frequency:tiger"} <= failed
    assert "shoe_aware:dragon" in failed
    assert result.total == 0  # every round is one the game could deal


def test_a_round_not_dealt_as_the_game_deals_is_left_out_of_the_fit(
    tmp_path, dragon_tiger, dragon_rows
) -> None:
    rows = copy.deepcopy(dragon_rows)
    rows[7]["tiger_cards"] += " 9D"
    result = audited(tmp_path, dragon_tiger, rows, fit=True)
    assert result.fit.tests[0].rounds == len(rows) - 1
    assert result.fit.left_out == 1
    assert {b.outcome for b in result.fit.calibration} == {"dragon", "tiger", "tie"}
    assert [name for name, _ in result.fit.outcomes] == ["dragon", "tiger", "tie"]


def test_card_ranks_are_read_as_the_game_ranks_them() -> None:
    assert [RANKS.index(rank) + 1 for rank in ORDER] == list(range(1, 14))


@pytest.mark.parametrize(
    ("paytable", "text"),
    [
        ("dragon-tiger", "shoe,round,dragon_cards,tiger_cards,pay:suited_tie\nA,1,KS 2S,4H,-1\n"),
        (
            "lucky-draw-baccarat-1",
            "shoe,round,player_cards,dealer_cards,action,pay:enter\nA,1,2S 3H 4D 5D,KC 4D,draw,4\n",
        ),
    ],
)
def test_a_log_of_no_round_the_game_deals_is_all_deal_findings(tmp_path, paytable, text):
    path = tmp_path / "log.csv"
    path.write_text(text, encoding="utf-8")
    result = audit_log(path, load_paytable(paytable), fit=True)
    assert [f.check for f in result.findings] == ["deal"] and result.total == 1
    assert result.fit.run == ()  # nothing to test: no round as the game deals


def test_a_lucky_draw_log_is_the_games_rules_read_plainly(lucky_rows, random_lucky_rows):
    """Each logged round as the rules read: the dealer draws on 0-4, the Player holds a
    third card exactly when the action is draw, totals are points modulo 10, the higher
    wins; pay table 1 pays the Enter and Draw bets together, two stakes on a draw: a
    drawn 9 nets 1 + 3, a drawn 8 or 7 1 + 2, another win 1 + 1; a tie pushes."""

    def points(cards: list[str]) -> int:
        return sum(min(ORDER.index(card[:-1]) + 1, 10) for card in cards) % 10

    for row in [*lucky_rows, *random_lucky_rows]:
        player, dealer = row["player_cards"].split(), row["dealer_cards"].split()
        assert len(player) == (3 if row["action"] == "draw" else 2)
        assert len(dealer) == (3 if points(dealer[:2]) <= 4 else 2)
        p, d = points(player), points(dealer)
        assert (int(row["player_score"]), int(row["dealer_score"])) == (p, d)
        winner = "player" if p > d else "dealer" if d > p else "tie"
        assert row["winner"] == winner
        drew = row["action"] == "draw"
        if winner == "tie":
            net = 0
        elif winner == "dealer":
            net = -2 if drew else -1
        elif not drew:
            net = 1
        else:
            net = 1 + {9: 3, 8: 2, 7: 2}.get(p, 1)
        assert float(row["pay:enter"]) == net


@pytest.mark.parametrize(
    ("first", "rest", "action"),
    [
        (("4S", "5H", "2D", "KC"), ["3H", "3D", "9C", "AS", "KH", "7S"], "draw"),  # dealer 5
        (("4S", "AH", "2D", "2C"), ["3H", "3D", "9C", "AS", "KH", "7S"], "draw"),  # both
        (("4S", "AH", "2D", "2C"), ["3H", "3D", "9C", "AS", "KH", "7S"], "stand"),  # dealer
        (("9S", "8H", "KD", "QC"), ["3H", "9C", "AS"], "stand"),  # nobody draws
    ],
)
def test_a_drawn_rounds_chances_on_the_cards_left_are_every_order_of_them(first, rest, action):
    """The shoe-aware test's chances of a Lucky Draw round: given its first deal, its
    action and the cards left, every ordered way of the cards after the deal, by hand."""
    from analyzer.analysis.audit_game import HAND_SLOTS, drawn_round_chances
    from analyzer.game.cards import N_CARDS
    from tests import naive_family as nf

    game = load_paytable("lucky-draw-baccarat-1").game
    actions = [a.name for a in game.decision.actions]
    draws = action == "draw"
    wins = {"player": 0, "dealer": 0, "tie": 0}
    orders = list(itertools.permutations(rest, 2))
    for extra in orders:
        player, dealer, _ = nf.drawn_round((*first, *extra), 2, draws, (0, 1, 2, 3, 4))
        wins["player" if player > dealer else "dealer" if dealer > player else "tie"] += 1
    expected = [Fraction(wins[w], len(orders)) for w in ("player", "dealer", "tie")]
    index = [_index(card) for card in first]
    cards = np.full((1, 2 * HAND_SLOTS), -1, dtype=np.int64)
    cards[0, [0, 1, HAND_SLOTS, HAND_SLOTS + 1]] = [index[0], index[2], index[1], index[3]]
    left = np.zeros((1, N_CARDS), dtype=np.int64)
    for card in (*first, *rest):
        left[0, _index(card)] += 1
    got = drawn_round_chances(game, cards, np.array([actions.index(action)]), left)[0]
    assert np.allclose(got, [float(p) for p in expected], rtol=0, atol=1e-12)


def _index(text: str) -> int:
    from analyzer.game.cards import card_index, parse_card

    card = parse_card(text)
    return card_index(card.rank, card.suit)


def test_a_lucky_draw_log_has_the_shoe_aware_test(tmp_path, capsys) -> None:
    from helpers import run

    log = tmp_path / "lucky.csv"
    argv = ["simulate", "--paytable", "lucky-draw-baccarat-1", "--shoes", "6", "--seed", "4"]
    code, _, err = run(capsys, *argv, "--no-progress", "--log", str(log))
    assert code == 0, err
    code, out, _ = run(capsys, "audit", "--paytable", "lucky-draw-baccarat-1", str(log))
    assert code == 0 and "Player wins, shoe-aware" in out and "shoe-aware test left out" not in out
