"""The kinds of published figures verify states beyond one bet's figure on one shoe: wins
among resolved decisions, a figure across deck counts, a figure printed as a float, the
largest payout of a multiplied bet, and a figure of a paytable with unknowns; each
against plain-Python brute force (tests/naive*.py), Python's own float formatting, or a
published source named in the test."""

from __future__ import annotations

import dataclasses
import json
import math
from decimal import Decimal, localcontext
from fractions import Fraction

import mpmath
import naive
import pytest
from helpers import FEE, POOL, UNIVERSE, multiplied_paytable, run, shoe_of_cards, write_claims

from analyzer.analysis.verify import verify_claims
from analyzer.paytables.claims import EXACT_DECISIONS, claims_from_dict
from analyzer.paytables.model import paytable_from_dict


def _claims(*items: dict, paytable: str = "seed-game") -> list:
    return claims_from_dict({"paytable": paytable, "claim": list(items)}, "c.toml", None)


def _decimal(value: Fraction, places: int) -> str:
    """``value`` to ``places`` decimals, half away from zero, by integers (the test's own)."""
    scaled = value * 10**places
    whole = math.floor(abs(scaled) + Fraction(1, 2)) * (-1 if scaled < 0 else 1)
    sign = "-" if whole < 0 else ""
    digits = str(abs(whole)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}" if places else f"{sign}{digits}"


def _rows(claims, **options) -> list[dict]:
    return verify_claims(claims, **options).to_dict("records")


# -- Wins among resolved decisions (ties set aside) ------------------------------------------


@pytest.fixture(scope="module")
def banker_share(reference_8_decks) -> Fraction:
    """The Banker's share of the rounds that do not tie, 8 decks, by dealing every round."""
    wins = sum(w for key, w in reference_8_decks.items() if key[3] > key[2])
    losses = sum(w for key, w in reference_8_decks.items() if key[3] < key[2])
    return Fraction(wins, wins + losses)


def _binomial(n: int, p: Fraction, low: int, high: int) -> Fraction:
    return sum(
        (math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(low, high + 1)), Fraction(0)
    )


@pytest.mark.slow
def test_resolved_decisions_are_a_binomial_of_the_exact_share(banker_share) -> None:
    """Every statistic of the wins among resolved decisions, against the binomial written
    out with Fractions over the share counted by dealing every round, printed to 20
    decimals (a figure one unit off in its last digit fails)."""
    n = 60
    p = banker_share
    expected = {
        "share": (p, {}),
        "mean": (n * p, {"decisions": n}),
        "p_at_least": (_binomial(n, p, 32, n), {"decisions": n, "amount": 32}),
        "p_at_most": (_binomial(n, p, 0, 27), {"decisions": n, "amount": 27}),
        "p_between": (_binomial(n, p, 25, 35), {"decisions": n, "low": 25, "high": 35}),
    }
    claims = []
    for statistic, (value, keys) in expected.items():
        base = {"bet": "banker", "quantity": "resolved", "statistic": statistic, **keys}
        claims.append({**base, "value": _decimal(value, 20)})
        off = _decimal(value + Fraction(1, 10**20), 20)
        claims.append({**base, "value": off, "mode": "commission"})
    # The standard deviation sqrt(n p (1 - p)), to 20 decimals, by Decimal's square root.
    with localcontext() as context:
        context.prec = 60
        root = (Decimal((n * p * (1 - p)).numerator) / (n * p * (1 - p)).denominator).sqrt()
    claims.append(
        {
            "bet": "banker",
            "quantity": "resolved",
            "statistic": "std_dev",
            "decisions": n,
            "value": f"{root:.20f}",
        }
    )
    # The quantile: the fewest wins k with P(wins <= k) >= 1/20.
    quantile = next(k for k in range(n + 1) if _binomial(n, p, 0, k) >= Fraction(1, 20))
    claims.append(
        {
            "bet": "banker",
            "quantity": "resolved",
            "statistic": "quantile",
            "decisions": n,
            "level": "0.05",
            "value": str(quantile),
        }
    )
    rows = _rows(_claims(*claims))
    assert [row["result"] for row in rows] == ["PASS", "FAIL"] * 5 + ["PASS", "PASS"]
    assert all(row["last_digit"] for row in rows[1:10:2])
    assert rows[0]["exact"] == str(p) and rows[0]["bet"] == "banker: share won"
    assert rows[2]["bet"] == "banker: mean wins in 60 decisions"


