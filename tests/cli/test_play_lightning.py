"""``play`` of a game's multiplied bets: Lightning Dragon Tiger's round with its Lightning
suit and multiplier given by ``--special S=5``, every bet settled by hand-written rules
(apart from the engine), and the rounds' nets weighted by how often each deal, suit and
multiplier happens adding up to the exact EV that report gives."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from helpers import run, write_paytable

from analyzer import analyze, load_paytable

FEE = Fraction(1, 5)
#: The shipped Lightning Dragon Tiger's unknowns, at values (2x takes 65%).
UNKNOWNS = "p3=1/5,p5=1/10,p8=1/20"
CHANCES = {2: Fraction(13, 20), 3: Fraction(1, 5), 5: Fraction(1, 10), 8: Fraction(1, 20)}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _hand_rules(dragon: str, tiger: str, lightning: str, value: int) -> dict[str, Fraction]:
    """Each bet's net per unit staked, the 20% fee paid, by the rules as the game's
    sources state them: a winning Dragon (Tiger) is paid 1:1 times the multiplier where
    its card is of the Lightning suit, and loses half on a tie; the Tie pays 6.5:1 and
    the Suited Tie 20:1, each times the multiplier once for each Lightning card."""
    d, t = RANKS.index(dragon[:-1]), RANKS.index(tiger[:-1])
    tie = d == t
    lit = [card[-1] == lightning for card in (dragon, tiger)]
    times = [Fraction(value) if on else Fraction(1) for on in lit]
    both = times[0] * times[1]
    nets = {
        "dragon": times[0] if d > t else Fraction(-1, 2) if tie else Fraction(-1),
        "tiger": times[1] if t > d else Fraction(-1, 2) if tie else Fraction(-1),
        "tie": Fraction(13, 2) * both if tie else Fraction(-1),
        "suited_tie": 20 * both if tie and dragon[-1] == tiger[-1] else Fraction(-1),
    }
    return {bet: net - FEE for bet, net in nets.items()}


def _play(capsys, *argv: str) -> dict:
    """``play ... --format json``, checked against the play contract's schema."""
    import jsonschema

    from analyzer.reports.contract import schema_of

    code, out, err = run(capsys, "play", *argv, "--format", "json")
    assert (code, err) == (0, ""), err
    document = json.loads(out)
    jsonschema.Draft202012Validator(schema_of("play")).validate(document)
    return document


#: One deal of each kind, the Lightning suit spades: (dragon, tiger) by how the ranks
#: compare, and the suits by which are spades and whether the two share one.
RANK_PAIRS = {"tie": ("5", "5"), "dragon": ("K", "5"), "tiger": ("5", "K")}
SUIT_PAIRS = {"both": ("S", "S"), "dragon": ("S", "H"), "tiger": ("H", "S")}
SUIT_PAIRS |= {"same": ("H", "H"), "neither": ("H", "D")}


def test_every_kind_of_round_against_the_rules_and_the_exact_ev(capsys) -> None:
    """Every kind of round (how the ranks compare, which cards are of the Lightning suit
    and whether the two share a suit) with each multiplier: play's nets are the rules'
    exactly. Weighted by how many ordered deals of two physical cards of eight decks
    give each kind (the Lightning suit spades: by symmetry, any), and by each
    multiplier's chance, they add up to the exact EV per unit paid of report."""
    counts = {"tie": 13, "dragon": 78, "tiger": 78}  # rank pairs of each kind
    spread = {"both": 1, "dragon": 3, "tiger": 3, "same": 3, "neither": 6}  # suit pairs
    total: dict[str, Fraction] = {}
    weight_sum = 0
    for kind, (dragon_rank, tiger_rank) in RANK_PAIRS.items():
        for suits, (dragon_suit, tiger_suit) in SUIT_PAIRS.items():
            dragon, tiger = dragon_rank + dragon_suit, tiger_rank + tiger_suit
            one_card = dragon == tiger  # (the same card twice: 8 x 7 physical pairs)
            weight = counts[kind] * spread[suits] * (56 if one_card else 64)
            weight_sum += weight
            for value, chance in CHANCES.items():
                argv = [dragon, tiger, "--paytable", "lightning-dragon-tiger"]
                document = _play(capsys, *argv, "--unknowns", UNKNOWNS, "--special", f"S={value}")
                nets = {row["bet"]: Fraction(row["net_exact"]) for row in document["bets"]}
                assert nets == _hand_rules(dragon, tiger, "S", value), (dragon, tiger, value)
                assert document["options"]["special_suits"] == {"S": f"{value}/1"}
                assert document["options"]["special_cards"] == {}
                for bet, net in nets.items():
                    total[bet] = total.get(bet, Fraction(0)) + weight * chance * net
    assert weight_sum == 416 * 415
    paytable = load_paytable("lightning-dragon-tiger").with_unknowns(
        {"p3": Fraction(1, 5), "p5": Fraction(1, 10), "p8": Fraction(1, 20)}
    )
    exact = {r.bet.id: r.expected_value for r in analyze(paytable=paytable).results}
    assert {bet: t / weight_sum / (1 + FEE) for bet, t in total.items()} == exact


