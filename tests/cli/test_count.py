"""``count``: card counting against one bet or every bet at once, its outputs, and a
resumed run."""

from __future__ import annotations

import io
import itertools
import json

import numpy as np
import pandas as pd
import pytest
from helpers import run

from analyzer.reports.plots import MAX_CHART_CURVES


def quiet(work) -> list[str]:
    """What every count here runs with: no progress bar, one worker, its runs in ``work``."""
    return ["--no-progress", "--work-dir", str(work), "--workers", "1"]


def _rows(text: str) -> list[dict]:
    """The rows of count's JSON: one per (bet, mode) counted, one bet or many."""
    return json.loads(text)["bets"]


def _part(row: dict, prefix: str) -> dict:
    """The columns of ``row`` starting with ``prefix`` (``with_limit_``, ``advice_count_``),
    under their names without it."""
    return {key[len(prefix) :]: value for key, value in row.items() if key.startswith(prefix)}


@pytest.mark.slow
def test_count_json_and_outputs(tmp_path, capsys) -> None:
    out, plot = tmp_path / "rounds.csv", tmp_path / "ev.png"
    six = ["count", "--bet", "lucky_six", "--shoes", "300", "--perfect", "--format", "json"]
    code, text, _ = run(
        capsys, *six, *quiet(tmp_path / "w"), "--out", str(out), "--plot", str(plot)
    )
    assert code == 0
    (result,) = _rows(text)
    for key in (
        "shoes",
        "rounds_per_shoe",
        "bet_frequency",
        "edge_when_bet",
        "units_per_shoe",
        "units_per_100_rounds",
        "bet_frequency_se",
        "units_per_shoe_se",
    ):
        assert key in result
    assert result["shoes"] == 300 and result["max_round"] == 50
    with_limit, without = _part(result, "with_limit_"), _part(result, "without_limit_")
    assert with_limit["bet_frequency"] <= without["bet_frequency"]
    assert without["edge_when_bet"] > 0  # perfect play only bets positive EVs
    rounds = np.genfromtxt(out, delimiter=",", names=True)
    assert rounds["round"][0] == 1 and rounds["shoes"][0] == 300
    # Each round's mean EV has its standard error over the shoes reaching it: none from
    # a single shoe, and it grows as fewer shoes reach the round.
    errors = rounds["mean_ev_se"]
    assert np.isnan(errors[rounds["shoes"] == 1]).all() and (errors[rounds["shoes"] > 1] > 0).all()
    few = (rounds["shoes"] > 1) & (rounds["shoes"] < 30)
    assert errors[few].min() > errors[rounds["shoes"] == 300].max()
    assert plot.read_bytes()[:4] == b"\x89PNG"
    parquet = tmp_path / "rounds.parquet"
    code, again, _ = run(capsys, *six, *quiet(tmp_path / "w"), "--out", str(parquet), "--resume")
    assert code == 0 and _rows(again) == [result]  # resumed from the saved partitions
    table = pd.read_parquet(parquet)
    assert np.allclose(table["mean_ev"], rounds["mean_ev"])
    assert (table["positive_ev_share"] <= table["bet_share_without_limit"] + 1e-12).all()


def test_linear_count_with_given_tags(tmp_path, capsys) -> None:
    tags = "6=-4,7=-4,8=2,9=2,10=2,J=2,Q=2,K=2,2=-1,3=-1,4=-1,5=-1"
    code, text, _ = run(
        capsys,
        *("count", "--bet", "tie", "--shoes", "200", "--tags", tags, "--threshold", "5"),
        *("--format", "json", *quiet(tmp_path)),
    )
    assert code == 0
    (result,) = _rows(text)
    assert "bet at true count >= 5.0" in result["strategy"]
    assert result["headline"] == "without_limit"  # the Tie has no max round


