"""The PAR sheet workbook, checked as users open it.

Each workbook is opened in a real spreadsheet program, Debian's LibreOffice, headless,
which recalculates every formula and saves the workbook again; every sheet of that copy
is read back with openpyxl and compared with the exact analysis, formula cells included,
to the double's precision (LibreOffice saves 15 significant digits, XlsxWriter 16). The
copy LibreOffice is given has its formulas' stored values removed, so each value read
back is one LibreOffice computed. The exact text columns are compared with the
Fractions in the workbook as written. Cases: the seed game, a paytable of bets on the
cards, a multiplied paytable with a fee, and a paytable of hostile names (formula-like
text, names at the 200-character limit, names alike in their first 31 characters, bets
named like the workbook's own sheets).

Without LibreOffice (``soffice``) the tests that need it are skipped, unless
``BACCARAT_ODDS_REQUIRE_OFFICE=1`` (CI sets it), when that is a failure. All workbooks
are converted in one LibreOffice run for the module: it takes seconds to start.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import zipfile
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist

import openpyxl
import pytest

from analyzer import Shoe, analyze, load_paytable, paytable_from_dict
from analyzer.analysis.bets import OTHERWISE
from analyzer.analysis.verify import published_max_rtp
from analyzer.reports.formats import ALL_MODES
from analyzer.reports.i18n import LANGUAGES, sentence, word
from analyzer.reports.tables import shoe_text, shown_once
from analyzer.reports.workbook import (
    MAX_SHEET_NAME,
    RESERVED_SHEET_NAMES,
    footer_text,
    reserved_sheet_names,
    sheet_names,
    workbook_bytes,
)
from analyzer.version import package_version

#: How long LibreOffice may take to open, recalculate and save every workbook: a bound
#: for a hung process, not a timing check.
OFFICE_TIMEOUT = 600
#: Relative precision of the numbers read back: LibreOffice saves 15 significant digits,
#: XlsxWriter 16 (a double has 15.95).
OFFICE_PRECISION = 1e-14
WRITTEN_PRECISION = 1e-15

FORMULA_LIKE = ['=HYPERLINK("http://example.com","click")', "+1", "@A1", "-1+2", "=1+1"]
#: 200 characters (the longest name a paytable takes), alike in the first 31.
LONG_NAMES = ["N" * 31 + "a" * 169, "N" * 31 + "b" * 169]
HOSTILE_NAMES = [
    *FORMULA_LIKE,
    *LONG_NAMES,
    "Summary",
    "volatility",
    "HISTORY",
    "a[b]:c*d?e/f\\g",
    "'quoted'",
    "\U0001f600" * 20,  # 40 UTF-16 code units
    "Tie",
    "tie",
]


def hostile_paytable():
    """A paytable whose every text a spreadsheet could misread: names, labels, the
    paytable's name."""
    bets = [
        {
            "id": f"b{number}",
            "name": name,
            "rule": [
                {
                    "when": "winner == 'tie'",
                    "pays": 8,
                    "label": FORMULA_LIKE[number % len(FORMULA_LIKE)],
                },
                {"when": "winner == 'banker'", "pays": "push"},
            ],
        }
        for number, name in enumerate(HOSTILE_NAMES)
    ]
    return paytable_from_dict({"name": "=cmd|' /C calc'!A0", "modes": ["m"], "bet": bets})


def cases() -> dict[str, tuple]:
    """name -> (analysis, language, claim): the seed game in English and Tagalog, bets
    on the cards, a multiplied paytable with a fee (in Malay), the hostile names."""
    seed = analyze()
    cards = load_paytable("majestic-match")
    multiplied = load_paytable("golden-wealth-baccarat").with_unknowns(
        {"a": Fraction(3, 10), "b": Fraction(1, 10), "c": Fraction(1, 20)}
    )
    return {
        "seed": (seed, "en", published_max_rtp(seed.paytable)),
        "seed-tl": (seed, "tl", published_max_rtp(seed.paytable)),
        "cards": (analyze(paytable=cards), "en", published_max_rtp(cards)),
        "multiplied": (analyze(paytable=multiplied), "ms", None),
        "hostile": (analyze(paytable=hostile_paytable(), shoe=Shoe.standard(1)), "en", None),
    }


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, tuple]:
    """Each case's workbook as written: name -> (analysis, language, path)."""
    folder = tmp_path_factory.mktemp("written")
    out = {}
    for name, (analysis, lang, claim) in cases().items():
        path = folder / f"{name}.xlsx"
        path.write_bytes(workbook_bytes(analysis, claimed_max_rtp=claim, lang=lang))
        out[name] = (analysis, lang, path)
    return out


