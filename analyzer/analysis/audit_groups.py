"""The audit by group (dealer, table, studio) and the monitoring of each bet's return.

**Groups.** A log may name each round's ``dealer``, ``table`` and ``studio``
(:data:`GROUP_COLUMNS`, any subset). Each value of each column is a group (the dealer
``D7``, the table ``T2``); a round is in one group of each column it fills. Every test
of the fit (:mod:`~analyzer.analysis.audit_fit`) is run again over each group's rounds
(in log order, the group's rounds joined end to end), each round's shoe-aware chances
priced once, for the whole log (a group's fit is fed them: grouping does not price a
round again). A group of fewer than ``min_rounds`` rounds is listed as such and not
tested. The p-values of every test of every group tested form one family, adjusted by
Holm's step-down correction (:func:`~analyzer.analysis.audit_fit.holm`): the chance
that any fair group is called at ``level`` is at most ``level`` (a family-wise bound:
a verdict names a person or a table, so a false alarm about anyone is what is bounded,
not the share of false alarms among the alarms, which Benjamini-Hochberg would bound).

**Monitoring.** A log may give the amount staked on a bet each round: a ``stake:<bet>``
(or ``stake:<bet>:<mode>``) column. Per bet, over the rounds staked on it (and offered
it: its ``max_round``), the actual return is ``1 + sum(s_i n_i) / sum(s_i (1 + f))``:
``s_i`` the stake, ``n_i`` the net per unit staked (the logged payout where the log
gives one, else the paytable's settlement of the round's cards), ``f`` the bet's fee.
The theoretical return is the exact RTP of a full shoe (:func:`~analyzer.analysis.exact.
analyze`, a Fraction) and the variance of one unit paid's net, ``v``, is exact too. With
the rounds taken as independent draws of that distribution, the actual return's variance
is ``v sum(p_i^2) / (sum p_i)^2`` (``p_i = s_i (1 + f)``, what was paid): the stakes
weight it. The band is the theoretical return plus or minus ``z`` standard errors, ``z``
the normal quantile of the ``confidence`` asked; a bet whose actual return is outside it
(after Holm's correction over the bets, and over every group's bets for the groups) is
called. The rounds needed before a ``deviation`` of the return would be seen: the rounds
at which the band's half width falls to it, at the stakes seen,
``ceil(z^2 v k / deviation^2)``, ``k = m sum(p_i^2) / (sum p_i)^2`` over the ``m``
rounds staked (1 where every stake is alike, more the more they differ).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from statistics import NormalDist

import numpy as np

from analyzer.analysis.audit_fit import FitResult, holm, normal_two_sided
from analyzer.errors import AnalyzerError
from analyzer.paytables.model import Paytable
from analyzer.paytables.settle import Settlement

#: The columns naming a round's groups, in report order.
GROUP_COLUMNS = ("dealer", "table", "studio")
#: The longest group name read.
MAX_GROUP_TEXT = 200
#: The most groups an audit keeps, over every group column (a log naming more is refused:
#: memory stays bounded whatever the log).
MAX_GROUPS = 1000
#: A group of fewer rounds than this is not tested unless the user sets another.
MIN_GROUP_ROUNDS = 200
#: The largest stake read (any amount above is a malformed cell).
MAX_STAKE = 1e12
#: The monitoring band's confidence and the deviation it is asked to see, unless set.
DEFAULT_CONFIDENCE = 0.95
DEFAULT_DEVIATION = 0.005
#: Per (group, bet): rounds staked, sum paid, sum paid * net per paid, sum paid^2, and
#: stakes whose net could not be valued.
_SUMS = 5


def band_z(confidence: float) -> float:
    """The normal quantile of a two-sided band at ``confidence`` (0.95: 1.959964)."""
    return NormalDist().inv_cdf((1 + confidence) / 2)


@dataclass(frozen=True)
class MonitorRow:
    """One bet's return over the rounds staked on it (of one group, or all)."""

    bet: str
    mode: str
    rounds: int
    paid: float
    actual_rtp: float | None
    theoretical_rtp: Fraction
    variance: Fraction
    standard_error: float | None
    low: float | None
    high: float | None
    z: float | None
    p_value: float | None
    rounds_needed: int | None
    unvalued: int
    adjusted_p: float | None = None
    inside: bool | None = None