@pytest.mark.slow
def test_count_every_bet_at_once(tmp_path, capsys) -> None:
    """--bet all deals the shoes once: a JSON list, one object per (bet, mode), each with
    the gain by max round and the advice; --out has rows for every bet; both plots."""
    out, plot, gains = tmp_path / "rounds.csv", tmp_path / "ev.png", tmp_path / "gain.png"
    argv = ["count", "--bet", "all", "--shoes", "60", "--format", "json", "--max-gain", "0.05"]
    argv += quiet(tmp_path / "w")
    code, text, _ = run(
        capsys, *argv, "--out", str(out), "--plot", str(plot), "--gain-plot", str(gains)
    )
    assert code == 0
    records = _rows(text)
    curves = json.loads(text)["curves"]
    assert [r["bet"] for r in records][:3] == ["player", "banker", "tie"]
    assert {r["mode"] for r in records} == {"commission"}
    six = next(r for r in records if r["bet"] == "lucky_six")
    assert six["max_round"] == 50 and six["shoes"] == 60
    curve = [c for c in curves if c["bet"] == "lucky_six" and c["play"] == six["play"]]
    assert [p["max_round"] for p in curve] == list(range(1, len(curve) + 1))
    assert set(curve[0]) == {
        *("bet", "mode", "play"),
        *("max_round", "units_per_shoe", "units_per_shoe_se", "bet_frequency"),
    }
    assert curve[49]["units_per_shoe"] == pytest.approx(six["with_limit_units_per_shoe"], abs=1e-12)
    assert curve[-1]["units_per_shoe"] == pytest.approx(
        six["without_limit_units_per_shoe"], abs=1e-12
    )
    for play in ("perfect", "count"):
        advice = _part(six, f"advice_{play}_")
        assert advice["max_gain"] == 0.05
        assert isinstance(advice["printed_max_round_is_safe"], bool)
    # The play not in the headline has its curve too.
    assert {c["play"] for c in curves if c["bet"] == "lucky_six"} == {"perfect", "count"}
    # The same shoes counted one bet at a time give the same numbers.
    code, alone, _ = run(capsys, *[a if a != "all" else "lucky_six" for a in argv])
    (alone,) = _rows(alone)
    # (None: the figures per hour, without --rounds-per-hour)
    one, among = _part(alone, "without_limit_"), _part(six, "without_limit_")
    assert [key for key in one if one[key] is None] == [key for key in among if among[key] is None]
    assert {key: value for key, value in one.items() if value is not None} == pytest.approx(
        {key: value for key, value in among.items() if value is not None}, rel=1e-9, abs=1e-12
    )
    rows = pd.read_csv(out)
    assert set(rows["bet"]) == {r["bet"] for r in records}
    assert (rows.groupby("bet")["round"].min() == 1).all()
    assert plot.read_bytes()[:4] == gains.read_bytes()[:4] == b"\x89PNG"


def test_count_several_bets_as_text(tmp_path, capsys) -> None:
    code, text, _ = run(
        capsys,
        *("count", "--bet", "lucky_six", "--bet", "tie", "--mode", "all", "--shoes", "30"),
        *("--perfect", "--wide", *quiet(tmp_path)),
    )
    assert code == 0
    lines = text.splitlines()
    assert "30 shoes of 8 decks" in lines[0]
    assert "safe max round (perfect play)" in text and "linear count" not in text
    header, body = lines[3], lines[4:]
    mode, end = header.index("mode"), header.index("max round")
    # Paytable order, by the names people read; each bet once where every mode counts
    # it alike (the same shoes, the same settlement), as report shows it.
    assert [(line[:mode].strip(), line[mode:end].strip()) for line in body] == [
        ("Tie", "All modes"),
        ("Lucky Six", "All modes"),
    ]


