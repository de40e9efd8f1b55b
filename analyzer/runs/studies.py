"""Published counting studies checked by dealing shoes: ``verify``'s counting claims.

A study says how it counted (tags, the true count at which it bet, its divisor) and how
the shoes were dealt (cut card, burn, last round); its figure (how often it bet, its edge
when betting, units won per shoe or per 100 rounds, rounds per shoe) is estimated here by
counting ``shoes`` shoes with a fixed seed, exactly as ``count`` does, and a printed figure
passes when it lies within a few standard errors of the estimate.
"""

from __future__ import annotations

import json

import numpy as np
from tqdm import tqdm

from analyzer.analysis.verify import Simulated
from analyzer.errors import AnalyzerError
from analyzer.paytables.claims import Claim, CountingSpec
from analyzer.paytables.model import Paytable, restricted
from analyzer.progress import bar_options
from analyzer.runs.counting import TRUE_COUNT_DECKS, CountJob, count_partition, parse_tags
from analyzer.runs.dealer import LAST_ROUND_RULES, Procedure
from analyzer.runs.stats import ratio_and_error
from analyzer.words import counted

#: Shoes dealt at once: a partition of a count (its per-round arrays stay small).
_CHUNK = 2_000


def _job(claim: Claim, paytable: Paytable, decks: int) -> CountJob:
    spec = claim.counting
    assert spec is not None
    offered = {mode: bet.settlement for bet, mode in paytable.offered(paytable.modes, (claim.bet,))}
    if claim.mode is None and len(set(offered.values())) > 1:
        raise AnalyzerError(
            f"bet {claim.bet!r} pays differently by mode; name the 'mode' ({', '.join(offered)})"
        )
    mode = claim.mode or next(iter(offered), paytable.modes[0])
    paytable.bet(claim.bet, mode)  # offered in that mode, or one line
    single = restricted(paytable, ((claim.bet, mode),))
    defaults = Procedure(decks)
    if spec.last_round is not None and spec.last_round not in LAST_ROUND_RULES:
        raise AnalyzerError(
            f"'last_round' must be one of {', '.join(LAST_ROUND_RULES)}, got {spec.last_round!r}"
        )
    procedure = Procedure(
        decks,
        defaults.cut_card if spec.cut_card is None else spec.cut_card,
        defaults.burn if spec.burn is None else spec.burn,
        defaults.last_round if spec.last_round is None else spec.last_round,
    )
    if spec.true_count_decks is not None and spec.true_count_decks not in TRUE_COUNT_DECKS:
        raise AnalyzerError(
            f"'true_count_decks' must be one of {', '.join(TRUE_COUNT_DECKS)}, "
            f"got {spec.true_count_decks!r}"
        )
    tags = thresholds = None
    if spec.tags is not None:
        if spec.threshold is None:
            raise AnalyzerError("a counting claim with 'tags' needs the study's 'threshold'")
        tags = (tuple(int(t) for t in parse_tags(spec.tags)),)
        thresholds = (spec.threshold,)
    elif spec.threshold is not None or spec.true_count_decks is not None:
        raise AnalyzerError(
            "a counting claim without 'tags' is perfect play (bet when the exact EV is "
            "positive): it takes no 'threshold' or 'true_count_decks'"
        )
    return CountJob(
        single,
        ((claim.bet, mode),),
        procedure,
        claim.counting.seed,
        tags,
        thresholds,
        spec.true_count_decks or TRUE_COUNT_DECKS[0],
    )


def _deal(job: CountJob, shoes: int, what: str) -> list[dict[str, np.ndarray]]:
    """Count ``shoes`` shoes in partitions of :data:`_CHUNK`, with a progress bar."""
    sizes = [min(_CHUNK, shoes - first) for first in range(0, shoes, _CHUNK)]
    results = []
    with tqdm(total=shoes, unit=" shoes", desc=what, **bar_options()) as bar:
        for index, size in enumerate(sizes):
            results.append(count_partition(job, index, size))
            bar.update(size)
    return results


def _figure(spec: CountingSpec, results: list[dict[str, np.ndarray]]) -> tuple[float, float]:
    """The study's figure and its standard error over the shoes, with the bet's max round."""
    rounds = np.concatenate([r["rounds"] for r in results]).astype(np.float64)
    bets = np.concatenate([r["with_limit_bets"][:, 0] for r in results])
    gain = np.concatenate([r["with_limit_gain"][:, 0] for r in results])
    shoes = len(rounds)
    if spec.statistic == "rounds_per_shoe":
        return float(rounds.mean()), float(rounds.std(ddof=1) / np.sqrt(shoes))
    if spec.statistic == "units_per_shoe":
        return float(gain.mean()), float(gain.std(ddof=1) / np.sqrt(shoes))
    if spec.statistic == "bet_frequency":
        value, error = ratio_and_error(bets, rounds)
    elif spec.statistic == "edge_when_bet":
        if not bets.sum():
            raise AnalyzerError("the study never bets on these shoes: it has no edge when betting")
        value, error = ratio_and_error(gain, bets)
    else:  # units_per_100_rounds
        value, error = ratio_and_error(100 * gain, rounds)
    return float(value), float(error or 0.0)


class CountingStudies:
    """The :class:`~analyzer.analysis.verify.Simulator` of counting claims. Claims about
    one study (the same bet, count and conventions, shoes and seed: its bet frequency, its
    edge, its units per shoe...) share one run of its shoes."""

    def __init__(self) -> None:
        self._runs: dict[str, list[dict[str, np.ndarray]]] = {}

    def check(self, claim: Claim, paytable: Paytable, decks: int) -> None:
        _job(claim, paytable, decks)

    def run(self, claim: Claim, paytable: Paytable, decks: int) -> Simulated:
        spec = claim.counting
        assert spec is not None
        job = _job(claim, paytable, decks)
        key = json.dumps([job.identity, spec.shoes], sort_keys=True)
        if key not in self._runs:
            self._runs[key] = _deal(job, spec.shoes, f"claim {claim.number}")
        value, error = _figure(spec, self._runs[key])
        play = "perfect play" if job.tags is None else f"true count >= {spec.threshold:g}"
        return Simulated(
            value,
            error,
            f"{counted(spec.shoes, 'shoe')} of {counted(decks, 'deck')}, seed {spec.seed}, {play}",
        )