@pytest.mark.slow
def test_the_banker_share_of_resolved_decisions_as_published(banker_share) -> None:
    """homepokergames.com, 'Baccarat Odds' (www.homepokergames.com/baccarat-odds.php),
    'Baccarat Odds Table (Not including ties)', Banker '% win' by decks: 50.7096% (1),
    50.6938% (2), 50.6862% (4), 50.6837% (6), 50.6824% (8). The page divides its own
    win percentages, rounded to four decimals (8 decks: 45.8597 / (45.8597 + 44.6247) =
    50.68244%): on 2 and 8 decks that lands one off the exact share in the last digit
    (8 decks: 50.68248...%, by dealing every round)."""
    assert _decimal(banker_share * 100, 4) == "50.6825"
    published = {1: "50.7096%", 2: "50.6938%", 4: "50.6862%", 6: "50.6837%", 8: "50.6824%"}
    claims = _claims(
        *(
            {
                "bet": "banker",
                "quantity": "resolved",
                "statistic": "share",
                "decks": decks,
                "value": value,
            }
            for decks, value in published.items()
        )
    )
    rows = _rows(claims)
    assert [row["result"] for row in rows] == ["PASS", "FAIL", "PASS", "PASS", "FAIL"]
    assert rows[1]["last_digit"] and rows[4]["computed"] == "50.6825%"


def test_many_decisions_are_a_session_with_its_error_bound() -> None:
    """Past the exact sums a chance is a session's numeric value, within its stated
    bound of the binomial summed in 60-digit arithmetic."""
    p = Fraction(279815987114, 552096050907)  # the Banker's share on 8 decks
    n = EXACT_DECISIONS + 1000
    claim = {
        "bet": "banker",
        "quantity": "resolved",
        "statistic": "p_at_least",
        "decisions": n,
        "amount": 3050,
        "value": "0.1",
    }
    (row,) = _rows(_claims(claim))
    assert row["method"] == "numeric" and "within" in row["note"]
    mpmath.mp.dps = 60
    q = mpmath.mpf(p.numerator) / p.denominator
    truth = mpmath.fsum(
        mpmath.binomial(n, k) * q**k * (1 - q) ** (n - k) for k in range(3050, n + 1)
    )
    bound = float(row["note"].rsplit("within ", 1)[1])
    assert abs(float(row["exact"]) - float(truth)) <= bound
    (exact_row,) = _rows(_claims({**claim, "decisions": EXACT_DECISIONS, "amount": 2550}))
    assert exact_row["method"] == "exact" and "too long to give" in exact_row["note"]


def test_a_bet_that_always_pushes_has_no_resolved_decisions() -> None:
    paytable = paytable_from_dict(
        {"name": "P", "bet": [{"id": "never", "rule": [{"when": "true", "pays": "push"}]}]}
    )
    claims = _claims({"bet": "never", "quantity": "resolved", "statistic": "share", "value": "1"})
    with pytest.raises(Exception, match="every round of bet 'never' pushes"):
        verify_claims(claims, paytable=paytable)


# -- A figure across deck counts -------------------------------------------------------------


def _pair(decks: int) -> Fraction:
    """A hand's first two cards are a pair: 4d - 1 of the other 52d - 1 cards match."""
    return Fraction(4 * decks - 1, 52 * decks - 1)