def test_a_bet_no_count_helps_is_reported_by_perfect_play_among_others(tmp_path, capsys):
    """Counted with a bet that has a linear count, a pair bet's figures are perfect play's:
    the same as counting it alone with --perfect on the same shoes (not a count that
    never bets)."""
    argv = ["count", "--bet", "player_pair", "--bet", "lucky_six", "--shoes", "60"]
    code, text, _ = run(capsys, *argv, "--format", "json", *quiet(tmp_path / "a"))
    assert code == 0
    pair, six = _rows(text)
    assert pair["strategy"] == "no linear count helps this bet: perfect play only"
    assert six["strategy"].startswith("linear count")
    code, alone, _ = run(
        capsys,
        *("count", "--bet", "player_pair", "--shoes", "60", "--perfect", "--format", "json"),
        *quiet(tmp_path / "b"),
    )
    alone_text = alone
    (alone,) = _rows(alone)

    def same(ours: dict, theirs: dict) -> None:
        assert ours.keys() == theirs.keys()
        for key, value in ours.items():
            if value is None or theirs[key] is None:
                assert value is theirs[key], key
            else:
                assert value == pytest.approx(theirs[key], rel=1e-12, abs=1e-15), key

    for figures in ("with_limit", "without_limit"):
        same(_part(pair, figures + "_"), _part(alone, figures + "_"))
    assert pair["without_limit_bet_frequency"] > 0

    def curve(text: str) -> list[dict]:
        rows = json.loads(text)["curves"]
        points = [c for c in rows if c["bet"] == "player_pair" and c["play"] == "perfect"]
        return [{k: v for k, v in c.items() if k not in ("bet", "mode", "play")} for c in points]

    for ours, theirs in zip(curve(text), curve(alone_text), strict=True):
        same(ours, theirs)


def test_two_outputs_naming_one_file_are_refused(tmp_path, capsys) -> None:
    """--plot and --gain-plot on one file would leave one plot silently lost."""
    (tmp_path / "other").mkdir()
    (tmp_path / "link.png").symlink_to(tmp_path / "q.png")
    argv = ["count", "--bet", "tie", "--shoes", "2", "--perfect", *quiet(tmp_path / "w")]
    for plot, gains in (
        ("q.png", "q.png"),
        ("q.png", "./q.png"),
        ("q.png", "other/../q.png"),
        ("q.png", "link.png"),
    ):
        code, out, err = run(
            capsys, *argv, "--plot", str(tmp_path / plot), "--gain-plot", str(tmp_path / gains)
        )
        assert code == 2 and out == "" and err.count("\n") == 1
        assert "--gain-plot" in err and "--plot names the same file" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.png", "other"]


