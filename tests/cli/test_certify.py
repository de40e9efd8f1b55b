"""``baccarat-odds certify``: help pages written by ``docs --site`` certify clean against
their own paytable in every language, a page with one figure altered fails on exactly that
figure, the claims it writes are what ``verify`` reads, its JSON follows its contract, and
the seed game's own pages certify with what each leaves out said."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import jsonschema
import pytest
from helpers import run

from analyzer.reports.contract import schema_of

#: The team's seed pages, beside the repository (the tests that read them skip elsewhere).
SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
LANGS = ("en", "tl", "ms")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The seed game's and EZ Baccarat's help pages, as ``docs --site`` writes them."""
    from analyzer.cli.main import main

    folder = tmp_path_factory.mktemp("certify") / "site"
    code = main(["docs", "--site", str(folder), "--paytable", "seed-game",
                 "--paytable", "ez-baccarat", "--no-progress"])  # fmt: skip
    assert code == 0
    return folder


def _json(capsys, *argv: str) -> tuple[int, dict]:
    code, out, err = run(capsys, "certify", *argv, "--format", "json")
    assert err == "", err
    document = json.loads(out)
    jsonschema.Draft202012Validator(schema_of("certify")).validate(document)
    return code, document


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["seed-game", "ez-baccarat"])
def test_a_generated_page_certifies_clean_against_its_paytable(capsys, site, name, lang) -> None:
    code, document = _json(capsys, str(site / name / f"{lang}.html"), "--paytable", name)
    summary = document["summary"]
    assert code == 0 and document["status"] == 0
    assert summary["fail"] == summary["unmatched"] == summary["hidden"] == 0
    assert summary["pass"] >= 20 and document["omitted"] == []
    # Every figure the page states of a bet: each bet's payouts, its odds, the maximum RTP.
    kinds = {row["quantity"] for row in document["figures"]}
    assert {"payout", "house_edge", "rtp", "hit_frequency", "max_rtp", "decks"} <= kinds


#: One figure of each kind altered, per language: (text as printed, altered).
ALTERED = {
    "en": ("89.64%", "89.65%"),  # Player Pair's RTP: the last digit
    "tl": ("22:1", "20:1"),  # 2-card Lucky Six's payout
    "ms": ("Had Pusingan Maks: 60", "Had Pusingan Maks: 70"),  # Player Pair's max round
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_page_with_one_figure_altered_fails_on_exactly_that_figure(
    capsys, site, tmp_path, lang
) -> None:
    old, new = ALTERED[lang]
    text = (site / "seed-game" / f"{lang}.html").read_text(encoding="utf-8")
    assert old in text
    altered = tmp_path / f"{lang}.html"
    altered.write_text(text.replace(old, new, 1), encoding="utf-8")
    code, document = _json(capsys, str(altered), "--paytable", "seed-game")
    assert code == 1 and document["status"] == 1
    (failed,) = [row for row in document["figures"] if row["result"] == "FAIL"]
    assert new.endswith(failed["printed"].replace("Had Pusingan Maks: ", ""))
    assert failed["bet"] in ("player_pair", "lucky_six_2card")
    assert failed["last_digit"] == (lang == "en")
    code, out, _ = run(capsys, "certify", str(altered), "--paytable", "seed-game")
    assert code == 1 and out.count("\nFAIL") == 1


def test_the_claims_it_writes_are_what_verify_reads(capsys, site, tmp_path) -> None:
    claims = tmp_path / "ms.toml"
    page = site / "seed-game" / "ms.html"
    code, _, _ = run(
        capsys, "certify", str(page), "--paytable", "seed-game", "--claims-out", str(claims)
    )
    assert code == 0
    data = tomllib.loads(claims.read_text(encoding="utf-8"))
    assert data["paytable"] == "seed-game"
    text = claims.read_text(encoding="utf-8")
    assert "# figure 1, paragraph 2: " in text and "8 dek standard" in text
    assert "# Figures stated by no claim above:" in text  # the 5% commission
    code, verified, _ = run(capsys, "verify", str(claims))
    assert code == 0 and f"{len(data['claim'])} passed, 0 failed" in verified


def test_claims_of_a_paytable_file_name_it_from_their_folder(capsys, tmp_path) -> None:
    from analyzer.files import shipped_folder

    source = shipped_folder("analyzer.paytables", "shipped") / "paytables" / "tie-9-to-1.toml"
    (tmp_path / "games").mkdir()
    (tmp_path / "out").mkdir()
    paytable = tmp_path / "games" / "tie.toml"
    paytable.write_bytes(source.read_bytes())
    page = tmp_path / "page.md"
    page.write_text("# Tie\n\nThe Tie pays 9 to 1.\n", encoding="utf-8")
    claims = tmp_path / "out" / "claims.toml"
    code, _, err = run(
        capsys, "certify", str(page), "--paytable", str(paytable), "--claims-out", str(claims)
    )
    assert code == 0, err
    assert tomllib.loads(claims.read_text())["paytable"] == "../games/tie.toml"
    os.chdir(tmp_path / "games")
    try:
        code, out, _ = run(capsys, "verify", str(claims))
    finally:
        os.chdir(Path(__file__).resolve().parents[2])
    assert code == 0 and "1 passed, 0 failed" in out


def test_the_text_certificate(capsys, site) -> None:
    code, out, err = run(
        capsys, "certify", str(site / "seed-game" / "tl.html"), "--paytable", "seed-game"
    )
    assert code == 0 and err == ""
    lines = out.replace("\n  ", " ").splitlines()  # (a long line wraps, indented)
    assert lines[0].startswith(f"page: {site / 'seed-game' / 'tl.html'} (html, ")
    assert "sha256 " in lines[0] and "sha256 " in lines[1]
    assert lines[2].startswith("tool: baccarat-odds ")
    assert lines[3].startswith("rounding: round: each figure is checked at its last printed")
    assert (
        "PASS figure 1 [paragraph 2]: the decks of the game's shoe: printed "
        "'8 standard na deck' (claim 1), paytable 8"
    ) in lines
    assert any(
        line.startswith("NOT STATEABLE figure 4 [table 2, row 3]: a commission of banker")
        for line in lines
    )
    assert "112 figures: 111 passed, 0 failed, 1 not stateable" in lines
    assert lines[-1] == "Every bet of the paytable is on the page."


def test_the_html_certificate(capsys, site, tmp_path) -> None:
    out_file = tmp_path / "certificate.html"
    code, out, _ = run(
        capsys,
        "certify",
        str(site / "seed-game" / "en.html"),
        "--paytable",
        "seed-game",
        "--out",
        str(out_file),
    )
    assert code == 0 and out == ""
    html = out_file.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "<title>Certificate of en.html" in html
    assert "<th>Snippet</th>" in html and html.count("<td>PASS</td>") == 111
    page = site / "seed-game" / "en.html"
    assert f"sha256 {__import__('hashlib').sha256(page.read_bytes()).hexdigest()}" in html


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--claims-out", "c.txt"], "--claims-out c.txt: name a .toml file"),
        (["--out", "c.md"], "--out c.md: certify writes text, json, html"),
        (["--out", "x.toml", "--claims-out", "x.toml"], "names the same file"),
        (["--rounding", "up"], "invalid choice: 'up'"),
        (["--section", "Nowhere"], "no heading holds 'Nowhere'"),
        (["--out", "/dev/full"], "--out /dev/full: exists and is not a regular file"),
        (["--out", "."], "--out '.': name a file"),
        (["--claims-out", "."], "--claims-out '.': name a file"),
        (["--claims-out", "nowhere/c.toml"], "folder nowhere does not exist"),
    ],
)
def test_bad_options_are_one_line_and_nothing_is_written(
    capsys, site, tmp_path, monkeypatch, argv, message
) -> None:
    monkeypatch.chdir(tmp_path)
    page = str(site / "seed-game" / "en.html")
    code, out, err = run(capsys, "certify", page, "--paytable", "seed-game", *argv)
    assert (code, out) == (2, "") and err.count("\n") == 1 and message in err, err
    assert list(tmp_path.iterdir()) == []