def office_path() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


#: A LibreOffice profile that recalculates every formula of an xlsx file it opens
#: (its default keeps the values stored in the file).
RECALCULATE_ON_LOAD = """\
<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry"
 xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode"
 oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""


def required_office() -> str:
    """LibreOffice's command; without it the test skips, or fails where it is required."""
    executable = office_path()
    if executable is None:
        if os.environ.get("BACCARAT_ODDS_REQUIRE_OFFICE") == "1":
            pytest.fail("LibreOffice is not installed (apt-get install libreoffice-calc-nogui)")
        pytest.skip("LibreOffice is not installed")
    return executable


def office_convert(
    executable: str, paths: list[Path], target: str, folder: Path, root: Path
) -> subprocess.CompletedProcess:
    """Open ``paths`` in LibreOffice (a profile of its own under ``root``, recalculating
    on load) and save each as ``target`` into ``folder``, in one run."""
    profile = root / "profile"
    (profile / "user").mkdir(parents=True, exist_ok=True)
    (profile / "user" / "registrymodifications.xcu").write_text(RECALCULATE_ON_LOAD)
    done = subprocess.run(
        [
            executable,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--norestore",
            "--convert-to",
            target,
            "--outdir",
            str(folder),
            *(str(path) for path in paths),
        ],
        capture_output=True,
        text=True,
        timeout=OFFICE_TIMEOUT,
        env={**os.environ, "HOME": str(root)},
    )
    assert done.returncode == 0, done.stderr
    return done


def without_stored_results(source: Path, target: Path) -> int:
    """Copy an xlsx file with the values stored beside its formulas removed; the number
    of formulas."""
    formulas = 0
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for item in old.infolist():
            data = old.read(item)
            if item.filename.startswith("xl/worksheets/"):
                text, count = re.subn(r"(<f>[^<]*</f>)<v>[^<]*</v>", r"\1", data.decode())
                formulas += count
                data = text.encode()
            new.writestr(item, data)
    return formulas


@pytest.fixture(scope="module")
def recalculated(written, tmp_path_factory) -> dict[str, tuple]:
    """Each workbook as LibreOffice saves it once it has recalculated it: name ->
    (analysis, language, path). One LibreOffice run converts them all."""
    executable = required_office()
    root = tmp_path_factory.mktemp("office")
    given, saved = root / "given", root / "saved"
    given.mkdir()
    for _, _, path in written.values():
        assert without_stored_results(path, given / path.name) > 0
    done = office_convert(executable, sorted(given.iterdir()), "xlsx", saved, root)
    out = {}
    for name, (analysis, lang, path) in written.items():
        assert (saved / path.name).is_file(), done.stdout + done.stderr
        out[name] = (analysis, lang, saved / path.name)
    return out


# -- Reading a workbook back -----------------------------------------------------------------


def close(got: object, want: float | Fraction, precision: float, scale: float = 0.0) -> bool:
    """``got``, a number read from a cell, is ``want`` to ``precision``, relative to
    ``want`` or to ``scale`` (the size of the terms a formula adds up), whichever is
    larger."""
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return False
    want = float(want)
    return abs(got - want) <= precision * max(abs(want), scale)


def rows(sheet) -> list[list]:
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def table(sheet, first_header: str) -> tuple[int, dict[str, int], list[list]]:
    """The sheet's rows, its table's header row (the row whose first cell is
    ``first_header``) and each header's column."""
    cells = rows(sheet)
    at = next(i for i, row in enumerate(cells) if row and row[0] == first_header)
    columns = {header: col for col, header in enumerate(cells[at]) if header is not None}
    return at, columns, cells