@pytest.mark.slow
@pytest.mark.parametrize("option", ["--plot", "--gain-plot"])
def test_a_plot_of_more_curves_than_a_chart_takes_is_refused_first(tmp_path, capsys, option):
    """Every bet of the seed game in both modes is 36 curves, past the 20 a chart tells
    apart: refused before any shoe is dealt, in one line naming the limit and --bet; one
    mode's 18 bets are drawn."""
    argv = ["count", "--bet", "all", "--shoes", "2", "--perfect", *quiet(tmp_path / "w")]
    code, out, err = run(capsys, *argv, "--mode", "all", option, str(tmp_path / "p.png"))
    assert code == 2 and out == ""
    assert err == (
        f"baccarat-odds: error: {option} draws at most {MAX_CHART_CURVES} curves, one per bet "
        "and mode, and 36 are counted: choose the bets to draw with --bet, or one --mode\n"
    )
    assert list(tmp_path.iterdir()) == []  # not even the runs' folder
    code, _, err = run(capsys, *argv, option, str(tmp_path / "p.png"))
    assert code == 0 and (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
    # (two shoes: figures on few rounds are warned of, and only that)
    assert all(line.startswith("baccarat-odds: warning: ") for line in err.splitlines())


def test_a_failed_write_names_its_own_option(tmp_path, capsys, monkeypatch) -> None:
    """All outputs or none; the error names the output that failed, not another one."""

    def full_disk(_figure):
        def write(_path) -> None:
            raise OSError(28, "No space left on device")

        return write

    monkeypatch.setattr("analyzer.reports.plots.png_writer", full_disk)
    out, gains = tmp_path / "rounds.csv", tmp_path / "gain.png"
    code, text, err = run(
        capsys,
        *("count", "--bet", "tie", "--shoes", "2", "--perfect", *quiet(tmp_path / "w")),
        *("--out", str(out), "--gain-plot", str(gains)),
    )
    assert code == 2 and text == ""
    assert err == (
        f"baccarat-odds: error: --gain-plot {gains}: cannot write: No space left on device; "
        "nothing was written\n"
    )
    assert not out.exists() and not gains.exists()


def test_given_tags_that_fail_a_bet_are_an_error(tmp_path, capsys) -> None:
    """Tags the user gives are never dropped quietly for perfect play, however many bets
    are counted; derived tags that help no bet leave it to perfect play, as the table says."""
    argv = ["count", "--shoes", "3", *quiet(tmp_path)]
    for bets in (["tie"], ["tie", "lucky_six"]):
        code, out, err = run(
            capsys, *argv, *(a for b in bets for a in ("--bet", b)), "--tags", "A=0,2=0"
        )
        assert code == 2 and out == "" and err.count("\n") == 1
        assert "tags are all equal" in err and ("1 more bet)" in err) == (len(bets) == 2)
    code, out, err = run(capsys, *argv, "--bet", "tie", "--bet", "lucky_six", "--tags", "A=1,K=-1")
    assert code == 2 and err == (
        "baccarat-odds: error: --tags for tie (commission): with these tags a "
        "higher count does not favour the bet: give --threshold, or other --tags\n"
    )
    code, out, _ = run(capsys, *argv, "--bet", "player_pair", "--bet", "lucky_six", "--wide")
    assert code == 0
    header, table = out.splitlines()[1], out.splitlines()[3:]
    assert header.startswith("Headline: the play of each bet; ")
    assert table[0].split()[:4] == ["bet", "mode", "play", "max"]
    starts = [table[0].index(column) for column in ("bet", "mode", "play", "max round")]
    cells = [
        [row[start:end].strip() for start, end in itertools.pairwise(starts)] for row in table[1:]
    ]
    assert cells == [
        ["Player Pair", "Baccarat (commission)", "perfect play"],
        ["Lucky Six", "Baccarat (commission)", "linear count"],
    ]
    assert ".0 " not in out  # whole rounds stay whole


def test_one_shoe_claims_no_confidence(tmp_path, capsys) -> None:
    argv = ["count", "--bet", "tie", "--shoes", "1", "--perfect", *quiet(tmp_path)]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "no confidence from a single shoe" in out and "%)" not in out
    code, out, _ = run(capsys, *argv, "--format", "json")
    (row,) = _rows(out)
    assert row["advice_perfect_confidence"] is None and row["advice_count_confidence"] is None


def test_outputs_go_in_all_or_none_even_at_the_last_step(tmp_path, capsys, monkeypatch) -> None:
    """A target turned into a folder once the checks are done: the other outputs keep
    their old content, and the error names the option."""
    import analyzer.reports.plots as plots  # count imports them when it runs

    out, gains = tmp_path / "rounds.csv", tmp_path / "gain.png"
    out.write_text("old")
    real = plots.gains_figure

    def and_a_folder_appears(*args, **kwargs):
        gains.mkdir()
        return real(*args, **kwargs)

    monkeypatch.setattr(plots, "gains_figure", and_a_folder_appears)
    code, _, err = run(
        capsys,
        *("count", "--bet", "tie", "--shoes", "2", "--perfect", *quiet(tmp_path / "w")),
        *("--out", str(out), "--gain-plot", str(gains)),
    )
    *warnings, error = err.splitlines()  # (two shoes: warned of, before the outputs)
    assert code == 2 and error == (
        f"baccarat-odds: error: --gain-plot {gains}: cannot write: Is a directory; "
        "no output file was changed"
    )
    assert all(line.startswith("baccarat-odds: warning: ") for line in warnings)
    assert out.read_text() == "old" and gains.is_dir()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith((".tmp-", ".old-"))]