def test_a_figure_across_deck_counts_is_their_largest_smallest_or_both() -> None:
    counts = [1, 2, 3, 8]
    values = [_pair(d) for d in counts]
    base = {"bet": "player_pair", "quantity": "hit_frequency", "decks": counts}
    claims = _claims(
        {**base, "across": "max", "value": _decimal(max(values), 20)},
        {**base, "across": "min", "value": _decimal(min(values), 20)},
        {
            **base,
            "across": "range",
            "value": [_decimal(min(values), 20), _decimal(max(values), 20)],
        },
        {**base, "across": "max", "value": _decimal(min(values), 20)},
        # practicalwebtools.com, 'Baccarat Pair Bet Calculator': "Single deck has 5.88%
        # pair chance vs 7.47% for 8 decks" (its table: 1, 2, 6 and 8 decks).
        {**base, "decks": [1, 2, 6, 8], "across": "range", "value": ["5.88%", "7.47%"]},
        {**base, "decks": [1, 2, 6, 8], "across": "range", "value": ["5.88%", "7.48%"]},
    )
    rows = _rows(claims)
    assert [row["result"] for row in rows] == ["PASS", "PASS", "PASS", "FAIL", "PASS", "FAIL"]
    assert rows[0]["shoe"] == "1, 2, 3, 8 decks"
    assert (
        rows[0]["note"] == "the largest at 8 decks" and rows[1]["note"] == "the smallest at 1 deck"
    )
    assert rows[2]["exact"] == f"{min(values)} to {max(values)}"
    assert rows[5]["last_digit"] and rows[5]["computed"] == "5.88% to 7.47%"
    assert rows[4]["claimed"] == "5.88% to 7.47%"
    # --decks puts every deck count on one shoe, and says so.
    (row,) = _rows(_claims({**base, "across": "max", "value": "0.0747"}), decks=8)
    assert row["result"] == "PASS" and row["note"] == "every deck count on 8 decks"


def test_the_player_edge_is_at_most_its_one_deck_figure() -> None:
    """homepokergames.com, 'Baccarat Odds', 'Baccarat Odds Table (Including ties)': the
    Player's edge is 1.2864% on 1 deck, 1.2565% on 2, 1.2421% on 4, 1.2374% on 6 and
    1.2351% on 8: at most 1.2864%, at least 1.2351%."""
    base = {"bet": "player", "quantity": "house_edge", "decks": [1, 2, 4, 6, 8]}
    claims = _claims(
        {**base, "across": "max", "value": "1.2864%"},
        {**base, "across": "min", "value": "1.2351%"},
    )
    assert [row["result"] for row in _rows(claims)] == ["PASS", "PASS"]


# -- Figures printed as a float -------------------------------------------------------------


def test_a_float_prints_as_python_prints_the_nearest_double() -> None:
    """The pair chance (4d - 1) / (52d - 1), stored as a double and printed by Python
    (repr, %.17f, %.20e, times 100 for a percentage): each passes printed = "float";
    the 17 significant digits of the exact value pass as decimals and fail as a float
    where the double's differ."""
    claims, expected = [], []
    for decks in (1, 2, 3, 4, 5, 6, 7, 8):
        exact = _pair(decks)
        double = exact.numerator / exact.denominator
        base = {"quantity": "probability", "event": "player_pair", "decks": decks}
        for text in (repr(double), f"{double:.17f}", f"{double:.20e}", f"{double * 100!r}%"):
            claims.append({**base, "printed": "float", "value": text})
            expected.append("PASS")
        correct = f"{Decimal(exact.numerator) / Decimal(exact.denominator):.17g}"
        claims.append({**base, "value": correct})
        expected.append("PASS")
        if Decimal(correct) != Decimal(f"{double:.17g}"):
            claims.append({**base, "printed": "float", "value": correct})
            expected.append("FAIL")
    assert expected.count("FAIL") >= 2
    rows = _rows(_claims(*claims))
    assert [row["result"] for row in rows] == expected
    assert (
        rows[0]["note"] == f"printed from the double {_pair(1).numerator / _pair(1).denominator!r}"
    )


