"""The audit's checks: a clean log of real shoes has no findings, and each fault injected
into one is found at its row, and only there."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from audit_logs import clean_rows, logged_rounds
from helpers import MULTIPLIED_PAYTABLE, write_paytable

from analyzer import load_paytable
from analyzer.analysis.audit import CHECKS, Audit, AuditResult, LoggedRounds
from analyzer.game.cards import parse_cards
from analyzer.game.rules import hand_score, parse_strategy


@pytest.fixture(scope="module")
def seed_game():
    return load_paytable("seed-game")


@pytest.fixture(scope="module")
def clean(seed_game):
    return clean_rows(seed_game, 3000, seed=7)


def audit(paytable, rows, decks=None, blocks: int | None = None) -> AuditResult:
    checks = Audit(paytable, decks)
    if blocks is None:
        checks.feed(logged_rounds(paytable, rows))
    else:
        for start in range(0, len(rows), blocks):
            checks.feed(logged_rounds(paytable, rows[start : start + blocks], start + 1))
    return checks.result()


def found(result: AuditResult, check: str) -> list:
    return [f for f in result.findings if f.check == check]


def two_card(row, hand: str) -> tuple[int, int]:
    player = parse_cards(row["player_cards"])
    banker = parse_cards(row["banker_cards"])
    return hand_score(player[:2]), hand_score(banker[:2])


@pytest.mark.slow
def test_a_clean_log_of_thousands_of_rounds_has_no_findings(seed_game, clean) -> None:
    result = audit(seed_game, clean)
    assert len(clean) >= 3000 and result.rounds == len(clean)
    assert result.shoes == len({row["shoe"] for row in clean})
    assert result.total == 0 and result.findings == ()
    assert result.counts == dict.fromkeys(CHECKS, 0)
    assert ("banker", "no_commission") in result.payouts_checked and not result.not_checkable


@pytest.mark.slow
def test_a_third_card_drawn_against_the_rules_is_found_at_its_row(seed_game, clean) -> None:
    rows = copy.deepcopy(clean)
    # A round the Player stood in without a natural: 6 or 7 on two cards.
    at = next(
        i
        for i, row in enumerate(rows)
        if len(row["player_cards"].split()) == 2
        and two_card(row, "p")[0] in (6, 7)
        and two_card(row, "p")[1] not in (8, 9)
        and len(row["banker_cards"].split()) == 2
    )
    rows[at]["player_cards"] += " KD"
    result = audit(seed_game, rows)
    draws = found(result, "draw")
    assert [f.row for f in draws if "Player" in f.text.split(" (")[0]] == [at + 1]
    player = next(f for f in draws if f.text.startswith("the Player"))
    total = two_card(rows[at], "p")[0]
    assert (
        player.text
        == f"the Player drew a third card on {total} (the rules: the Player stands there)"
    )
    assert player.shoe == rows[at]["shoe"] and player.round == int(rows[at]["round"])
    # (The extra KD may be one more than the decks hold, later in the shoe.)
    assert {f.row for f in result.findings if f.check != "cards"} == {at + 1}


@pytest.mark.slow
def test_a_missing_third_card_is_found_at_its_row(seed_game, clean) -> None:
    rows = copy.deepcopy(clean)
    at = next(
        i
        for i, row in enumerate(rows)
        if len(row["player_cards"].split()) == 3 and len(row["banker_cards"].split()) == 2
    )
    rows[at]["player_cards"] = " ".join(rows[at]["player_cards"].split()[:2])
    result = audit(seed_game, rows)
    total = two_card(rows[at], "p")[0]
    player = [f for f in found(result, "draw") if f.text.startswith("the Player")]
    assert [(f.row, f.text) for f in player] == [
        (at + 1, f"the Player stood on {total} (the rules: the Player draws there)")
    ]
    assert {f.row for f in result.findings} == {at + 1}


@pytest.mark.slow
def test_the_banker_standing_where_it_draws_says_the_cell(seed_game, clean) -> None:
    rows = copy.deepcopy(clean)
    at = next(i for i, row in enumerate(rows) if len(row["banker_cards"].split()) == 3)
    rows[at]["banker_cards"] = " ".join(rows[at]["banker_cards"].split()[:2])
    banker = found(audit(seed_game, rows), "draw")
    assert [f.row for f in banker] == [at + 1]
    assert banker[0].text.startswith("the Banker stood on ")
    assert banker[0].text.endswith("(the rules: the Banker draws there)")


@pytest.mark.slow
def test_a_wrong_winner_and_score_are_found(seed_game, clean) -> None:
    rows = copy.deepcopy(clean)
    at = next(i for i, row in enumerate(rows) if row["winner"] == "banker")
    rows[at]["winner"] = "player"
    rows[at + 5]["player_score"] = str((int(rows[at + 5]["player_score"]) + 1) % 10)
    result = audit(seed_game, rows)
    assert [f.row for f in found(result, "winner")] == [at + 1]
    assert found(result, "winner")[0].text.startswith(
        "winner logged player: the cards make it banker"
    )
    assert [f.row for f in found(result, "score")] == [at + 6]
    assert result.total == 2


@pytest.mark.slow
def test_a_card_more_often_than_the_decks_hold_is_found_where_it_comes(seed_game) -> None:
    rows = clean_rows(seed_game, 300, decks=2, seed=3)
    # In the last round of the first shoe, the Player's first card becomes a card of the
    # same point value the shoe has dealt twice already: a third copy, nothing else wrong.
    shoe = [i for i, row in enumerate(rows) if row["shoe"] == "S1"]
    last = shoe[-1]
    seen: dict[str, int] = {}
    for i in shoe[:-1]:
        for field in ("burn", "player_cards", "banker_cards"):
            for card in rows[i][field].split():
                seen[card] = seen.get(card, 0) + 1
    first = parse_cards(rows[last]["player_cards"])[0]
    twice = next(
        card
        for card, n in seen.items()
        if n == 2
        and parse_cards(card)[0].value == first.value
        and card not in rows[last]["banker_cards"]
        and card not in rows[last]["player_cards"]
    )
    player = rows[last]["player_cards"].split()
    rows[last]["player_cards"] = " ".join([twice, *player[1:]])
    result = audit(seed_game, rows, decks=2)
    cards = found(result, "cards")
    assert [(f.row, f.text) for f in cards] == [
        (last + 1, f"the 3rd {parse_cards(twice)[0]} of the shoe: 2 decks hold 2")
    ]
    assert all(f.check in ("cards", "payout") for f in result.findings)  # pairs may change


def test_a_ninth_copy_in_an_8_deck_shoe(seed_game) -> None:
    rows = clean_rows(seed_game, 10, seed=4)[:3]
    for row in rows:  # three rounds of one shoe, a natural each: 9 copies of the 2S in all
        row["player_cards"], row["banker_cards"] = "2S 6H", "2S KH"
        row["burn"] = ""
        row["player_score"], row["banker_score"], row["winner"] = "8", "2", "player"
        for name in [n for n in row if n.startswith("pay:")]:
            row[name] = ""
    rows[0]["burn"] = "2S 2S 2S"  # the burn counts too
    result = audit(seed_game, rows)
    assert [(f.check, f.row, f.text) for f in result.findings] == [
        ("cards", 3, "the 9th 2S of the shoe: 8 decks hold 8")
    ]


@pytest.mark.slow
def test_rounds_out_of_order_are_found(seed_game, clean) -> None:
    rows = copy.deepcopy(clean)
    rows[10]["round"], rows[11]["round"] = rows[11]["round"], rows[10]["round"]
    rows[20]["round"] = rows[19]["round"]
    result = audit(seed_game, rows)
    order = [(f.row, f.text) for f in found(result, "order")]
    assert order[:2] == [
        (11, f"round {rows[10]['round']} follows round {rows[9]['round']} (rounds missing)"),
        (12, f"round {rows[11]['round']} comes after round {rows[10]['round']} (out of order)"),
    ]
    assert (21, f"round {rows[20]['round']} is logged twice") in order
    assert result.total == len(order)


@pytest.mark.slow
def test_a_shoe_dealt_twice_is_found_at_its_first_row(seed_game, clean) -> None:
    first = [row for row in clean if row["shoe"] == "S2"]
    again = [dict(row, shoe="again") for row in first]
    rows = clean + again
    result = audit(seed_game, rows)
    assert [(f.check, f.row, f.shoe) for f in result.findings] == [
        ("repeat", len(clean) + 1, "again")
    ]
    assert "as shoe 'S2'" in result.findings[0].text


def _burn_by_the_spec(shown: str) -> int:
    # GAME.md: "its value sets how many cards are burned (Ace = 1 ... 9 = 9; a 10 or face
    # card burns 10)", from the rank as written.
    rank = shown[:-1]
    return 1 if rank == "A" else int(rank) if rank.isdigit() and int(rank) < 10 else 10


@pytest.mark.slow
def test_a_clean_logs_burns_are_the_procedures(clean) -> None:
    firsts = [row for row in clean if row["round"] == "1"]
    assert len(firsts) >= 3 and all(row["burn"] for row in firsts)
    for row in firsts:
        shown, *burned = row["burn"].split()
        assert len(burned) == _burn_by_the_spec(shown)
    assert not any(row["burn"] for row in clean if row["round"] != "1")


@pytest.mark.slow
def test_a_burn_against_the_procedure_is_found_at_its_row(seed_game, clean) -> None:
    rows = copy.deepcopy(clean)
    firsts = [i for i, row in enumerate(rows) if row["round"] == "1"]
    short = firsts[1]
    shown, *burned = rows[short]["burn"].split()
    rows[short]["burn"] = " ".join([shown, *burned[:-1]])  # one card fewer burned
    late = firsts[2] + 5
    rows[late]["burn"] = "5H 2S 3S 4S 5S 6S"  # a burn in the middle of a shoe
    result = audit(seed_game, rows)
    n = _burn_by_the_spec(shown)
    assert [(f.row, f.text) for f in found(result, "burn")] == [
        (
            short + 1,
            f"the shown card {shown} burns {n} card{'s' if n > 1 else ''}; the log burns "
            f"{n - 1} card{'' if n == 2 else 's'} after it",
        ),
        (
            late + 1,
            "a burn (5H and 5 more) is logged on a round that does not begin its shoe: the "
            "procedure burns when a shoe begins",
        ),
    ]
    # The cards of a burn count in its shoe all the same: the six logged mid-shoe come
    # back as a 9th copy where the shoe deals all eight, and only there.
    extra = found(result, "cards")
    assert result.total == 2 + len(extra) and len(extra) <= 6
    assert all(f.shoe == rows[late]["shoe"] and f.row > late + 1 for f in extra)
    assert {f.text.split()[2] for f in extra} <= {"5H", "2S", "3S", "4S", "5S", "6S"}


@pytest.mark.slow
def test_a_mis_settled_payout_is_found(seed_game, clean) -> None:
    rows = copy.deepcopy(clean)
    at = next(i for i, row in enumerate(rows) if row["winner"] == "banker")
    rows[at]["pay:banker"] = "1"  # commission mode pays 0.95
    pair = next(i for i, row in enumerate(rows) if int(row["round"]) > 60)
    rows[pair]["pay:player_pair"] = "-1"  # the bet closes after round 60
    result = audit(seed_game, rows)
    assert [(f.row, f.text) for f in found(result, "payout")] == sorted(
        [
            (at + 1, "pay:banker logged 1: the paytable settles it +0.95"),
            (
                pair + 1,
                f"pay:player_pair logged -1 on round {rows[pair]['round']}: the bet is not "
                "offered after round 60",
            ),
        ]
    )


@pytest.mark.slow
def test_blocks_of_any_size_find_the_same(seed_game) -> None:
    rows = clean_rows(seed_game, 400, decks=2, seed=5)
    rows[3]["pay:tie"] = "5"
    rows[50]["round"] = "99"
    rows[60]["burn"] = "2H 3C"  # a burn mid-shoe, wherever a block begins
    rows = rows + [dict(row, shoe="copy") for row in rows if row["shoe"] == "S1"]
    whole = audit(seed_game, rows, decks=2)
    assert whole.total >= 3
    for size in (1, 7, 64):
        assert audit(seed_game, rows, decks=2, blocks=size) == whole


@pytest.mark.slow
def test_a_mixed_decision_cell_is_allowed_either_way() -> None:
    chemin = load_paytable("chemin-de-fer")  # the Player draws on 5 with probability 9/11
    rows = clean_rows(chemin, 2000, seed=11)
    fives = [row for row in rows if two_card(row, "p")[0] == 5 and two_card(row, "p")[1] < 8]
    drew = {len(row["player_cards"].split()) for row in fives}
    assert drew == {2, 3}
    assert audit(chemin, rows).total == 0
    # Played purely, the stands on 5 break the rule the strategy sets.
    pure = chemin.with_strategy(parse_strategy("player:5=draw"))
    draws = found(audit(pure, rows), "draw")
    stood = [f for f in draws if f.text.startswith("the Player stood on 5")]
    assert stood and stood[0].text.endswith("(a decision cell player:5: the strategy draws there)")


def test_a_natural_drawn_on_is_found(seed_game) -> None:
    rows = clean_rows(seed_game, 10, seed=4)[:1]
    rows[0].update(
        player_cards="9S KH 2D",
        banker_cards="3S 4H",
        burn="",
        player_score="1",
        banker_score="7",
        winner="banker",
    )
    for name in [n for n in rows[0] if n.startswith("pay:")]:
        rows[0][name] = ""
    result = audit(seed_game, rows)
    assert [f.text for f in result.findings] == [
        "the Player drew a third card on a natural (Player 9): nobody draws"
    ]


def test_multiplied_bets_are_not_checkable_once(tmp_path, seed_game) -> None:
    paytable = load_paytable(str(write_paytable(tmp_path, MULTIPLIED_PAYTABLE)))
    rows = clean_rows(seed_game, 100, seed=2, bets=())
    for row in rows:
        row["pay:player"] = "3"
    result = audit(paytable, rows, blocks=30)
    assert result.total == 0 and result.payouts_checked == ()
    assert [(b, m) for b, m, _ in result.not_checkable] == [("player", paytable.modes[0])]
    assert "special cards" in result.not_checkable[0][2]


def test_an_infinite_deck_counts_no_copies(seed_game) -> None:
    block = logged_rounds(seed_game, clean_rows(seed_game, 10, seed=4)[:1])
    many = LoggedRounds(
        **{
            name: np.repeat(getattr(block, name), 20, axis=0)
            for name in (
                "rows",
                "shoes",
                "rounds",
                "cards",
                "player_score",
                "banker_score",
                "winner",
            )
        }
    )
    checks = Audit(seed_game, "inf")
    checks.feed(many)
    result = checks.result()
    assert found(result, "cards") == [] and found(result, "order")  # rounds repeat