@pytest.mark.slow
def test_count_names_the_bets_in_text_and_plots(tmp_path, capsys, monkeypatch) -> None:
    """People read the bets' names: in the text and the plots' legends; JSON keeps the
    ids and gives the name beside them."""
    import analyzer.reports.plots as plots  # count imports them when it runs

    drawn = []
    writer = plots.png_writer
    monkeypatch.setattr(plots, "png_writer", lambda fig: drawn.append(fig) or writer(fig))
    plots = ["--plot", str(tmp_path / "ev.png"), "--gain-plot", str(tmp_path / "gain.png")]
    argv = ["count", "--bet", "tie", "--bet", "lucky_six", "--mode", "all", "--shoes", "4"]
    code, _, _ = run(capsys, *argv, "--perfect", *plots, *quiet(tmp_path / "w"))
    assert code == 0
    expected = [
        f"{name} ({mode})"
        for name in ("Tie", "Lucky Six")
        for mode in ("Baccarat (commission)", "No Commission Baccarat")
    ]
    for fig in drawn:
        legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
        assert [label for label in legend if label != "max gain"] == expected
    assert len(drawn) == 2
    one = ["count", "--bet", "lucky_six", "--shoes", "4", "--perfect", *quiet(tmp_path / "w")]
    code, out, _ = run(capsys, *one)
    assert code == 0 and "Bet: Lucky Six (Baccarat (commission))" in out.splitlines()
    code, out, _ = run(capsys, *one, "--format", "json", "--resume")
    (record,) = _rows(out)
    assert (record["bet"], record["name"]) == ("lucky_six", "Lucky Six")


def test_a_bet_counted_alike_in_every_mode_is_shown_once(tmp_path, capsys) -> None:
    """--mode all deals the same shoes for every mode: a bet that settles alike in both
    (Tie) has the same figures and is one row, 'All modes', as report shows it; the
    Banker's bet, paid otherwise in each mode, is a row per mode. JSON keeps them all."""
    argv = ["count", "--bet", "tie", "--bet", "banker", "--mode", "all", "--perfect"]
    argv += ["--shoes", "40", "--no-progress", "--work-dir", str(tmp_path)]
    code, out, _ = run(capsys, *argv, "--wide")
    assert code == 0
    header, *body = out.splitlines()[3:]
    mode, end = header.index("mode"), header.index("max round")
    assert [(line[:mode].strip(), line[mode:end].strip()) for line in body] == [
        ("Banker", "Baccarat (commission)"),
        ("Banker", "No Commission Baccarat"),
        ("Tie", "All modes"),
    ]
    code, out, _ = run(capsys, *argv, "--format", "json")
    records = _rows(out)
    assert sorted((r["bet"], r["mode"]) for r in records) == [
        ("banker", "commission"),
        ("banker", "no_commission"),
        ("tie", "commission"),
        ("tie", "no_commission"),
    ]
    ties = [r for r in records if r["bet"] == "tie"]
    assert _part(ties[0], "with_limit_") == _part(ties[1], "with_limit_")


@pytest.mark.slow
def test_partitions_too_big_are_refused_before_the_tags_are_derived(tmp_path, capsys, monkeypatch):
    """The memory of a partition is weighed before the effects of removal the default
    tags come from (they took 130 s on a paytable before the same refusal)."""
    from analyzer.analysis import eor  # the command imports it when it runs

    def never(*args, **kwargs):
        raise AssertionError("the effects of removal were worked out before the refusal")

    monkeypatch.setattr(eor, "effects_of_removal", never)
    bets = "".join(
        f'[[bet]]\nid = "b{i}"\nrule = [{{ when = "winner == \'tie\'", pays = {i % 9 + 2} }}]\n'
        for i in range(400)
    )
    path = tmp_path / "many.toml"
    path.write_text('name = "Many"\nmodes = ["m"]\n' + bets, encoding="utf-8")
    argv = ["count", "--paytable", str(path), "--bet", "all", "--shoes", "10000"]
    code, out, err = run(capsys, *argv, "--partition-size", "10000", "--work-dir", str(tmp_path))
    assert code == 2 and out == ""
    assert "MB of memory per partition (at most 1,074 MB): lower --partition-size to" in err
    assert not (tmp_path / "runs").exists() and len(list(tmp_path.iterdir())) == 1