def test_the_paytable_is_required(capsys, tmp_path) -> None:
    code, _, err = run(capsys, "certify", str(tmp_path / "page.html"))
    assert code == 2 and "--paytable" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "bytes: a page is read up to 2 MiB"),
        ("<div>" * 50_000 + "Tie 8:1", "HTML nested more than 200 levels deep"),
        ("<p>" + "9" * 1_000_000 + "% RTP of the Tie</p><p>Tie pays 8:1</p>", None),
        ("<p>Tie pays 8:1</p><script>" + "Tie 9:1 " * 1000 + "</script>", None),
        ("<p " + "a=b " * 300_000 + ">x</p>", "a <p> tag with 300,000 attributes"),
        ("<p>Tie pays 8:1</p>" + "<p>pays 1 to 1</p>" * 6_000, "more than 5,000 figures"),
        ("<p>Tie pays 8:1</p><p>\u05d4\u05e9\u05d5\u05d5\u05d9\u05d5\u05df 9:1</p>", None),
    ],
)
def test_hostile_pages_are_refused_or_read_and_bounded(capsys, tmp_path, content, message):
    page = tmp_path / "page.html"
    if content is None:
        with open(page, "wb") as stream:  # a billion bytes, never read
            stream.truncate(10**9)
    else:
        page.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "certify", str(page), "--paytable", "seed-game")
    if message is not None:
        assert (code, out) == (2, "") and err.count("\n") == 1 and message in err
        assert "Traceback" not in err
        return
    assert code == 0 and "1 passed, 0 failed" in out and "Traceback" not in out


def _seed(name: str) -> Path:
    path = next(SEEDS.glob(f"{name}_*.txt"), None) if SEEDS.is_dir() else None
    if path is None:
        pytest.skip(f"the team's seed pages are not beside this checkout ({SEEDS} is missing)")
    return path


def test_the_malay_seed_page_says_what_it_leaves_out(capsys) -> None:
    code, out, _ = run(capsys, "certify", str(_seed("003")), "--paytable", "seed-game")
    assert code == 0
    assert "41 figures: 40 passed, 0 failed, 1 not stateable" in out
    assert " ".join(out.split("Not on the page: ")[1].split()) == (
        "the max round of player_bonus (the paytable: 40); the max round of banker_bonus "
        "(the paytable: 40); bet lucky_seven (no figure of it); bet lucky_seven_2card (no "
        "figure of it); bet lucky_seven_3card (no figure of it); bet super_lucky_seven (no "
        "figure of it)."
    )


def test_the_tagalog_seed_page_certifies_whole(capsys) -> None:
    code, out, _ = run(capsys, "certify", str(_seed("000")), "--paytable", "seed-game")
    assert code == 0 and "54 figures: 53 passed, 0 failed, 1 not stateable" in out
    assert out.rstrip().endswith("Every bet of the paytable is on the page.")
    assert "PASS figure 54 [line 60]: the game's maximum RTP: printed '98.94%'" in out