def exact_of(text: object) -> Fraction:
    assert isinstance(text, str) and re.fullmatch(r"-?[0-9]+(/[0-9]+)?", text), text
    return Fraction(text)


def sheet_titles(shown, lang) -> list[str]:
    """The title each shown bet's sheet is named after, as the test expects it."""
    ids = [result.bet.id for result, _ in shown]
    return [
        f"{result.bet.display_name(lang)} ({word(mode, lang)})"
        if ids.count(result.bet.id) > 1 and mode != ALL_MODES
        else result.bet.display_name(lang)
        for result, mode in shown
    ]


def check_workbook(path: Path, analysis, lang: str, precision: float) -> None:
    """Every sheet of the workbook at ``path`` against ``analysis``: every number to
    ``precision``, every exact text column equal to its Fraction, every text as given."""
    book = openpyxl.load_workbook(path, data_only=True)
    shown = shown_once(analysis)
    names = book.sheetnames
    assert names[0] == word("Summary", lang) and names[-1] == word("Volatility", lang)
    assert len(names) == len(shown) + 2
    assert names[1:-1] == sheet_names(sheet_titles(shown, lang), lang)
    check_summary(book[names[0]], analysis, shown, names[1:-1], lang, precision)
    for (result, mode), name in zip(shown, names[1:-1], strict=True):
        check_bet(book[name], result, mode, lang, precision)
    check_volatility(book[names[-1]], shown, lang, precision)


def with_exact(header: str, lang: str) -> tuple[str, str]:
    shown = word(header, lang)
    return shown, f"{shown} ({word('exact', lang)})"


def check_summary(sheet, analysis, shown, names, lang, precision) -> None:
    at, columns, cells = table(sheet, word("Bet", lang))
    assert cells[0][0].startswith(analysis.paytable.name)
    facts = {row[0]: row[1] for row in cells[2:at] if row and row[0] is not None}
    assert facts[word("Paytable", lang)] == analysis.paytable.name
    assert facts[word("Shoe", lang)] == shoe_text(analysis.shoe, lang)
    if lang == "en":
        assert facts["Shoe"] == analysis.shoe.describe()
    figures = {
        "House edge": "house_edge",
        "RTP": "rtp",
        "Hit frequency": "hit_frequency",
        "Push": "push_probability",
        "Edge per resolved bet": "edge_per_resolved",
    }
    for offset, ((result, mode), name) in enumerate(zip(shown, names, strict=True)):
        row = cells[at + 1 + offset]
        assert row[columns[word("Bet", lang)]] == result.bet.display_name(lang)
        assert row[columns[word("Bet id", lang)]] == result.bet.id
        assert row[columns[word("Mode", lang)]] == word(mode, lang)
        assert row[columns[word("Sheet", lang)]] == name
        for header, attribute in figures.items():
            value = getattr(result, attribute)
            number, exact = with_exact(header, lang)
            if value is None:
                assert row[columns[number]] == "-" and row[columns[exact]] == "-"
                continue
            assert close(row[columns[number]], value, precision), (name, header)
            assert exact_of(row[columns[exact]]) == value, (name, header)
        assert close(row[columns[word("Std dev", lang)]], math.sqrt(result.variance), precision)
        variance = f"{word('Variance', lang)} ({word('exact', lang)})"
        assert exact_of(row[columns[variance]]) == result.variance
        max_round = row[columns[word("Max round", lang)]]
        assert max_round == ("-" if result.bet.max_round is None else result.bet.max_round)


