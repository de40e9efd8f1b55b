"""Reading a log of dealt rounds: CSV and Parquet alike, in bounded blocks, and every
malformed input one error naming its row and column."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from audit_logs import clean_rows, write_csv, write_parquet

from analyzer import load_paytable
from analyzer.errors import AnalyzerError
from analyzer.runs import audit_log as reader
from analyzer.runs.audit_log import audit_log, read_log


@pytest.fixture(scope="module")
def seed_game():
    return load_paytable("seed-game")


@pytest.fixture(scope="module")
def rows(seed_game):
    return clean_rows(seed_game, 500, decks=4, seed=9)


@pytest.mark.slow
def test_csv_and_parquet_read_the_same_rounds_in_bounded_blocks(tmp_path, seed_game, rows):
    csv_blocks = list(read_log(write_csv(tmp_path / "log.csv", rows), seed_game, 128))
    parquet_blocks = list(read_log(write_parquet(tmp_path / "log.pq", rows), seed_game, 128))
    assert max(len(b) for b in csv_blocks) == 128
    assert max(len(b) for b in parquet_blocks) <= 128
    for name in ("rows", "rounds", "cards", "player_score", "banker_score", "winner"):
        a = np.concatenate([getattr(b, name) for b in csv_blocks])
        b = np.concatenate([getattr(b, name) for b in parquet_blocks])
        assert np.array_equal(a, b), name
    assert np.array_equal(np.concatenate([b.rows for b in csv_blocks]), np.arange(1, len(rows) + 1))
    keys = csv_blocks[0].payouts.keys()
    assert ("banker", "no_commission") in keys
    for key in keys:
        a = np.concatenate([b.payouts[key] for b in csv_blocks])
        b = np.concatenate([b.payouts[key] for b in parquet_blocks])
        assert np.array_equal(a, b, equal_nan=True), key
    for path in ("log.csv", "log.pq"):
        assert audit_log(tmp_path / path, seed_game, decks=4).total == 0


def test_every_card_spelling_of_the_tool_is_read(tmp_path, seed_game) -> None:
    header = "shoe,round,player_cards,banker_cards\n"
    (tmp_path / "a.csv").write_text(header + 'A,1,"10h,th",KS QD\n', encoding="utf-8")
    (tmp_path / "b.csv").write_text(header + "A,1,TH 10h,ks qD\n", encoding="utf-8")
    a, b = (next(read_log(tmp_path / f"{x}.csv", seed_game)) for x in "ab")
    assert np.array_equal(a.cards, b.cards)
    assert a.cards.tolist() == [[37, 48, 37, 46, -1, -1]]


def test_a_bom_blank_lines_and_extra_columns_are_fine(tmp_path, seed_game) -> None:
    text = "\ufeffshoe,round,note,player_cards,banker_cards\n\nA,1,x,9S KH,3S 4H\n\n"
    (tmp_path / "log.csv").write_text(text, encoding="utf-8")
    result = audit_log(tmp_path / "log.csv", seed_game)
    assert result.rounds == 1 and result.total == 0


HEADER = "shoe,round,player_cards,banker_cards,winner,player_score,pay:banker"
GOOD = "A,1,9S KH,3S 4H,player,9,-1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty: no header row"),
        ("\n\n", "empty: no header row"),
        (HEADER + "\n", "no rounds"),
        ("shoe,round,player_cards\nA,1,9S KH\n", "header: no column 'banker_cards'"),
        (HEADER + ",shoe\n", "the column 'shoe' is there twice"),
        ("shoe,round,player_cards,banker_cards,pay:nope\n", "has no bet 'nope'"),
        ("shoe,round,player_cards,banker_cards,pay:tie:nope\n", "no mode 'nope'"),
        (
            f"{HEADER}\n{GOOD}\nA,2,9S ZZ,3S 4H,,,\n",
            "row 2, column 'player_cards': unknown card 'ZZ'",
        ),
        (f"{HEADER}\nA,1,9S,3S 4H,,,\n", "row 1, column 'player_cards': 1 card(s)"),
        (f"{HEADER}\nA,1,9S KH,3S 4H 2D 5C,,,\n", "row 1, column 'banker_cards': 4 card(s)"),
        (
            f"{HEADER}\nA,1,9S KH,3S 4H,,,lots\n",
            "row 1, column 'pay:banker': 'lots' is not a number",
        ),
        (f"{HEADER}\nA,1,9S KH,3S 4H,,,nan\n", "row 1, column 'pay:banker': 'nan' is not a number"),
        (f"{HEADER}\nA,one,9S KH,3S 4H,,,\n", "row 1, column 'round': 'one' is not a round number"),
        (f"{HEADER}\nA,1,9S KH,3S 4H,dragon,,\n", "row 1, column 'winner': 'dragon' is not"),
        (f"{HEADER}\nA,1,9S KH,3S 4H,,10,\n", "row 1, column 'player_score': '10' is not a score"),
        (f"{HEADER}\nA,1,9S KH,3S 4H,,\n", "row 1: 6 fields, the header has 7"),
        (f"{HEADER}\n,1,9S KH,3S 4H,,,\n", "row 1, column 'shoe': empty"),
        (
            f"{HEADER}\n{GOOD}\n{GOOD.replace('A,', 'B,', 1)}\n{GOOD.replace(',1,', ',2,', 1)}\n",
            "row 3, column 'shoe': shoe 'A' comes back after shoe 'B' began: rows out of order",
        ),
        (f'{HEADER}\nA,1,"9S KH,3S 4H,,,\n', "row 1: not CSV"),
    ],
)
def test_a_malformed_log_is_one_error_naming_row_and_column(tmp_path, seed_game, text, message):
    path = tmp_path / "log.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(AnalyzerError) as error:
        audit_log(path, seed_game)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_huge_line_is_refused_unread(tmp_path, seed_game, monkeypatch) -> None:
    monkeypatch.setattr(reader, "MAX_LINE_BYTES", 1000)
    path = tmp_path / "log.csv"
    path.write_text(f"{HEADER}\n{GOOD}\nA,2,{'9S ' * 10**5}\n", encoding="utf-8")
    with pytest.raises(AnalyzerError, match="line 3: longer than"):
        audit_log(path, seed_game)


def test_a_huge_quoted_field_spanning_lines_is_refused(tmp_path, seed_game, monkeypatch) -> None:
    monkeypatch.setattr(reader, "MAX_LINE_BYTES", 1000)
    path = tmp_path / "log.csv"
    path.write_text(f'{HEADER}\nA,1,"' + "9S\n" * 2000 + '",3S 4H,,,\n', encoding="utf-8")
    with pytest.raises(AnalyzerError, match="row 1: longer than 1,000 bytes"):
        audit_log(path, seed_game)


def test_not_utf8_and_not_a_file_are_one_line(tmp_path, seed_game) -> None:
    path = tmp_path / "log.csv"
    path.write_bytes(HEADER.encode() + b"\nA,1,9S KH,3S 4H,\xff,,\n")
    with pytest.raises(AnalyzerError, match="line 2: not UTF-8 text"):
        audit_log(path, seed_game)
    with pytest.raises(AnalyzerError, match="no such file"):
        audit_log(tmp_path / "missing.csv", seed_game)
    with pytest.raises(AnalyzerError, match="is a directory"):
        audit_log(tmp_path, seed_game)


def test_a_bad_parquet_cell_names_its_row(tmp_path, seed_game, rows) -> None:
    bad = copy.deepcopy(rows[:50])
    bad[41]["banker_cards"] = "3S XX"
    path = write_parquet(tmp_path / "log.parquet", bad)
    with pytest.raises(AnalyzerError, match="row 42, column 'banker_cards': unknown card 'XX'"):
        audit_log(path, seed_game)
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"PAR1" + b"\0" * 100)
    with pytest.raises(AnalyzerError, match="not a Parquet file that can be read"):
        audit_log(broken, seed_game)


@pytest.mark.parametrize("number", ["1e9999", "-1e400", "9" * 30 + "e999"])
def test_a_payout_too_large_for_a_float_is_not_a_number(tmp_path, seed_game, number) -> None:
    path = tmp_path / "log.csv"
    path.write_text(f"{HEADER}\nA,1,9S KH,3S 4H,,,{number}\n", encoding="utf-8")
    with pytest.raises(AnalyzerError, match=r"row 1, column 'pay:banker': .* not a finite number"):
        audit_log(path, seed_game)


def test_a_header_that_is_not_csv_is_one_error(tmp_path, seed_game) -> None:
    """Old Mac line ends (CR only): the csv module refuses the first line."""
    path = tmp_path / "log.csv"
    path.write_bytes(f"{HEADER}\r{GOOD}\r".encode())
    with pytest.raises(AnalyzerError, match="header: not CSV"):
        audit_log(path, seed_game)


@pytest.mark.parametrize("shoe", ["x\x1b[31mred", "a\nb", "a\rb", "a\u202eb", "a\u2028b"])
def test_a_shoe_name_that_could_drive_a_terminal_is_refused(tmp_path, seed_game, shoe) -> None:
    path = tmp_path / "log.csv"
    name = shoe.replace('"', '""')
    path.write_text(f'{HEADER}\n"{name}",1,9S KH,3S 4H,,,\n', encoding="utf-8", newline="")
    with pytest.raises(AnalyzerError, match=r"row 1, column 'shoe': .*control character"):
        audit_log(path, seed_game)


def test_a_row_of_many_lines_is_bounded_like_a_line(tmp_path, seed_game, monkeypatch) -> None:
    """Short quoted fields, each holding a line end, add up to one row: it is bounded as a
    line is (else a file of small lines is one row as large as the file, in memory)."""
    monkeypatch.setattr(reader, "MAX_LINE_BYTES", 1000)
    path = tmp_path / "log.csv"
    path.write_text(f"{HEADER}\n{GOOD}\nA,2,9S KH,3S 4H" + ',"a\nb"' * 500 + "\n")
    with pytest.raises(AnalyzerError, match="row 2: longer than 1,000 bytes"):
        audit_log(path, seed_game)
    path.write_text(HEADER + ',"a\nb"' * 500 + f"\n{GOOD}\n")
    with pytest.raises(AnalyzerError, match="header: longer than 1,000 bytes"):
        audit_log(path, seed_game)


def test_a_parquet_column_python_cannot_hold_is_one_error(tmp_path, seed_game) -> None:
    """A timestamp past the year 9999 (even in a column the audit ignores) is read by
    none; in a column it reads, one line naming it."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = {
        "shoe": ["A", "A"],
        "round": [1, 2],
        "player_cards": ["9S KH", "2S 3H"],
        "banker_cards": ["3S 4H", "4D 5C"],
    }
    far = pa.array([10**12, 0], pa.timestamp("s"))
    path = tmp_path / "log.parquet"
    pq.write_table(pa.table({**columns, "seen": far}), path)
    assert audit_log(path, seed_game).rounds == 2
    pq.write_table(pa.table({**columns, "winner": far}), path)
    with pytest.raises(AnalyzerError, match="row 1, column 'winner': cannot read"):
        audit_log(path, seed_game)