def test_the_multiplier_and_the_fee_are_shown(capsys) -> None:
    """A tie of 5H and 5S with spades 5x: the Tie pays 6.5 x 5 = 32.5 less the fee; the
    Dragon and the Tiger lose half; the Suited Tie loses. Multipliers are shown for the
    bets paid by one."""
    argv = ["5H", "5S", "--paytable", "lightning-dragon-tiger", "--special", "s=5"]
    code, out, err = run(capsys, "play", *argv)
    assert (code, err) == (0, "")
    assert "Lightning: spades 5x" in out
    assert "Fee:     0.2 per unit staked, paid on every bet" in out
    rows = {line.split()[0] + line.split()[1]: line.split()[2:] for line in out.splitlines()[6:]}
    assert rows["Tiewin"] == ["5x", "+32.3"]
    assert rows["Dragonlose"] == ["-", "-0.7"]
    assert rows["SuitedTie"] == ["lose", "-", "-1.2"]
    # A Dragon win on a Lightning card: 8 to 1 less the fee.
    document = _play(capsys, "KS", "5H", "--paytable", "lightning-dragon-tiger", "--special", "S=8")
    dragon = next(row for row in document["bets"] if row["bet"] == "dragon")
    assert (dragon["multiplier"], dragon["net_exact"], dragon["result"]) == ("8/1", "39/5", "win")
    assert document["options"]["fee"] == "1/5"


def test_without_a_lightning_suit_a_multiplied_bet_is_paid_at_1x(capsys) -> None:
    """As punto banco's play with no special card given: none drawn, the multiplier 1,
    and the line says how to give one."""
    document = _play(capsys, "5S", "5S", "--paytable", "lightning-dragon-tiger")
    nets = {row["bet"]: row["net_exact"] for row in document["bets"]}
    assert nets["tie"] == "63/10" and nets["suited_tie"] == "99/5"  # 6.5 and 20, less 0.2
    assert document["options"]["special_suits"] == {}
    code, out, _ = run(capsys, "play", "5S", "5S", "--paytable", "lightning-dragon-tiger")
    assert code == 0
    assert "Lightning: none given, so a multiplied bet is paid at 1x" in out


LIGHTNING_TWO_SUITS = """
name = "Two Lightning suits"
game = "dragon-tiger"
decks = 8
[multipliers]
suits = 2
values = { 2 = "1/2", 8 = "1/2" }
[[bet]]
id = "tie"
multiply = "both"
rule = [{ when = "winner == 'tie'", pays = "6.5 * multiplier" }]
[[bet]]
id = "dragon"
multiply = "dragon"
rule = [{ when = "winner == 'dragon'", pays = "multiplier" }]
"""


def test_a_round_of_two_lightning_suits_multiplies_by_each(capsys, tmp_path) -> None:
    """suits = 2: the round takes two suits, each its own multiplier; a tie of a spade
    and a heart is multiplied by both (6.5 x 2 x 8), no fee."""
    paytable = str(write_paytable(tmp_path, LIGHTNING_TWO_SUITS))
    document = _play(capsys, "5S", "5H", "--paytable", paytable, "--special", "S=2,H=8")
    nets = {row["bet"]: row["net_exact"] for row in document["bets"]}
    assert nets == {"tie": "104/1", "dragon": "-1/1"}
    assert document["options"]["special_suits"] == {"S": "2/1", "H": "8/1"}
    code, _, err = run(capsys, "play", "5S", "5H", "--paytable", paytable, "--special", "S=2")
    assert code == 2 and "--special: 1 Lightning suit, but a round draws 2" in err