def test_a_standard_deviation_printed_as_a_float_is_the_correctly_rounded_root() -> None:
    """The Player Pair (11:1) has variance 144 q (1 - q): its standard deviation's
    nearest double is Decimal's 60-digit root converted (correctly rounded)."""
    claims = []
    for decks in (1, 6, 8):
        q = _pair(decks)
        variance = 144 * q * (1 - q)
        with localcontext() as context:
            context.prec = 60
            root = (Decimal(variance.numerator) / variance.denominator).sqrt()
        claims.append(
            {
                "bet": "player_pair",
                "quantity": "std_dev",
                "decks": decks,
                "printed": "float",
                "value": repr(float(root)),
            }
        )
    assert {row["result"] for row in _rows(_claims(*claims))} == {"PASS"}


# -- The largest payout ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "model",
    [
        ({"1": "0.5", "2": "0.5"}, {"2": "0.75", "5": "0.25"}, None),
        ({"0": "0.25", "3": "0.75"}, {"0.5": "0.5", "3": "0.5"}, "4"),
        ({"2": "1"}, {"2": "1", "8": "0"}, None),  # 8x never drawn
    ],
)
def test_the_largest_payout_is_the_largest_net_of_every_deal_and_draw(model) -> None:
    """Against every ordered deal of a tiny shoe and every draw of special identities of
    a small virtual deck (tests/naive_multipliers.py): the largest net any of them pays."""
    from naive_multipliers import reference_nets

    from analyzer import analyze
    from analyzer.analysis.verify import largest_payout
    from tests.helpers import MULTIPLIED_BETS

    cards_distribution, values, cap = model
    cards = [*POOL, (1, 0)]
    paytable = multiplied_paytable(cards_distribution, values, cap)
    analysis = analyze(paytable=paytable, shoe=shoe_of_cards(cards))
    distribution = (
        {int(k): Fraction(p) for k, p in cards_distribution.items()},
        {Fraction(v): Fraction(p) for v, p in values.items()},
        None if cap is None else Fraction(cap),
    )
    for bet_id, kind, rules in MULTIPLIED_BETS:
        spec = [(test, Fraction(str(a)), Fraction(b)) for _, _, test, a, b in rules]
        nets = reference_nets(cards, kind, spec, UNIVERSE, distribution, FEE)
        paid = [net + FEE for net, p in nets.items() if p and net + FEE > 0]
        if not paid:
            continue
        assert largest_payout(analysis.result(bet_id))[0] == max(paid), bet_id


def test_published_largest_payouts_of_lightning_dragon_tiger(capsys) -> None:
    """evolution.com, 'Lightning Dragon Tiger': 'The highest possible win is 1280x if the
    Lightning Multiplier is 8x and the result is a Suited Tie'; aboutslots.com: 'Dragon =
    1X to 8X the bet', 'Tie = 6.5X to 416X the bet'. The chances of the multipliers are
    unknown: the payouts do not depend on them."""
    claims = _claims(
        *(
            {"bet": bet, "quantity": "max_payout", "value": value}
            for bet, value in (("dragon", "8"), ("tiger", "8"), ("tie", "416"))
        ),
        {"bet": "suited_tie", "quantity": "max_payout", "value": "1,280"},
        {"bet": "suited_tie", "quantity": "max_payout", "value": "1,279"},
        paytable="lightning-dragon-tiger",
    )
    rows = _rows(claims)
    assert [row["result"] for row in rows] == ["PASS"] * 4 + ["FAIL"]
    assert rows[3]["computed"] == "1,280" and rows[4]["last_digit"]
    assert "the fee not taken off" in rows[0]["note"]


def test_a_cap_bounds_the_largest_payout_and_a_jackpot_has_none(tmp_path, capsys) -> None:
    paytable = paytable_from_dict(
        {
            "name": "Capped",
            "multipliers": {"cards": 3, "values": {"2": "1/2", "10": "1/2"}, "cap": 50},
            "bet": [
                {
                    "id": "tie",
                    "multiply": "both",
                    "rule": [{"when": "winner == 'tie'", "pays": "8 * multiplier"}],
                },
                {
                    "id": "progressive",
                    "jackpot": {"meter": "10000", "contribution": "0.01"},
                    "rule": [{"when": "player_pair and banker_pair", "pays": "jackpot"}],
                },
            ],
        }
    )
    (row,) = _rows(
        _claims({"bet": "tie", "quantity": "max_payout", "value": "400"}), paytable=paytable
    )
    assert row["result"] == "PASS" and "capped at 50" in row["note"]
    claims = _claims({"bet": "progressive", "quantity": "max_payout", "value": "1"})
    with pytest.raises(Exception, match="its largest payout is the meter's"):
        verify_claims(claims, paytable=paytable)