def test_several_logs_are_one_audit(tmp_path, seed_game, rows) -> None:
    # Two logs of the same table: the second deals the first's shoe S2 again (renamed),
    # and names its own shoes S1, S2, ... as the first does, with other cards.
    other = clean_rows(seed_game, 300, decks=4, seed=10)
    again = [dict(row, shoe="again") for row in rows if row["shoe"] == "S2"]
    bad = copy.deepcopy(other)
    bad[4]["pay:banker"] = "5"
    first = write_csv(tmp_path / "monday.csv", rows)
    second = write_parquet(tmp_path / "tuesday.pq", bad + again)
    alone = [audit_log(path, seed_game, decks=4) for path in (first, second)]
    both = audit_log([first, second], seed_game, decks=4)
    assert both.logs == 2 and alone[0].logs == alone[1].logs == 1
    assert both.rounds == sum(r.rounds for r in alone) == len(rows) + len(other) + len(again)
    assert both.shoes == sum(r.shoes for r in alone)  # a shoe's name is its log's
    assert alone[0].total == 0 and [f.check for f in alone[1].findings] == ["payout"]
    assert [(f.check, f.log, f.row) for f in both.findings] == [
        ("payout", str(second), 5),
        ("repeat", str(second), len(other) + 1),
    ]
    repeat = both.findings[1]
    assert repeat.shoe == "again" and f"as shoe 'S2' (from {first}, row " in repeat.text
    # A log on its own names no log; the same file twice (by any name) is refused.
    assert {f.log for f in alone[1].findings} == {""}
    (tmp_path / "link.csv").symlink_to(first)
    for again in (first, tmp_path / "link.csv", tmp_path / "." / "monday.csv"):
        with pytest.raises(AnalyzerError, match=f"^{again}: is the log {first} again"):
            audit_log([first, again], seed_game, decks=4)