@pytest.mark.slow
def test_multiplied_bets_and_fees_are_counted_by_their_exact_ev(tmp_path, capsys) -> None:
    """A bet paying random multipliers, with a fee: each round's exact EV per unit paid
    comes from one identity walk per round (the batch engine's), the same as the exact
    analysis' on a full shoe up to what the burn and the dealt cards move it; a count
    of more rounds than those walks can price is refused before any shoe is dealt."""
    from helpers import MULTIPLIED_PAYTABLE

    from analyzer import analyze
    from analyzer.paytables.library import load_paytable

    path = tmp_path / "multiplied.toml"
    path.write_text(MULTIPLIED_PAYTABLE)
    out = tmp_path / "rounds.csv"
    args = ["count", "--paytable", str(path), "--bet", "player", "--perfect", "--format", "json"]
    code, text, err = run(capsys, *args, "--shoes", "2", *quiet(tmp_path / "w"), "--out", str(out))
    assert code == 0, err
    rounds = np.genfromtxt(out, delimiter=",", names=True)
    exact = analyze(paytable=load_paytable(str(path))).result("player").expected_value
    assert abs(rounds["mean_ev"][0] - float(exact)) < 0.01
    assert _rows(text)[0]["shoes"] == 2 and json.loads(text)["options"]["shoes"] == 2
    code, text, err = run(capsys, *args, "--shoes", "100000", *quiet(tmp_path / "v"))
    assert code == 2 and not text and "count fewer shoes" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "v").exists()


# -- Warnings: the same on standard error and in JSON -----------------------------------------

#: Tie's tags, and thresholds a true count never reaches (1000: no round is bet) or always
#: reaches (-1000: every round is bet), so a short count's rounds bet are known.
TIE_TAGS = "6=-4,7=-4,8=2,9=2,10=2,J=2,Q=2,K=2,2=-1,3=-1,4=-1,5=-1"


def _warned(tmp_path, capsys, shoes: int, threshold: int) -> dict:
    """A count of the Tie on ``shoes`` shoes betting at ``threshold``, as JSON, valid
    against its schema, whose warnings are standard error's, line for line."""
    import jsonschema

    from analyzer.reports.contract import schema_of

    argv = ["count", "--bet", "tie", "--shoes", str(shoes), "--tags", TIE_TAGS]
    argv += ["--threshold", str(threshold), "--format", "json", *quiet(tmp_path)]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    document = json.loads(out)
    jsonschema.Draft202012Validator(schema_of("count")).validate(document)
    said = [f"baccarat-odds: warning: {w['message']}" for w in document["warnings"]]
    assert err.splitlines() == said
    return document


def test_a_count_that_never_bets_warns_in_json_as_on_stderr(tmp_path, capsys) -> None:
    document = _warned(tmp_path, capsys, 2, 1000)
    assert document["bets"][0]["bet_frequency"] == 0
    assert document["warnings"] == [
        {
            "kind": "no_rounds",
            "bets": [{"bet": "tie", "mode": "commission", "rounds": 0}],
            "message": "never bet by the count's strategy in the whole run, so without "
            "figures: Tie (commission)",
        }
    ]


