"""Writing the rounds ``simulate`` deals as a log ``audit`` reads (:mod:`analyzer.runs.audit_log`).

One row per round, the rounds of each shoe together and in deal order, as CSV (a header
row, UTF-8) or Parquet. Columns: ``shoe`` (numbered from 1 over the run), ``round``
(from 1 in each shoe), ``player_cards`` and ``banker_cards`` (each hand's cards in deal
order, third card included: ``"2S 3H 8D"``), ``burn`` (on a shoe's first round: the card
shown and the cards burned after it; empty on the others), ``winner``, ``player_score``,
``banker_score``, with a multiplier model ``specials`` (each special card of the round
once, in deal order, with its multiplier: ``"8S:2 KH:5"``; audit does not read it), and
per bet and mode on offer ``pay:<bet id>`` (the paytable's first mode) or
``pay:<bet id>:<mode>``: the net per unit staked, any fee paid, that the simulation
settled; empty on a round after the bet's max round.

A log of another game of the family (:mod:`analyzer.game.games`) names its hands, as
``audit`` reads it (:mod:`analyzer.analysis.audit_game`): ``shoe``, ``round``,
``<hand>_cards`` for each hand (its cards in the order it took them: the first deal, then
a card after it), ``burn``, ``winner`` (a hand's name or the tie word), ``<hand>_score``
for each hand, ``action`` (a game with a player's decision: the action each round was
played by, each bet's exact strategy's) and the payouts, per base stake.

The partitions are dealt one after another in this process, with the random numbers
``simulate`` uses, so the log holds exactly the rounds ``simulate`` reports on; rows are
written a chunk at a time as each partition is settled: memory stays bounded by a
partition whatever the number of shoes.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from tqdm import tqdm

from analyzer.analysis.audit import card_text, payout_column
from analyzer.analysis.audit_game import hand_columns, score_columns
from analyzer.errors import AnalyzerError
from analyzer.progress import bar_options
from analyzer.runs.runner import Result
from analyzer.runs.simulate import (
    SettledGameRounds,
    SettledRounds,
    SimulationJob,
    settle_partition,
)

#: The log formats, by the file's suffix.
LOG_SUFFIXES = (".csv", ".parquet")
#: Rows formatted and written at a time.
CHUNK_ROWS = 20_000
#: The columns before the payouts (``specials`` only with a multiplier model).
FIXED_COLUMNS = (
    "shoe",
    "round",
    "player_cards",
    "banker_cards",
    "burn",
    "winner",
    "player_score",
    "banker_score",
)
SPECIALS = "specials"
#: The column of the cards a decision was shown where they are random: their names, in
#: the decision's order, space-separated ("none" where none was shown).
SHOWN = "shown"
#: Each card index's text, and "" (index 52) for a third card not dealt.
_CARD_TEXT = np.array([card_text(i) for i in range(52)] + [""], dtype=object)


def log_format(path: str | Path) -> str:
    """``"csv"`` or ``"parquet"``, by the suffix of ``path``."""
    suffix = Path(path).suffix.lower()
    if suffix not in LOG_SUFFIXES:
        raise AnalyzerError(f"{path}: a log is a {' or '.join(LOG_SUFFIXES)} file")
    return suffix[1:]


def decided_action_columns(paytable) -> list[str]:
    """A punto banco ``[decision]``'s action columns of a log: ``action:<bet id>``, one
    per bet it is for that is on offer, in the paytable's order."""
    offered = dict.fromkeys(bet.id for bet, _ in paytable.offered(paytable.modes))
    return [f"action:{bet_id}" for bet_id in offered if bet_id in paytable.decided]


def log_columns(job: SimulationJob) -> list[str]:
    """The log's header: the fixed columns, then one payout column per (bet, mode)."""
    paytable = job.paytable
    game = paytable.game
    if game is None:
        fixed = list(FIXED_COLUMNS) + ([SPECIALS] if paytable.multipliers is not None else [])
        decision = paytable.punto_banco_decision
        if decision is not None:  # the cards shown, then each bet of the decision's action
            fixed += [SHOWN, *decided_action_columns(paytable)]
    else:
        decided = ["action"] if game.decision is not None else []
        if game.decision is not None and game.decision.shown:
            decided.append(SHOWN)
        fixed = [
            "shoe", "round", *hand_columns(game), "burn", "winner", *score_columns(game),
            *decided,
        ]  # fmt: skip
    pays = [payout_column(bet.id, mode, paytable) for bet, mode in paytable.offered(paytable.modes)]
    return fixed + pays