# -- A paytable with unknowns and no values for them -----------------------------------------

UNKNOWN = {
    "name": "Unknown",
    "fee": "0.2",
    "unknowns": {"p": "0..1"},
    "multipliers": {"cards": 1, "values": {"2": "1 - p", "5": "p"}},
    "bet": [
        {
            "id": "player",
            "multiply": "winner",
            "rule": [
                {"when": "winner == 'player'", "pays": "multiplier"},
                {"when": "winner == 'tie'", "pays": "push"},
            ],
        }
    ],
}


def _small(paytable):
    """The paytable's multipliers drawn from the small virtual deck of the brute force."""
    small = dataclasses.replace(paytable.multipliers, universe=len(UNIVERSE))
    bets = tuple(dataclasses.replace(bet, multipliers=small) for bet in paytable.bets)
    return dataclasses.replace(paytable, bets=bets, multipliers=small)


def _ends(text: str) -> tuple[Fraction, Fraction]:
    """The ends of ``p in [low, high)``."""
    _, interval = text.split(" in ")
    low, high = interval[1:-1].split(", ")
    return Fraction(low), Fraction(high)


def test_unknowns_are_answered_by_the_set_the_figure_allows() -> None:
    """On a tiny shoe, the Player's RTP is linear in p: its two ends by dealing every
    round and drawing every special (p = 0 and p = 1); the p whose RTP prints as the
    claim are the interval between where it reaches the printed figure's ends."""
    from naive_multipliers import reference_moments

    cards = [*POOL, (1, 0), (13, 0)]
    spec = [
        (lambda r: r["winner"] == "player", Fraction(0), Fraction(1)),
        (lambda r: r["winner"] == "tie", Fraction(0), Fraction(0)),
    ]
    rtp = []
    for values in ({Fraction(2): Fraction(1)}, {Fraction(5): Fraction(1)}):
        first, _, _ = reference_moments(cards, "winner", spec, UNIVERSE, ({1: 1}, values, None))
        rtp.append((1 + first) / (1 + FEE))
    low_rtp, high_rtp = rtp
    assert low_rtp < high_rtp
    middle = (low_rtp + high_rtp) / 2
    printed = _decimal(middle * 100, 2)
    shown = Fraction(printed)
    # Half away from zero: every RTP from printed - 0.005% (in) to + 0.005% (out).
    ends = [
        (shown / 100 + d - low_rtp) / (high_rtp - low_rtp)
        for d in (-Fraction(1, 20000), Fraction(1, 20000))
    ]
    tally = naive.physical_reference(cards)
    hits = Fraction(sum(w for k, w in tally.items() if k[2] > k[3]), sum(tally.values()))
    paytable = _small(paytable_from_dict(UNKNOWN))
    claims = _claims(
        {"bet": "player", "quantity": "rtp", "value": f"{printed}%"},
        {"bet": "player", "quantity": "rtp", "value": "50.00%"},
        {"quantity": "max_rtp", "value": f"{printed}%"},
        {"bet": "player", "quantity": "hit_frequency", "value": _decimal(hits, 20)},
        {"bet": "player", "quantity": "count", "rule": 1, "value": "1"},
        {"quantity": "max_rtp", "value": "50.00%"},
    )
    rows = _rows(claims, paytable=paytable, shoe=shoe_of_cards(cards))
    results = ["PASS", "FAIL", "PASS", "PASS", "UNCHECKED", "FAIL"]
    assert [row["result"] for row in rows] == results
    assert rows[5]["computed"] == "none"
    assert rows[0]["method"] == "fit" and rows[0]["computed"].startswith("p in ")
    low, high = _ends(rows[0]["computed"])
    assert abs(low - ends[0]) < Fraction(1, 10**13) and abs(high - ends[1]) < Fraction(1, 10**13)
    assert rows[0]["computed"].endswith(")")  # (the upper end prints the next figure)
    assert rows[1]["computed"] == "none" and "prints it" in rows[1]["note"]
    assert rows[2]["computed"] == rows[0]["computed"]  # the one bet is the best
    # The hit frequency does not move with p: checked exactly, as printed.
    assert rows[3]["method"] == "exact" and "do not move" in rows[3]["note"]
    assert "--unknowns" in rows[4]["note"]
    # Given values, the claims are checked at them, as before.
    at = paytable.with_unknowns({"p": (low + high) / 2})
    (row,) = _rows(claims[:1], paytable=at, shoe=shoe_of_cards(cards))
    assert row["result"] == "PASS" and row["method"] == "exact"