def test_a_count_on_few_rounds_warns_in_json_as_on_stderr(tmp_path, capsys) -> None:
    from analyzer.runs.few_rounds import FEW_ROUNDS

    document = _warned(tmp_path, capsys, 1, -1000)
    (row,) = document["bets"]
    assert row["bet_frequency"] == 1  # every round of the one shoe
    rounds = round(row["rounds_per_shoe"])
    assert 0 < rounds < FEW_ROUNDS
    assert document["warnings"] == [
        {
            "kind": "few_rounds",
            "bets": [{"bet": "tie", "mode": "commission", "rounds": rounds}],
            "message": f"figures resting on fewer than {FEW_ROUNDS} rounds bet: "
            f"Tie (commission) {rounds}: deal more shoes",
        }
    ]


def test_a_count_on_enough_rounds_has_no_warnings(tmp_path, capsys) -> None:
    from analyzer.runs.few_rounds import FEW_ROUNDS

    document = _warned(tmp_path, capsys, 2, -1000)
    (row,) = document["bets"]
    assert round(2 * row["rounds_per_shoe"]) >= FEW_ROUNDS
    assert document["warnings"] == []  # always there, empty (and nothing on stderr)


# -- Games dealt once: Dragon Tiger, Three Card Baccarat -------------------------------------


def test_dragon_tiger_is_counted_in_json_that_meets_its_schema(tmp_path, capsys) -> None:
    """Dragon Tiger's rounds of two cards, each bet's exact EV on the cards left: the
    Suited Tie turns positive as the shoe runs down, the Tie (whose removals all move it
    alike) by perfect play only beside a bet a linear count helps."""
    import jsonschema

    from analyzer.reports.contract import schema_of

    argv = ["count", "--paytable", "dragon-tiger", "--shoes", "20", "--decks", "2"]
    argv += ["--bet", "suited_tie", "--bet", "tie", "--bet", "dragon_big", "--format", "json"]
    code, out, err = run(capsys, *argv, *quiet(tmp_path / "w"), "--out", str(tmp_path / "r.csv"))
    assert code == 0, err
    document = json.loads(out)
    jsonschema.Draft202012Validator(schema_of("count")).validate(document)
    suited, tie, big = document["bets"]
    assert document["paytable"]["name"] == "Dragon Tiger"
    alone = "no linear count helps this bet: perfect play only"
    assert suited["strategy"] == tie["strategy"] == alone
    assert big["strategy"].startswith("linear count A=+")
    assert suited["without_limit_units_per_shoe"] > 0 and suited["edge_when_bet"] > 0
    # Two cards a round from two decks: about (104 - burn - cut card) / 2 rounds.
    assert 40 < suited["rounds_per_shoe"] < 45
    rounds = pd.read_csv(tmp_path / "r.csv")
    first = rounds[(rounds["bet"] == "tie") & (rounds["round"] == 1)]
    # Round 1 is dealt from the shoe less its burn: near the full shoe's Tie.
    full = 9 * 13 * 8 * 7 / (104 * 103) - 1
    assert first["mean_ev"].iloc[0] == pytest.approx(full, abs=0.02)


def test_a_game_count_is_the_same_from_the_same_seed(tmp_path, capsys) -> None:
    argv = ["count", "--paytable", "three-card-baccarat", "--bet", "all", "--perfect"]
    argv += ["--shoes", "15", "--seed", "4", "--format", "json"]
    code, first, _ = run(capsys, *argv, *quiet(tmp_path / "a"))
    code, again, _ = run(capsys, *argv, *quiet(tmp_path / "b"))  # (dealt afresh)
    assert code == 0 and _rows(first) == _rows(again)
    code, other, _ = run(capsys, *argv[:-3], "5", "--format", "json", *quiet(tmp_path / "c"))
    assert _rows(other) != _rows(first)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--paytable", "lucky-draw-baccarat-1", "--bet", "all", "--shoes", "300"],
            "count solves each round's best play on its cards (about 40 ms a round): up to "
            "30,600 rounds, some 20 minutes of one core (at most 20,000 rounds): deal fewer "
            "shoes (--shoes), or fewer decks (--decks)",
        ),
        (["--paytable", "lightning-dragon-tiger", "--bet", "tie"], "unknowns (p3, p5, p8)"),
        (["--paytable", "dragon-tiger", "--bet", "tie"], "no linear count helps 'tie'"),
        (["--paytable", "dragon-tiger", "--bet", "tie", "--tags", "A=1,Z=2"], "bad tag 'Z=2'"),
        (["--paytable", "dragon-tiger", "--bet", "player"], "unknown bet 'player'"),
    ],
)
def test_a_game_count_that_cannot_run_is_one_line(tmp_path, capsys, argv, message) -> None:
    code, out, err = run(capsys, "count", "--shoes", "3", *argv, *quiet(tmp_path / "w"))
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err
    assert not (tmp_path / "w").exists()  # refused before any shoe or folder


