"""The audit by dealer, table and studio, and the monitoring of each staked bet's return
(:mod:`analyzer.analysis.audit_groups`)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from audit_logs import clean_rows, dealt_rows, write_csv, write_parquet

from analyzer import analyze, load_paytable
from analyzer.analysis.audit_fit import normal_two_sided
from analyzer.analysis.audit_groups import MAX_GROUPS, band_z
from analyzer.errors import AnalyzerError
from analyzer.runs.audit_log import audit_log
from analyzer.runs.audit_run import audit_partitioned

DEALERS = ("Ann", "Bo", "Cy", "Di", "Ed")
BIASED = "Cy"
#: Rounds per dealer in the biased-dealer log.
PER_DEALER = 4000


@pytest.fixture(scope="module")
def seed_game():
    return load_paytable("seed-game")


def _floor_rows(seed_game) -> list[dict[str, str]]:
    """Five dealers' shoes, interleaved a shoe at a time over two tables; ``BIASED``
    stacks a tenth of its rounds for the Banker (real shoes: only the fit shows it)."""
    shoes: dict[str, list[list[dict[str, str]]]] = {}
    for k, dealer in enumerate(DEALERS):
        stack = 0.1 if dealer == BIASED else 0.0
        rows = dealt_rows(seed_game, PER_DEALER, seed=100 + k, stack=stack)
        by_shoe: dict[str, list] = {}
        for row in rows:
            by_shoe.setdefault(row["shoe"], []).append(row)
        shoes[dealer] = list(by_shoe.values())
    out = []
    for turn in range(max(len(s) for s in shoes.values())):
        for dealer in DEALERS:
            if turn < len(shoes[dealer]):
                for row in shoes[dealer][turn]:
                    out.append(
                        row | {"shoe": f"{dealer}-{row['shoe']}", "dealer": dealer,
                               "table": f"T{turn % 2 + 1}"}
                    )  # fmt: skip
    return out


@pytest.fixture(scope="module")
def floor_log(seed_game, tmp_path_factory):
    return write_csv(tmp_path_factory.mktemp("floor") / "floor.csv", _floor_rows(seed_game))


@pytest.fixture(scope="module")
def floor(seed_game, floor_log):
    return audit_log(floor_log, seed_game, fit=True, level=0.01)


def test_one_biased_dealer_among_fair_ones_is_found_and_only_that_dealer(floor) -> None:
    assert floor.total == 0  # real shoes: nothing wrong with a round
    groups = floor.groups
    assert groups.columns == ("dealer", "table")
    dealers = [g for g in groups.groups if g.column == "dealer"]
    assert [g.value for g in dealers] == sorted(DEALERS)
    assert all(g.tested and g.rounds >= PER_DEALER for g in dealers)
    called = [g.value for g in groups.failed if g.column == "dealer"]
    assert called == [BIASED]
    biased = next(g for g in dealers if g.value == BIASED)
    failed = {t.key for t in biased.fit.failed}
    assert "frequency:banker" in failed and "shoe_aware:banker" in failed
    # Holm over every test of every group: an adjusted p is at least the raw p times
    # the tests ranked at or after it, and never below its own group's Holm p.
    run = [t for g in groups.groups if g.fit for t in g.fit.run]
    assert all(t.adjusted_p >= t.p_value for t in run)
    smallest = min(run, key=lambda t: t.p_value)
    assert smallest.adjusted_p == pytest.approx(min(1.0, len(run) * smallest.p_value))


def test_a_groups_tests_are_those_of_an_audit_of_its_rounds_alone(
    seed_game, floor, floor_log, tmp_path
) -> None:
    import csv

    with floor_log.open(encoding="utf-8") as file:
        rows = [row for row in csv.DictReader(file) if row["dealer"] == "Bo"]
    alone = audit_log(write_csv(tmp_path / "bo.csv", rows), seed_game, fit=True).fit
    grouped = next(g for g in floor.groups.groups if g.value == "Bo").fit
    mine = {t.key: t for t in grouped.tests}
    for test in alone.tests:
        other = mine[test.key]
        assert (other.rounds, other.observed) == (test.rounds, test.observed), test.key
        assert other.expected == pytest.approx(test.expected, rel=1e-12), test.key
        assert other.p_value == pytest.approx(test.p_value, rel=1e-9, abs=1e-300), test.key
    assert grouped.shoe_aware_rounds == alone.shoe_aware_rounds


def test_a_group_with_too_few_rounds_says_so_instead_of_testing(seed_game, tmp_path) -> None:
    rows = dealt_rows(seed_game, 600, seed=9)
    for i, row in enumerate(rows):
        row["dealer"] = "New" if i < 50 else "Old"
    result = audit_log(write_csv(tmp_path / "log.csv", rows), seed_game, fit=True, min_rounds=200)
    new, old = sorted(result.groups.groups, key=lambda g: g.value)
    assert (new.value, new.rounds, new.tested, new.fit) == ("New", 50, False, None)
    assert old.tested and old.fit is not None and old.fit.run


def test_an_empty_group_cell_is_in_no_group(seed_game, tmp_path) -> None:
    rows = dealt_rows(seed_game, 300, seed=9)
    for i, row in enumerate(rows):
        row["studio"] = "" if i % 3 else "Riga"
    result = audit_log(write_csv(tmp_path / "log.csv", rows), seed_game)
    (riga,) = result.groups.groups
    assert (riga.column, riga.value, riga.rounds) == ("studio", "Riga", len(rows[::3]))


# -- Monitoring --------------------------------------------------------------------------------


def _staked_rows(seed_game, rounds=3000, seed=4):
    rng = np.random.default_rng(seed)
    rows = clean_rows(seed_game, rounds, seed=seed)
    for i, row in enumerate(rows):
        row["stake:banker"] = str(int(rng.integers(0, 200)))  # 0: not staked that round
        row["stake:tie"] = f"{rng.uniform(0.5, 5):.2f}"
        row["dealer"] = "D1" if i % 2 else "D2"
    rows[5]["pay:banker"] = ""  # not logged: settled from the cards
    return rows


def _plain(rows, bet, variance, rtp, confidence, deviation, fee=Fraction(0)):
    """The monitoring of ``bet`` over ``rows`` computed in plain Python."""
    stakes = [float(r[f"stake:{bet}"]) for r in rows if float(r[f"stake:{bet}"]) > 0]
    nets = [float(r[f"pay:{bet}"]) for r in rows if float(r[f"stake:{bet}"]) > 0]
    paid = [s * (1 + float(fee)) for s in stakes]
    total = sum(paid)
    actual = 1 + sum(s * n for s, n in zip(stakes, nets, strict=True)) / total
    error = math.sqrt(float(variance) * sum(p * p for p in paid)) / total
    z = band_z(confidence)
    spread = len(paid) * sum(p * p for p in paid) / total**2
    return {
        "rounds": len(paid),
        "paid": total,
        "actual": actual,
        "error": error,
        "low": float(rtp) - z * error,
        "high": float(rtp) + z * error,
        "p": normal_two_sided((actual - float(rtp)) / error),
        "needed": math.ceil(z * z * float(variance) * spread / deviation**2),
    }


def test_stake_weighting_against_a_plain_python_computation(seed_game, tmp_path) -> None:
    rows = _staked_rows(seed_game)
    path = write_csv(tmp_path / "staked.csv", rows)
    result = audit_log(path, seed_game, confidence=0.9, deviation=0.01)
    banker_net = rows[5]["pay:banker"]
    assert banker_net == ""
    full = clean_rows(seed_game, 3000, seed=4)  # (the same rounds: row 5's payout back)
    rows[5]["pay:banker"] = full[5]["pay:banker"]
    exact = analyze(paytable=seed_game, bets=["banker", "tie"])
    monitored = {r.bet: r for r in result.monitoring}
    assert list(monitored) == ["banker", "tie"]  # the paytable's order
    for bet in ("banker", "tie"):
        figures = exact.result(bet)
        row = monitored[bet]
        assert (row.theoretical_rtp, row.variance) == (figures.rtp, figures.variance)
        plain = _plain(rows, bet, figures.variance, figures.rtp, 0.9, 0.01)
        assert row.rounds == plain["rounds"] and row.unvalued == 0
        assert row.paid == pytest.approx(plain["paid"], rel=1e-12)
        assert row.actual_rtp == pytest.approx(plain["actual"], rel=1e-12)
        assert row.standard_error == pytest.approx(plain["error"], rel=1e-12)
        assert (row.low, row.high) == pytest.approx((plain["low"], plain["high"]), rel=1e-12)
        assert row.p_value == pytest.approx(plain["p"], rel=1e-9)
        assert row.rounds_needed == plain["needed"]
    # Each dealer's rows alone, likewise (its bets Holm-adjusted with the other's).
    for group in result.groups.groups:
        mine = [r for r in rows if r["dealer"] == group.value]
        for row in group.monitoring:
            figures = exact.result(row.bet)
            plain = _plain(mine, row.bet, figures.variance, figures.rtp, 0.9, 0.01)
            assert row.actual_rtp == pytest.approx(plain["actual"], rel=1e-12)
            assert row.standard_error == pytest.approx(plain["error"], rel=1e-12)
            assert row.adjusted_p >= row.p_value


def test_a_bet_paying_more_than_its_paytable_is_outside_its_band(seed_game, tmp_path) -> None:
    rows = _staked_rows(seed_game, 3000, seed=5)
    for row in rows:
        if row["pay:banker"] == "0.95":
            row["pay:banker"] = "1.3"  # wrong payouts: found, and the return is off
    result = audit_log(write_csv(tmp_path / "generous.csv", rows), seed_game)
    monitored = {r.bet: r for r in result.monitoring}
    assert monitored["banker"].inside is False and monitored["banker"].actual_rtp > 1.05
    assert monitored["tie"].inside is True
    assert result.counts["payout"] > 0


def test_the_band_is_the_normal_quantile() -> None:
    # Bisection of P(|Z| > z) = erfc(z / sqrt 2): another way to the same quantile.
    def quantile(outside: float) -> float:
        low, high = 0.0, 10.0
        for _ in range(200):
            middle = (low + high) / 2
            if math.erfc(middle / math.sqrt(2)) > outside:
                low = middle
            else:
                high = middle
        return low

    for confidence in (0.5, 0.9, 0.95, 0.99, 0.999999):
        assert band_z(confidence) == pytest.approx(quantile(1 - confidence), rel=1e-9)
    assert band_z(0.95) == pytest.approx(1.959963984540054, rel=1e-14)


def test_the_band_against_the_standard_librarys_normal() -> None:
    from statistics import NormalDist  # (the project has no scipy; the stdlib's inverse)

    for confidence in (0.8, 0.95, 0.99):
        assert band_z(confidence) == pytest.approx(NormalDist().inv_cdf((1 + confidence) / 2))


def test_partitions_give_the_one_pass_groups_and_monitoring(seed_game, tmp_path) -> None:
    rows = _staked_rows(seed_game, 2500, seed=6)
    path = write_csv(tmp_path / "staked.csv", rows)
    whole = audit_log(path, seed_game, fit=True, min_rounds=100)
    parted = audit_partitioned(
        [path], seed_game, fit=True, min_rounds=100, partition_rows=1000,
        work_dir=tmp_path / "runs", workers=1, progress=False,
    )  # fmt: skip
    for a, b in zip(
        (whole.monitoring, *(g.monitoring for g in whole.groups.groups)),
        (parted.monitoring, *(g.monitoring for g in parted.groups.groups)),
        strict=True,
    ):
        for x, y in zip(a, b, strict=True):
            assert (x.bet, x.rounds, x.rounds_needed) == (y.bet, y.rounds, y.rounds_needed)
            assert x.actual_rtp == pytest.approx(y.actual_rtp, rel=1e-12)
    for g, h in zip(whole.groups.groups, parted.groups.groups, strict=True):
        assert (g.value, g.rounds) == (h.value, h.rounds)
        assert [t.observed for t in g.fit.tests] == [t.observed for t in h.fit.tests]


# -- Hostile logs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "stake", ["-1", "abc", "nan", "NaN", "inf", "1e400", "1e13", "1,5", "0x10", "--2"]
)
def test_a_bad_stake_is_one_error_naming_its_row_and_column(seed_game, tmp_path, stake) -> None:
    rows = clean_rows(seed_game, 30, seed=1)
    for row in rows:
        row["stake:player"] = "10"
    rows[7]["stake:player"] = stake
    with pytest.raises(AnalyzerError) as caught:
        audit_log(write_csv(tmp_path / "bad.csv", rows), seed_game)
    message = str(caught.value)
    assert "\n" not in message and "row 8, column 'stake:player'" in message, message


@pytest.mark.parametrize("value", [float("nan"), -3.0, float("inf"), 2e12])
def test_a_bad_parquet_stake_is_refused(seed_game, tmp_path, value) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = clean_rows(seed_game, 30, seed=1)
    path = write_parquet(tmp_path / "log.parquet", rows)
    table = pq.read_table(path)
    stakes = [1.0] * table.num_rows
    stakes[3] = value
    pq.write_table(table.append_column("stake:player", pa.array(stakes)), path)
    with pytest.raises(AnalyzerError, match=r"row 4, column 'stake:player'.* not a stake"):
        audit_log(path, seed_game)


@pytest.mark.parametrize(
    ("column", "error"),
    [
        ("stake:nothing", "has no bet 'nothing'"),
        ("stake:player:nomode", "no mode 'nomode'"),
    ],
)
def test_a_stake_column_of_no_bet_is_refused(seed_game, tmp_path, column, error) -> None:
    rows = clean_rows(seed_game, 10, seed=1)
    for row in rows:
        row[column] = "1"
    with pytest.raises(AnalyzerError, match=error):
        audit_log(write_csv(tmp_path / "bad.csv", rows), seed_game)


def test_a_million_groups_are_refused_past_the_bound(seed_game, tmp_path) -> None:
    first = clean_rows(seed_game, 1, seed=1)[0]
    header = ["shoe", "round", "player_cards", "banker_cards", "dealer"]
    line = f"{first['player_cards']},{first['banker_cards']}"
    path = tmp_path / "crowd.csv"
    with path.open("w", encoding="utf-8") as file:
        file.write(",".join(header) + "\n")
        file.writelines(f"S{i},1,{line},dealer {i}\n" for i in range(1_000_000))
    with pytest.raises(AnalyzerError) as caught:
        audit_log(path, seed_game)
    message = str(caught.value)
    assert "\n" not in message and f"past the {MAX_GROUPS:,} groups" in message


@pytest.mark.parametrize("name", ["x" * 201, "bad\x1b[2Jname"])
def test_a_hostile_group_name_is_refused(seed_game, tmp_path, name) -> None:
    rows = clean_rows(seed_game, 10, seed=1)
    for row in rows:
        row["table"] = name
    with pytest.raises(AnalyzerError, match=r"row 1, column 'table'"):
        audit_log(write_csv(tmp_path / "bad.csv", rows), seed_game)


# -- The command -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def staked_log(seed_game, tmp_path_factory):
    rows = _staked_rows(seed_game, 1200, seed=7)
    for i, row in enumerate(rows):
        row["table"] = "T9" if i < 40 else "T1"
    return write_csv(tmp_path_factory.mktemp("staked") / "staked.csv", rows)


def test_the_command_reports_groups_and_monitoring_in_every_format(
    capsys, staked_log, tmp_path
) -> None:
    import csv
    import io
    import json

    import jsonschema
    from helpers import run

    from analyzer.reports.contract import schema_of

    argv = ["audit", str(staked_log), "--min-group-rounds", "100", "--confidence", "99%"]
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    assert "Monitoring of the return to the stakes" in out and "band at 99% confidence" in out
    assert "By dealer, table and studio" in out
    assert "table  T9    40     -       too few rounds (fewer than 100): not tested" in out
    code, out, _ = run(capsys, *argv, "--format", "json")
    document = json.loads(out)
    jsonschema.Draft202012Validator(schema_of("audit")).validate(document)
    assert document["schema"]["version"] == 4
    assert document["monitoring"]["confidence"] == 0.99
    values = {(g["column"], g["value"]): g for g in document["groups"]["groups"]}
    assert values[("table", "T9")]["tested"] is False and values[("table", "T9")]["tests"] == []
    assert values[("dealer", "D1")]["tests_run"] > 0
    code, out, _ = run(capsys, *argv, "--format", "csv")
    tables = [t for t in out.split("\n\n") if t.strip()]
    headers = [next(csv.reader(io.StringIO(t))) for t in tables]
    assert any(h[:3] == ["column", "group", "bet"] for h in headers)  # each group's bets
    assert any(h[:3] == ["column", "group", "group_rounds"] for h in headers)  # its tests
    code, out, _ = run(capsys, *argv, "--format", "html")
    assert code == 0 and "By dealer, table and studio" in out


@pytest.mark.parametrize(
    ("option", "value"), [("--confidence", "100%"), ("--deviation", "0"), ("--confidence", "x")]
)
def test_a_bad_share_is_refused_by_the_command(capsys, staked_log, option, value) -> None:
    from helpers import run

    code, out, err = run(capsys, "audit", str(staked_log), option, value)
    assert code == 2 and out == "" and option in err


def test_a_hostile_stake_is_one_line_and_exit_status_2(capsys, seed_game, tmp_path) -> None:
    from helpers import run

    rows = clean_rows(seed_game, 20, seed=1)
    for row in rows:
        row["stake:banker"] = "1e999"
    code, out, err = run(capsys, "audit", str(write_csv(tmp_path / "b.csv", rows)))
    assert code == 2 and out == "" and err.count("\n") == 1 and "not a stake" in err


def test_another_games_log_is_grouped_and_monitored(seed_game, tmp_path) -> None:
    from game_audit_logs import simulated_rows

    dragon = load_paytable("dragon-tiger")
    rows = simulated_rows("dragon-tiger", 8, seed=3)
    for i, row in enumerate(rows):
        row["dealer"] = "A" if i % 2 else "B"
        row["stake:dragon"] = "10"
    result = audit_log(write_csv(tmp_path / "dt.csv", rows), dragon, fit=True, min_rounds=100)
    assert [g.value for g in result.groups.groups] == ["A", "B"]
    assert all(g.fit is not None and g.fit.run for g in result.groups.groups)
    (monitored,) = result.monitoring
    assert monitored.bet == "dragon" and monitored.rounds == len(rows)
    assert (
        monitored.theoretical_rtp == analyze(paytable=dragon, bets=["dragon"]).result("dragon").rtp
    )