def check_bet(sheet, result, mode, lang, precision) -> None:
    """A bet's sheet: each line, the fee's, the totals (formulas) and the figures per
    unit paid (formulas) that follow from them."""
    bet = result.bet
    at, columns, cells = table(sheet, word("Outcome", lang))
    assert cells[0][0] == f"{bet.display_name(lang)} ({word(mode, lang)})"
    net, net_exact = with_exact("Net per unit staked", lang)
    ways, ways_exact = with_exact("Combinations", lang)
    chance, chance_exact = with_exact("Probability", lang)
    share, share_exact = with_exact("Contribution", lang)
    for number, line in enumerate(result.lines):
        row = cells[at + 1 + number]
        if number < len(bet.rules):
            labels = bet.rules[number].labels
            assert row[0] == (labels.get(lang) or labels.get("en") or line.when)
            assert row[columns[word("Condition", lang)]] == line.when
        else:
            assert line.when == OTHERWISE and row[0] == word(OTHERWISE, lang)
        pays = line.payout.text
        assert row[columns[word("Pays", lang)]] == (
            word(pays, lang) if pays in ("push", "lose") else pays
        )
        assert close(row[columns[net]], line.net, precision)
        assert exact_of(row[columns[net_exact]]) == line.net
        assert close(row[columns[ways]], line.combinations, precision)
        assert exact_of(row[columns[ways_exact]]) == line.combinations
        assert close(row[columns[chance]], line.probability, precision)
        assert exact_of(row[columns[chance_exact]]) == line.probability
        # A formula: probability x net.
        assert close(row[columns[share]], line.contribution, precision), (bet.id, number)
        assert exact_of(row[columns[share_exact]]) == line.contribution
        # "1 in N": a formula, 1 / probability, on a line the bet pays on; else "-".
        one_in, one_in_exact = with_exact("1 in N", lang)
        if line.payout.pays and line.ways:
            assert close(row[columns[one_in]], 1 / line.probability, precision), (bet.id, number)
            assert exact_of(row[columns[one_in_exact]]) == 1 / line.probability
        else:
            assert row[columns[one_in]] == row[columns[one_in_exact]] == "-"
    below = at + 1 + len(result.lines)
    contributions = [line.contribution for line in result.lines]
    if bet.fee:
        row = cells[below]
        assert row[0] == word("fee (paid on every bet)", lang)
        assert close(row[columns[net]], -bet.fee, precision)
        assert exact_of(row[columns[net_exact]]) == -bet.fee
        assert row[columns[chance]] == 1 and row[columns[chance_exact]] == "1/1"
        assert close(row[columns[share]], -bet.fee, precision)
        contributions.append(-bet.fee)
        below += 1
    total = cells[below]
    assert total[0] == word("Total", lang)
    combinations = sum(Fraction(line.combinations) for line in result.lines)
    assert close(total[columns[ways]], combinations, precision)
    assert exact_of(total[columns[ways_exact]]) == combinations
    assert close(total[columns[chance]], 1, precision) and total[columns[chance_exact]] == "1/1"
    scale = float(sum(abs(c) for c in contributions))
    expected_net = sum(contributions)
    assert close(total[columns[share]], expected_net, precision, scale)
    assert exact_of(total[columns[share_exact]]) == expected_net
    # Per unit paid: the stake, plus the fee.
    assert result.expected_value == expected_net / (1 + bet.fee)
    figures = {row[0]: row for row in cells[below + 1 :] if row and row[0] is not None}
    paid = scale / float(1 + bet.fee)
    for label, value, style_scale in [
        ("Expected value per unit paid", result.expected_value, paid),
        ("House edge", result.house_edge, paid),
        ("RTP", result.rtp, 1.0),
    ]:
        row = figures[word(label, lang)]
        assert close(row[columns[share]], value, precision, style_scale), (bet.id, label)
        assert exact_of(row[columns[share_exact]]) == value
    check_top_award(figures, columns, result, lang, precision)


