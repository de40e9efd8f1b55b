"""Games as data: game files, their fields, and the files a user may get wrong."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from analyzer import analyze
from analyzer.errors import AnalyzerError
from analyzer.game.games import COUNTED_BY, GAME_NAMES, game_from_table, named_game
from analyzer.game.identities import PATTERN_INDEX
from analyzer.paytables.model import LOSE, parse_payout, paytable_from_dict

DRAGON_TIGER = {
    "name": "Mini",
    "hands": [{"name": "dragon", "cards": 1}, {"name": "tiger", "cards": 1}],
    "score": "rank",
}


def test_every_shipped_game_loads_and_names_its_source():
    from analyzer.files import shipped_folder

    folder = shipped_folder("analyzer.game", "games")
    assert sorted(p.name.removesuffix(".toml") for p in folder.iterdir()) == sorted(GAME_NAMES)
    for name in GAME_NAMES:
        game = named_game(name)
        text = (folder / f"{name}.toml").read_text(encoding="utf-8")
        assert "# Source:" in text or "# Sources:" in text, name
        assert len(game.hands) == 2


def test_a_game_has_fields_of_its_own_hands():
    game = named_game("dragon-tiger")
    names = set(game.vocabulary)
    assert {"winner", "dragon_score", "tiger_pictures", "dragon_card1_suit"} <= names
    assert "player_score" not in names and "dragon_card2_rank" not in names
    assert game.vocabulary["winner"].values == ("dragon", "tiger", "tie")
    assert (game.vocabulary["dragon_score"].low, game.vocabulary["dragon_score"].high) == (1, 13)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": [{"name": "dragon", "cards": 0}, {"name": "tiger", "cards": 1}]}, "'cards'"),
        ({"hands": [{"name": "dragon", "cards": 4}, {"name": "tiger", "cards": 1}]}, "'cards'"),
        ({"hands": [{"name": "dragon", "cards": 1}]}, "two hands"),
        (
            {
                "hands": [
                    {"name": "a", "cards": 1},
                    {"name": "b", "cards": 1},
                    {"name": "c", "cards": 1},
                ]
            },
            "two hands",
        ),
        (
            {"hands": [{"name": "dragon", "cards": 1}, {"name": "dragon", "cards": 1}]},
            "two hands are",
        ),
        (
            {"hands": [{"name": "dragon", "cards": 2}, {"name": "tiger", "cards": 2}]},
            "no single rank",
        ),
        ({"score": "highest"}, "unknown score"),
        ({"score": "points", "ace": "high"}, "'ace' applies"),
        ({"tie": "dragon"}, "'tie'"),
        ({"deal": "shuffled"}, "unknown deal"),
        ({"hands": [{"name": "Dragon", "cards": 1}, {"name": "tiger", "cards": 1}]}, "lower-case"),
        ({"hands": [{"name": "dragon", "cards": True}, {"name": "tiger", "cards": 1}]}, "cards"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_a_bad_game_is_one_line(change, message):
    with pytest.raises(AnalyzerError, match=message) as caught:
        game_from_table({**DRAGON_TIGER, **change})
    assert "\n" not in str(caught.value)


def _paytable(**extra):
    return {
        "name": "T",
        "game": "dragon-tiger",
        "bet": [{"id": "tie", "rule": [{"when": "winner == 'tie'", "pays": "8:1"}]}],
        **extra,
    }


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_paytable(rules="standard"), "'rules' is punto banco's"),
        (_paytable(strategy={"player:5": "draw"}), "'strategy' is punto banco's"),
        (_paytable(game="blackjack"), "unknown game 'blackjack'"),
        (_paytable(game=3), "a game's name or a \\[game\\] table"),
        (
            _paytable(bet=[{"id": "p", "rule": [{"when": "player_score > 5", "pays": "1:1"}]}]),
            "unknown field 'player_score'",
        ),
        (
            _paytable(bet=[{"id": "p", "rule": [{"when": "winner == 'banker'", "pays": "1:1"}]}]),
            "banker",
        ),
        (
            _paytable(
                bet=[{"id": "p", "rule": [{"when": "dragon_card2_rank == 'A'", "pays": "1:1"}]}]
            ),
            "unknown field 'dragon_card2_rank'",
        ),
    ],
)
def test_a_paytable_of_a_game_refuses_what_the_game_has_not(data, message):
    with pytest.raises(AnalyzerError, match=message) as caught:
        paytable_from_dict(data, "t.toml")
    assert "\n" not in str(caught.value)


def test_a_game_given_inline_prices_as_the_shipped_one():
    shipped = analyze(paytable=paytable_from_dict(_paytable(), "a.toml"))
    inline = analyze(paytable=paytable_from_dict(_paytable(game=DRAGON_TIGER), "b.toml"))
    assert inline.result("tie").expected_value == shipped.result("tie").expected_value


def test_an_ace_high_game_ranks_the_ace_above_the_king():
    data = _paytable(
        game={**DRAGON_TIGER, "ace": "high"},
        bet=[{"id": "ace", "rule": [{"when": "dragon_score == 14", "pays": "1:1"}]}],
    )
    result = analyze(paytable=paytable_from_dict(data, "t.toml")).result("ace")
    assert result.hit_frequency == Fraction(1, 13)


@pytest.mark.parametrize(
    ("text", "net"),
    [("lose 1/2", Fraction(-1, 2)), ("lose half", Fraction(-1, 2)), ("LOSE 0.25", Fraction(-1, 4))],
)
def test_a_partial_loss_nets_minus_its_share(text, net):
    payout = parse_payout(text)
    assert payout.net == net and payout.kind == "lose" and not payout.pays


def test_losing_the_whole_stake_is_a_plain_loss():
    assert parse_payout("lose 1") == LOSE


@pytest.mark.parametrize("text", ["lose 0", "lose 3/2", "lose 1/0", "lose some", "lose -1/2"])
def test_a_bad_partial_loss_is_one_line(text):
    with pytest.raises(AnalyzerError, match="payout") as caught:
        parse_payout(text)
    assert "\n" not in str(caught.value)


def test_a_partial_loss_in_punto_banco_takes_its_share_of_the_tie():
    """Player paying 1:1 and losing half on a tie: its EV is the pushing Player's less
    half the probability of a tie (tests.naive deals every round of a tiny shoe)."""
    from tests import naive

    cards = [(r, s) for r in (1, 5, 9, 10, 13) for s in (0, 1)]  # (naive ranks: 1..13)
    counts = naive.physical_reference(cards)
    total = sum(counts.values())
    tie = Fraction(sum(w for key, w in counts.items() if key[2] == key[3]), total)
    expected = naive.expected_value(counts, "player", "commission") - tie / 2
    data = {
        "name": "Half",
        "bet": [
            {
                "id": "player",
                "rule": [
                    {"when": "winner == 'player'", "pays": "1:1"},
                    {"when": "winner == 'tie'", "pays": "lose 1/2"},
                ],
            }
        ],
    }
    import numpy as np

    from analyzer.game.shoe import Shoe

    suits = np.zeros((13, 4), dtype=np.int64)
    for rank, suit in cards:
        suits[rank - 1, suit] += 1
    shoe = Shoe(suits.sum(axis=1), suits)
    result = analyze(paytable=paytable_from_dict(data, "h.toml"), shoe=shoe).result("player")
    assert result.expected_value == expected
    assert result.push_probability == 0


def test_commands_that_deal_punto_banco_refuse_another_game(tmp_path):
    from analyzer.paytables.model import EVERY_GAME_COMMANDS

    for command in (["solve"],):
        run = subprocess.run(
            [sys.executable, "-m", "analyzer", *command, "--paytable", "dragon-tiger"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
        assert run.returncode == 2, command
        assert run.stderr.count("\n") == 1 and "Dragon Tiger" in run.stderr
        # The refusal names every command that takes the game (one list: the CLI's).
        *most, last = EVERY_GAME_COMMANDS
        assert f"{', '.join(most)} and {last} take this game" in run.stderr
        assert {"eor", "play", "count", "audit"} <= set(EVERY_GAME_COMMANDS)
        assert list(tmp_path.iterdir()) == []


def test_shipped_game_files_are_toml_a_user_can_copy():
    from analyzer.files import shipped_folder

    folder = shipped_folder("analyzer.game", "games")
    data = tomllib.loads((folder / "dragon-tiger.toml").read_text(encoding="utf-8"))
    assert game_from_table(data) == named_game("dragon-tiger")


@pytest.mark.parametrize("name", ["dragon-tiger", "three-card-baccarat"])
def test_counted_patterns_are_the_counted_cards_grouped_by_hand(name):
    """Each round's pattern of the cards a multiplied bet counts, against grouping them
    in plain Python: how many of its counted cards share each key (suit, or rank and
    suit), largest first; random rounds, few suits (many shared keys), every kind."""
    game = named_game(name)
    rng = np.random.default_rng(7)
    rounds = 300
    kinds = ["both", "winner", *(hand.name for hand in game.hands)]
    for n_suits in (1, 2, 4):
        ranks = rng.integers(0, 13, (rounds, game.cards))
        suits = rng.integers(0, n_suits, (rounds, game.cards))
        winner = rng.integers(0, 3, rounds)
        for kind in kinds:
            counted = game.counted_mask(kind, winner)
            for by in COUNTED_BY:
                got = game.counted_patterns(kind, by, ranks, suits, winner).tolist()
                for r in range(rounds):
                    keys = [
                        suits[r, i] if by == "suits" else (ranks[r, i], suits[r, i])
                        for i in range(game.cards)
                        if counted[r, i]
                    ]
                    shape = tuple(sorted(Counter(keys).values(), reverse=True))
                    assert got[r] == PATTERN_INDEX[shape], (kind, by, r)
            # Without suits, every counted card is its own.
            alone = game.counted_patterns(kind, "suits", ranks, None, winner).tolist()
            ones = [PATTERN_INDEX[(1,) * int(n)] for n in counted.sum(axis=1)]
            assert alone == ones
