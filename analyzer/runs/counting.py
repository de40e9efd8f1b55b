"""Card counting against one bet, round by round, with and without the max-round limit.

For every round of every dealt shoe the exact expected value of the bet on the cards that
remain (the batch engine) is known. A *linear count* sums tags of the cards the counter has
seen (the shown burn card and every card of earlier rounds; burned cards stay hidden) and
bets one unit when the true count (running count per deck left) reaches a threshold;
*perfect play* bets exactly when the EV is positive. Gains are expected values, not
sampled outcomes, so the estimates carry only the variance of the shoes.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from analyzer.engine.batch import batch_expected_values
from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_RANKS, N_SUITS, RANKS, parse_rank
from analyzer.paytables.model import Paytable
from analyzer.runs.dealer import N_CARD_TYPES, Procedure, deal_shoe, join_rounds, shuffled_shoe
from analyzer.runs.runner import Result, partition_rng
from analyzer.runs.stats import ratio_and_error

STRATEGIES = ("with_limit", "without_limit")


def parse_tags(text: str, limit: int = 1000) -> np.ndarray:
    """``"A=0,2=1,...,K=-1"`` -> tag per rank (ranks not named count 0).

    Each rank is tagged once (``10`` and ``T`` are one rank) with a whole number of at
    most ``limit`` in size, so a running count over a whole shoe stays far inside int64.
    """
    tags = np.zeros(N_RANKS, dtype=np.int64)
    named: dict[int, str] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        rank_text, sep, value = item.partition("=")
        if not sep:
            raise AnalyzerError(f"bad tag {item!r}: write RANK=INTEGER, e.g. 5=-2")
        try:
            rank = parse_rank(rank_text)
        except AnalyzerError as exc:
            raise AnalyzerError(f"bad tag {item!r}: {exc}") from None
        if rank in named:
            raise AnalyzerError(f"bad tag {item!r}: rank {RANKS[rank]} is already tagged")
        value = value.strip()
        if not re.fullmatch(r"[+-]?[0-9]{1,12}", value):
            raise AnalyzerError(f"bad tag {item!r}: {value[:20]!r} is not an integer")
        if abs(int(value)) > limit:
            raise AnalyzerError(f"bad tag {item!r}: a tag is at most {limit} in size")
        named[rank] = item
        tags[rank] = int(value)
    return tags


@dataclass(frozen=True)
class CountJob:
    """A counting run against the one (bet, mode) of ``paytable`` (see ``restricted``):
    shoes dealt by ``procedure``; ``tags`` per rank and ``threshold`` for a linear count,
    or ``tags`` None for perfect play (bet when the exact EV is positive)."""

    paytable: Paytable
    procedure: Procedure
    seed: int
    tags: tuple[int, ...] | None = None
    threshold: float = 0.0

    @property
    def identity(self) -> dict[str, Any]:
        """Everything the result depends on (saved partitions are matched against it)."""
        bet, mode = self.paytable.bets[0], self.paytable.modes[0]
        return {
            "command": "count",
            "paytable": self.paytable.fingerprint,
            "bet": bet.id,
            "mode": mode,
            "procedure": asdict(self.procedure),
            "seed": self.seed,
            "tags": None if self.tags is None else list(self.tags),
            "threshold": None if self.tags is None else self.threshold,
        }


def count_partition(job: CountJob, index: int, shoes: int) -> Result:
    """Deal ``shoes`` shoes and record, per shoe and per round number, what each strategy
    bets and expects."""
    paytable, procedure, tags = job.paytable, job.procedure, job.tags
    bet = paytable.bets[0]
    rng = partition_rng(job.seed, index)
    full = np.full(N_CARD_TYPES, procedure.decks, dtype=np.int64)
    compositions, records, seen_counts, shoe_of_round = [], [], [], []
    tag_of_card = None if tags is None else np.repeat(np.asarray(tags, dtype=np.int64), N_SUITS)
    for shoe in range(shoes):
        cards = shuffled_shoe(rng, procedure.decks)
        rounds = deal_shoe(cards, procedure)
        starts = rounds["start"]
        dealt_before = np.zeros((len(cards) + 1, N_CARD_TYPES), dtype=np.int64)
        dealt_before[np.arange(1, len(cards) + 1), cards] = 1
        dealt_before = np.cumsum(dealt_before, axis=0)
        compositions.append(full - dealt_before[starts])
        records.append(rounds)
        shoe_of_round.append(np.full(len(rounds), shoe))
        if tag_of_card is not None:
            # Seen: the shown first card, then every card of the rounds before this one.
            running = np.concatenate([[0], np.cumsum(tag_of_card[cards])])
            shown = tag_of_card[cards[0]] if procedure.burn else 0
            first = starts[0]
            seen_counts.append(shown + running[starts] - running[first])
    compositions = np.concatenate(compositions)
    records = join_rounds(records)
    shoe_of_round = np.concatenate(shoe_of_round)
    ev = batch_expected_values(paytable, compositions).to_numpy()[:, 0]
    if tag_of_card is None:
        wants = ev > 0
    else:
        decks_left = (procedure.cards - records["start"]) / 52
        wants = np.concatenate(seen_counts) / decks_left >= job.threshold
    round_number = records["round"]
    limit = bet.max_round or np.iinfo(np.int64).max
    result: Result = {"rounds": np.bincount(shoe_of_round, minlength=shoes).astype(np.int64)}
    for name, bets in (("with_limit", wants & (round_number <= limit)), ("without_limit", wants)):
        result[f"{name}_bets"] = np.bincount(shoe_of_round, weights=bets, minlength=shoes)
        result[f"{name}_gain"] = np.bincount(shoe_of_round, weights=ev * bets, minlength=shoes)
    by_round = procedure.cards // 4 + 2
    result["round_count"] = np.bincount(round_number, minlength=by_round).astype(np.float64)
    result["round_ev"] = np.bincount(round_number, weights=ev, minlength=by_round)
    result["round_positive"] = np.bincount(round_number, weights=ev > 0, minlength=by_round)
    result["round_bets"] = np.bincount(round_number, weights=wants, minlength=by_round)
    return result


def count_summary(results: list[Result]) -> dict[str, Any]:
    """Per strategy: bet frequency, edge when betting, units per shoe and per 100 rounds,
    each with its standard error over shoes."""
    rounds = np.concatenate([r["rounds"] for r in results]).astype(np.float64)
    shoes = len(rounds)
    summary: dict[str, Any] = {"shoes": shoes, "rounds_per_shoe": float(rounds.mean())}
    for name in STRATEGIES:
        bets = np.concatenate([r[f"{name}_bets"] for r in results])
        gain = np.concatenate([r[f"{name}_gain"] for r in results])
        frequency, frequency_error = ratio_and_error(bets, rounds)
        edge, edge_error = ratio_and_error(gain, bets)
        per_100, per_100_error = ratio_and_error(100 * gain, rounds)
        summary[name] = {
            "bet_frequency": frequency,
            "bet_frequency_se": frequency_error,
            "edge_when_bet": edge,
            "edge_when_bet_se": edge_error,
            "units_per_shoe": float(gain.mean()),
            "units_per_shoe_se": float(gain.std(ddof=1) / np.sqrt(shoes)) if shoes > 1 else None,
            "units_per_100_rounds": per_100,
            "units_per_100_rounds_se": per_100_error,
        }
    return summary


def per_round_table(results: list[Result]) -> pd.DataFrame:
    """By round number: shoes reaching it, share with positive EV, mean EV, share bet."""
    total = {
        key: sum(r[key] for r in results)
        for key in ("round_count", "round_ev", "round_positive", "round_bets")
    }
    count = total["round_count"]
    played = np.nonzero(count)[0]
    return pd.DataFrame(
        {
            "round": played,
            "shoes": count[played].astype(np.int64),
            "positive_ev_share": total["round_positive"][played] / count[played],
            "mean_ev": total["round_ev"][played] / count[played],
            "bet_share_without_limit": total["round_bets"][played] / count[played],
        }
    )


def default_threshold(effects: pd.DataFrame, tags: np.ndarray, base_ev: float, decks: int) -> float:
    """True count at which the linear model of the EORs puts the bet at break-even.

    Regressing the EORs on the tags (weighted by cards per rank) gives the EV change per
    unit of running count, ``beta``; as the shoe shrinks every EOR grows like N0 / N, so at
    true count TC (running count TC * N / 52) the EV is about ``base_ev + beta * TC * decks``.
    """
    eor = effects["delta_ev"].to_numpy()
    cards = effects["cards"].to_numpy(dtype=float)
    ranks = [RANKS.index(r) for r in effects["rank"]]
    t = tags[ranks].astype(float)
    w = cards / cards.sum()
    t_c = t - (w * t).sum()
    denominator = (w * t_c**2).sum()
    if denominator == 0:
        raise AnalyzerError("the tags are all equal: give --threshold, or other --tags")
    beta = (w * t_c * (eor - (w * eor).sum())).sum() / denominator
    if beta <= 0:
        raise AnalyzerError(
            "with these tags a higher count does not favour the bet: give "
            "--threshold, or other --tags"
        )
    return float(np.ceil(10 * (-base_ev / (beta * decks))) / 10)


_COUNT_SHOE_ARRAYS = {
    "rounds": np.int64,
    **{f"{name}_{what}": np.float64 for name in STRATEGIES for what in ("bets", "gain")},
}
_COUNT_ROUND_ARRAYS = ("round_count", "round_ev", "round_positive", "round_bets")


def check_count_partition(result: Result, shoes: int) -> None:
    """Raise ``ValueError`` unless ``result`` has the keys, shapes and dtypes that
    :func:`count_partition` gives for ``shoes`` shoes (a saved file is checked before it
    is trusted): one value per shoe, and per-round arrays of one common length."""
    expected = set(_COUNT_SHOE_ARRAYS) | set(_COUNT_ROUND_ARRAYS)
    if set(result) != expected:
        raise ValueError(f"keys {sorted(result)}, expected {sorted(expected)}")
    for key, dtype in _COUNT_SHOE_ARRAYS.items():
        if result[key].dtype != dtype or result[key].shape != (shoes,):
            raise ValueError(f"{key}: {result[key].dtype} {result[key].shape}")
    length = result["round_count"].shape
    for key in _COUNT_ROUND_ARRAYS:
        array = result[key]
        if array.dtype != np.float64 or array.ndim != 1 or array.shape != length or not len(array):
            raise ValueError(f"{key}: {array.dtype} {array.shape}")