@dataclass(frozen=True)
class GroupResult:
    """One group: its column and value, its rounds, and, where it has enough, its fit
    (Holm-adjusted over every group's tests) and its bets' monitoring."""

    column: str
    value: str
    rounds: int
    tested: bool
    fit: FitResult | None
    monitoring: tuple[MonitorRow, ...]


@dataclass(frozen=True)
class GroupsResult:
    """Every group, in column order then by name."""

    columns: tuple[str, ...]
    min_rounds: int
    groups: tuple[GroupResult, ...]

    @property
    def failed(self) -> tuple[GroupResult, ...]:
        """The groups with a test failed or a bet outside its band."""
        return tuple(
            g
            for g in self.groups
            if (g.fit is not None and g.fit.failed) or any(r.inside is False for r in g.monitoring)
        )


@dataclass(frozen=True)
class Exact:
    """A staked bet's exact figures per unit paid: RTP, variance, and its fee."""

    rtp: Fraction
    variance: Fraction
    fee: Fraction


class Monitor:
    """The sums of each staked bet's return, per group slot (0: the whole log)."""

    def __init__(self, paytable: Paytable, decks: int, keys: Sequence[tuple[str, str]]) -> None:
        from analyzer.analysis.exact import analyze

        self.keys = tuple(keys)
        self.exact: dict[tuple[str, str], Exact] = {}
        self.notes: list[str] = []
        for bet_id, mode in self.keys:
            bet = paytable.bet(bet_id, mode)
            try:
                result = analyze(paytable=paytable, decks=decks, mode=mode, bets=[bet_id])
                figures = result.result(bet_id, mode)
                self.exact[(bet_id, mode)] = Exact(
                    figures.rtp, figures.variance, Settlement(bet).fee
                )
            except AnalyzerError as exc:
                self.notes.append(f"{bet_id} ({mode}): not monitored: {exc}")
        #: The whole log's sums (a row per bet) and each group's (group, bet, sum).
        self.total = np.zeros((len(self.keys), _SUMS))
        self.groups = np.zeros((0, len(self.keys), _SUMS))

    def feed(
        self,
        stakes: dict[tuple[str, str], np.ndarray],
        nets: dict[tuple[str, str], np.ndarray],
        offered: dict[tuple[str, str], np.ndarray],
        codes: Sequence[np.ndarray],
        groups: int,
    ) -> None:
        """A block's stakes, nets per unit staked (NaN: not valued) and whether each bet
        was offered each round; ``codes``: per group column, each round's group (its
        number among the ``groups`` the audit knows; -1: none)."""
        self._grow(groups)
        for k, key in enumerate(self.keys):
            exact = self.exact.get(key)
            if exact is None:
                continue
            stake = stakes[key]
            on = (stake > 0) & offered[key]
            net = nets[key]
            valued = on & ~np.isnan(net)
            paid = np.where(valued, stake * (1 + float(exact.fee)), 0.0)
            parts = np.stack(
                [
                    valued.astype(np.float64),
                    paid,
                    np.where(valued, stake * np.nan_to_num(net), 0.0),
                    paid * paid,
                    (on & ~valued).astype(np.float64),
                ]
            )
            self.total[k] += parts.sum(axis=1)
            for code in codes:
                inside = code >= 0
                for j in range(_SUMS):
                    self.groups[:, k, j] += np.bincount(
                        code[inside], weights=parts[j][inside], minlength=groups
                    )

    def _grow(self, groups: int) -> None:
        if len(self.groups) < groups:
            grown = np.zeros((groups, len(self.keys), _SUMS))
            grown[: len(self.groups)] = self.groups
            self.groups = grown

    def state(self) -> dict:
        """The sums as JSON data (for a partition)."""
        return {"total": self.total.tolist(), "groups": self.groups.tolist()}

    def absorb(self, state: dict, number: Sequence[int], groups: int) -> None:
        """Add a partition's sums, its groups numbered ``number`` in this audit's."""
        self._grow(groups)
        self.total += np.array(state["total"], dtype=np.float64).reshape(self.total.shape)
        sums = np.array(state["groups"], dtype=np.float64).reshape(-1, *self.total.shape)
        for g, target in enumerate(number[: len(sums)]):
            self.groups[target] += sums[g]

    def rows(
        self, group: int | None, confidence: float, deviation: float
    ) -> tuple[MonitorRow, ...]:
        """Each monitored bet's row over a group's rounds (None: the whole log's)."""
        z_band = band_z(confidence)
        sums = self.total if group is None else self.groups[group]
        return tuple(
            monitor_row(key, self.exact[key], sums[k], z_band, deviation)
            for k, key in enumerate(self.keys)
            if key in self.exact
        )