def test_unknowns_in_the_cli_and_its_json(tmp_path, capsys) -> None:
    """The shipped Prosperity Tree returns: each passes with the interval fit finds for
    it alone; JSON stays valid against the verify schema."""
    import jsonschema

    from analyzer.reports.contract import schema_of

    code, out, _ = run(capsys, "verify", "prosperity-tree-baccarat", "--format", "json")
    document = json.loads(out)
    jsonschema.Draft202012Validator(schema_of("verify")).validate(document)
    rows = document["claims"]
    assert code == 0 and {row["result"] for row in rows} == {"PASS"}
    assert rows[0]["computed"] == "p in (0.0598793653662002, 0.065571139733721)"
    assert rows[0]["method"] == "fit" and "at p = 1/16" in rows[0]["note"]
    code, out, _ = run(capsys, "verify", "prosperity-tree-baccarat")
    assert (
        "PASS claim 1: rtp of player [prosperity-tree-baccarat, 8 decks]: published 98.9%, "
        "allows p in (0.0598793653662002, 0.065571139733721)" in out
    )


def test_every_new_kind_validates_against_the_verify_schema(tmp_path, capsys) -> None:
    import jsonschema

    from analyzer.reports.contract import schema_of

    path = write_claims(
        tmp_path,
        """
paytable = "seed-game"
[[claim]]
bet = "banker"
quantity = "resolved"
statistic = "std_dev"
decisions = 1000
value = "15.81"
[[claim]]
bet = "player"
quantity = "house_edge"
decks = [1, 8]
across = "range"
value = ["1.24%", "1.29%"]
[[claim]]
bet = "lucky_six"
quantity = "max_payout"
value = "20"
[[claim]]
bet = "tie"
quantity = "house_edge"
printed = "float"
value = "0.14359628778723826"
[[claim]]
bet = "tie"
quantity = "house_edge"
value = "0.14359628778723826"
""",
    )
    code, out, _ = run(capsys, "verify", str(path), "--format", "json")
    document = json.loads(out)
    jsonschema.Draft202012Validator(schema_of("verify")).validate(document)
    results = [row["result"] for row in document["claims"]]
    # The last: the exact value is 0.143596287787238275..., which a double prints ...826.
    assert code == 1 and results == ["PASS"] * 4 + ["FAIL"]
    code, out, _ = run(capsys, "verify", str(path))
    assert "published 1.24% to 1.29%, exact 1.24% to 1.29% (exactly " in out
    assert "printed from the double 0.14359628778723826" in out


# -- Bad values: one line, exit 2 ------------------------------------------------------------


_RTP = {"bet": "player", "quantity": "rtp", "value": "1%"}
_RESOLVED = {"bet": "banker", "quantity": "resolved", "value": "1"}


def _toml(claim: dict) -> str:
    """A claim as the lines of a [[claim]] table."""
    return "\n".join(f"{key} = {json.dumps(value)}" for key, value in claim.items())


