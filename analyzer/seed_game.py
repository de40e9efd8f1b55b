"""The game of ../shared/spec/GAME.md (help page seed 000), as a paytable mapping.

Payouts, max rounds and names are those of the seed pages: Tagalog from seed 000, Malay
from seed 003 (which lacks the Lucky Seven family).
"""

from __future__ import annotations

from functools import cache

from analyzer.paytable import Paytable, paytable_from_dict

#: The help pages' claim: "Ang pinakamataas na RTP ng laro ay 98.94%." (seed 000).
CLAIMED_MAX_RTP = "98.94%"

_BONUS_MARGINS = ((9, "30:1"), (8, "10:1"), (7, "6:1"), (6, "4:1"), (5, "2:1"), (4, "1:1"))


def _bonus_rules(side: str) -> list[dict[str, str]]:
    other = "banker" if side == "player" else "player"
    rules = [
        {"when": f"natural and winner == '{side}'", "pays": "1:1"},
        {"when": "natural and winner == 'tie'", "pays": "push"},
    ]
    rules += [
        {"when": f"not natural and {side}_score - {other}_score == {margin}", "pays": pays}
        for margin, pays in _BONUS_MARGINS
    ]
    return rules


def _lucky(side: str, score: int, pays: dict[int, str]) -> list[dict[str, str]]:
    return [
        {
            "when": f"winner == '{side}' and {side}_score == {score} and {side}_cards == {cards}",
            "pays": odds,
        }
        for cards, odds in pays.items()
    ]


SEED_GAME = {
    "name": "Seed game (GAME.md)",
    "decks": 8,
    "modes": ["commission", "no_commission"],
    "bet": [
        {
            "id": "player",
            "name": "Player",
            "names": {"tl": "Player", "ms": "Pemain"},
            "rule": [
                {"when": "winner == 'player'", "pays": "1:1"},
                {"when": "winner == 'tie'", "pays": "push"},
            ],
        },
        {
            "id": "banker",
            "name": "Banker",
            "names": {"tl": "Banker", "ms": "Banker"},
            "modes": ["commission"],
            "rule": [
                {"when": "winner == 'banker'", "pays": "0.95:1"},
                {"when": "winner == 'tie'", "pays": "push"},
            ],
        },
        {
            "id": "banker",
            "name": "Banker",
            "names": {"tl": "Banker", "ms": "Banker"},
            "modes": ["no_commission"],
            "rule": [
                {"when": "winner == 'banker' and banker_score == 6", "pays": "1:2"},
                {"when": "winner == 'banker'", "pays": "1:1"},
                {"when": "winner == 'tie'", "pays": "push"},
            ],
        },
        {
            "id": "tie",
            "name": "Tie",
            "names": {"tl": "Tabla", "ms": "Seri"},
            "rule": [{"when": "winner == 'tie'", "pays": "8:1"}],
        },
        {
            "id": "player_pair",
            "name": "Player Pair",
            "max_round": 60,
            "names": {"tl": "Pares ng Player", "ms": "Pasangan Pemain"},
            "rule": [{"when": "player_pair", "pays": "11:1"}],
        },
        {
            "id": "banker_pair",
            "name": "Banker Pair",
            "max_round": 60,
            "names": {"tl": "Pares ng Banker", "ms": "Pasangan Banker"},
            "rule": [{"when": "banker_pair", "pays": "11:1"}],
        },
        {
            "id": "any_pair",
            "name": "Any Pair",
            "max_round": 50,
            "names": {"tl": "Anumang Pares", "ms": "Mana-mana Pasangan"},
            "rule": [{"when": "player_pair or banker_pair", "pays": "5:1"}],
        },
        {
            "id": "perfect_pair",
            "name": "Perfect Pair",
            "max_round": 50,
            "names": {"tl": "Perpektong Pares", "ms": "Pasangan Sempurna"},
            "rule": [{"when": "player_suited_pair or banker_suited_pair", "pays": "25:1"}],
        },
        {
            "id": "player_natural",
            "name": "Player Natural",
            "max_round": 50,
            "names": {"tl": "Natural ng Player", "ms": "Pemain Natural"},
            "rule": [{"when": "player_natural", "pays": "7:2"}],
        },
        {
            "id": "banker_natural",
            "name": "Banker Natural",
            "max_round": 50,
            "names": {"tl": "Natural ng Banker", "ms": "Banker Natural"},
            "rule": [{"when": "banker_natural", "pays": "7:2"}],
        },
        {
            "id": "player_bonus",
            "name": "Player Bonus",
            "max_round": 40,
            "names": {"tl": "Bonus ng Player", "ms": "Bonus Pemain"},
            "rule": _bonus_rules("player"),
        },
        {
            "id": "banker_bonus",
            "name": "Banker Bonus",
            "max_round": 40,
            "names": {"tl": "Bonus ng Banker", "ms": "Bonus Banker"},
            "rule": _bonus_rules("banker"),
        },
        {
            "id": "lucky_six",
            "name": "Lucky Six",
            "max_round": 50,
            "names": {"tl": "Lucky Six", "ms": "Tuah Enam"},
            "rule": _lucky("banker", 6, {2: "12:1", 3: "20:1"}),
        },
        {
            "id": "lucky_six_2card",
            "name": "2-Card Lucky Six",
            "max_round": 50,
            "names": {"tl": "2 Barahang Lucky Six", "ms": "2 Kad Tuah Enam"},
            "rule": _lucky("banker", 6, {2: "22:1"}),
        },
        {
            "id": "lucky_six_3card",
            "name": "3-Card Lucky Six",
            "max_round": 50,
            "names": {"tl": "3 Cards Lucky Six", "ms": "3 Cards Lucky Six"},
            "rule": _lucky("banker", 6, {3: "50:1"}),
        },
        {
            "id": "lucky_seven",
            "name": "Lucky Seven",
            "max_round": 50,
            "names": {"tl": "Lucky Seven"},
            "rule": _lucky("player", 7, {2: "6:1", 3: "15:1"}),
        },
        {
            "id": "lucky_seven_2card",
            "name": "2-Card Lucky Seven",
            "max_round": 50,
            "names": {"tl": "2 Barahang Lucky Seven"},
            "rule": _lucky("player", 7, {2: "15:1"}),
        },
        {
            "id": "lucky_seven_3card",
            "name": "3-Card Lucky Seven",
            "max_round": 50,
            "names": {"tl": "3 Barahang Lucky Seven"},
            "rule": _lucky("player", 7, {3: "30:1"}),
        },
        {
            "id": "super_lucky_seven",
            "name": "Super Lucky Seven",
            "max_round": 50,
            "names": {"tl": "Super Lucky Seven"},
            "rule": [
                {
                    "when": f"winner == 'player' and player_score == 7 and banker_score == 6 "
                    f"and total_cards == {cards}",
                    "pays": odds,
                }
                for cards, odds in ((4, "30:1"), (5, "40:1"), (6, "100:1"))
            ],
        },
    ],
}


@cache
def seed_paytable() -> Paytable:
    return paytable_from_dict(SEED_GAME, "seed game")
