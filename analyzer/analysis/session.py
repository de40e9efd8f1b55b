"""Sessions: the net result of N independent rounds, each a one-unit bet, and its odds.

Every round is dealt "off the top" (from a full shoe), so the rounds are independent and
the session's net is a sum of independent per-round nets. The bets follow a ``cycle``
played in order and repeated; only how many rounds use each distribution matters, so the
session is the product of a few distributions each raised to a power.

Three ways to get the distribution of that sum, each reported in
:attr:`SessionValue.method`:

``exact``
    Nets are scaled onto an integer lattice (times the LCM of their denominators, then
    shifted and divided by the GCD of their steps, so a two-outcome bet is a binomial);
    probabilities become integers over a common denominator and the polynomials are
    multiplied exactly with Python integers (Kronecker substitution: one polynomial is
    one big integer, so ``pow`` does the repeated squaring). Its cost is the size of the
    final packed integer, lattice points times bits per coefficient; it is used while
    that is at most :data:`EXACT_MAX_BITS`. Past it, a sparse exact convolution (a dict
    of the sums reachable, round by round) while its work is at most
    :data:`SPARSE_MAX_WORK`: it serves fine nets over few rounds, and Banker to 133
    rounds. Past both, ``method="exact"`` (the default) falls back to ``numeric`` and
    says so in every value it returns.
``numeric``
    The characteristic function on a window of the lattice, raised to the N-th power
    in floating point and inverted with one real FFT. The window is wide enough that a
    Chernoff bound (evaluated with interval arithmetic) puts at most :data:`TAIL_MASS`
    outside it; ``error`` adds that to a rounding bound computed frequency by frequency
    (see :func:`_numeric`). A lattice whose window would exceed :data:`MAX_WINDOW`
    points is refused with one line.
``normal``
    N(mean, variance), the approximation sources quote, with no continuity correction
    (a value ``P(net >= a)`` is ``1 - Phi((a - mean) / sd)``, whatever the lattice);
    ``error`` is the Berry-Esseen bound on its distance from the truth.

Mean and variance are always exact (sums of per-round moments).
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import accumulate
from numbers import Rational
from statistics import NormalDist

import mpmath
import numpy as np

from analyzer.errors import AnalyzerError

#: Net result per unit staked -> probability (the probabilities sum to 1).
RoundDistribution = Mapping[Fraction, Fraction]

METHODS = ("exact", "numeric", "normal")
MAX_ROUNDS = 10**7

#: Largest exact convolution, in bits of the final packed integer (lattice points times
#: bits per coefficient). CPython multiplies big integers by Karatsuba: the last squaring
#: of a 2**21-bit number takes about 0.2 s and the earlier ones a third of that, so an
#: exact session stays well under a second. That is 48 rounds of Banker (39 lattice
#: points and 45 bits of denominator per round) and 311 of Tie.
EXACT_MAX_BITS = 1 << 22

#: Largest sparse exact convolution (a dict of reachable sums, one round at a time), in
#: rounds x outcomes x reachable sums, a bound on its dict updates: measured at about
#: 0.2 us each for Banker's integers, so under half a second. It serves nets too fine for
#: the dense lattice when the rounds are few, and takes Banker to 133 rounds exactly.
SPARSE_MAX_WORK = 1 << 21

#: Probability mass the numeric window may leave outside (both tails together).
TAIL_MASS = 2.0**-50

#: Most lattice points in the numeric window (4 million: a few seconds, a few hundred MB).
MAX_WINDOW = 1 << 22

#: Most (support point, frequency) pairs the numeric characteristic function evaluates.
MAX_TERMS = 1 << 26

#: Shevtsova (2010): sup |F - Phi| <= 0.56 * sum E|X_i - mu_i|**3 / sd**3 for independent,
#: not necessarily identically distributed, rounds.
BERRY_ESSEEN = 0.56

#: Unit roundoff of float64.
_U = 2.0**-53

#: Assumed accuracy of numpy's float64 sin, cos, exp, log1p and arctan2, relative to the
#: result: 4 units of roundoff (2 ulp). Measured below 1 unit on x86-64 (AVX-512 and
#: glibc); the tests check numpy against mpmath.
_LIBM = 4 * _U

#: Centring constants are multiples of 2**-_CENTRE_BITS, so the phase of the window's
#: offset is an exact integer fraction of a turn.
_CENTRE_BITS = 10

_STD_DEV_BITS = 136  # about 41 significant digits


@dataclass(frozen=True)
class SessionValue:
    """One statistic of a session, with how it was obtained."""

    value: Fraction  # exact, or the numeric estimate as a Fraction
    error: Fraction  # 0 when exact; else a rigorous bound on |value - truth|
    method: str  # "exact", "numeric" (convolution in floating point, bound stated) or "normal"


@dataclass(frozen=True)
class _Round:
    """One distinct per-round distribution on the compressed lattice, and how many
    rounds of the session use it."""

    values: tuple[int, ...]  # lattice steps above the round's lowest net, ascending
    probabilities: tuple[Fraction, ...]
    count: int

    @cached_property
    def mean(self) -> Fraction:
        pairs = zip(self.values, self.probabilities, strict=True)
        return sum((p * v for v, p in pairs), Fraction())


@dataclass(frozen=True)
class _Lattice:
    """Session lattice point ``v`` (0 <= v < size) is the net ``(offset + step * v) / scale``."""

    scale: int
    step: int
    offset: int
    size: int

    def net(self, v: int) -> Fraction:
        return Fraction(self.offset + self.step * v, self.scale)

    def at_least(self, x: Fraction) -> int:
        """The smallest lattice point whose net is >= x (may lie outside 0..size-1)."""
        return -((self.offset - x * self.scale) // self.step)

    def at_most(self, x: Fraction) -> int:
        """The largest lattice point whose net is <= x."""
        return math.floor((x * self.scale - self.offset) / self.step)


# ---------------------------------------------------------------- validation


def _number(value: object, what: str) -> Fraction:
    """An exact number from an int, a Fraction or a float (a float by its shortest
    decimal, so 0.1 is 1/10: what was typed, not the binary neighbour)."""
    if isinstance(value, bool):
        raise AnalyzerError(f"{what} must be a number, not {value!r}")
    if isinstance(value, Rational):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise AnalyzerError(f"{what} must be a finite number, not {value!r}")
        return Fraction(repr(value))
    raise AnalyzerError(f"{what} must be a number, not {type(value).__name__} {value!r}")


def _exact(value: object, what: str) -> Fraction:
    """Nets and probabilities are exact: an int or a Fraction, never a float."""
    if isinstance(value, bool) or not isinstance(value, Rational):
        raise AnalyzerError(
            f"{what} must be exact (an int or a Fraction), not {type(value).__name__} {value!r}"
        )
    return Fraction(value)


def _round_distribution(distribution: object, where: str) -> tuple[tuple[Fraction, Fraction], ...]:
    """The (net, probability) pairs of one round, sorted, zero probabilities dropped."""
    if not isinstance(distribution, Mapping):
        raise AnalyzerError(
            f"{where} must map each net to its probability, not {type(distribution).__name__}"
        )
    if not distribution:
        raise AnalyzerError(f"{where} has no outcomes")
    pairs: dict[Fraction, Fraction] = {}
    for net, probability in distribution.items():
        net_f = _exact(net, f"a net of {where}")
        p = _exact(probability, f"the probability of net {net_f} in {where}")
        if p < 0:
            raise AnalyzerError(f"the probability of net {net_f} in {where} is negative ({p})")
        pairs[net_f] = pairs.get(net_f, Fraction()) + p
    total = sum(pairs.values(), Fraction())
    if total != 1:
        raise AnalyzerError(f"the probabilities of {where} sum to {total}, not 1")
    return tuple(sorted((n, p) for n, p in pairs.items() if p))


def _counts(cycle: int, rounds: int) -> list[int]:
    """Rounds played of each cycle position: full cycles, then the first of a partial one."""
    full, rest = divmod(rounds, cycle)
    return [full + (position < rest) for position in range(cycle)]


# ---------------------------------------------------------------- the session


def session(cycle: Sequence[RoundDistribution], rounds: int, *, method: str = "exact") -> Session:
    """The session of ``rounds`` rounds following ``cycle`` (repeated; the last cycle may
    be partial). Validates everything here, so the statistics only fail on their own
    arguments; the distribution itself is computed on the first statistic that needs it."""
    if method not in METHODS:
        raise AnalyzerError(f"unknown session method {method!r} (use one of {', '.join(METHODS)})")
    if isinstance(rounds, bool) or not isinstance(rounds, int):
        raise AnalyzerError(f"rounds must be a whole number, not {rounds!r}")
    if rounds < 1:
        raise AnalyzerError(f"a session needs at least 1 round, not {rounds}")
    if rounds > MAX_ROUNDS:
        raise AnalyzerError(f"a session has at most {MAX_ROUNDS:,} rounds, not {rounds:,}")
    if isinstance(cycle, Mapping) or not isinstance(cycle, Sequence) or isinstance(cycle, str):
        raise AnalyzerError("the cycle must be a sequence of round distributions, e.g. [banker]")
    if not cycle:
        raise AnalyzerError("the cycle of bets is empty")
    normalised = [
        _round_distribution(d, f"round {i + 1} of the cycle" if len(cycle) > 1 else "the round")
        for i, d in enumerate(cycle)
    ]
    uses: Counter[tuple[tuple[Fraction, Fraction], ...]] = Counter()
    for pairs, count in zip(normalised, _counts(len(cycle), rounds), strict=True):
        if count:
            uses[pairs] += count
    return Session(dict(uses), method)


class Session:
    """The net of a session of independent rounds: exact moments, and probabilities and
    quantiles by the method asked for (see the module's docstring)."""

    def __init__(self, uses: dict[tuple[tuple[Fraction, Fraction], ...], int], method: str):
        self.method = method
        self.rounds = sum(uses.values())
        scale = math.lcm(*(net.denominator for pairs in uses for net, _ in pairs))
        lows = {pairs: pairs[0][0] * scale for pairs in uses}
        step = math.gcd(*(int(net * scale - lows[pairs]) for pairs in uses for net, _ in pairs))
        step = step or 1  # every round has one outcome: a single lattice point
        self._rounds = [
            _Round(
                tuple(int(net * scale - lows[pairs]) // step for net, _ in pairs),
                tuple(p for _, p in pairs),
                count,
            )
            for pairs, count in uses.items()
        ]
        offset = int(sum(lows[pairs] * count for pairs, count in uses.items()))
        size = 1 + sum(r.values[-1] * r.count for r in self._rounds)
        self._lattice = _Lattice(scale, step, offset, size)
        self._moments = [
            (
                sum((p * n for n, p in pairs), Fraction()),
                sum((p * n * n for n, p in pairs), Fraction()),
                count,
                pairs,
            )
            for pairs, count in uses.items()
        ]

    def __repr__(self) -> str:
        return f"Session(rounds={self.rounds}, method={self.method!r})"

    # ------------------------------------------------------------ moments (exact)

    def mean(self) -> SessionValue:
        """Expected net of the session: the sum of the rounds' means (exact, any method)."""
        return SessionValue(self._mean, Fraction(), "exact")

    def variance(self) -> SessionValue:
        """Variance of the net: independent rounds' variances add (exact, any method)."""
        return SessionValue(self._variance, Fraction(), "exact")

    def std_dev(self) -> SessionValue:
        """Square root of the variance: exact when the variance is the square of a
        fraction, otherwise about 41 significant digits with the bound on the rest."""
        return _sqrt(self._variance)

    @cached_property
    def _mean(self) -> Fraction:
        return sum((mean * count for mean, _, count, _ in self._moments), Fraction())

    @cached_property
    def _variance(self) -> Fraction:
        return sum(
            ((second - mean * mean) * count for mean, second, count, _ in self._moments),
            Fraction(),
        )

    # ------------------------------------------------------------ probabilities

    def p_ahead(self) -> SessionValue:
        """P(net > 0): the session ends in profit."""
        if self.method == "normal":
            return self._normal_upper(Fraction(0))
        return self._between(self._lattice.at_most(Fraction(0)) + 1, None)

    def p_behind(self) -> SessionValue:
        """P(net < 0): the session ends in loss."""
        if self.method == "normal":
            return self._normal_lower(Fraction(0))
        return self._between(None, self._lattice.at_least(Fraction(0)) - 1)

    def p_even(self) -> SessionValue:
        """P(net == 0). Not under the normal approximation: a continuous law gives every
        single net probability 0, which is no answer."""
        if self.method == "normal":
            raise AnalyzerError(
                "the normal approximation gives no probability of breaking exactly even"
                " (use method 'exact' or 'numeric')"
            )
        v = self._lattice.at_least(Fraction(0))
        if self._lattice.net(v) != 0:
            return SessionValue(Fraction(), Fraction(), self._distribution.method)
        return self._between(v, v)

    def p_win_at_least(self, amount: object) -> SessionValue:
        """P(net >= amount), amount in units staked per round."""
        x = _number(amount, "the amount")
        if self.method == "normal":
            return self._normal_upper(x)
        return self._between(self._lattice.at_least(x), None)

    def p_lose_at_least(self, amount: object) -> SessionValue:
        """P(net <= -amount): losing ``amount`` units or more."""
        x = _number(amount, "the amount")
        if self.method == "normal":
            return self._normal_lower(-x)
        return self._between(None, self._lattice.at_most(-x))

    def p_between(self, low: object, high: object) -> SessionValue:
        """P(low <= net <= high), both ends included."""
        lo, hi = _number(low, "the low end"), _number(high, "the high end")
        if lo > hi:
            raise AnalyzerError(f"the low end {lo} is above the high end {hi}")
        if self.method == "normal":
            upper, lower = self._normal_lower(hi), self._normal_lower(lo)
            value = min(max(upper.value - lower.value, Fraction()), Fraction(1))
            return SessionValue(value, min(upper.error + lower.error, Fraction(1)), "normal")
        return self._between(self._lattice.at_least(lo), self._lattice.at_most(hi))

    def quantile(self, level: object) -> SessionValue:
        """The smallest net x with P(net <= x) >= level, 0 < level < 1."""
        q = _number(level, "the quantile level")
        if not 0 < q < 1:
            raise AnalyzerError(f"the quantile level must lie strictly between 0 and 1, not {q}")
        if self.method == "normal":
            return self._normal_quantile(q)
        distribution = self._distribution
        lattice = self._lattice
        v, lowest, highest = distribution.quantile(q)
        value = lattice.net(v)
        error = max(value - lattice.net(lowest), lattice.net(highest) - value)
        return SessionValue(value, error, distribution.method)

    def _between(self, low: int | None, high: int | None) -> SessionValue:
        """P(low <= v <= high) on the lattice (None: unbounded)."""
        lo = 0 if low is None else max(low, 0)
        hi = self._lattice.size - 1 if high is None else min(high, self._lattice.size - 1)
        distribution = self._distribution
        if lo > hi:
            return SessionValue(Fraction(), Fraction(), distribution.method)
        value, error = distribution.between(lo, hi)
        return SessionValue(value, error, distribution.method)

    @cached_property
    def _distribution(self) -> _Exact | _Numeric:
        if self.method == "exact":
            if _exact_bits(self._rounds) <= EXACT_MAX_BITS:
                return _Exact(self._rounds, self._lattice.size)
            if _sparse_work(self._rounds) <= SPARSE_MAX_WORK:
                return _Sparse(self._rounds)
        return _numeric(self._rounds, self._lattice.size)

    # ------------------------------------------------------------ normal approximation

    @cached_property
    def _normal(self) -> tuple[NormalDist, Fraction]:
        """The approximating law and the Berry-Esseen bound on sup |F - Phi|."""
        if self._variance == 0:
            raise AnalyzerError(
                "the normal approximation needs a session whose net varies (variance 0)"
            )
        third = Fraction()
        for mean, _, count, pairs in self._moments:
            third += count * sum((p * abs(n - mean) ** 3 for n, p in pairs), Fraction())
        sd = math.sqrt(self._variance)
        bound = BERRY_ESSEEN * float(third) / float(self._variance) / sd
        # The bound's own float arithmetic, and the normal CDF's (a few ulp): 1e-12 covers
        # both with room to spare, since every value here lies in [0, 1].
        bound = Fraction(min(math.nextafter(bound * (1 + 1e-9), math.inf) + 1e-12, 1.0))
        return NormalDist(float(self._mean), sd), bound

    def _normal_lower(self, x: Fraction) -> SessionValue:
        """P(net <= x) under N(mean, variance): Phi((x - mean) / sd)."""
        law, bound = self._normal
        return SessionValue(Fraction(law.cdf(float(x))), bound, "normal")

    def _normal_upper(self, x: Fraction) -> SessionValue:
        """P(net >= x) (or > x: the same number without a continuity correction)."""
        law, bound = self._normal
        return SessionValue(Fraction(1 - law.cdf(float(x))), bound, "normal")

    def _normal_quantile(self, level: Fraction) -> SessionValue:
        """mean + sd * Phi^-1(level). The true quantile lies between the normal quantiles
        of level -/+ the Berry-Esseen bound (the support's ends where those leave (0, 1)):
        below the first the true CDF is still short of ``level``, at the second past it."""
        law, bound = self._normal
        value = Fraction(law.inv_cdf(float(level)))
        lattice = self._lattice
        floor, ceiling = lattice.net(0), lattice.net(lattice.size - 1)
        slack = 1e-12 * (1 + abs(float(value)) + law.stdev)
        low_level, high_level = level - bound, level + bound
        lowest = Fraction(law.inv_cdf(float(low_level)) - slack) if low_level > 0 else floor
        highest = Fraction(law.inv_cdf(float(high_level)) + slack) if high_level < 1 else ceiling
        lowest, highest = max(lowest, floor), min(highest, ceiling)
        error = max(value - lowest, highest - value, Fraction())
        return SessionValue(value, error, "normal")


def _sqrt(variance: Fraction) -> SessionValue:
    """Exact if the numerator and denominator (in lowest terms) are squares; otherwise
    the midpoint of [s, s + 1) / 2**k, s = isqrt(floor(v 4**k)), which holds sqrt(v)
    (floor(sqrt(y)) = isqrt(floor(y))), with k giving about 41 significant digits."""
    a, b = variance.numerator, variance.denominator
    ra, rb = math.isqrt(a), math.isqrt(b)
    if ra * ra == a and rb * rb == b:
        return SessionValue(Fraction(ra, rb), Fraction(), "exact")
    k = _STD_DEV_BITS - (a.bit_length() - b.bit_length()) // 2
    scaled = (a << 2 * k) // b if k >= 0 else a // (b << -2 * k)
    s = math.isqrt(scaled)
    half_step = Fraction(2) ** -(k + 1)
    return SessionValue((2 * s + 1) * half_step, half_step, "numeric")


# ---------------------------------------------------------------- exact convolution


def _denominators(rounds: list[_Round]) -> list[int]:
    return [math.lcm(*(p.denominator for p in r.probabilities)) for r in rounds]


def _exact_bits(rounds: list[_Round]) -> int:
    """Bits of the final packed integer: lattice points times bits per coefficient."""
    size = 1 + sum(r.values[-1] * r.count for r in rounds)
    return size * _slot_bits(rounds)


def _slot_bits(rounds: list[_Round]) -> int:
    """Every coefficient of every partial product is at most the final denominator
    prod D_i**n_i (they are non-negative and sum to it), so that many bits, rounded up
    to whole bytes, keep the packed coefficients apart."""
    bits = sum(d.bit_length() * r.count for d, r in zip(_denominators(rounds), rounds, strict=True))
    return 8 * (bits // 8 + 1)


class _Exact:
    """The session's distribution as integers over one denominator, with prefix sums."""

    method = "exact"

    def __init__(self, rounds: list[_Round], size: int):
        slot = _slot_bits(rounds)
        packed = 1
        self.denominator = 1
        for d, r in zip(_denominators(rounds), rounds, strict=True):
            poly = sum(
                int(p * d) << (slot * v) for v, p in zip(r.values, r.probabilities, strict=True)
            )
            packed *= pow(poly, r.count)
            self.denominator *= d**r.count
        width = slot // 8
        data = packed.to_bytes(width * size, "little")
        self.prefix = list(
            accumulate(
                int.from_bytes(data[i * width : (i + 1) * width], "little") for i in range(size)
            )
        )
        assert self.prefix[-1] == self.denominator

    def between(self, lo: int, hi: int) -> tuple[Fraction, Fraction]:
        below = self.prefix[lo - 1] if lo else 0
        return Fraction(self.prefix[hi] - below, self.denominator), Fraction()

    def quantile(self, level: Fraction) -> tuple[int, int, int]:
        target = level.numerator * self.denominator
        v = bisect.bisect_left(self.prefix, target, key=lambda c: c * level.denominator)
        return v, v, v


def _sparse_work(rounds: list[_Round]) -> int:
    """Rounds times outcomes times the most sums reachable: n rounds of s outcomes reach
    at most C(n + s - 1, s - 1) lattice points (the multisets of outcomes), and never more
    than the lattice has."""
    multisets = math.prod(math.comb(r.count + len(r.values) - 1, len(r.values) - 1) for r in rounds)
    reachable = min(multisets, 1 + sum(r.values[-1] * r.count for r in rounds))
    return reachable * sum(r.count * len(r.values) for r in rounds)


class _Sparse:
    """The exact distribution as a dict of reachable lattice points, for lattices too
    fine to lay out densely (few rounds of finely divided nets)."""

    method = "exact"

    def __init__(self, rounds: list[_Round]):
        ways: dict[int, int] = {0: 1}
        self.denominator = 1
        for d, r in zip(_denominators(rounds), rounds, strict=True):
            outcomes = [(v, int(p * d)) for v, p in zip(r.values, r.probabilities, strict=True)]
            for _ in range(r.count):
                step: dict[int, int] = {}
                for point, count in ways.items():
                    for v, c in outcomes:
                        step[point + v] = step.get(point + v, 0) + count * c
                ways = step
            self.denominator *= d**r.count
        self.points = sorted(ways)
        self.prefix = list(accumulate(ways[v] for v in self.points))

    def between(self, lo: int, hi: int) -> tuple[Fraction, Fraction]:
        i, j = bisect.bisect_left(self.points, lo), bisect.bisect_right(self.points, hi)
        if i >= j:
            return Fraction(), Fraction()
        below = self.prefix[i - 1] if i else 0
        return Fraction(self.prefix[j - 1] - below, self.denominator), Fraction()

    def quantile(self, level: Fraction) -> tuple[int, int, int]:
        target = level.numerator * self.denominator
        i = bisect.bisect_left(self.prefix, target, key=lambda c: c * level.denominator)
        return self.points[i], self.points[i], self.points[i]


# ---------------------------------------------------------------- numeric convolution


@dataclass(frozen=True)
class _Numeric:
    """The session's CDF on the window ``start .. start + len(cdf) - 1``, with one bound
    on the error of every probability taken from it."""

    start: int
    cdf: np.ndarray  # long double prefix sums of the window's probabilities
    size: int  # lattice points of the whole session
    error: float
    method: str = "numeric"

    def at_most(self, v: int) -> float:
        if v < self.start:
            return 0.0
        if v >= self.start + len(self.cdf) - 1:
            return 1.0
        return float(self.cdf[v - self.start])

    def between(self, lo: int, hi: int) -> tuple[Fraction, Fraction]:
        if lo <= 0 and hi >= self.size - 1:
            return Fraction(1), Fraction()
        value = self.at_most(hi) - self.at_most(lo - 1)
        return Fraction(min(max(value, 0.0), 1.0)), Fraction(self.error)

    def quantile(self, level: Fraction) -> tuple[int, int, int]:
        """The estimate, and the lattice points the true quantile lies between: where the
        estimated CDF plus the bound first reaches the level (below it the true CDF is
        short of it) and where the CDF less the bound does (there the true CDF is past it)."""
        q = float(level)
        cdf = self.cdf.astype(np.float64)

        last = self.start + len(cdf) - 1  # at_most: the CDF is 1 from here on

        def first(threshold: float, beyond: int) -> int:
            if threshold <= 0:
                return 0
            reached = cdf[:-1] >= threshold  # the estimate may dip: the first point past it
            return self.start + int(np.argmax(reached)) if reached.any() else beyond

        # float(level) is within half an ulp of the level; the bound absorbs it.
        slack = self.error + 1e-16
        return first(q, last), first(q - slack, last), first(q + slack, self.size - 1)


def _numeric(rounds: list[_Round], size: int) -> _Numeric:
    """The distribution of V = sum of the rounds' lattice steps, by FFT on a window.

    Window: [C, C + M), M a power of two, wide enough that a Chernoff bound leaves at
    most TAIL_MASS of V outside it (or the whole support when that is no wider).
    Frequencies theta_k = 2 pi k / M. Each round's characteristic function is taken
    about an anchor c (a multiple of 2**-10): E e^{i theta X} = e^{i theta c} psi(theta),
    psi = 1 + w, w = sum p (e^{ix} - 1) with e^{ix} - 1 = -2 sin^2(x/2) + i sin x (no
    cancellation at small x), x = theta (v - c) reduced exactly modulo 2 pi. Per
    frequency the anchor is the round's mean (w small near theta = 0) or its likeliest
    net (w small wherever else |psi| is near 1), whichever bounds the error lower, so
    n log psi stays small wherever psi**n matters and its rounding is not multiplied by
    a large phase. The phases n theta c and theta C are exact integer fractions of a
    turn, rounded once. Then A_k = conj(prod e^{i n theta c} psi**n e^{-i theta C}) is
    the window's DFT and irfft(A) its distribution, aliased by the mass outside it.

    Error of every probability taken from it, each term bounded per frequency with the
    float arithmetic's standard model (and libm within _LIBM of the true function):
      - E_k >= |A_k computed - A_k|: the error in sum n_i L_i (from w_i's, through
        |L(w) - L(w')| <= |w - w'| / (|1 + w| - |w - w'|), plus rounding of the log and
        the sum), then |e^Z - e^Z'| <= |e^Z'| expm1(|Z - Z'|); where 1 + w_i may be near
        0 the cruder |A computed| + prod (|1 + w_i| + e_w)^n_i (at most 1 + 1).
        The inverse DFT maps them to at most sum_k E_k over the whole window (L1).
      - the inverse FFT's own rounding: 20 log2(M) u ||p||_2 in 2-norm (Higham, Thm 24.2,
        with room for pocketfft's mixed radices), times sqrt(M) for any sum of entries.
      - the long double prefix sums: M eps sum |p| each, twice for an interval.
      - the tail: aliasing and the mass outside the window move any event's probability
        by at most the mass outside, T (Chernoff, interval arithmetic).
    """
    n_terms = sum(len(r.values) for r in rounds)
    lo, hi, plans = _window(rounds, size, TAIL_MASS / 2)
    m = max(2, 1 << (hi - lo).bit_length())
    while True:
        if m >= size:  # the whole support fits: nothing outside, nothing aliased
            m, start, tail = max(2, 1 << (size - 1).bit_length()), 0, 0.0
            break
        start = min(max(lo - (m - (hi - lo + 1)) // 2, 0), size - m)
        tail = _tail(rounds, size, start, m, plans)
        if tail <= 2 * TAIL_MASS:
            break
        m *= 2  # the float search was optimistic: widen until the bound holds
    if m > MAX_WINDOW or n_terms * (m // 2 + 1) > MAX_TERMS:
        raise AnalyzerError(
            f"a session of {sum(r.count for r in rounds):,} rounds on these nets needs"
            f" {m:,} lattice points to convolve, more than the {MAX_WINDOW:,} allowed"
            " (the nets' denominators make the lattice too fine; fewer rounds, or"
            " method 'normal')"
        )
    half = m // 2 + 1
    k_int = np.arange(half, dtype=np.int64)
    exponent_re = np.zeros(half)  # sum n_i L_i, real and imaginary parts (the real
    exponent_im = np.zeros(half)  # part is -inf where some psi_i is 0)
    abs_terms = np.zeros(half)  # sum |n_i L_i|
    delta = np.zeros(half)  # bound on |sum n_i L_i computed - true|
    log_upper = np.zeros(half)  # log of an upper bound on prod |psi_i|^n_i
    near_zero = np.zeros(half, dtype=bool)
    unit = 1 << _CENTRE_BITS
    turn = unit * m  # phases are counted in 1 / (unit M) of a turn, exactly
    turns = (k_int * (-start * unit % turn)) % turn
    for r in rounds:
        # Two anchors: the mean (w small near theta = 0) and the likeliest net (w small
        # wherever else |psi| is near 1, since the heavy outcomes then turn together).
        heaviest = max(zip(r.probabilities, r.values, strict=True))[1]
        anchors = (Fraction(round(r.mean * unit), unit), Fraction(heaviest))
        logs = [_log_psi(r, anchor, k_int, m) for anchor in anchors]
        cost = [err + _U * np.hypot(lr, li) for lr, li, err, _, _ in logs]
        second = cost[1] < cost[0]
        log_re, log_im, err_log, usable, bound_log = (
            np.where(second, x1, x0) for x0, x1 in zip(*logs, strict=True)
        )
        shift = [int(anchor * unit * r.count) % turn for anchor in anchors]
        turns = (turns + k_int * np.where(second, shift[1], shift[0])) % turn
        log_upper += bound_log
        near_zero |= ~usable
        term_re, term_im = r.count * log_re, r.count * log_im
        exponent_re += term_re
        exponent_im += term_im
        abs_terms += np.hypot(term_re, term_im)
        delta += r.count * err_log
    exponent_im += turns * (2 * math.pi / turn)
    delta = (delta * (1 + 1e-9) + (len(rounds) + 2) * _U * abs_terms) + 20 * _U
    delta += _U * np.hypot(exponent_re, exponent_im)
    magnitude = np.exp(exponent_re)
    spectrum = magnitude * np.exp(-1j * exponent_im)  # conj: numpy's forward sign
    with np.errstate(over="ignore", invalid="ignore"):
        careful = magnitude * (1 + _LIBM) * (np.expm1(delta) * (1 + 1e-9) + 4 * _LIBM)
        crude = np.abs(spectrum) + np.minimum(np.exp(np.minimum(log_upper, 0)) * 1.001, 1)
        per_k = np.where(near_zero | ~np.isfinite(careful) | (delta > 1), crude, careful)
    per_k = np.minimum(per_k, crude) + 1e-300
    weights = np.full(half, 2.0)
    weights[0] = 1.0
    if m % 2 == 0:
        weights[-1] = 1.0
    spectral = float(np.dot(weights, per_k)) * (1 + 1e-9)
    probabilities = np.fft.irfft(spectrum, n=m)
    norm2 = float(np.sqrt(np.dot(probabilities, probabilities)))
    fft = 20 * math.log2(m) * _U * norm2 * math.sqrt(m) * 1.01 + m * 1e-300
    cdf = np.cumsum(probabilities.astype(np.longdouble))
    eps = float(np.finfo(np.longdouble).eps) / 2
    summing = m * eps * float(np.sum(np.abs(probabilities))) * 1.01
    error = (spectral + fft + 2 * summing + tail + 8 * _U) * (1 + 1e-6)
    return _Numeric(start, cdf, size, min(error, 1.0))


def _log_psi(
    r: _Round, anchor: Fraction, k: np.ndarray, m: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """log psi(theta) = log E e^{i theta (X - anchor)} = log1p(w), as real and imaginary
    parts, with a bound on its error; where 1 + w may be too near 0 for that bound
    (``usable`` false), the log of a bound on |psi|**n instead.

    |1 + w| = hypot(1 + a, b) (w = a + ib; 1 + a is exact for a in [-2, -1/2] by
    Sterbenz, else within u|1 + a|), within 2 libm errors; log|1 + w| is the log of that
    where |1 + w|**2 < 1/2, else log1p(c) / 2 with c = a (2 + a) + b**2 (no cancellation
    near w = 0), off by |c computed - c| / 2 / (1 + c) and libm; arg = atan2(b, 1 + a),
    where rounding 1 + a moves it by at most u|b| / |1 + w|; and L(w) - L(w') is at most
    |w - w'| / (|1 + w| - |w - w'|) along the segment (L is analytic off -1)."""
    a, b, err_w = _w(r, anchor, k, m)
    real = 1 + a
    modulus = np.hypot(real, b)
    modulus_low, modulus_high = modulus * (1 - 2.1 * _LIBM), modulus * (1 + 2.1 * _LIBM)
    c = a * (2 + a) + b * b  # |1 + w|**2 - 1
    err_c = 3.1 * _U * (np.abs(a) * (2 + a) + b * b)
    near_one = c > -0.5
    usable = modulus_low > 2 * err_w
    with np.errstate(divide="ignore", invalid="ignore"):
        log_re = np.where(near_one, 0.5 * np.log1p(c), np.log(modulus))
        log_im = np.arctan2(b, real)
        err_re = np.where(
            near_one, 0.5 * err_c / np.maximum(1 + c - err_c, 0.25), 2.2 * _LIBM
        ) + 1.1 * _LIBM * np.abs(log_re)
        safe_low = np.where(usable, modulus_low, 1.0)
        err_log = np.where(
            usable,
            err_w / (safe_low - err_w)
            + err_re
            + 1.03 * _U * np.abs(b) / safe_low
            + 1.1 * _LIBM * np.abs(log_im),
            np.inf,
        )
        bound_log = r.count * np.log(modulus_high + err_w)
    bound_log += 1e-12 * np.abs(bound_log) + 1e-300
    return log_re, log_im, err_log, usable, bound_log


def _w(
    r: _Round, anchor: Fraction, k: np.ndarray, m: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """w = E e^{i theta_k (X - anchor)} - 1, and a bound on its error.

    The angle theta_k d = 2 pi k d / M, d = v - anchor a multiple of 2**-10, is reduced
    exactly: j = k (2**10 d) mod 2**10 M as an integer, taken in (-turn/2, turn/2], then
    x = j (2 pi / turn) once rounded: at most 2u|x| from an angle equal to the true one
    modulo 2 pi, which moves w by at most 2u sum p|x|. Then -2 sin^2(x/2) and sin x are
    within 10u and 4u of their values at the computed x (relative, libm within _LIBM);
    the probabilities are rounded once (u) and summed in order ((s - 1)u times the sum of
    |terms|; the real terms share one sign, so that sum is |w_re|)."""
    s = len(r.values)
    unit = 1 << _CENTRE_BITS
    turn = unit * m
    w_re = np.zeros(len(k))
    w_im = np.zeros(len(k))
    abs_im = np.zeros(len(k))
    abs_x = np.zeros(len(k))
    for v, p in zip(r.values, r.probabilities, strict=True):
        steps = int((v - anchor) * unit) % turn
        j = (k * steps) % turn
        x = np.where(j > turn // 2, j - turn, j) * (2 * math.pi / turn)
        pf = float(p)
        half_sine = np.sin(x * 0.5)
        w_re += pf * (-2 * half_sine * half_sine)
        sine = pf * np.sin(x)
        w_im += sine
        abs_im += np.abs(sine)
        abs_x += pf * np.abs(x)
    real_share = (s + 2 * _LIBM / _U + 4) * _U * np.abs(w_re)
    imag_share = (s + _LIBM / _U + 3) * _U * abs_im
    err = (real_share + imag_share + 2 * _U * abs_x) * 1.01
    return w_re, w_im, err


# ---------------------------------------------------------------- tails


def _cumulant(rounds: list[_Round], centres: list[float], theta: float) -> tuple[float, float]:
    """K(theta) = sum n_i log E e^{theta (X_i - m_i)} and K'(theta), in floats."""
    value = slope = 0.0
    for r, centre in zip(rounds, centres, strict=True):
        d = np.array([v - centre for v in r.values], dtype=np.float64)
        p = np.array([float(q) for q in r.probabilities])
        top = float(np.max(theta * d))
        e = p * np.exp(theta * d - top)
        total = float(np.sum(e))
        value += r.count * (top + math.log(total))
        slope += r.count * float(np.dot(e, d)) / total
    return value, slope


def _edge(rounds: list[_Round], sign: int, budget: float) -> tuple[float, float] | None:
    """(t, theta) with P(sign (V - sum n m) >= t) <= budget by Chernoff at theta, the
    smallest t found by bisection on theta; None if only the support's end achieves it."""
    flipped = [_Round(tuple(sign * v for v in r.values), r.probabilities, r.count) for r in rounds]
    centres = [float(r.mean) for r in flipped]
    target = math.log(budget)
    # theta -> infinity: the bound tends to the probability of every round's extreme.
    extreme = sum(
        r.count * math.log(float(max(zip(r.values, r.probabilities, strict=True))[1]))
        for r in flipped
    )
    if extreme > target:
        return None

    def rate(theta: float) -> tuple[float, float]:
        value, slope = _cumulant(flipped, centres, theta)
        return value - theta * slope, slope

    low, high = 0.0, 1e-6
    while rate(high)[0] > target:
        low, high = high, high * 2
        if high > 1e6:
            return None
    for _ in range(60):
        middle = 0.5 * (low + high)
        if rate(middle)[0] > target:
            low = middle
        else:
            high = middle
    return rate(high)[1], high


def _window(
    rounds: list[_Round], size: int, budget: float
) -> tuple[int, int, dict[int, float | None]]:
    """Lattice points [lo, hi] outside which each tail holds at most ``budget`` (by the
    float search; :func:`_tail` checks the window finally used rigorously)."""
    mean = float(sum((r.mean * r.count for r in rounds), Fraction()))
    up, down = _edge(rounds, 1, budget), _edge(rounds, -1, budget)
    hi = size - 1 if up is None else min(size - 1, math.ceil(mean + up[0]) + 1)
    lo = 0 if down is None else max(0, math.floor(mean - down[0]) - 1)
    return lo, hi, {1: None if up is None else up[1], -1: None if down is None else down[1]}


def _tail(
    rounds: list[_Round], size: int, start: int, m: int, plans: dict[int, float | None]
) -> float:
    """A rigorous upper bound on P(V < start) + P(V >= start + m): Chernoff's
    P(V >= a) <= e^{-theta a} prod_i (E e^{theta X_i})^{n_i}, any theta > 0, evaluated
    in interval arithmetic at the theta the float search chose."""
    total = 0.0
    for sign, edge in ((1, start + m), (-1, start - 1)):
        if (sign == 1 and edge > size - 1) or (sign == -1 and edge < 0):
            continue  # that side of the window is the support's end: nothing outside
        theta = plans[sign]
        if theta is None:
            return 1.0  # the search found no useful bound: the window is the support
        total += _chernoff(rounds, sign, edge, theta)
    return total


def _chernoff(rounds: list[_Round], sign: int, edge: int, theta: float) -> float:
    """Upper bound on P(sign V >= sign edge) at theta, as a float rounded up."""
    iv = mpmath.iv
    with mpmath.workprec(96):
        t = iv.mpf(theta)
        log_bound = -t * iv.mpf(sign * edge)
        for r in rounds:
            moment = iv.mpf(0)
            for v, p in zip(r.values, r.probabilities, strict=True):
                moment += iv.mpf(p.numerator) / p.denominator * iv.exp(t * (sign * v))
            log_bound += r.count * iv.log(moment)
        bound = iv.exp(log_bound)
        return math.nextafter(float(mpmath.mpf(bound.b)), math.inf)
