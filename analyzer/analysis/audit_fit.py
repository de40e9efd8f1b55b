"""The fit of a log to the exact odds: statistical tests over every round audited.

:class:`Fit` is fed block by block, as :class:`~analyzer.analysis.audit.Audit` reads the
log, and keeps sums only (counts, sums of probabilities, a few numbers per calibration
bin), so memory stays bounded whatever the log's length. The tests:

* **frequencies**: how often the Banker, the Player and the tie win (a chi-square test
  of the three, 2 degrees of freedom), and exact two-sided binomial tests of each of
  them, of naturals, Player pairs, Banker pairs and of each side bet whose payouts are
  logged (its hit rate over the rounds logging it), against the exact probabilities of
  a **full shoe** (:func:`~analyzer.analysis.exact.analyze`): the issue's simple test.
  A round's own probability is the full shoe's at round 1 only; the shoe-aware test
  below prices every round on its own cards;
* **runs** of Banker and Player wins (Wald-Wolfowitz) and the **lag-1 serial
  correlation** of the winners (Banker 1, Player 0), both over the log's rounds in order
  with ties left out and the shoes joined end to end, normal approximations;
* **shoe-aware**: each round's probability of a Banker win, a Player win and a tie given
  the cards left in its shoe (every earlier round's cards and the burns logged so far
  out), from the batch engine in floats; per outcome the count observed against the
  sum of those probabilities, with the exact variance of a sum of independent
  Bernoulli trials of those probabilities (the sum of ``p (1 - p)``), a z statistic and
  its two-sided normal p-value; and a calibration table (rounds binned by the predicted
  probability: predicted against observed).

A log of another game of the family (:mod:`analyzer.analysis.audit_game`) is tested on
its own outcomes (its hands' wins and the tie: no naturals nor pairs), against the exact
engine's chances of a full shoe (:class:`~analyzer.analysis.audit_game.GameChances`); a
game dealt once has the shoe-aware test too, each round's chances summed over the pairs
of hands its cards left allow (:func:`~analyzer.engine.dealt_chances.winner_chances`).
With a player's decision a round's chances depend on what was seen and chosen: each
count is tested against the sum of each round's exact chances given its information set
and its action (a z statistic, and for the three outcomes a chi-square over their exact
covariance), and the runs and serial correlation tests are left out (a note says so).
A game whose hands draw (Lucky Draw Baccarat) has the shoe-aware test priced on each
round's first deal, its action and the cards left: only its cards after the deal are
unknown (:func:`~analyzer.analysis.audit_game.drawn_round_chances`).

Every test's p-value is adjusted by Holm's step-down correction over the tests run, and
it fails where the adjusted p-value is at most the level. The distribution functions
are here, in ``math`` (no SciPy).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import pairwise

import numpy as np

from analyzer.analysis.audit_game import GameChances
from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_CARDS, N_RANKS, N_SUITS
from analyzer.game.fields import WINNERS
from analyzer.game.shoe import INFINITE, ROUND_CARDS
from analyzer.paytables.model import MAIN_BETS, Bet, Paytable, paytable_from_dict
from analyzer.paytables.settle import settling_rule

#: The level a test fails at unless the user sets one.
DEFAULT_LEVEL = 0.01
#: The multiple-testing correction applied.
CORRECTION = "Holm"
#: The batch engine's floats: the bound its tests hold each probability to, and the
#: largest error measured against the exact analysis (benchmarks/bench_batch.py).
BATCH_ERROR_BOUND = 1e-12
BATCH_ERROR_MEASURED = 3e-16
#: Rounds priced by the batch engine in one call.
CHUNK_ROUNDS = 4096
#: Predictions are counted in bins this wide, then shown in (at most) this many groups
#: of about as many rounds each.
CALIBRATION_WIDTH = 0.0001
CALIBRATION_GROUPS = 10
_BINS = round(1 / CALIBRATION_WIDTH)
#: The events whose frequency is tested, in report order: id, name, condition.
EVENTS = (
    ("banker", "Banker wins", "winner == 'banker'"),
    ("player", "Player wins", "winner == 'player'"),
    ("tie", "ties", "winner == 'tie'"),
    ("natural", "naturals", "natural"),
    ("player_pair", "Player pairs", "player_pair"),
    ("banker_pair", "Banker pairs", "banker_pair"),
)
_PLAYER, _BANKER, _TIE = (WINNERS.index(name) for name in ("player", "banker", "tie"))
#: The shoe-aware outcomes, as WINNERS indexes them, and their names.
OUTCOME_NAMES = {"banker": "Banker wins", "player": "Player wins", "tie": "ties"}


# -- Distributions -----------------------------------------------------------------------------


def normal_two_sided(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom: the regularised upper
    incomplete gamma function Q(df/2, x/2) (a series below a + 1, a continued fraction
    above, as Numerical Recipes' ``gammq``)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if x <= 0:
        return 1.0
    a, y = df / 2, x / 2
    log_front = a * math.log(y) - y - math.lgamma(a)
    if y < a + 1:
        term = total = 1 / a
        k = a
        for _ in range(10_000):
            k += 1
            term *= y / k
            total += term
            if term < total * 1e-17:
                break
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = y + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-16:
            break
    return min(1.0, math.exp(log_front) * h)


def _log_pmf(k: int, n: int, p: float) -> float:
    return (
        math.lgamma(n + 1)
        - math.lgamma(k + 1)
        - math.lgamma(n - k + 1)
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )


def _tail_sum(k: int, n: int, p: float, upward: bool) -> float:
    """The sum of P(X = j) from j = k away from the mean's side (up or down), term by
    term from the first (a ratio of consecutive terms), until the terms are negligible."""
    term = math.exp(_log_pmf(k, n, p))
    total = term
    ratio = p / (1 - p)
    j = k
    while True:
        if upward:
            if j >= n:
                break
            term *= (n - j) / (j + 1) * ratio
            j += 1
        else:
            if j <= 0:
                break
            term *= j / (n - j + 1) / ratio
            j -= 1
        total += term
        if term <= total * 1e-17:
            break
    return total


def binomial_tails(k: int, n: int, p: float) -> tuple[float, float]:
    """(P(X <= k), P(X >= k)) for X binomial(n, p), summed exactly term by term in floats
    (each tail from ``k`` outward; the longer one as one minus the other)."""
    if not 0 <= k <= n:
        raise ValueError(f"k must be 0 to n = {n}, got {k}")
    if p <= 0:
        return 1.0, (1.0 if k == 0 else 0.0)
    if p >= 1:
        return (1.0 if k == n else 0.0), 1.0
    pmf = math.exp(_log_pmf(k, n, p))
    if k >= n * p:
        upper = min(1.0, _tail_sum(k, n, p, upward=True))
        lower = min(1.0, 1 - upper + pmf)
    else:
        lower = min(1.0, _tail_sum(k, n, p, upward=False))
        upper = min(1.0, 1 - lower + pmf)
    return max(lower, 0.0), max(upper, 0.0)


def binomial_two_sided(k: int, n: int, p: float) -> float:
    """The exact two-sided binomial p-value: twice the smaller tail, at most 1."""
    lower, upper = binomial_tails(k, n, p)
    return min(1.0, 2 * min(lower, upper))


def runs_z(first: int, second: int, runs: int) -> float | None:
    """The Wald-Wolfowitz runs statistic: ``runs`` runs in a sequence of ``first`` and
    ``second`` items of two kinds, standardised (None where it has no spread)."""
    n = first + second
    if first == 0 or second == 0 or n < 2:
        return None
    mean = 2 * first * second / n + 1
    variance = 2 * first * second * (2 * first * second - n) / (n * n * (n - 1))
    if variance <= 0:
        return None
    return (runs - mean) / math.sqrt(variance)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values: the i-th smallest times (m - i), made
    non-decreasing, at most 1. A test fails at level a where its adjusted p <= a."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


# -- The result --------------------------------------------------------------------------------


@dataclass(frozen=True)
class FitTest:
    """One test: what it compares (``observed`` against ``expected``), its statistic, its
    p-value (None: it could not be run, e.g. no rounds), Holm's adjusted p-value and its
    verdict at the level."""

    key: str
    name: str
    method: str
    rounds: int
    observed: float
    expected: float
    statistic_name: str
    statistic: float | None
    p_value: float | None
    adjusted_p: float | None = None
    passed: bool | None = None
    #: A test of several counts at once (the chi-square): each one's (name, observed,
    #: expected).
    parts: tuple[tuple[str, int, float], ...] = ()


@dataclass(frozen=True)
class CalibrationBin:
    """Rounds whose predicted probability of ``outcome`` is in [low, high): their count,
    the sum of their predictions and how many had the outcome."""

    outcome: str
    low: float
    high: float
    rounds: int
    predicted: float
    observed: int


#: Most points the running Banker-minus-Player difference keeps (a plot's worth): past
#: them every other is dropped and the spacing doubles, so memory stays bounded.
RUNNING_POINTS = 2048


@dataclass(frozen=True, eq=False)
class RunningDifference:
    """Banker wins less Player wins over the rounds of the shoe-aware test, in log order,
    at every ``spacing``-th round: ``rounds[i]`` rounds in, ``observed[i]`` the
    difference, ``expected[i]`` the sum of each round's p(Banker) - p(Player) (its cards
    left), and ``variance[i]`` the sum of each round's variance of the difference,
    p(B) + p(P) - (p(B) - p(P))^2, the rounds independent given their cards."""

    rounds: np.ndarray
    observed: np.ndarray
    expected: np.ndarray
    variance: np.ndarray
    spacing: int


@dataclass(frozen=True)
class FitResult:
    """Every test, Holm-adjusted at ``level``, and the shoe-aware calibration table."""

    level: float
    tests: tuple[FitTest, ...]
    calibration: tuple[CalibrationBin, ...]
    decks: int
    shoe_aware_rounds: int
    left_out: int
    notes: tuple[str, ...] = ()
    running: RunningDifference | None = None
    #: The outcomes, (key, what people call them), in report order: the shoe-aware
    #: tests', the calibration's; the running difference is the first's wins less the
    #: second's (punto banco: Banker, Player, tie; another game: its hands, then the tie).
    outcomes: tuple[tuple[str, str], ...] = (
        ("banker", "Banker wins"),
        ("player", "Player wins"),
        ("tie", "ties"),
    )

    @property
    def run(self) -> tuple[FitTest, ...]:
        return tuple(t for t in self.tests if t.p_value is not None)

    @property
    def failed(self) -> tuple[FitTest, ...]:
        return tuple(t for t in self.tests if t.passed is False)


# -- Feeding -----------------------------------------------------------------------------------


def _events_paytable(paytable: Paytable, decks: int) -> Paytable:
    """Bets paying 1:1 on each event (and losing otherwise): a bet's EV is 2 p - 1."""
    bets = [
        {"id": key, "name": name, "rule": [{"when": when, "pays": "1:1"}]}
        for key, name, when in EVENTS
    ]
    data = {"name": "audit events", "decks": 8, "modes": ["events"], "bet": bets}
    events = paytable_from_dict(data, "<the audit's events>")
    return replace(events, decks=decks, rules=paytable.rules, strategy=paytable.strategy)