def test_logs_audited_together_share_their_payout_columns(tmp_path, seed_game, rows) -> None:
    first = write_csv(tmp_path / "a.csv", rows)
    fewer = write_csv(
        tmp_path / "b.csv", [{k: v for k, v in r.items() if k != "pay:tie"} for r in rows]
    )
    with pytest.raises(AnalyzerError, match=f"^{fewer}: its payout columns are not the first"):
        audit_log([first, fewer], seed_game, decks=4)
    # Found from the headers, before any row is read: a bad row of the first log is
    # not reached.
    bad = [dict(row) for row in rows]
    bad[3]["player_cards"] = "ZZ 2S"
    broken = write_csv(tmp_path / "c.csv", bad)
    with pytest.raises(AnalyzerError, match="its payout columns are not the first"):
        audit_log([broken, fewer], seed_game, decks=4)


def test_a_logs_rounds_are_estimated_for_the_progress_bar(tmp_path, seed_game, rows) -> None:
    csv_path = write_csv(tmp_path / "log.csv", rows)
    assert reader.estimated_rounds(csv_path) == len(rows)
    assert reader.estimated_rounds(write_parquet(tmp_path / "log.pq", rows)) == len(rows)
    text = csv_path.read_bytes().rstrip(b"\n")  # no line end after the last row
    (tmp_path / "cut.csv").write_bytes(text)
    assert reader.estimated_rounds(tmp_path / "cut.csv") == len(rows)
    (tmp_path / "header.csv").write_text("shoe,round\n", encoding="utf-8")
    assert reader.estimated_rounds(tmp_path / "header.csv") == 0
    assert reader.estimated_rounds(tmp_path / "missing.csv") is None
    assert reader.estimated_rounds(tmp_path) is None  # a folder: the reading says so