def check_log_run(
    path: str | Path, resume: bool, scheduler: str | None, workers: int | None
) -> None:
    """Refuse, before any work, a log that cannot be written or a run it cannot take:
    the log is written as the rounds are dealt, one partition after another in this
    process, so saved partitions (``resume``), Dask and worker processes are not used."""
    from analyzer.files import check_writable

    for option, given in (
        ("--resume", resume),
        ("--scheduler", scheduler is not None),
        (f"--workers {workers}", (workers or 1) > 1),
    ):
        if given:
            raise AnalyzerError(
                f"--log cannot take {option}: the log is written as the rounds are dealt, "
                "in this process, and saved partitions keep no rounds"
            )
    check_writable(path, "--log", LOG_SUFFIXES)


def simulate_to_log(
    job: SimulationJob, sizes: Sequence[int], path: str | Path, progress: bool | None = None
) -> list[Result]:
    """Deal the partitions in this process (as :func:`simulate_logged`), writing the log
    to a temporary file beside ``path``, moved into place whole (once the command has
    written its output, inside :func:`analyzer.files.outputs_held`)."""
    from analyzer.files import output_error, write_atomically
    from analyzer.runs.jobs import check_partition_memory

    check_partition_memory(list(sizes), job)
    results: list[Result] = []

    def write(temporary: str) -> None:
        results[:] = simulate_logged(job, sizes, temporary, log_format(path), progress)

    try:
        write_atomically(path, write, held=True)
    except OSError as exc:
        raise output_error("--log", path, exc) from None
    return results


def simulate_logged(
    job: SimulationJob,
    sizes: Sequence[int],
    path: str | Path,
    fmt: str = "csv",
    progress: bool | None = None,
) -> list[Result]:
    """Deal and settle every partition (``sizes[i]`` shoes each) in order, in this
    process, writing each round to the log at ``path`` (created or truncated; the caller
    moves it into place); the partitions' results, as :func:`simulate_partition` gives
    them. ``progress``: a bar (None: only on a terminal)."""
    writer = _CsvLog(path, job) if fmt == "csv" else _ParquetLog(path, job)
    results = []
    bar = tqdm(
        total=sum(sizes),
        unit=" shoes",
        desc="simulate",
        **bar_options(progress),
        smoothing=0.1,
    )
    try:
        first_shoe = 1
        for index, size in enumerate(sizes):
            result, settled = settle_partition(job, index, size, keep_rounds=True)
            columns = _game_columns if isinstance(settled, SettledGameRounds) else _columns
            for start in range(0, len(settled.nets), CHUNK_ROWS):
                writer.write(columns(settled, first_shoe, start, start + CHUNK_ROWS))
            results.append(result)
            first_shoe += size
            bar.update(size)
        writer.close()
    finally:
        bar.close()
        writer.abandon()
    return results


def _columns(settled: SettledRounds, first_shoe: int, start: int, stop: int) -> dict:
    """The log's columns for rounds ``start:stop`` of a partition: numbers as int64
    arrays, text as object arrays (None where empty), payouts as float64 (NaN empty)."""
    rounds = settled.rounds[start:stop]
    cards = settled.cards[start:stop]
    shown = np.where(cards >= 0, cards, 52)
    text = _CARD_TEXT[shown]
    player = text[:, 0] + " " + text[:, 2]
    banker = text[:, 1] + " " + text[:, 3]
    player = np.where(cards[:, 4] >= 0, player + " " + text[:, 4], player)
    banker = np.where(cards[:, 5] >= 0, banker + " " + text[:, 5], banker)
    shoe = settled.shoe[start:stop]
    burn = np.full(len(rounds), None, dtype=object)
    for i in np.flatnonzero(rounds["round"] == 1):
        burned = settled.burns[shoe[i]]
        if len(burned):
            burn[i] = " ".join(_CARD_TEXT[burned])
    columns = {
        "shoe": shoe + first_shoe,
        "round": np.ascontiguousarray(rounds["round"]),
        "player_cards": player,
        "banker_cards": banker,
        "burn": burn,
        "winner": settled.winner[start:stop].astype(object),
        "player_score": np.ascontiguousarray(rounds["player_score"]),
        "banker_score": np.ascontiguousarray(rounds["banker_score"]),
    }
    if settled.factors is not None:
        columns[SPECIALS] = _specials(cards, settled.factors[start:stop])
    if settled.shown is not None:
        columns[SHOWN] = settled.shown[start:stop]
        for bet_id, names in (settled.actions or {}).items():
            columns[f"action:{bet_id}"] = names[start:stop]
    columns["nets"] = settled.nets[start:stop]
    return columns