def check_top_award(figures, columns, result, lang, precision) -> None:
    """The top award under a bet's figures: the lines paying its highest net, their
    probability together, "1 in N" (a formula), and the chances of at least one and of
    none in 100,000,000 rounds against a computation of their own (mpmath, 60 digits)."""
    import mpmath

    paid = [line for line in result.lines if line.payout.pays and line.ways]
    if not paid:
        assert word("Top award", lang) not in figures
        return
    best = max(line.net for line in paid)
    p = sum(line.probability for line in paid if line.net == best)
    row = figures[word("Top award", lang)]
    chance, chance_exact = with_exact("Probability", lang)
    one_in, one_in_exact = with_exact("1 in N", lang)
    assert close(row[columns[chance]], p, precision) and exact_of(row[columns[chance_exact]]) == p
    assert close(row[columns[one_in]], 1 / p, precision)
    assert exact_of(row[columns[one_in_exact]]) == 1 / p
    with mpmath.workdps(60):
        never = mpmath.power(1 - mpmath.mpf(p.numerator) / p.denominator, 10**8)
        once = 1 - never
        rounds = "100,000,000"
        for key, want in (("par_at_least_once", once), ("par_none_in", never)):
            got = figures[sentence(key, lang, rounds=rounds)]
            assert close(got[columns[chance]], float(want), precision)
            text = got[columns[chance_exact]]
            assert mpmath.almosteq(mpmath.mpf(text), want, rel_eps=mpmath.mpf(10) ** -14), text


def check_volatility(sheet, shown, lang, precision) -> None:
    """The volatility figures against a direct computation from the exact EV and
    variance: ``z * sd`` and ``N * EV -+ z * sd * sqrt(N)``."""
    at, columns, cells = table(sheet, word("Bet", lang))
    assert cells[1][0] == sentence("par_volatility_note", lang)
    z = {"90%": NormalDist().inv_cdf(0.95), "95%": NormalDist().inv_cdf(0.975)}
    for row, level in zip(cells[3:5], z, strict=True):
        assert row[0] == f"z ({level})" and close(row[1], z[level], precision)
    groups = cells[at - 1]
    after = {sentence("par_after_rounds", lang, rounds=f"{n:,}"): n for n in (100, 1_000)}
    after |= {sentence("par_after_rounds", lang, rounds=f"{n:,}"): n for n in (10_000, 100_000)}
    ranges = [(col, after[text]) for col, text in enumerate(groups) if text is not None]
    assert [rounds for _, rounds in ranges] == [100, 1_000, 10_000, 100_000]
    if lang == "en":
        assert groups[ranges[1][0]] == "After 1,000 rounds (normal approximation)"
    low, high = word("low", lang), word("high", lang)
    ends = [f"90% {low}", f"90% {high}", f"95% {low}", f"95% {high}"]
    ev_header, ev_exact = with_exact("Expected value per unit paid", lang)
    for offset, (result, mode) in enumerate(shown):
        row = cells[at + 1 + offset]
        assert row[0] == result.bet.display_name(lang) and row[1] == word(mode, lang)
        ev, sd = float(result.expected_value), math.sqrt(result.variance)
        assert close(row[columns[ev_header]], ev, precision)
        assert exact_of(row[columns[ev_exact]]) == result.expected_value
        assert close(row[columns[word("Std dev", lang)]], sd, precision)
        for level in z:
            index = row[columns[f"{word('Volatility index', lang)} ({level})"]]
            assert close(index, z[level] * sd, precision)
        for col, rounds in ranges:
            assert cells[at][col : col + 4] == ends
            for number, level in enumerate(z):
                spread = z[level] * sd * math.sqrt(rounds)
                scale = rounds * abs(ev) + spread
                low, high = row[col + 2 * number], row[col + 2 * number + 1]
                assert close(low, rounds * ev - spread, precision, scale), (result.bet.id, rounds)
                assert close(high, rounds * ev + spread, precision, scale), (result.bet.id, rounds)


# -- The tests -------------------------------------------------------------------------------


CASES = ("seed", "seed-tl", "cards", "multiplied", "hostile")


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_libreoffice_recalculates_every_figure_of_the_analysis(recalculated, case) -> None:
    analysis, lang, path = recalculated[case]
    check_workbook(path, analysis, lang, OFFICE_PRECISION)


@pytest.mark.parametrize("case", CASES)
def test_the_workbook_as_written_holds_the_exact_figures(written, case) -> None:
    """The exact text columns equal the Fractions; the stored formula results are right
    for a reader that does not recalculate."""
    analysis, lang, path = written[case]
    check_workbook(path, analysis, lang, WRITTEN_PRECISION)