def _bomb(path, rows, *, ignored=None, dictionary=True, row_group_size=None, **cells):
    """``rows`` as a Parquet log (zstd: repetitive text takes a few bytes on disk), the
    cells ``cells`` gives ({column: {row: text}}) replaced and a column ``note`` holding
    ``ignored`` (text, the same in every row) added."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = {name: [row[name] for row in rows] for name in rows[0]}
    for name, changed in cells.items():
        for row, text in changed.items():
            columns[name][row - 1] = text
    if ignored is not None:
        columns["note"] = [ignored] * len(rows)
    pq.write_table(
        pa.table(columns), path, compression="zstd", use_dictionary=dictionary,
        row_group_size=row_group_size,
    )  # fmt: skip
    assert path.stat().st_size < 100_000
    return path


def _arrow_peak(read) -> int:
    """The most bytes Arrow held while ``read()`` ran (in a memory pool of its own, kept
    to the end: Arrow's buffers outliving their pool would crash the process)."""
    import pyarrow as pa

    before = pa.default_memory_pool()
    pool = pa.proxy_memory_pool(before)
    _POOLS.append(pool)
    pa.set_memory_pool(pool)
    try:
        read()
    finally:
        pa.set_memory_pool(before)
    return pool.max_memory()


def test_a_parquet_column_the_audit_ignores_is_never_read(tmp_path, seed_game) -> None:
    """A 256 KiB note, the same in each of 500 rows: a few hundred bytes in the file (one
    dictionary entry), 128 MB once each row holds it. It is not read at all."""
    plain = audit_log(write_parquet(tmp_path / "plain.parquet", ROWS_500), seed_game, decks=4)
    path = _bomb(tmp_path / "bomb.parquet", ROWS_500, ignored="n" * 2**18)
    results = []
    peak = _arrow_peak(lambda: results.append(audit_log(path, seed_game, decks=4)))
    assert peak < 8 * 2**20
    assert results[0].rounds == plain.rounds == len(ROWS_500) and results[0].total == 0


def test_a_long_parquet_text_repeated_in_a_used_column_is_not_copied_per_row(
    tmp_path, seed_game
) -> None:
    """A 64 KiB burn, one dictionary entry, in each of 500 rows: read once and refused at
    its first row (not a few cards), never 32 MB of copies."""
    burn = {row: "9S " * 21_845 for row in range(1, len(ROWS_500) + 1)}
    path = _bomb(tmp_path / "log.parquet", ROWS_500, burn=burn)

    def refused() -> None:
        with pytest.raises(AnalyzerError, match="row 1, column 'burn': longer than 200 char"):
            audit_log(path, seed_game, decks=4)

    assert _arrow_peak(refused) < 8 * 2**20


@pytest.mark.parametrize("dictionary", [True, False])
def test_a_parquet_cell_over_1_mib_is_refused_in_one_line(tmp_path, seed_game, dictionary):
    """As a CSV line over 1 MiB is: the row, the column and the limit, whatever the
    column's encoding (a 2 MiB cell among short ones: a row group of small rows)."""
    path = _bomb(
        tmp_path / "log.parquet", ROWS_500[:100], dictionary=dictionary,
        player_cards={42: "x" * 2**21},
    )  # fmt: skip
    with pytest.raises(AnalyzerError) as error:
        audit_log(path, seed_game, decks=4)
    assert str(error.value) == (
        f"{path}: row 42, column 'player_cards': longer than 1 MiB: not a log"
    )


def test_a_parquet_row_group_of_rows_over_1_mib_is_refused_unread(tmp_path, seed_game):
    """The row groups' sizes (in the file's footer) are looked at before any row is read:
    rows of 2 MiB each, as the footer declares, are refused, naming the rows and column."""
    big = {row: "x" * 2**21 for row in range(1, 4)}
    path = _bomb(
        tmp_path / "log.parquet", ROWS_500[:6], dictionary=False, row_group_size=3,
        shoe={row: "S1" for row in range(1, 7)}, banker_cards=big,
    )  # fmt: skip
    with pytest.raises(AnalyzerError) as error:
        audit_log(path, seed_game, decks=4)
    assert str(error.value).startswith(
        f"{path}: rows 1 to 3 (row group 1): column 'banker_cards' takes 2.0 MiB a row"
    )
    assert str(error.value).endswith("more than a row may (1 MiB): not a log")


def test_parquet_blocks_are_bounded_by_bytes_as_well_as_rows(tmp_path, seed_game, monkeypatch):
    """A block holds at most BATCH_BYTES of the columns read, by the footer's sizes."""
    import pyarrow.parquet as pq

    path = write_parquet(tmp_path / "log.parquet", [dict(r, note="n" * 400) for r in ROWS_500])
    whole = list(read_log(path, seed_game, 10_000))
    group = pq.ParquetFile(path).metadata.row_group(0)  # (997 rows: one row group)
    used = [group.column(j) for j in range(group.num_columns)]
    per_row = sum(c.total_uncompressed_size for c in used if c.path_in_schema != "note") / 500
    monkeypatch.setattr(reader, "BATCH_BYTES", 4_000)
    blocks = list(read_log(path, seed_game, 10_000))
    assert len(whole) == 1 and 1 < max(len(b) for b in blocks) <= 4_000 / per_row
    for name in ("rows", "rounds", "cards", "winner"):
        joined = np.concatenate([getattr(b, name) for b in blocks])
        assert np.array_equal(joined, getattr(whole[0], name)), name


_POOLS: list = []
ROWS_500 = clean_rows(load_paytable("seed-game"), 500, decks=4, seed=9)


def test_a_parquet_column_used_that_holds_lists_is_refused(tmp_path, seed_game) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = {"shoe": ["A"], "round": [1], "player_cards": ["9S KH"], "banker_cards": ["3S 4H"]}
    pq.write_table(pa.table({**columns, "burn": pa.array([["2S"]])}), tmp_path / "log.parquet")
    with pytest.raises(AnalyzerError, match=r"column 'burn': of type list<.*not text or a number"):
        audit_log(tmp_path / "log.parquet", seed_game)
    pq.write_table(pa.table({**columns, "seen": pa.array([["2S"]])}), tmp_path / "log.parquet")
    assert audit_log(tmp_path / "log.parquet", seed_game).rounds == 1  # (not used)