def monitor_row(
    key: tuple[str, str], exact: Exact, sums: np.ndarray, z_band: float, deviation: float
) -> MonitorRow:
    """A bet's row from its sums (rounds, paid, stake * net, paid^2, unvalued)."""
    rounds, paid, returned, squares, unvalued = (float(x) for x in sums)
    variance = float(exact.variance)
    theoretical = float(exact.rtp)
    actual = error = low = high = z = p = None
    needed = None
    if rounds and paid > 0:
        actual = 1 + returned / paid
        error = math.sqrt(variance * squares) / paid
        low, high = theoretical - z_band * error, theoretical + z_band * error
        if error > 0:
            z = (actual - theoretical) / error
            p = normal_two_sided(z)
        spread = rounds * squares / (paid * paid)
    else:
        spread = 1.0
    if variance > 0:
        needed = math.ceil(z_band * z_band * variance * spread / (deviation * deviation))
    return MonitorRow(
        key[0], key[1], int(rounds), paid, actual, exact.rtp, exact.variance, error, low, high,
        z, p, needed, int(unvalued),
    )  # fmt: skip


def adjusted_rows(rows: Sequence[MonitorRow], confidence: float) -> list[MonitorRow]:
    """Holm's correction over the rows' p-values: a row is outside its band where its
    adjusted p-value is at most ``1 - confidence``."""
    ran = [i for i, r in enumerate(rows) if r.p_value is not None]
    adjusted = holm([rows[i].p_value for i in ran])
    out = list(rows)
    for i, a in zip(ran, adjusted, strict=True):
        out[i] = replace(rows[i], adjusted_p=a, inside=a > 1 - confidence)
    return out


def adjusted_fits(fits: Sequence[FitResult]) -> list[FitResult]:
    """Every test of every fit as one family: Holm's adjusted p-values over all of them,
    each test failing where its adjusted p is at most its fit's level."""
    ran = [(f, t) for f, fit in enumerate(fits) for t, test in enumerate(fit.tests) if
           test.p_value is not None]  # fmt: skip
    adjusted = holm([fits[f].tests[t].p_value for f, t in ran])
    tests = [list(fit.tests) for fit in fits]
    for (f, t), a in zip(ran, adjusted, strict=True):
        tests[f][t] = replace(tests[f][t], adjusted_p=a, passed=a > fits[f].level)
    return [replace(fit, tests=tuple(ts)) for fit, ts in zip(fits, tests, strict=True)]


def too_many_groups(column: str, value: str) -> AnalyzerError:
    """The error of a log naming more than :data:`MAX_GROUPS` groups."""
    return AnalyzerError(
        f"column {column!r}: the group {value[:40]!r} is past the {MAX_GROUPS:,} groups an "
        "audit keeps (dealer, table and studio together): audit fewer groups at a time"
    )