#: The formulas the workbook writes: cell references, numbers, arithmetic, SUM and SQRT.
OWN_FORMULA = re.compile(r"=(?:SUM|SQRT|\$?[A-Z]{1,2}\$?[0-9]+|[0-9.]+|[-+*/():])+")


@pytest.mark.parametrize(
    "source", ["written", pytest.param("recalculated", marks=pytest.mark.slow)]
)
def test_text_from_a_paytable_is_never_a_formula(request, source) -> None:
    """Every formula is one of the workbook's own; every hostile name, label and the
    paytable's name are text cells, as given (after LibreOffice has saved them too)."""
    analysis, _, path = request.getfixturevalue(source)["hostile"]
    book = openpyxl.load_workbook(path)  # formulas as formulas
    texts = set()
    formulas = 0
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    formulas += 1
                    assert OWN_FORMULA.fullmatch(str(cell.value)), (sheet.title, cell.value)
                elif cell.data_type == "s":
                    texts.add(cell.value)
    assert formulas > 0
    assert set(HOSTILE_NAMES) <= texts
    assert set(FORMULA_LIKE) <= texts  # the labels
    assert analysis.paytable.name in texts


def test_sheet_names_keep_to_excels_rules() -> None:
    titles = [*HOSTILE_NAMES, *RESERVED_SHEET_NAMES, "", "[]", "'", " x "]
    names = sheet_names(titles)
    assert len(names) == len(titles)
    folded = [name.casefold() for name in names]
    assert len(set(folded)) == len(names)
    assert not {n.casefold() for n in RESERVED_SHEET_NAMES} & set(folded)
    for name in names:
        assert 0 < len(name.encode("utf-16-le")) // 2 <= MAX_SHEET_NAME, name
        assert not set("[]:*?/\\") & set(name), name
        assert not name.startswith("'") and not name.endswith("'"), name
    by_title = dict(zip(HOSTILE_NAMES, names, strict=False))  # (in order: names first)
    assert by_title["Tie"] == "Tie" and by_title["tie"] == "tie (2)"
    assert by_title["Summary"] == "Summary (2)" and by_title["volatility"] == "volatility (2)"
    assert by_title[LONG_NAMES[0]] == "N" * 31
    assert by_title[LONG_NAMES[1]] == "N" * 27 + " (2)"
    assert by_title["a[b]:c*d?e/f\\g"] == "a_b__c_d_e_f_g"
    assert by_title["'quoted'"] == "quoted"
    assert by_title["\U0001f600" * 20] == "\U0001f600" * 15


def test_the_same_analysis_gives_the_same_bytes(written) -> None:
    """A PAR sheet compares with an earlier one byte for byte (and docs' tables
    regenerate as they are): no date of writing in it."""
    analysis, _, path = written["seed"]
    again = workbook_bytes(analysis, claimed_max_rtp=published_max_rtp(analysis.paytable))
    assert again == path.read_bytes()


def test_summary_and_volatility_are_named_in_the_workbooks_language(written) -> None:
    """The first sheet is the Summary, the last the Volatility sheet, each named in the
    workbook's language (a bet's sheet never takes either name)."""
    for name, summary, volatility in [
        ("seed", "Summary", "Volatility"),
        ("seed-tl", "Buod", "Volatility"),  # (Tagalog keeps the term, as "RTP")
        ("multiplied", "Ringkasan", "Volatiliti"),
    ]:
        path = written[name][2]
        names = openpyxl.load_workbook(path).sheetnames
        assert names[0] == summary and names[-1] == volatility
    for lang in LANGUAGES:
        own = reserved_sheet_names(lang)
        assert sheet_names(list(own), lang) == [f"{own[0]} (2)", f"{own[1]} (2)", "History (2)"]


def test_numbers_are_numeric_cells_with_a_display_format(written) -> None:
    path = written["seed"][2]
    sheet = openpyxl.load_workbook(path)["Summary"]
    at, columns, _ = table(sheet, "Bet")
    cell = sheet.cell(at + 2, columns["House edge"] + 1)
    assert cell.data_type == "n" and cell.number_format == "0.0000%"
    exact = sheet.cell(at + 2, columns["House edge (exact)"] + 1)
    assert exact.data_type == "s" and exact.number_format == "@"