def test_the_counters_figures_in_json_csv_and_text(tmp_path, capsys) -> None:
    """DI, N0 and the sd per round of each play from the count's own bet frequency and
    win rate and the bet's second moment as report gives it (variance + EV^2); per hour
    at --rounds-per-hour, none without it."""
    import math
    from fractions import Fraction

    argv = ["count", "--bet", "lucky_six", "--shoes", "120", "--perfect", *quiet(tmp_path / "w")]
    code, text, _ = run(capsys, *argv, "--rounds-per-hour", "72", "--format", "json")
    assert code == 0
    document = json.loads(text)
    assert document["schema"]["version"] == 5 and document["options"]["rounds_per_hour"] == 72
    (row,) = document["bets"]
    code, report, _ = run(
        capsys, "report", "--bet", "lucky_six", "--mode", "commission", "--format", "json"
    )
    (six,) = json.loads(report)["bets"]
    moment = Fraction(six["variance"]) + Fraction(six["house_edge"]) ** 2
    checked = []
    for prefix in ("with_limit_", "without_limit_"):
        play = _part(row, prefix)
        if play["bet_frequency"] == 0:  # (the max round of 50 leaves few rounds to bet)
            assert play["sd_per_round"] is play["di"] is play["n0"] is None
            continue
        checked.append(prefix)
        win = play["units_per_100_rounds"] / 100
        sd = math.sqrt(play["bet_frequency"] * float(moment) - win**2)
        assert play["sd_per_round"] == pytest.approx(sd, rel=1e-9)
        assert play["di"] == pytest.approx(1000 * win / sd, rel=1e-9)
        assert play["n0"] == pytest.approx((sd / win) ** 2, rel=1e-9)
        assert play["win_per_hour"] == pytest.approx(72 * win, rel=1e-9)
        assert play["sd_per_hour"] == pytest.approx(math.sqrt(72) * sd, rel=1e-9)
    assert "without_limit_" in checked and row["di"] == row[f"{row['headline']}_di"]
    code, text, _ = run(capsys, *argv, "--rounds-per-hour", "72")
    for label in ("sd per round", "DI ", "N0 (rounds)", "win per hour (72 rounds)"):
        assert label in text
    code, text, _ = run(capsys, *argv, "--format", "csv")
    (plain,) = pd.read_csv(io.StringIO(text)).to_dict("records")
    assert plain["without_limit_n0"] == pytest.approx(row["without_limit_n0"])
    assert math.isnan(plain["without_limit_win_per_hour"])
    code, text, _ = run(capsys, *argv)
    assert "per hour" not in text


@pytest.mark.parametrize("pace", ["0", "-5", "nan", "200000"])
def test_bad_rounds_per_hour_is_one_line(tmp_path, capsys, pace) -> None:
    code, _, err = run(
        capsys, "count", "--bet", "tie", "--shoes", "2", "--perfect", "--rounds-per-hour", pace
    )
    assert code == 2 and "--rounds-per-hour" in err and len(err.strip().splitlines()) == 1