def _win_rules(bet: Bet) -> np.ndarray:
    """Per settling rule index (the last: none holds, lost), does it pay a win?"""
    return np.array([rule.payout.kind == "win" for rule in bet.rules] + [False])


class Fit:
    """The tests over a log fed block by block (:meth:`feed`), then :meth:`result`."""

    def __init__(self, paytable: Paytable, decks: int, level: float = DEFAULT_LEVEL) -> None:
        from analyzer.analysis.exact import analyze

        if not 0 < level < 1:
            raise AnalyzerError(f"the level must be between 0 and 1, got {level}")
        self.paytable, self.decks, self.level = paytable, decks, level
        self.rules, self.strategy = paytable.rules, paytable.strategy
        self.game = game = paytable.game
        self.notes: list[str] = []
        #: Another game's exact chances (None for punto banco).
        self.chances: GameChances | None = None
        # The outcomes by winner index (0 the first hand, 1 the second, 2 a tie), their
        # report order, and the two hands whose wins the runs and the running difference
        # set against each other (the first named, then the other).
        if game is None:
            self.events = _events_paytable(paytable, decks)
            exact = analyze(paytable=self.events, mode="events")
            self.exact = {r.bet.id: r.hit_frequency for r in exact.results}
            # The shoe-aware outcomes in WINNERS order (player, banker, tie).
            self.outcome_bets = [self.events.bet(name, "events") for name in WINNERS]
            self.winners: tuple[str, ...] = WINNERS
            self.event_list: tuple[tuple[str, str, str], ...] = EVENTS
            self.order = (_BANKER, _PLAYER, _TIE)
            labels = dict(OUTCOME_NAMES)
        else:
            self.events = None
            self.chances = GameChances(paytable, decks)
            self.exact = dict(self.chances.exact)
            self.winners = game.winners
            labels = {hand.name: f"{hand.label()} wins" for hand in game.hands}
            labels[game.tie] = "ties"
            self.event_list = tuple((name, labels[name], "") for name in game.winners)
            self.order = (0, 1, 2)
            if self.chances.conditional:
                self.notes.append(
                    "runs and serial correlation left out: a round's chances move with the "
                    "cards the player saw and the action taken"
                )
            if game.by_values and self.decks == INFINITE:
                self.notes.append(
                    f"shoe-aware test left out: {game.name}'s infinite deck has no cards "
                    "left to price a round on"
                )
        self.outcomes = tuple((self.winners[k], labels[self.winners[k]]) for k in self.order)
        self.lead, self.other = self.order[0], self.order[1]
        self.full_shoe = (
            np.array([float(self.exact[name]) for name in self.winners])
            if self.exact
            else np.zeros(3)
        )
        self.side: list[tuple[str, str, Bet, np.ndarray]] | None = None
        self.side_exact: dict[tuple[str, str], Fraction] = {}
        self.side_counts: dict[tuple[str, str], list[int]] = {}
        #: A group's fit (:meth:`spawn`): no calibration nor running difference kept.
        self.light = False
        self._reset()

    def spawn(self) -> Fit:
        """A fit of the same paytable, shoe, level and side bets with nothing fed: a
        group's (:mod:`~analyzer.analysis.audit_groups`), fed rounds already priced
        (``priced``), keeping no calibration bins nor running difference."""
        other = copy.copy(self)
        other.light = True
        other.notes = list(self.notes)
        other._reset()
        other.side_counts = {key: [0, 0] for key in self.side_counts}
        other.side_given = {key: [0.0, 0.0] for key in self.side_given}
        return other

    def _reset(self) -> None:
        """Every sum at zero."""
        # Frequencies.
        self.n = 0
        self.counts = dict.fromkeys((key for key, _, _ in self.event_list), 0)
        # A game with a decision: per outcome the sum of each round's chance and the sum
        # of the covariances of the outcomes (diag(p) - p p^T); per side bet the sum of
        # its chance and of p (1 - p).
        self.given_sum = np.zeros(3)
        self.given_cov = np.zeros((3, 3))
        self.side_given: dict[tuple[str, str], list[float]] = {}
        # Runs and serial correlation of Banker (1) and Player (0) wins.
        self.last: int | None = None
        self.first: int | None = None
        self.seq_n = self.seq_sum = self.changes = self.adjacent = 0
        # Shoe-aware: per outcome, observed, sum of p, sum of p (1 - p); calibration.
        self.aware_n = self.left_out = 0
        self.observed = np.zeros(3, dtype=np.int64)
        self.expected = np.zeros(3)
        self.variance = np.zeros(3)
        bins = 0 if self.light else _BINS
        self.bin_rounds = np.zeros((3, bins), dtype=np.int64)
        self.bin_predicted = np.zeros((3, bins))
        self.bin_observed = np.zeros((3, bins), dtype=np.int64)
        # The running difference: totals so far, and the points kept.
        self.run_total = np.zeros(3)  # observed, expected, variance
        self.spacing = 1
        self.points: list[np.ndarray] = []  # (k, 4): rounds, observed, expected, variance
        self.n_points = 0
        # The shoe in progress: its cards seen so far.
        self.shoe: str | None = None
        self.seen = np.zeros(N_CARDS, dtype=np.int64)

    def partition_state(self) -> dict:
        """The sums of the rounds fed, as JSON data for :meth:`absorb` (floats written
        as Python writes them, so they read back to the same bits)."""

        def sparse(values: np.ndarray) -> list:
            where = np.flatnonzero(values)
            return [where.tolist(), values.ravel()[where].tolist()]

        points = np.concatenate(self.points) if self.points else np.zeros((0, 4))
        return {
            "n": self.n,
            "counts": dict(self.counts),
            "side_counts": [[b, m, *c] for (b, m), c in self.side_counts.items()],
            "sequence": [
                self.first,
                self.last,
                self.seq_n,
                self.seq_sum,
                self.changes,
                self.adjacent,
            ],
            "aware": [self.aware_n, self.left_out],
            "observed": self.observed.tolist(),
            "expected": self.expected.tolist(),
            "variance": self.variance.tolist(),
            "bins": [sparse(a) for a in (self.bin_rounds, self.bin_predicted, self.bin_observed)],
            "running": [self.run_total.tolist(), points.tolist(), self.spacing],
            "notes": list(self.notes),
            "given": [
                self.given_sum.tolist(),
                self.given_cov.tolist(),
                [[b, m, *v] for (b, m), v in self.side_given.items()],
            ],
        }

    def absorb(self, state: dict) -> None:
        """Add a partition's sums (:meth:`partition_state`) to these: the partitions in log
        order. The winners' sequence joins at the boundary as one pass would; the running
        difference's points are the partitions', moved to where they fall in the log."""
        self.n += state["n"]
        for key, n in state["counts"].items():
            self.counts[key] += n
        for bet_id, mode, rounds, hits in state["side_counts"]:
            counts = self.side_counts.setdefault((bet_id, mode), [0, 0])
            counts[0] += rounds
            counts[1] += hits
        first, last, seq_n, seq_sum, changes, adjacent = state["sequence"]
        if seq_n:
            if self.last is not None:
                self.changes += int(first != self.last)
                self.adjacent += self.last * first
            if self.first is None:
                self.first = first
            self.changes += changes
            self.adjacent += adjacent
            self.seq_n += seq_n
            self.seq_sum += seq_sum
            self.last = last
        total, points, spacing = state["running"]
        points = np.array(points, dtype=np.float64).reshape(-1, 4)
        if len(points):
            points[:, 0] += self.aware_n
            points[:, 1:] += self.run_total
            self.points.append(points)
            self.n_points += len(points)
        self.run_total = self.run_total + np.array(total)
        self.spacing = max(self.spacing, spacing)
        while self.n_points > RUNNING_POINTS:
            every = np.concatenate(self.points)[1::2]
            self.points, self.n_points, self.spacing = [every], len(every), 2 * self.spacing
        aware_n, left_out = state["aware"]
        self.aware_n += aware_n
        self.left_out += left_out
        self.observed += np.array(state["observed"], dtype=np.int64)
        self.expected += np.array(state["expected"])
        self.variance += np.array(state["variance"])
        for target, (where, values) in zip(
            (self.bin_rounds, self.bin_predicted, self.bin_observed), state["bins"], strict=True
        ):
            np.add.at(target.reshape(-1), np.array(where, dtype=np.int64), np.array(values))
        for note in state["notes"]:
            if note not in self.notes:
                self.notes.append(note)
        given_sum, given_cov, side_given = state["given"]
        self.given_sum += np.array(given_sum)
        self.given_cov += np.array(given_cov)
        for bet_id, mode, expected, variance in side_given:
            sums = self.side_given.setdefault((bet_id, mode), [0.0, 0.0])
            sums[0] += expected
            sums[1] += variance

    def start_log(self) -> None:
        """The rounds fed from here are of another log: its first shoe is a new one."""
        self.shoe = None
        self.seen = np.zeros(N_CARDS, dtype=np.int64)

    def choose_side_bets(self, logged: Sequence[tuple[str, str]]) -> None:
        """The side bets whose hit rate is tested: of the logged (bet, mode) payouts that
        can be checked (before the first block is fed), all but the main bets and the
        tie (their hits are tested as the outcomes), each bet once."""
        from analyzer.analysis.exact import analyze

        self.side = []
        seen: set[int] = set()
        event_conditions = {when for _, _, when in EVENTS}
        if self.game is not None:  # a bet that wins on one hand's win only is its test
            event_conditions = {f"winner == {name!r}" for name in self.winners}
        for bet_id, mode in logged:
            bet = self.paytable.bet(bet_id, mode)
            wins = [rule.condition.shown for rule in bet.rules if rule.payout.kind == "win"]
            if (bet_id in MAIN_BETS and self.game is None) or id(bet) in seen:
                continue
            alone = len(bet.rules) == 1 or self.game is not None
            if len(wins) == 1 and alone and wins[0] in event_conditions:
                continue
            seen.add(id(bet))
            try:
                if self.chances is not None:
                    hits = self.chances.bet_hits(bet)
                else:
                    exact = analyze(
                        paytable=self.paytable, decks=self.decks, mode=mode, bets=[bet_id]
                    )
                    hits = exact.result(bet_id, mode).hit_frequency
            except AnalyzerError as exc:
                self.notes.append(f"{bet_id} ({mode}): hit rate not tested: {exc}")
                continue
            if isinstance(hits, np.ndarray):
                # (a bet that wins exactly when a hand does, given what was seen and
                # chosen, is that outcome's test)
                given = self.chances.given
                if any(np.allclose(hits, given[:, k], equal_nan=True) for k in range(3)):
                    continue
                self.side_given[(bet_id, mode)] = [0.0, 0.0]
            self.side_exact[(bet_id, mode)] = hits
            self.side_counts[(bet_id, mode)] = [0, 0]
            self.side.append((bet_id, mode, bet, _win_rules(bet)))

    def feed(
        self,
        shoes: np.ndarray,
        rounds: np.ndarray,
        cards: np.ndarray,
        burns: dict[int, tuple[int, ...]],
        winner: np.ndarray,
        columns: dict[str, np.ndarray],
        payouts: dict[tuple[str, str], np.ndarray],
        *,
        dealt: np.ndarray | None = None,
        given: np.ndarray | None = None,
        priced: np.ndarray | None = None,
        action: np.ndarray | None = None,
    ) -> np.ndarray | None:
        """One block of rounds: its shoes, round numbers, cards (n, 6; -1 none; another
        game's as :class:`~analyzer.analysis.audit.LoggedRounds` holds them), burns (by
        position in the block), the winner of each (WINNERS' index, from the cards;
        another game's: 0 its first hand, 1 the second, 2 a tie, -1 a round not dealt as
        it deals), its columns (the value and pair fields, and the card fields where a
        side bet needs them; another game's: of the ``dealt`` rounds only) and the
        logged payouts. With a decision, ``given``: per round dealt, its row of the
        game's chances given what the player saw and chose
        (:meth:`~analyzer.analysis.audit_game.GameChances.key`); ``action``: each
        round's action (a game whose hands draw: its shoe-aware test). Returns each round's
        shoe-aware chances (n, 3; NaN rows: left out; None: no shoe-aware test), which a
        group's fit is fed as ``priced`` for its rounds instead of pricing them again."""
        n = len(winner)
        if not n:
            return None
        rows = np.arange(n) if dealt is None else np.flatnonzero(dealt)
        tested = winner[rows]
        self.n += len(rows)
        for key, _, _ in self.event_list:
            hits = tested == self.winners.index(key) if key in self.winners else columns[key]
            self.counts[key] += int(np.count_nonzero(hits))
        conditional = None
        if given is not None:
            conditional = self.chances.given[given]
            known = ~np.isnan(conditional).any(axis=1)
            p = conditional[known]
            self.given_sum += p.sum(axis=0)
            self.given_cov += np.diag(p.sum(axis=0)) - p.T @ p
        for bet_id, mode, bet, wins in self.side or ():
            logged = ~np.isnan(payouts[(bet_id, mode)][rows])
            if bet.max_round is not None:
                logged &= rounds[rows] <= bet.max_round
            hit = wins[settling_rule(bet, columns, len(rows))]
            counts = self.side_counts[(bet_id, mode)]
            counts[0] += int(np.count_nonzero(logged))
            counts[1] += int(np.count_nonzero(hit & logged))
            if given is not None:
                q = self.side_exact[(bet_id, mode)][given][logged]
                q = q[~np.isnan(q)]
                sums = self.side_given[(bet_id, mode)]
                sums[0] += float(q.sum())
                sums[1] += float((q * (1 - q)).sum())
        if given is None:
            self._sequence(tested)
        if priced is None:
            priced = self._price(shoes, cards, burns, winner, action)
        if priced is not None:
            valid = ~np.isnan(priced[:, 0])
            self.left_out += int(n - np.count_nonzero(valid))
            probabilities, outcome = priced[valid], winner[valid]
            for start in range(0, len(outcome), CHUNK_ROUNDS):
                stop = start + CHUNK_ROUNDS
                self._accumulate(probabilities[start:stop], outcome[start:stop])
        return priced

    def _sequence(self, winner: np.ndarray) -> None:
        x = (winner[winner != _TIE] == self.lead).astype(np.int64)
        if not len(x):
            return
        if self.first is None:
            self.first = int(x[0])
        changes = int(np.count_nonzero(x[1:] != x[:-1]))
        adjacent = int(np.dot(x[1:], x[:-1]))
        if self.last is not None:
            changes += int(x[0] != self.last)
            adjacent += self.last * int(x[0])
        self.changes += changes
        self.adjacent += adjacent
        self.seq_n += len(x)
        self.seq_sum += int(x.sum())
        self.last = int(x[-1])

    def compositions(
        self, shoes: np.ndarray, cards: np.ndarray, burns: dict[int, tuple[int, ...]]
    ) -> np.ndarray:
        """The cards left in its shoe before each round (n, 52): the decks less every
        card of the shoe's earlier rounds and each burn logged up to the round's own."""
        n = len(cards)
        flat = cards.ravel()
        dealt_at = np.repeat(np.arange(n), cards.shape[1])[flat >= 0]
        dealt = np.bincount(dealt_at * N_CARDS + flat[flat >= 0], minlength=n * N_CARDS)
        dealt = dealt.reshape(n, N_CARDS)
        burned = np.zeros((n, N_CARDS), dtype=np.int64)
        for i, burn in burns.items():
            burned[i] += np.bincount(np.asarray(burn, dtype=np.int64), minlength=N_CARDS)
        before = np.empty((n, N_CARDS), dtype=np.int64)
        cuts = np.flatnonzero(shoes[1:] != shoes[:-1]) + 1
        edges = [0, *cuts.tolist(), n]
        for start, stop in pairwise(edges):
            shoe = str(shoes[start])
            carry = self.seen if shoe == self.shoe else np.zeros(N_CARDS, dtype=np.int64)
            d, b = dealt[start:stop], burned[start:stop]
            before[start:stop] = carry + np.cumsum(d, axis=0) - d + np.cumsum(b, axis=0)
            self.seen = carry + d.sum(axis=0) + b.sum(axis=0)
            self.shoe = shoe
        return self.decks - before

    def _price(self, shoes, cards, burns, winner, action=None) -> np.ndarray | None:
        """Each round's chances of the outcomes (WINNERS order) on the cards left in its
        shoe, (n, 3), NaN where the round is left out; None: no shoe-aware test. A game
        whose hands draw: only the cards after the deal are unknown, each round priced on
        its own (given its ``action``)."""
        if self.game is not None and self.game.by_values and self.decks == INFINITE:
            return None  # (left out: see the notes)
        n = len(winner)
        priced = np.full((n, 3), np.nan)
        if self.decks == INFINITE:
            priced[winner >= 0] = self.full_shoe
            return priced
        left = self.compositions(shoes, cards, burns)
        # (a round of another game not dealt as it deals has no winner: left out too)
        least = ROUND_CARDS if self.game is None else max(ROUND_CARDS, self.game.cards)
        valid = (left >= 0).all(axis=1) & (left.sum(axis=1) >= least) & (winner >= 0)
        rows = np.flatnonzero(valid)
        if self.game is not None and self.game.by_values:
            from analyzer.analysis.audit_game import drawn_round_chances

            for start in range(0, len(rows), CHUNK_ROUNDS):
                at = rows[start : start + CHUNK_ROUNDS]
                priced[at] = drawn_round_chances(
                    self.game, cards[at], None if action is None else action[at], left[at]
                )
            return priced
        for start in range(0, len(rows), CHUNK_ROUNDS):
            at = rows[start : start + CHUNK_ROUNDS]
            chunk = np.ascontiguousarray(left[at])
            if self.game is not None:
                from analyzer.engine.dealt_chances import winner_chances

                ranks = chunk.reshape(len(chunk), N_RANKS, N_SUITS).sum(axis=2)
                priced[at] = winner_chances(self.game, ranks)
            else:
                from analyzer.engine.batch import dealt_expected_values

                ev = dealt_expected_values(self.outcome_bets, chunk, self.rules, self.strategy)
                priced[at] = np.clip((ev + 1) / 2, 0.0, 1.0)
        return priced

    def _running(self, probabilities: np.ndarray, winner: np.ndarray) -> None:
        """Keep the running difference at every ``spacing``-th round of these."""
        lead, other = self.lead, self.other
        drift = probabilities[:, lead] - probabilities[:, other]
        parts = np.stack(
            [
                (winner == lead).astype(np.float64) - (winner == other),
                drift,
                probabilities[:, lead] + probabilities[:, other] - drift * drift,
            ]
        )
        totals = self.run_total[:, None] + np.cumsum(parts, axis=1)
        number = self.aware_n + 1 + np.arange(len(winner))  # each round's, from 1
        kept = np.flatnonzero(number % self.spacing == 0)
        if len(kept):
            self.points.append(np.column_stack([number[kept], totals[:, kept].T]))
            self.n_points += len(kept)
        self.run_total = totals[:, -1] if len(winner) else self.run_total
        while self.n_points > RUNNING_POINTS:  # twice the spacing: every other point
            self.spacing *= 2
            every = np.concatenate(self.points)
            every = every[every[:, 0] % self.spacing == 0]
            self.points, self.n_points = [every], len(every)

    def _accumulate(self, probabilities: np.ndarray, winner: np.ndarray) -> None:
        if not self.light:
            self._running(probabilities, winner)
        self.aware_n += len(winner)
        bins = np.minimum((probabilities / CALIBRATION_WIDTH).astype(np.int64), _BINS - 1)
        for k in range(3):
            p = probabilities[:, k]
            hit = winner == k
            self.observed[k] += int(np.count_nonzero(hit))
            self.expected[k] += float(p.sum())
            self.variance[k] += float((p * (1 - p)).sum())
            if self.light:
                continue
            self.bin_rounds[k] += np.bincount(bins[:, k], minlength=_BINS)
            self.bin_predicted[k] += np.bincount(bins[:, k], weights=p, minlength=_BINS)
            self.bin_observed[k] += np.bincount(bins[:, k], weights=hit, minlength=_BINS).astype(
                np.int64
            )

    # -- The tests -------------------------------------------------------------------------

    def result(self) -> FitResult:
        conditional = self.chances is not None and self.chances.conditional
        tests = [self._given_chi_square() if conditional else self._chi_square()]
        for key, name, _ in self.event_list:
            if conditional:
                k = self.winners.index(key)
                variance = float(self.given_cov[k, k])
                tests.append(
                    self._given(
                        f"frequency:{key}", name, self.counts[key], self.n,
                        float(self.given_sum[k]), variance,
                    )
                )  # fmt: skip
                continue
            tests.append(
                self._binomial(f"frequency:{key}", name, self.counts[key], self.n, self.exact[key])
            )
        for bet_id, mode, bet, _ in self.side or ():
            rounds, hits = self.side_counts[(bet_id, mode)]
            label = bet.display_name()
            if (bet_id, mode) in self.side_given:
                expected, variance = self.side_given[(bet_id, mode)]
                tests.append(
                    self._given(
                        f"hits:{bet_id}:{mode}", f"{label} hits", hits, rounds, expected, variance
                    )
                )
                continue
            tests.append(
                self._binomial(
                    f"hits:{bet_id}:{mode}",
                    f"{label} hits",
                    hits,
                    rounds,
                    self.side_exact[(bet_id, mode)],
                )
            )
        if not conditional:
            tests += [self._runs(), self._serial()]
        if self.game is None or not self.game.by_values or self.decks != INFINITE:
            for name, label in self.outcomes:
                tests.append(self._aware(name, label))
        ran = [i for i, t in enumerate(tests) if t.p_value is not None]
        adjusted = holm([tests[i].p_value for i in ran])
        for i, a in zip(ran, adjusted, strict=True):
            tests[i] = replace(tests[i], adjusted_p=a, passed=a > self.level)
        return FitResult(
            self.level,
            tuple(tests),
            self._calibration(),
            self.decks,
            self.aware_n,
            self.left_out,
            tuple(self.notes),
            self._running_difference(),
            self.outcomes,
        )

    def _running_difference(self) -> RunningDifference | None:
        if not self.aware_n:
            return None
        kept = np.concatenate(self.points) if self.points else np.zeros((0, 4))
        if not len(kept) or kept[-1, 0] != self.aware_n:  # the last round, always
            last = np.array([[self.aware_n, *self.run_total]])
            kept = np.concatenate([kept, last])
        return RunningDifference(
            kept[:, 0].astype(np.int64), kept[:, 1], kept[:, 2], kept[:, 3], self.spacing
        )

    def _chi_square(self) -> FitTest:
        named = tuple(key for key, _ in self.outcomes)  # in the order of the test's name
        key, name, method = (
            "frequency:outcomes",
            self._outcomes_name(),
            "chi-square, 2 df, full shoe",
        )
        observed = [self.counts[name] for name in named]
        expected = [self.n * float(self.exact[name]) for name in named]
        if not self.n:
            return FitTest(key, name, method, 0, 0.0, 0.0, "chi2", None, None)
        statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True) if e)
        return FitTest(
            key,
            name,
            method,
            self.n,
            self.n,
            self.n,
            "chi2",
            statistic,
            chi_square_sf(statistic, 2),
            parts=tuple(zip(named, observed, expected, strict=True)),
        )

    def _outcomes_name(self) -> str:
        """The outcomes test's name: ``Banker, Player, tie`` (another game's hands)."""
        if self.game is None:
            return "Banker, Player, tie"
        first, second = (self.game.hands[k].label() for k in self.order[:2])
        return f"{first}, {second}, {self.game.tie}"

    def _given_chi_square(self) -> FitTest:
        """The outcomes of a game with a decision against each round's chances given what
        the player saw and chose: (observed - expected)' V^-1 (observed - expected) over
        two of the three counts, V the exact covariance of a sum of independent rounds
        (sum of diag(p) - p p'): chi-square with 2 degrees of freedom (Pearson's, where
        every round's chances are alike)."""
        named = tuple(key for key, _ in self.outcomes)
        key, name = "frequency:outcomes", self._outcomes_name()
        method = "chi-square, 2 df, exact chances given the cards seen and the action"
        observed = [self.counts[outcome] for outcome in named]
        index = [self.winners.index(outcome) for outcome in named]
        expected = [float(self.given_sum[k]) for k in index]
        if not self.n:
            return FitTest(key, name, method, 0, 0.0, 0.0, "chi2", None, None)
        two = index[:2]
        difference = np.array(observed[:2]) - np.array(expected[:2])
        covariance = self.given_cov[np.ix_(two, two)]
        statistic = p_value = None
        if np.linalg.det(covariance) > 0:
            statistic = float(difference @ np.linalg.solve(covariance, difference))
            p_value = chi_square_sf(statistic, 2)
        return FitTest(
            key,
            name,
            method,
            self.n,
            self.n,
            self.n,
            "chi2",
            statistic,
            p_value,
            parts=tuple(zip(named, observed, expected, strict=True)),
        )

    def _given(
        self, key: str, name: str, hits: int, n: int, expected: float, variance: float
    ) -> FitTest:
        """A count against the sum of each round's chance given what the player saw and
        chose: z = (observed - sum p) / sqrt(sum p (1 - p)), normal."""
        method = "sum of exact chances given the cards seen and the action, normal"
        if not n or variance <= 0:
            return FitTest(key, name, method, n, hits, expected, "z", None, None)
        z = (hits - expected) / math.sqrt(variance)
        return FitTest(key, name, method, n, hits, expected, "z", z, normal_two_sided(z))

    def _binomial(self, key: str, name: str, hits: int, n: int, p: Fraction) -> FitTest:
        method = "exact binomial, full shoe"
        expected = n * float(p)
        if not n:
            return FitTest(key, name, method, 0, 0, 0.0, "count", None, None)
        return FitTest(
            key,
            name,
            method,
            n,
            hits,
            expected,
            "count",
            hits,
            binomial_two_sided(hits, n, float(p)),
        )

    def _runs(self) -> FitTest:
        banker, player = self.seq_sum, self.seq_n - self.seq_sum
        lead, other = (label.removesuffix(" wins") for _, label in self.outcomes[:2])
        runs = self.changes + 1 if self.seq_n else 0
        n = self.seq_n
        expected = 2 * banker * player / n + 1 if n else 0.0
        z = runs_z(banker, player, runs)
        method = "Wald-Wolfowitz, normal, ties out"
        p = None if z is None else normal_two_sided(z)
        return FitTest("runs", f"runs of {lead}/{other}", method, n, runs, expected, "z", z, p)

    def _serial(self) -> FitTest:
        n, total = self.seq_n, self.seq_sum
        method = "lag-1 autocorrelation, normal, ties out"
        if n < 3 or total in (0, n):
            return FitTest("serial", "serial correlation", method, n, 0.0, 0.0, "z", None, None)
        mean = total / n
        numerator = (
            self.adjacent - mean * (2 * total - self.first - self.last) + (n - 1) * mean * mean
        )
        r1 = numerator / (total - n * mean * mean)
        z = (r1 + 1 / n) * math.sqrt(n)
        return FitTest(
            "serial", "serial correlation", method, n, r1, -1 / n, "z", z, normal_two_sided(z)
        )

    def _aware(self, name: str, label: str) -> FitTest:
        k = self.winners.index(name)
        observed = int(self.observed[k])
        expected, variance = float(self.expected[k]), float(self.variance[k])
        z = p_value = None
        if self.aware_n and variance > 0:
            z = (observed - expected) / math.sqrt(variance)
            p_value = normal_two_sided(z)
        return FitTest(
            f"shoe_aware:{name}",
            f"{label}, shoe-aware",
            "sum of conditional probabilities, normal",
            self.aware_n,
            observed,
            expected,
            "z",
            z,
            p_value,
        )

    def _calibration(self) -> tuple[CalibrationBin, ...]:
        """Per outcome, the fine bins joined into groups of about equal rounds."""
        out = []
        for name, _ in self.outcomes:
            k = self.winners.index(name)
            rounds = self.bin_rounds[k]
            total = int(rounds.sum())
            if not total:
                continue
            # Group g takes the bins whose cumulative count ends in its g-th share.
            ends = np.cumsum(rounds)
            group = np.minimum((ends - 1) * CALIBRATION_GROUPS // total, CALIBRATION_GROUPS - 1)
            for g in np.unique(group[rounds > 0]):
                members = np.flatnonzero((group == g) & (rounds > 0))
                out.append(
                    CalibrationBin(
                        name,
                        round(float(members[0] * CALIBRATION_WIDTH), 6),
                        round(float((members[-1] + 1) * CALIBRATION_WIDTH), 6),
                        int(rounds[members].sum()),
                        float(self.bin_predicted[k, members].sum()),
                        int(self.bin_observed[k, members].sum()),
                    )
                )
        return tuple(out)