SPECIAL_CARD_GAME = """
name = "Special cards on Dragon Tiger"
game = "dragon-tiger"
decks = 8
[multipliers]
cards = 1
values = { 2 = "1/2", 8 = "1/2" }
[[bet]]
id = "tiger"
multiply = "tiger"
rule = [{ when = "winner == 'tiger'", pays = "multiplier" }]
"""


def test_a_games_special_card_identities_are_given_as_punto_bancos(capsys, tmp_path) -> None:
    """A game whose [multipliers] draws card identities takes them as punto banco's play
    does: the Tiger's KH special at 8x wins 8 to 1; another king of spades does not."""
    paytable = str(write_paytable(tmp_path, SPECIAL_CARD_GAME))
    document = _play(capsys, "5S", "KH", "--paytable", paytable, "--special", "KH=8")
    assert [(row["multiplier"], row["net_exact"]) for row in document["bets"]] == [("8/1", "8/1")]
    assert document["options"]["special_cards"] == {"KH": "8/1"}
    assert document["options"]["special_suits"] == {}
    document = _play(capsys, "5S", "KS", "--paytable", paytable, "--special", "KH=8")
    assert [(row["multiplier"], row["net_exact"]) for row in document["bets"]] == [("1/1", "1/1")]


SUITLESS = """
name = "Dragon only"
game = "dragon-tiger"
[multipliers]
suits = 1
values = { 2 = "1/2", 8 = "1/2" }
[[bet]]
id = "dragon"
multiply = "dragon"
rule = [{ when = "winner == 'dragon'", pays = "multiplier" }]
"""


@pytest.mark.parametrize(
    ("paytable", "special", "message"),
    [
        ("lightning-dragon-tiger", "X=5", "--special: 'X' is not a suit (S, H, D or C)"),
        ("lightning-dragon-tiger", "5S=5", "--special: '5S' is not a suit"),
        ("lightning-dragon-tiger", "\u017f=5", "--special: '\u017f' is not a suit"),
        ("lightning-dragon-tiger", "S=5," * 1000, "--special: the suit S is given twice"),
        ("lightning-dragon-tiger", "S", "--special: 'S': write SUIT=MULTIPLIER, e.g. S=5"),
        ("lightning-dragon-tiger", "S=4", "S=4: not a multiplier of this paytable (2, 3, 5, 8)"),
        ("lightning-dragon-tiger", "S=-2", "must not be negative"),
        ("lightning-dragon-tiger", "S=5,s=2", "--special: the suit S is given twice"),
        ("lightning-dragon-tiger", "S=5,H=2", "--special: 2 Lightning suits, but a round draws 1"),
        ("lightning-dragon-tiger", "", "--special: 0 Lightning suits, but a round draws 1"),
        ("golden-wealth-baccarat", "S=5", "--special: S is a suit, but this paytable's specials"),
        ("dragon-tiger", "S=5", "--special: this paytable has no [multipliers]"),
    ],
)
def test_a_bad_lightning_suit_is_one_line_exit_2(capsys, paytable, special, message) -> None:
    cards = ["5H", "5S"] if "dragon" in paytable else ["7S", "3H", "2D", "KC"]
    for fmt in ("text", "json"):
        argv = ["play", *cards, "--paytable", paytable, "--special", special, "--format", fmt]
        code, out, err = run(capsys, *argv)
        assert (code, out) == (2, ""), special
        assert message in err and len(err.splitlines()) == 1, err


def test_a_card_without_its_suit_is_refused_where_a_suit_is_special(capsys, tmp_path) -> None:
    """A bet on one card's rank may take cards without suits, but not once a Lightning
    suit is given: whether the card is of it is unknown. Without --special the round is
    settled at 1x."""
    paytable = str(write_paytable(tmp_path, SUITLESS))
    code, out, err = run(capsys, "play", "K", "5", "--paytable", paytable, "--special", "S=8")
    assert (code, out) == (2, "")
    assert "card K has no suit, and bet 'dragon'" in err and len(err.splitlines()) == 1
    document = _play(capsys, "K", "5", "--paytable", paytable)
    assert [row["net_exact"] for row in document["bets"]] == ["1/1"]