def _game_columns(settled: SettledGameRounds, first_shoe: int, start: int, stop: int) -> dict:
    """The log's columns for rounds ``start:stop`` of a partition of another game (as
    :func:`_columns`)."""
    shoe = settled.shoe[start:stop]
    number = settled.number[start:stop]
    columns: dict[str, np.ndarray] = {
        "shoe": shoe + first_shoe,
        "round": np.ascontiguousarray(number, dtype=np.int64),
    }
    for h, held in enumerate(settled.hands):
        columns[f"hand{h}"] = _cards_text(held[start:stop])
    burn = np.full(len(number), None, dtype=object)
    for i in np.flatnonzero(number == 1):
        burned = settled.burns[shoe[i]]
        if len(burned):
            burn[i] = " ".join(_CARD_TEXT[burned])
    columns["burn"] = burn
    columns["winner"] = settled.winner[start:stop].astype(object)
    for h in range(settled.scores.shape[1]):
        columns[f"score{h}"] = np.ascontiguousarray(settled.scores[start:stop, h], dtype=np.int64)
    if settled.action is not None:
        columns["action"] = settled.action[start:stop].astype(object)
    if settled.shown is not None:
        columns[SHOWN] = settled.shown[start:stop]
    columns["nets"] = settled.nets[start:stop]
    return columns


def _cards_text(cards: np.ndarray) -> np.ndarray:
    """Each row's cards (card indices, -1 past the last) as text, in order: ``"2S 3H"``."""
    text = _CARD_TEXT[np.where(cards >= 0, cards, 52)]
    out = text[:, 0].copy()
    for j in range(1, cards.shape[1]):
        out = np.where(cards[:, j] >= 0, out + " " + text[:, j], out)
    return out


def _specials(cards: np.ndarray, factors: np.ndarray) -> np.ndarray:
    """Each round's special cards (a multiplier other than 1), each card once, in deal
    order, as ``"8S:2 KH:5"``; None where the round has none."""
    out = np.full(len(cards), None, dtype=object)
    special = (cards >= 0) & (factors != 1.0)
    for i in np.flatnonzero(special.any(axis=1)):
        seen: dict[int, str] = {}
        for j in range(6):  # in deal order (the CARDS order)
            card = int(cards[i, j])
            if special[i, j] and card not in seen:
                seen[card] = f"{_CARD_TEXT[card]}:{_number(float(factors[i, j]))}"
        out[i] = " ".join(seen.values())
    return out


def _number(value: float) -> str:
    """A float as the shortest text that reads back as it, a whole number without ".0"."""
    return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)


class _CsvLog:
    """A CSV log: the header, then rows a chunk at a time (csv module, ``\\n`` line ends)."""

    def __init__(self, path: str | Path, job: SimulationJob) -> None:
        self.names = log_columns(job)
        self.stream = open(path, "w", encoding="utf-8", newline="")  # noqa: SIM115
        self.writer = csv.writer(self.stream, lineterminator="\n")
        self.writer.writerow(self.names)

    def write(self, columns: dict) -> None:
        nets = columns.pop("nets")
        cells = [
            values.tolist() if values.dtype != object else [v or "" for v in values]
            for values in columns.values()
        ]
        cells += [_payout_texts(nets[:, b]) for b in range(nets.shape[1])]
        self.writer.writerows(zip(*cells, strict=True))

    def close(self) -> None:
        self.stream.close()

    def abandon(self) -> None:
        self.stream.close()


def _payout_texts(values: np.ndarray) -> list[str]:
    """Each payout as the shortest text that reads back as it ("" for NaN): a few
    distinct values, each formatted once."""
    distinct, inverse = np.unique(values, return_inverse=True)
    texts = np.array(["" if np.isnan(v) else _number(float(v)) for v in distinct], dtype=object)
    return texts[inverse.reshape(-1)].tolist()


class _ParquetLog:
    """A Parquet log: a row group per chunk, typed (whole numbers int64, text string,
    payouts float64 with nulls where empty)."""

    def __init__(self, path: str | Path, job: SimulationJob) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        self.pa = pa
        self.names = log_columns(job)
        numbers = {"shoe", "round", "player_score", "banker_score"}
        if job.paytable.game is not None:
            numbers = {"shoe", "round", *score_columns(job.paytable.game)}
        fields = []
        for name in self.names:
            if name in numbers:
                fields.append(pa.field(name, pa.int64(), nullable=False))
            elif name.startswith("pay:"):
                fields.append(pa.field(name, pa.float64()))
            else:
                fields.append(pa.field(name, pa.string()))
        self.schema = pa.schema(fields)
        self.writer = pq.ParquetWriter(str(path), self.schema)
        self.open = True

    def write(self, columns: dict) -> None:
        pa = self.pa
        nets = columns.pop("nets")
        arrays = [
            pa.array(values, type=field.type)
            for values, field in zip(columns.values(), self.schema, strict=False)
        ]
        for b in range(nets.shape[1]):
            arrays.append(pa.array(nets[:, b], type=pa.float64(), from_pandas=True))
        self.writer.write_table(pa.Table.from_arrays(arrays, schema=self.schema))

    def close(self) -> None:
        self.open = False
        self.writer.close()

    def abandon(self) -> None:
        if self.open:
            self.open = False
            self.writer.close()
