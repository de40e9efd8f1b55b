"""Tests of the shuffle on a log of cards: do consecutive shoes of one table look like
independent perfect shuffles?

A punto banco log gives each shoe's cards in the order they were dealt: the burn when it
is logged (the card shown and the cards burned after it), then each round's Player and
Banker first cards, second cards, and the third cards drawn (the Player's first). The
cards behind the cut card are never dealt, so a shoe is known up to its last round. The
shoes are taken in log order, a log's rows of one shoe together; two shoes are
consecutive when one follows the other in the same log (and, where both are named by
whole numbers, the second's number is the first's plus one: a shoe missing from the log
breaks the chain there).

Three tests, each one-sided where a weak shuffle moves it one way:

* ``position``: the rank (Ace ... King) of the card at each place of the shoe, places in
  bins over the first ``window`` cards (the fewest any shoe of the log shows), against
  every rank being as likely at every place: Pearson's chi-square of the rank x bin
  table's independence, scaled by (N - 1) / N for cards drawn without replacement from
  an N-card shoe (each shoe's places are a random permutation's, whose table has that
  covariance), on (13 - 1)(bins - 1) degrees of freedom. Catches cards that are not
  spread evenly through the shoe whatever the shoe before: new decks put in barely
  shuffled, ranks stacked or sorted into the shoe's front or back.
* ``adjacent``: the pairs of cards (rank and suit) next to each other in a shoe found
  next to each other again, either way round (the discards may be turned over), in the
  next shoe's window. Given the shoe
  before, the count's exact mean and variance under a perfect shuffle of the next are
  worked out from the pairs (each pair of places and pair of pairs of places, the cards
  drawn without replacement from the full shoe); the counts' sum less its mean over the
  square root of its variance is, under the null, a martingale (each shoe pair's term has
  mean 0 given the shoes before), normal by the martingale central limit theorem: the
  p-value is its normal tail. Catches a weak riffle: a riffle keeps two neighbours
  together about half the time, so about 1 pair in 2**K survives K riffles.
* ``first_last``: the cards (rank and suit) of a shoe's first ``first_cards`` places
  against the last ``first_cards`` cards dealt from the shoe before: the sum over card
  identities of the product of their counts in the two, whose exact mean and variance
  given the shoe before are the multivariate hypergeometric's; the sum over consecutive
  shoes standardised and its normal tail, as above. Catches an unshuffled clump: the last
  cards dealt, on top of the discards, coming out again at the start of the next shoe.

The tests' p-values are adjusted by Holm's correction over the tests run. When the burn
is not logged, a shoe's places count from its first round's first card: the first card
shown, unknown, is then out of the shoe the next cards come from, and the adjacent and
first_last nulls take the full shoe's cards (off by at most one card in N); the position
test's margins are the log's own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from analyzer.analysis.audit_fit import chi_square_sf, holm
from analyzer.errors import AnalyzerError
from analyzer.game.cards import CARD_RANKS, N_CARDS
from analyzer.game.shoe import INFINITE

#: The six cards of a round in deal order (``LoggedRounds.cards``' columns): Player's
#: and Banker's first, second, third.
_P1, _B1, _P2, _B2, _P3, _B3 = range(6)
#: Ranks (Ace ... King) of a card index.
N_RANKS = 13
#: The most position bins, and the fewest cards expected in a cell of the position table.
MAX_BINS = 8
MIN_EXPECTED = 5
#: The cards of a shoe's start and of the shoe before's end compared by ``first_last``
#: (fewer where the shoes are short: at most half the window).
FIRST_CARDS = 52
#: The fewest consecutive shoe pairs the adjacent and first_last tests run on.
MIN_PAIRS = 2
#: What each test would catch, as the report says it.
CATCHES = {
    "position": "cards not spread evenly through the shoe: new decks barely shuffled, "
    "ranks stacked or sorted to the front or back",
    "adjacent": "a weak riffle: neighbours in one shoe still neighbours in the next "
    "(each riffle parts about half of those still together)",
    "first_last": "an unshuffled clump: the last cards dealt, on top of the discards, "
    "dealt again at the start of the next shoe",
}
NAMES = {
    "position": "rank by place in the shoe",
    "adjacent": "neighbours kept from the shoe before",
    "first_last": "first cards against the shoe before's last",
}


@dataclass(frozen=True)
class ShuffleTest:
    """One test of the shuffle: what it compares, on how many shoes (or consecutive shoe
    pairs), the observed and expected figures, its statistic and p-values, and what it
    would catch."""

    key: str
    name: str
    method: str
    shoes: int
    observed: float
    expected: float
    statistic_name: str
    statistic: float
    p_value: float
    adjusted_p: float
    catches: str
    df: int | None = None

    def failed(self, level: float) -> bool:
        return self.adjusted_p < level


@dataclass(frozen=True)
class ShuffleResult:
    """The shuffle tests of a log: the shoes read and the consecutive pairs compared,
    the window of places every shoe shows, the tests run, those not run (key, why), and
    notes."""

    level: float
    shoes: int
    pairs: int
    window: int
    first_cards: int
    burn_logged: bool
    tests: tuple[ShuffleTest, ...]
    not_run: tuple[tuple[str, str], ...]
    notes: tuple[str, ...]

    @property
    def failed(self) -> tuple[ShuffleTest, ...]:
        return tuple(t for t in self.tests if t.failed(self.level))


def shoe_order(cards: np.ndarray, burn: tuple[int, ...] | None = None) -> np.ndarray:
    """A shoe's cards in the order they were dealt, from its rounds' ``cards`` ((n, 6)
    as :class:`~analyzer.analysis.audit.LoggedRounds` holds them, -1 for a third card not
    drawn) and the burn logged before its first round (None: not logged).

    Examples
    --------
    >>> from analyzer.game.cards import card_index, parse_card
    >>> c = [card_index(parse_card(t)) for t in "2S 3S 4S 5S 6S 7S".split()]
    >>> shoe_order(np.array([[c[0], c[1], c[2], c[3], c[4], -1]]), (c[5],)).tolist() == [
    ...     c[5], c[0], c[1], c[2], c[3], c[4]]
    True
    """
    cards = np.asarray(cards, dtype=np.int64).reshape(-1, 6)
    flat = cards[:, [_P1, _B1, _P2, _B2, _P3, _B3]].reshape(-1)
    dealt = flat[flat >= 0]
    if burn:
        return np.concatenate([np.array(burn, dtype=np.int64), dealt])
    return dealt


class ShuffleTests:
    """Shoes fed block by block (:meth:`feed`, the blocks of
    :func:`~analyzer.runs.audit_log.read_log`, logs started by :meth:`start_log`), then
    :meth:`result`. A log the tests cannot take is an
    :class:`~analyzer.errors.AnalyzerError`, one line: a shoe whose rows are not
    together or whose number goes back, a shoe missing a round (its cards' places
    unknown), a shoe of more cards than ``decks`` decks hold or more copies of a card."""

    def __init__(self, decks: int, level: float = 0.01) -> None:
        if decks == INFINITE:
            raise AnalyzerError(
                "--shuffle-tests takes shoes of a number of decks: an infinite deck is "
                "never shuffled"
            )
        self.decks = decks
        self.level = level
        self.n_cards = N_CARDS * decks
        # Every shoe's cards in order, per log (int16: the card indices).
        self.logs: list[list[tuple[str, np.ndarray]]] = []
        self.log = ""
        self.burns = 0
        # The shoe in progress: name, first row, rounds' cards, burn, last round number.
        self.name: str | None = None
        self.row = 0
        self.parts: list[np.ndarray] = []
        self.burn: tuple[int, ...] | None = None
        self.last_round = 0
        self.seen: set[str] = set()
        self.start_log("")

    def start_log(self, name: str) -> None:
        """The blocks fed from here are of another log (no shoe of it follows one of the
        log before)."""
        self._finish()
        if self.logs and not self.logs[-1]:
            self.logs.pop()
        self.logs.append([])
        self.log = name
        self.seen = set()

    def feed(self, block) -> None:
        """Add a block of rounds (:class:`~analyzer.analysis.audit.LoggedRounds`)."""
        for i in range(len(block)):
            shoe = str(block.shoes[i])
            row = int(block.rows[i])
            number = int(block.rounds[i])
            if shoe != self.name:
                self._finish()
                if shoe in self.seen:
                    raise AnalyzerError(
                        f"{self._where(row)}: shoe {shoe} begins again after other shoes: "
                        "the shuffle tests take a log's shoes in order, each shoe's rows "
                        "together"
                    )
                previous = self.logs[-1][-1][0] if self.logs[-1] else None
                if (
                    previous is not None
                    and _whole(previous)
                    and _whole(shoe)
                    and int(shoe) <= int(previous)
                ):
                    raise AnalyzerError(
                        f"{self._where(row)}: shoe {shoe} after shoe {previous}: the "
                        "shuffle tests take the shoes in the order they were dealt"
                    )
                self.seen.add(shoe)
                self.name, self.row, self.parts, self.last_round = shoe, row, [], 0
                self.burn = block.burns.get(i)
            if number != self.last_round + 1:
                raise AnalyzerError(
                    f"{self._where(row)}: shoe {shoe} round {number} follows round "
                    f"{self.last_round}: a shoe with a round missing has cards missing, "
                    "their places unknown to the shuffle tests"
                )
            self.last_round = number
            self.parts.append(block.cards[i])

    def _where(self, row: int) -> str:
        return f"{self.log + ': ' if self.log else ''}row {row}"

    def _finish(self) -> None:
        if self.name is None:
            return
        order = shoe_order(np.array(self.parts), self.burn)
        if self.burn:
            self.burns += 1
        if len(order) > self.n_cards:
            raise AnalyzerError(
                f"{self._where(self.row)}: shoe {self.name} deals {len(order)} cards, more "
                f"than {self.decks} decks hold ({self.n_cards})"
            )
        counts = np.bincount(order, minlength=N_CARDS)
        if counts.max() > self.decks:
            from analyzer.analysis.audit import card_text

            card = int(np.argmax(counts))
            raise AnalyzerError(
                f"{self._where(self.row)}: shoe {self.name} deals {card_text(card)} "
                f"{counts[card]} times, more than {self.decks} decks hold"
            )
        self.logs[-1].append((self.name, order.astype(np.int16)))
        self.name = None

    def result(self) -> ShuffleResult:
        """The tests, once every block is fed."""
        self._finish()
        shoes = [s for log in self.logs for s in log]
        pairs = [
            (a, b)
            for log in self.logs
            for (na, a), (nb, b) in pairwise(log)
            if not (_whole(na) and _whole(nb)) or int(nb) == int(na) + 1
        ]
        orders = [order.astype(np.int64) for _, order in shoes]
        window = min((len(o) for o in orders), default=0)
        first = min(FIRST_CARDS, window // 2)
        tests: list[tuple] = []
        not_run: list[tuple[str, str]] = []
        notes: list[str] = []
        burn_logged = bool(shoes) and self.burns == len(shoes)
        if shoes and not burn_logged:
            notes.append(
                "places count from each shoe's first round where its burn is not logged; "
                "the adjacent and first_last nulls take the full shoe (off by at most one card)"
            )
        gaps = sum(len(log) - 1 for log in self.logs if log) - len(pairs)
        if gaps:
            notes.append(f"{gaps} shoe(s) not followed by the next number: not compared")
        composition = np.full(N_CARDS, self.decks, dtype=np.int64)
        position = position_test(orders, window, self.n_cards)
        if isinstance(position, str):
            not_run.append(("position", position))
        else:
            tests.append(("position", *position))
        pair_orders = [(a.astype(np.int64), b.astype(np.int64)) for a, b in pairs]
        if len(pairs) < MIN_PAIRS:
            why = f"{len(pairs)} consecutive shoe pair(s): at least {MIN_PAIRS} needed"
            not_run += [("adjacent", why), ("first_last", why)]
        else:
            tests.append(("adjacent", *adjacent_test(pair_orders, window, composition)))
            if first < 1:
                not_run.append(("first_last", "no cards in every shoe to compare"))
            else:
                tests.append(("first_last", *first_last_test(pair_orders, first, composition)))
        adjusted = holm([t[-1] for t in tests])
        done = tuple(
            ShuffleTest(
                key=key,
                name=NAMES[key],
                method=method,
                shoes=n,
                observed=observed,
                expected=expected,
                statistic_name=statistic_name,
                statistic=statistic,
                df=df,
                p_value=p,
                adjusted_p=a,
                catches=CATCHES[key],
            )
            for (key, method, n, observed, expected, statistic_name, statistic, df, p), a in zip(
                tests, adjusted, strict=True
            )
        )
        return ShuffleResult(
            level=self.level, shoes=len(shoes), pairs=len(pairs), window=window,
            first_cards=first, burn_logged=burn_logged, tests=done, not_run=tuple(not_run),
            notes=tuple(notes),
        )  # fmt: skip


def _whole(name: str) -> bool:
    return name.isdigit() and len(name) < 19


# -- The statistics ------------------------------------------------------------------------


def position_bins(shoes: int, window: int) -> int:
    """The bins of places the position test uses: at most :data:`MAX_BINS`, each cell
    expecting at least :data:`MIN_EXPECTED` cards (0 or 1: too few to test)."""
    return min(MAX_BINS, shoes * window // (N_RANKS * MIN_EXPECTED))


def position_table(orders: list[np.ndarray], window: int, bins: int) -> np.ndarray:
    """(13, bins): how many cards of each rank lie in each bin of places of the first
    ``window`` places, summed over the shoes ``orders`` (card indices in deal order)."""
    edges = np.linspace(0, window, bins + 1).round().astype(np.int64)
    bin_of = np.searchsorted(edges, np.arange(window), side="right") - 1
    table = np.zeros((N_RANKS, bins), dtype=np.int64)
    for order in orders:
        np.add.at(table, (CARD_RANKS[order[:window]] - 1, bin_of), 1)
    return table


def independence_statistic(table: np.ndarray) -> float:
    """Pearson's chi-square of a table's independence: the sum over cells of (observed -
    expected)**2 / expected, expected the row total times the column total over the
    total."""
    table = np.asarray(table, dtype=np.float64)
    expected = np.outer(table.sum(axis=1), table.sum(axis=0)) / table.sum()
    return float(((table - expected) ** 2 / expected).sum())


def normal_upper(z: float) -> float:
    """P(Z >= z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def position_test(orders: list[np.ndarray], window: int, n_cards: int) -> tuple | str:
    """The position test's (method, shoes, observed, expected, statistic name, statistic,
    degrees of freedom, p-value), or why it is not run."""
    bins = position_bins(len(orders), window)
    if bins < 2:
        return (
            f"{len(orders)} shoe(s) of {window} cards: too few for "
            f"{MIN_EXPECTED} cards expected in each cell of 2 bins"
        )
    table = position_table(orders, window, bins)
    table = table[table.sum(axis=1) > 0]
    scaled = independence_statistic(table) * (n_cards - 1) / n_cards
    df = (table.shape[0] - 1) * (bins - 1)
    p = chi_square_sf(scaled, df)
    method = (
        f"chi-square, {table.shape[0]} ranks x {bins} bins of the first {window} places, "
        f"scaled by (N-1)/N, df {df}"
    )
    # (observed: the statistic; expected: its mean under the null, the degrees of freedom)
    return method, len(orders), scaled, float(df), "chi2", scaled, int(df), p


def adjacency_moments(before: np.ndarray, composition: np.ndarray, places: int) -> tuple:
    """Under a perfect shuffle of a shoe of ``composition`` (cards of each index), the
    exact mean and variance of how many of its first ``places`` + 1 places' ``places``
    neighbouring pairs (place i, i + 1) hold two cards next to each other in ``before``
    (card indices in deal order), in either order; and those pairs' 52 x 52 indicator.

    With ``A`` the set of ordered pairs (each neighbours of ``before`` both ways round),
    ``M_i`` the indicator that places (i, i + 1) hold a pair of ``A``, ``q1 = P(M_i)``,
    ``q_adj = P(M_i M_{i+1})``, ``q_dis = P(M_i M_j)`` for j > i + 1 (places apart):
    mean ``m q1``, variance
    ``m q1 (1 - q1) + 2 (m - 1)(q_adj - q1**2) + (m - 1)(m - 2)(q_dis - q1**2)``, each
    probability the sum over the pairs of the falling products of the cards left.
    """
    c = composition.astype(np.float64)
    n = float(c.sum())
    pairs = np.zeros((N_CARDS, N_CARDS), dtype=bool)
    pairs[before[:-1], before[1:]] = True
    pairs |= pairs.T  # either way round: the discards may be turned over
    a, b = np.nonzero(pairs)
    same = a == b
    p2 = c[a] * (c[b] - same) / (n * (n - 1))
    q1 = float(p2.sum())
    held = pairs.astype(np.float64)
    out_w = held @ c  # out_w[x]: the cards that follow x in a pair of A
    in_w = held.T @ c
    diagonal = np.diag(held)
    # P(M_i M_{i+1}): (a, b) then (b, e), e drawn from what is left.
    after = out_w[b] - pairs[b, a] - pairs[b, b]
    q_adj = float((p2 * after).sum() / (n - 2))
    # P(M_i M_j), places apart: (c, e) from the cards left once a and b are out.
    total = float(c @ held @ c)
    diagonal_total = float((diagonal * c).sum())
    # sum over A of c'_c c'_e (c' = c less a and b) less the same card twice
    both = (
        total
        - (out_w[a] + out_w[b] + in_w[a] + in_w[b])
        + pairs[a, a] + pairs[a, b] + pairs[b, a] + pairs[b, b]
    )  # fmt: skip
    twice = diagonal_total - diagonal[a] - diagonal[b]
    q_dis = float((p2 * (both - twice)).sum() / ((n - 2) * (n - 3)))
    m = places
    mean = m * q1
    variance = (
        m * q1 * (1 - q1) + 2 * (m - 1) * (q_adj - q1 * q1) + (m - 1) * (m - 2) * (q_dis - q1 * q1)
    )
    return mean, variance, pairs


def adjacent_test(pairs: list[tuple[np.ndarray, np.ndarray]], window: int, composition) -> tuple:
    """The adjacent test over consecutive shoes ``pairs`` ((before, after) card orders)."""
    places = window - 1
    observed = mean = variance = 0.0
    for before, after in pairs:
        mu, var, held = adjacency_moments(before, composition, places)
        observed += int(held[after[:places], after[1 : places + 1]].sum())
        mean += mu
        variance += var
    z = (observed - mean) / np.sqrt(variance)
    method = (
        f"neighbours of each shoe (either order) found in the next's first {window} places; "
        "exact mean and variance given the shoe before, normal tail (martingale CLT)"
    )
    return method, len(pairs), observed, mean, "z", float(z), None, normal_upper(float(z))


def overlap_moments(last: np.ndarray, composition: np.ndarray, first: int) -> tuple[float, float]:
    """Under a perfect shuffle of a shoe of ``composition``, the exact mean and variance
    of ``sum_x f_x g_x``, ``f`` the counts of each card index in ``last`` and ``g`` in
    the shoe's first ``first`` places (multivariate hypergeometric: mean ``F p.f``,
    variance ``F (N - F) / (N - 1) (sum p f**2 - (p.f)**2)``, ``p`` the composition's
    shares)."""
    c = composition.astype(np.float64)
    n = c.sum()
    p = c / n
    f = np.bincount(last, minlength=N_CARDS).astype(np.float64)
    pf = float(p @ f)
    mean = first * pf
    variance = first * (n - first) / (n - 1) * (float(p @ (f * f)) - pf * pf)
    return mean, variance


def first_last_test(pairs: list[tuple[np.ndarray, np.ndarray]], first: int, composition) -> tuple:
    """The first_last test over consecutive shoes ``pairs``: each shoe's last ``first``
    cards dealt against the next's first ``first`` places."""
    observed = mean = variance = 0.0
    for before, after in pairs:
        last = before[-first:]
        mu, var = overlap_moments(last, composition, first)
        f = np.bincount(last, minlength=N_CARDS)
        g = np.bincount(after[:first], minlength=N_CARDS)
        observed += int(f @ g)
        mean += mu
        variance += var
    z = (observed - mean) / np.sqrt(variance)
    method = (
        f"cards of each shoe's first {first} places shared with the shoe before's last "
        f"{first} (sum of count products); exact hypergeometric mean and variance given "
        "the shoe before, normal tail (martingale CLT)"
    )
    return method, len(pairs), observed, mean, "z", float(z), None, normal_upper(float(z))


# -- Records ---------------------------------------------------------------------------------


def shuffle_verdict(test: ShuffleTest, level: float) -> str:
    """``pass`` or ``FAIL`` at ``level`` (Holm's adjusted p-value)."""
    return "FAIL" if test.failed(level) else "pass"


def shuffle_test_record(test: ShuffleTest, level: float) -> dict:
    """One shuffle test as JSON-ready data."""
    return {
        "test": test.key,
        "name": test.name,
        "method": test.method,
        "shoes": test.shoes,
        "observed": _rounded(test.observed),
        "expected": _rounded(test.expected),
        "statistic_name": test.statistic_name,
        "statistic": _rounded(test.statistic),
        "df": test.df,
        "p_value": _rounded(test.p_value),
        "holm_p_value": _rounded(test.adjusted_p),
        "verdict": shuffle_verdict(test, level),
        "catches": test.catches,
    }


def shuffle_record(result: ShuffleResult) -> dict:
    """The shuffle tests of a log as JSON-ready data (``audit``'s ``shuffle_tests``)."""
    return {
        "level": result.level,
        "correction": "holm",
        "shoes": result.shoes,
        "pairs": result.pairs,
        "window": result.window,
        "first_cards": result.first_cards,
        "burn_logged": result.burn_logged,
        "tests_run": len(result.tests),
        "tests_failed": len(result.failed),
        "tests": [shuffle_test_record(t, result.level) for t in result.tests],
        "not_run": {key: why for key, why in result.not_run},
        "notes": list(result.notes),
    }


def _rounded(value: float) -> float:
    """A float to 12 significant digits, as the audit's records give them."""
    return float(f"{value:.12g}")