@pytest.mark.parametrize(
    ("claim", "message"),
    [
        ({**_RTP, "decks": [1, 8]}, "a list of decks needs 'across'"),
        ({**_RTP, "across": "max"}, "'across' takes a figure over several"),
        ({**_RTP, "decks": [1, 8], "across": "mean"}, "'across' must be one of max, min, range"),
        ({**_RTP, "decks": [1, 1], "across": "max"}, "names a deck count twice"),
        ({**_RTP, "decks": [1, 99], "across": "max"}, "'decks' = 99 is too large"),
        ({**_RTP, "decks": [1, 8], "across": "range"}, "states the smallest and the largest"),
        ({**_RTP, "value": ["1%", "2%"]}, "a list of values is a range"),
        ({**_RTP, "printed": "double"}, "'printed' must be 'decimal' or 'float'"),
        ({**_RTP, "printed": "float", "rounding": "truncate"}, "it takes no 'rounding'"),
        (
            {"bet": "tie", "quantity": "counting", "statistic": "bet_frequency", "printed": "float"}
            | {"value": "1%"},
            "unknown key 'printed'",
        ),
        ({**_RESOLVED, "statistic": "median"}, "a resolved claim's 'statistic' must be one of"),
        ({**_RESOLVED, "statistic": "mean"}, "statistic 'mean' needs 'decisions'"),
        ({**_RESOLVED, "statistic": "share", "decisions": 10}, "(a share is of every"),
        (
            {**_RESOLVED, "statistic": "p_at_least", "decisions": 10, "amount": 11},
            "'amount' (a number of wins) must be from 0 to 10",
        ),
        (
            {**_RESOLVED, "statistic": "p_between", "decisions": 10, "low": 5, "high": 4},
            "'low' is more than 'high'",
        ),
        (
            {**_RESOLVED, "statistic": "quantile", "decisions": 10, "level": 1},
            "'level' is a probability between 0 and 1",
        ),
        ({**_RESOLVED, "statistic": "mean", "decisions": 0}, "'decisions' must be from 1 to"),
        ({"quantity": "resolved", "statistic": "share", "value": "1"}, "'resolved' needs a 'bet'"),
        ({"bet": "tie", "quantity": "max_payout", "value": "8:1"}, 'as "1,280"'),
        ({"quantity": "max_payout", "value": "8"}, "quantity 'max_payout' needs a 'bet'"),
    ],
)
def test_bad_values_are_one_line(tmp_path, capsys, claim, message) -> None:
    path = write_claims(tmp_path, f'paytable = "seed-game"\n[[claim]]\n{_toml(claim)}\n')
    code, out, err = run(capsys, "verify", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert message in err, err


def test_a_bet_that_never_wins_has_no_largest_payout(tmp_path, capsys) -> None:
    path = write_claims(
        tmp_path,
        'paytable = "seed-game"\n[[claim]]\nbet = "player"\nquantity = "max_payout"\nvalue = "1"\n',
    )
    # (only ten-value cards left: every round is a tie of 0 against 0)
    code, _, err = run(capsys, "verify", str(path), "--remove", "A 2 3 4 5 6 7 8 9 " * 32)
    assert code == 2 and "wins in no round of this shoe" in err and err.count("\n") == 1


def test_one_payout_is_one_of_the_bets() -> None:
    rows = _rows(
        _claims(
            {"quantity": "payout", "bet": "player_bonus", "value": "30:1"},
            {"quantity": "payout", "bet": "player_bonus", "value": "31:1"},
            {"quantity": "payout", "bet": "banker", "mode": "no_commission", "value": "1:2"},
            {"quantity": "payout", "bet": "banker", "mode": "commission", "value": "1:2"},
        )
    )
    assert [row["result"] for row in rows] == ["PASS", "FAIL", "PASS", "FAIL"]
    assert rows[0]["computed"] == "30:1, 10:1, 6:1, 4:1, 2:1, 1:1, 1:1"
    from analyzer.errors import AnalyzerError

    with pytest.raises(AnalyzerError, match="a 'payout' value is one payout"):
        _claims({"quantity": "payout", "bet": "tie", "value": {"a": 1}})
    with pytest.raises(AnalyzerError, match="claim 1"):
        _claims({"quantity": "payout", "bet": "tie", "value": "8:x"})
    with pytest.raises(AnalyzerError, match="needs a 'bet'"):
        _claims({"quantity": "payout", "value": "8:1"})