# -- Printed -----------------------------------------------------------------------------------

#: The printed cases: the seed game (its PAR sheet goes to regulators) and the cards'
#: bets (long conditions, wrapped).
PRINTED = ("seed", "cards")


@pytest.fixture(scope="module")
def printed(written, tmp_path_factory) -> dict[str, Path]:
    """The printed cases exported to PDF by LibreOffice, as a user prints them: name -> PDF."""
    executable = required_office()
    root = tmp_path_factory.mktemp("printed")
    paths = [written[name][2] for name in PRINTED]
    office_convert(executable, paths, "pdf", root / "pdf", root)
    return {name: root / "pdf" / f"{name}.pdf" for name in PRINTED}


def pdf_pages(path: Path) -> list[tuple[str, float, float]]:
    """Each page's text, width and height."""
    from pypdf import PdfReader

    return [
        (page.extract_text(), float(page.mediabox.width), float(page.mediabox.height))
        for page in PdfReader(path).pages
    ]


def exact_texts(path: Path) -> list[str]:
    """Every exact value a workbook holds (its text cells formatted as text, "@")."""
    book = openpyxl.load_workbook(path)
    return [
        cell.value
        for sheet in book.worksheets
        for row in sheet.iter_rows()
        for cell in row
        if cell.number_format == "@" and isinstance(cell.value, str) and cell.value != "-"
    ]


@pytest.mark.parametrize("case", PRINTED)
def test_the_par_sheet_prints_landscape_a_page_wide_with_its_footer(written, printed, case) -> None:
    """Each sheet prints landscape, one page wide: the seed game's PAR sheet went from 98
    portrait pages (each bet's sheet over 4-5) to a page a sheet. Every page names its
    sheet above and the paytable (with its file's digest), the tool's version and the
    page below."""
    analysis, _, path = written[case]
    pages = pdf_pages(printed[case])
    names = openpyxl.load_workbook(path).sheetnames
    per_sheet: dict[str, int] = {}
    for number, (text, width, height) in enumerate(pages, start=1):
        assert width > height, number  # landscape
        sheet = text.splitlines()[0].strip()  # the header: the sheet's name
        assert sheet in names, (number, sheet)
        per_sheet[sheet] = per_sheet.get(sheet, 0) + 1
        assert f"Page {number} of {len(pages)}" in text  # (both cases are English)
        assert f"baccarat-odds {package_version()}" in text
        assert f"sha256 {analysis.paytable.sha256[:16]}" in text
    assert set(per_sheet) == set(names)  # every sheet printed
    if case == "seed":
        assert max(per_sheet.values()) <= 2, per_sheet


@pytest.mark.parametrize("case", PRINTED)
def test_every_exact_value_is_printed_whole(written, printed, case) -> None:
    """No exact fraction is cut by its column: each is found, whole, in the PDF's text."""
    text = "".join("".join(page for page, _, _ in pdf_pages(printed[case])).split())
    values = exact_texts(written[case][2])
    assert len(values) > 40  # (the seed game has 350, the cards 52)
    missing = [value for value in values if "".join(value.split()) not in text]
    assert not missing, missing[:5]


def test_the_footer_escapes_the_paytables_name_and_keeps_to_excels_length() -> None:
    hostile = replace(load_paytable("seed-game"), name="R&D " + "x" * 300)
    footer = footer_text(hostile, "9.9.9")
    assert "R&&D" in footer and "&D" not in footer.replace("&&", "")
    assert len(footer) <= 255
    assert footer_text(replace(hostile, sha256=""), "1").count("sha256") == 0
    pages = {"en": "Page &P of &N", "tl": "Pahina &P ng &N", "ms": "Halaman &P daripada &N"}
    for lang, page in pages.items():
        footer = footer_text(hostile, "9.9.9", lang)
        assert footer.endswith(f"&Cbaccarat-odds 9.9.9&R{page}") and len(footer) <= 255
