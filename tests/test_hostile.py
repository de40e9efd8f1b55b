"""Hostile input: every bad file or option is one line on stderr, exit status 2, nothing
written; every accepted odd input gives the right number.

The corpus grows from the classes of ``shared/reviews/hostile-inputs-2026-11-30.md`` (our
team's review, D-1 ... D-25): overflow, deep nesting, non-finite numbers, malformed files,
huge integers, bad options, unwritable outputs. Each case runs the command line in a fresh
folder and checks what a user would see: the exit status, exactly one stderr line with no
traceback, nothing on stdout, and no file or folder left behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

import analyzer
from analyzer import AnalyzerError, Shoe, analyze, batch_expected_values, seed_paytable

# -- Building blocks of hostile files -------------------------------------------------------


def paytable(
    when: str = "winner == 'tie'",
    pays: str = '"8:1"',
    *,
    head: str = 'name = "T"\nmodes = ["m"]\n',
    bet: str = 'id = "b"\n',
) -> str:
    """A one-bet paytable with the given condition and payout (TOML text)."""
    return f"{head}[[bet]]\n{bet}[[bet.rule]]\nwhen = {json.dumps(when)}\npays = {pays}\n"


def claims(body: str, paytable_line: str = 'paytable = "seed-game"\n') -> str:
    return paytable_line + "[[claim]]\n" + body


DEEP = 2000
HUGE = "9" * 40
NOTS = "not " * 496 + "true"
SIGNS = "player_score == " + "-" * 1980 + "1"
SUM = "player_score == " + "+".join(["1"] * 990)
PRODUCT = "*".join(["player_score"] * 64) + " == 0"


# (id, files, argv, message): the run must exit 2 with one stderr line containing message.
# "{f}" in argv is the first file's name.
CASES: list[tuple[str, dict[str, str | bytes], list[str], str]] = []


def case(name: str, files: dict[str, str | bytes], argv: list[str], message: str) -> None:
    CASES.append((name, files, argv, message))


# A capped multiplier table too large to multiply out exactly: refused at once, not hours.
_MANY_VALUES = ", ".join(f'"{v}" = "1/64"' for v in range(2, 66))
case(
    "pt_multiplier_products_too_many",
    {
        "t.toml": f"""name = "T"
[multipliers]
cards = 6
values = {{ {_MANY_VALUES} }}
cap = 1000000
[[bet]]
id = "tie"
multiply = "both"
rule = [{{ when = "winner == 'tie'", pays = "5 * multiplier" }}]
"""
    },
    ["report", "--paytable", "{f}"],
    "distinct products",
)


# -- Paytables: structure -----------------------------------------------------------------
REPORT = ["report", "--paytable", "{f}"]
for name, text, message in [
    ("pt_not_toml", "name = [", "invalid TOML"),
    ("pt_binary", b"\x00\xff\xfe garbage", "not UTF-8"),
    ("pt_empty", "", "missing 'name'"),
    ("pt_no_bets", 'name = "T"\n', "missing 'bet'"),
    ("pt_empty_bets", 'name = "T"\nbet = []\n', "at least one [[bet]]"),
    ("pt_bets_not_list", 'name = "T"\nbet = 5\n', "'bet' has the wrong type"),
    ("pt_bet_not_table", 'name = "T"\nbet = [1]\n', "a bet must be a table"),
    ("pt_unknown_key", 'name = "T"\nbogus = 1\n' + paytable()[11:], "unknown key 'bogus'"),
    ("pt_name_int", paytable(head='name = 5\nmodes = ["m"]\n'), "'name' has the wrong type"),
    ("pt_name_empty", paytable(head='name = " "\nmodes = ["m"]\n'), "'name' is empty"),
    ("pt_name_newline", paytable(head='name = "a\\nb"\nmodes = ["m"]\n'), "one line"),
    ("pt_name_long", paytable(head=f'name = "{"x" * 300}"\nmodes = ["m"]\n'), "longer than"),
    ("pt_name_esc", paytable(head='name = "\\u001b[31mred"\nmodes = ["m"]\n'), "U+001B"),
    ("pt_name_nul", paytable(head='name = "a\\u0000b"\nmodes = ["m"]\n'), "U+0000"),
    ("pt_name_bell", paytable(head='name = "a\\u0007"\nmodes = ["m"]\n'), "U+0007"),
    ("pt_name_csi", paytable(head='name = "a\\u009b31m"\nmodes = ["m"]\n'), "U+009B"),
    ("pt_name_rlo", paytable(head='name = "a\\u202eb"\nmodes = ["m"]\n'), "U+202E"),
    ("pt_name_rlm", paytable(head='name = "a\\u200fb"\nmodes = ["m"]\n'), "U+200F"),
    ("pt_name_alm", paytable(head='name = "a\\u061cb"\nmodes = ["m"]\n'), "U+061C"),
    ("pt_name_zero_width", paytable(head='name = "\\u200b"\nmodes = ["m"]\n'), "'name' is empty"),
    ("pt_decks_zero", paytable(head='name = "T"\ndecks = 0\n'), "at least 1"),
    ("pt_decks_negative", paytable(head='name = "T"\ndecks = -3\n'), "at least 1"),
    ("pt_decks_28", paytable(head='name = "T"\ndecks = 28\n'), "too large"),
    ("pt_decks_huge", paytable(head=f'name = "T"\ndecks = {"9" * 18}\n'), "too large"),
    ("pt_decks_overflow", paytable(head=f'name = "T"\ndecks = {HUGE}\n'), "too large"),
    ("pt_decks_digits", paytable(head=f'name = "T"\ndecks = {"9" * 5000}\n'), "too many digits"),
    ("pt_decks_float", paytable(head='name = "T"\ndecks = 1.5\n'), "whole number"),
    ("pt_decks_bool", paytable(head='name = "T"\ndecks = true\n'), "whole number"),
    ("pt_decks_string", paytable(head='name = "T"\ndecks = "8"\n'), "whole number"),
    ("pt_decks_inf", paytable(head='name = "T"\ndecks = inf\n'), "whole number"),
    ("pt_modes_empty", paytable(head='name = "T"\nmodes = []\n'), "at least one mode"),
    ("pt_modes_str", paytable(head='name = "T"\nmodes = "m"\n'), "must be a list"),
    ("pt_modes_dup", paytable(head='name = "T"\nmodes = ["m", "m"]\n'), "duplicate mode"),
    ("pt_mode_both", paytable(head='name = "T"\nmodes = ["both"]\n'), "reserved"),
    ("pt_mode_all", paytable(head='name = "T"\nmodes = ["x", "all"]\n'), "reserved"),
    ("pt_mode_esc", paytable(head='name = "T"\nmodes = ["\\u001b"]\n'), "U+001B"),
    ("pt_bet_no_id", paytable(bet=""), "missing 'id'"),
    ("pt_bet_bad_id", paytable(bet='id = "Bad Id"\n'), "lower-case"),
    ("pt_bet_id_int", paytable(bet="id = 7\n"), "'id' has the wrong type"),
    ("pt_bet_dup", paytable() + paytable(head=""), "duplicate id"),
    ("pt_bet_unknown_key", paytable(bet='id = "b"\nodds = 3\n'), "unknown key 'odds'"),
    ("pt_bet_max_round_0", paytable(bet='id = "b"\nmax_round = 0\n'), "max_round"),
    ("pt_bet_max_round_neg", paytable(bet='id = "b"\nmax_round = -5\n'), "max_round"),
    ("pt_bet_max_round_float", paytable(bet='id = "b"\nmax_round = 4.5\n'), "max_round"),
    ("pt_bet_modes_unknown", paytable(bet='id = "b"\nmodes = ["x"]\n'), "unknown mode 'x'"),
    ("pt_bet_names_int", paytable(bet='id = "b"\nnames = { tl = 5 }\n'), "'names'"),
    ("pt_bet_names_esc", paytable(bet='id = "b"\nnames = { tl = "\\u001b]0;x" }\n'), "U+001B"),
    ("pt_bet_name_esc", paytable(bet='id = "b"\nname = "x\\u001bc"\n'), "U+001B"),
    ("pt_no_rules", 'name = "T"\n[[bet]]\nid = "b"\nrule = []\n', "at least one rule"),
    ("pt_rule_not_table", 'name = "T"\n[[bet]]\nid = "b"\nrule = [1]\n', "must be a table"),
    ("pt_rule_no_pays", 'name = "T"\n[[bet]]\nid = "b"\n[[bet.rule]]\nwhen = "true"\n', "'pays'"),
    ("pt_rule_no_when", 'name = "T"\n[[bet]]\nid = "b"\n[[bet.rule]]\npays = 1\n', "'when'"),
    ("pt_rule_extra", paytable() + "note = 1\n", "unknown key 'note'"),
    ("pt_deep_array", f'name = "T"\ndescription = {"[" * DEEP}{"]" * DEEP}\n', "nested"),
    ("pt_deep_table", 'name = "T"\ndescription = ' + "{a=" * 300 + "1" + "}" * 300, "nested"),
    ("pt_nested_17", 'name = "T"\ndescription = ' + "[" * 17 + "]" * 17 + "\n", "nested"),
]:
    case(name, {"p.toml": text}, REPORT, message)

# -- Paytables: payouts -------------------------------------------------------------------
for name, pays, message in [
    ("pay_inf", "inf", "not a finite number"),
    ("pay_minus_inf", "-inf", "not a finite number"),
    ("pay_nan", "nan", "not a finite number"),
    ("pay_1e400", "1e400", "not a finite number"),
    ("pay_str_1e400", '"1e400"', "bad payout"),
    ("pay_str_nan", '"nan"', "bad payout"),
    ("pay_str_inf", '"inf:1"', "bad payout"),
    ("pay_over_limit", '"1000000001:1"', "at most 1,000,000,000:1"),
    ("pay_huge_int", "99999999999999999999", "at most 1,000,000,000:1"),
    ("pay_big_int", "9999999999", "at most 1,000,000,000:1"),
    ("pay_huge_text", f'"{"9" * 60}:1"', "longer than 40"),
    ("pay_negative_odds", '"-1:1"', "bad payout"),
    ("pay_zero_den", '"1:0"', "division by zero"),
    ("pay_zero", '"0:1"', "more than 0"),
    ("pay_zero_number", "0", "more than 0"),
    ("pay_negative_number", "-2", "more than 0"),
    ("pay_bool", "true", "bad payout"),
    ("pay_list", "[1, 2]", "bad payout"),
    ("pay_table", "{ a = 1 }", "bad payout"),
    ("pay_word", '"lots"', "bad payout"),
    ("pay_unicode_digits", '"\u0661:1"', "bad payout"),
    ("pay_fullwidth", '"\uff11:1"', "bad payout"),
    ("pay_date", "1979-05-27", "bad payout"),
    ("pay_spaces", '"1 : 1 : 1"', "bad payout"),
]:
    case(name, {"p.toml": paytable(pays=pays)}, REPORT, message)

# -- Paytables: conditions ----------------------------------------------------------------
for name, when, message in [
    ("cond_deep_not", NOTS, "deep"),
    ("cond_deep_signs", SIGNS, "deep"),
    ("cond_long_sum", SUM, "deep"),
    ("cond_overflow_power", PRODUCT, "64-bit"),
    ("cond_overflow_const", "player_score * 1000000 * 1000000 * 1000000 * 1000000 > 0", "64-bit"),
    ("cond_field_in_list", "player_score in (banker_score, 1)", "constant"),
    ("cond_neg_field_in_list", "player_score in (-banker_score, 1)", "constant"),
    ("cond_is", "winner is 'tie'", "=="),
    ("cond_is_not", "winner is not 'tie'", "use !="),
    ("cond_import", "__import__('os').system('touch pwned')", "not allowed"),
    ("cond_dunder", "winner.__class__ == 1", "not allowed"),
    ("cond_lambda", "(lambda: 1)() == 1", "not allowed"),
    ("cond_fstring", "f'{winner}' == 'tie'", "not allowed"),
    ("cond_walrus", "(x := 1) == 1", "not allowed"),
    ("cond_call", "len(winner) == 3", "not allowed"),
    ("cond_subscript", "winner[0] == 't'", "not allowed"),
    ("cond_power", "player_score ** 2 == 4", "not allowed"),
    ("cond_divide", "player_score / 2 == 1", "not allowed"),
    ("cond_modulo", "player_score % 2 == 1", "not allowed"),
    ("cond_bitand", "player_score & 1 == 1", "not allowed"),
    ("cond_shift", "player_score << 70 == 0", "not allowed"),
    ("cond_float", "player_score == 1.5", "not allowed"),
    ("cond_complex", "player_score == 1j", "not allowed"),
    ("cond_bytes", "winner == b'tie'", "not allowed"),
    ("cond_none", "winner == None", "not allowed"),
    ("cond_ellipsis", "winner == ...", "not allowed"),
    ("cond_huge_literal", "player_score < 10000001", "out of range"),
    ("cond_unknown_field", "player_total == 5", "unknown field"),
    ("cond_bad_winner", "winner == 'dragon'", "winner is one of"),
    ("cond_order_strings", "winner < 'tie'", "only numbers"),
    ("cond_int_vs_str", "player_score == 'tie'", "compares"),
    ("cond_not_bool", "player_score + 1", "not true/false"),
    ("cond_empty", "", "syntax error"),
    ("cond_syntax", "winner ==", "syntax error"),
    ("cond_too_long", "true and " * 300 + "true", "longer than"),
    ("cond_statement", "import os", "syntax error"),
    ("cond_listcomp", "[x for x in (1, 2)] == 1", "not allowed"),
    ("cond_set_literal", "{1} == 1", "not allowed"),
    ("cond_dict", "{'a': 1} == 1", "not allowed"),
    ("cond_starred", "player_score in (*(1, 2),)", "constant"),
    ("cond_in_not_list", "player_score in 5", "parenthesised list"),
    ("cond_in_string_list", "winner in ('tie', 'dragon')", "winner is one of"),
    ("cond_ternary", "true if true else false", "not allowed"),
    ("cond_attribute", "np.zeros == 1", "not allowed"),
]:
    case(name, {"p.toml": paytable(when=when)}, REPORT, message)

# -- Claims files -------------------------------------------------------------------------
VERIFY = ["verify", "{f}"]
RTP = 'quantity = "max_rtp"\nvalue = "98.94%"\n'
for name, text, message in [
    ("cl_not_toml", "[[claim", "invalid TOML"),
    ("cl_no_claims", 'paytable = "seed-game"\n', "at least one [[claim]]"),
    ("cl_claim_not_table", 'paytable = "seed-game"\nclaim = [1]\n', "must be a table"),
    ("cl_unknown_key", claims(RTP + "color = 1\n"), "unknown key 'color'"),
    ("cl_no_paytable", claims(RTP, ""), "name its 'paytable'"),
    ("cl_paytable_int", claims(RTP, "paytable = 3\n"), "name its 'paytable'"),
    ("cl_unknown_paytable", claims(RTP, 'paytable = "no-such-game"\n'), "unknown paytable"),
    ("cl_missing_file", claims(RTP, 'paytable = "nowhere.toml"\n'), "not found beside"),
    ("cl_missing_path", claims(RTP, 'paytable = "sub/p.toml"\n'), "not found beside"),
    ("cl_quantity", claims('quantity = "luck"\nvalue = "1%"\n'), "'quantity' must be"),
    ("cl_no_value", claims('quantity = "max_rtp"\n'), "missing 'value'"),
    ("cl_value_float", claims('quantity = "max_rtp"\nvalue = 98.94\n'), "printed as a string"),
    ("cl_value_inf", claims('quantity = "max_rtp"\nvalue = inf\n'), "printed as a string"),
    ("cl_value_nan_text", claims('quantity = "max_rtp"\nvalue = "nan"\n'), "cannot read the"),
    ("cl_value_words", claims('quantity = "max_rtp"\nvalue = "high"\n'), "cannot read the"),
    ("cl_value_long", claims(f'quantity = "max_rtp"\nvalue = "{"9" * 60}%"\n'), "cannot read"),
    ("cl_value_decimals", claims(f'quantity = "max_rtp"\nvalue = "0.{"3" * 50}"\n'), "cannot"),
    ("cl_rounding", claims(RTP + 'rounding = "bankers"\n'), "'rounding' must be"),
    ("cl_needs_bet", claims('quantity = "rtp"\nvalue = "1%"\n'), "needs a 'bet'"),
    ("cl_unknown_bet", claims('bet = "x"\nquantity = "rtp"\nvalue = "1%"\n'), "unknown bet"),
    (
        "cl_unknown_mode",
        claims('bet = "tie"\nmode = "x"\nquantity = "rtp"\nvalue = "1%"\n'),
        "unknown mode",
    ),
    ("cl_mode_int", claims('bet = "tie"\nmode = 1\nquantity = "rtp"\nvalue = "1%"\n'), "'mode'"),
    ("cl_payouts_inf", claims('bet = "tie"\nquantity = "payouts"\nvalue = [inf]\n'), "finite"),
    ("cl_payouts_nan", claims('bet = "tie"\nquantity = "payouts"\nvalue = [nan]\n'), "finite"),
    ("cl_payouts_1e400", claims('bet = "tie"\nquantity = "payouts"\nvalue = [1e400]\n'), "finite"),
    ("cl_payouts_empty", claims('bet = "tie"\nquantity = "payouts"\nvalue = []\n'), "a list"),
    ("cl_payouts_str", claims('bet = "tie"\nquantity = "payouts"\nvalue = "8:1"\n'), "a list"),
    ("cl_payouts_bad", claims('bet = "tie"\nquantity = "payouts"\nvalue = ["x"]\n'), "bad payout"),
    (
        "cl_max_round_huge",
        claims(f'bet = "tie"\nquantity = "max_round"\nvalue = {"9" * 18}\n'),
        "must be from 1 to 1,000,000",
    ),
    ("cl_max_round_0", claims('bet = "tie"\nquantity = "max_round"\nvalue = 0\n'), "from 1"),
    (
        "cl_max_round_str",
        claims('bet = "tie"\nquantity = "max_round"\nvalue = "50"\n'),
        "whole number",
    ),
    ("cl_deep", "x = " + "[" * DEEP + "]" * DEEP + "\n", "nested"),
    ("cl_source_esc", claims(RTP + 'source = "\\u001b[2J"\n'), "U+001B"),
]:
    case(name, {"c.toml": text}, VERIFY, message)
case(
    "cl_paytable_beside_is_bad",
    {"c.toml": claims(RTP, 'paytable = "p.toml"\n'), "p.toml": paytable(pays="inf")},
    VERIFY,
    "not a finite number",
)

# -- Shoe files ---------------------------------------------------------------------------
WRAP = "9223372036854775807"
SHOE = ["report", "--bet", "tie", "--mode", "commission", "--shoe", "{f}"]
for name, file_name, text, message in [
    ("sh_wrap_toml", "s.toml", f"[ranks]\nA = {WRAP}\n2 = {WRAP}\n3 = 102\n", "1,450"),
    ("sh_wrap_cards", "s.toml", f"[cards]\nAS = {WRAP}\nAH = {WRAP}\n2S = 102\n", "1,450"),
    ("sh_wrap_csv", "s.csv", f"rank,count\nA,{WRAP}\n2,{WRAP}\n3,102\n", "1,450"),
    ("sh_card_in_rank_column", "s.csv", "rank,suit,count\nAS,,32\n", "unknown rank 'AS'"),
    ("sh_split_ten", "s.csv", "rank,suit,count\n1,0S,32\n", "suit '0S' must be one of"),
    ("sh_2_64_csv", "s.csv", "rank,count\nA,18446744073709551616\n", "1,450"),
    ("sh_1e20_toml", "s.toml", "[ranks]\nA = 100000000000000000000\n", "1,450"),
    ("sh_1e20_csv", "s.csv", "rank,count\nA,100000000000000000000\n", "1,450"),
    ("sh_digits_csv", "s.csv", "rank,count\nA," + "9" * 5000 + "\n", "1,450"),
    ("sh_1451", "s.toml", "[ranks]\nA = 1000\n2 = 451\n", "too large"),
    ("sh_sum_over", "s.toml", "[ranks]\n" + "".join(f"{r} = 1000\n" for r in "A23"), "too large"),
    ("sh_5_cards", "s.toml", "[ranks]\nA = 5\n", "5 cards left"),
    ("sh_0_cards", "s.toml", "[ranks]\n", "0 cards left"),
    ("sh_negative_toml", "s.toml", "[ranks]\nA = -1\n2 = 30\n", "negative"),
    ("sh_negative_csv", "s.csv", "rank,count\nA,-1\n2,30\n", "negative"),
    ("sh_float_toml", "s.toml", "[ranks]\nA = 32.7\n", "whole number"),
    ("sh_float_csv", "s.csv", "rank,count\nA,32.7\n", "not a whole number"),
    ("sh_nan_toml", "s.toml", "[ranks]\nA = nan\n", "whole number"),
    ("sh_inf_toml", "s.toml", "[ranks]\nA = inf\n", "whole number"),
    ("sh_nan_csv", "s.csv", "rank,count\nA,nan\n", "not a whole number"),
    ("sh_bool_toml", "s.toml", "[ranks]\nA = true\n", "whole number"),
    ("sh_string_toml", "s.toml", '[ranks]\nA = "32"\n', "whole number"),
    ("sh_extra_field", "s.csv", "rank,count\nA,4,extra\n", "3 fields"),
    ("sh_missing_field", "s.csv", "rank,count\nA\n", "1 fields"),
    ("sh_quote", "s.csv", 'rank,count\n"A,4\n', "malformed CSV"),
    ("sh_header", "s.csv", "rank,number\nA,1\n", "header must be"),
    ("sh_header_only", "s.csv", "rank,count\n", "0 cards left"),
    ("sh_empty_csv", "s.csv", "", "no rows"),
    ("sh_binary_csv", "s.csv", b"\xff\xfe\x00garbage", "not UTF-8"),
    ("sh_nul_csv", "s.csv", "rank,count\nA\x00,4\n", "unknown rank"),
    ("sh_dup_card", "s.toml", "[cards]\nAS = 4\nas = 4\n", "listed twice"),
    ("sh_dup_alias", "s.toml", "[ranks]\n10 = 4\nT = 4\n", "listed twice"),
    ("sh_card_in_ranks", "s.toml", "[ranks]\nAS = 8\n2 = 10\n", "is a card"),
    ("sh_rank_in_cards", "s.toml", "[cards]\nA = 8\n", "unknown card"),
    ("sh_ranks_int", "s.toml", "ranks = 5\n", "must be a table"),
    ("sh_ranks_list", "s.toml", "ranks = [1, 2]\n", "must be a table"),
    ("sh_both_tables", "s.toml", "[ranks]\nA = 8\n[cards]\nAS = 8\n", "one table"),
    ("sh_other_table", "s.toml", "[decks]\nA = 10\n", "one table"),
    ("sh_suffix", "s.txt", "A 10", "is .csv or .toml"),
    ("sh_deep", "s.toml", "description = " + "[" * DEEP + "]" * DEEP + "\n", "nested"),
    ("sh_bad_toml", "s.toml", "[ranks\n", "invalid TOML"),
    ("sh_unknown_rank_csv", "s.csv", "rank,count\nZ,10\n", "unknown rank 'Z'"),
    ("sh_rank_suit_bad", "s.csv", "rank,suit,count\nA,X,10\n", "suit 'X' must be one of"),
]:
    case(name, {file_name: text}, SHOE, message)
case("sh_missing", {}, ["report", "--shoe", "nowhere.csv"], "no such file")
case("sh_directory", {"d.toml/x": "x"}, ["report", "--shoe", "d.toml"], "is a directory")
case("sh_and_decks", {"s.toml": "[ranks]\nA = 32\n"}, [*SHOE, "--decks", "2"], "not both")

# -- Logs of dealt rounds (audit) ---------------------------------------------------------
LOG_HEAD = "shoe,round,player_cards,banker_cards,pay:tie\n"
for name, content, argv, message in [
    ("log_cr_line_ends", LOG_HEAD.replace("\n", "\r") + "A,1,9S KH,3S 4H,-1\r", [], "not CSV"),
    ("log_payout_overflow", LOG_HEAD + "A,1,9S KH,3S 4H,1e9999\n", [], "not a finite number"),
    ("log_shoe_escape", LOG_HEAD + '"\x1b[2J",1,9S KH,3S 4H,-1\n', [], "U+001B"),
    ("log_shoe_line_end", LOG_HEAD + '"A\nB",1,9S KH,3S 4H,-1\n', [], "U+000A"),
    ("log_out_is_log", LOG_HEAD + "A,1,9S KH,3S 4H,-1\n", ["--out", "l.csv"], "a log audited"),
    ("log_out_dot_log", LOG_HEAD + "A,1,9S KH,3S 4H,-1\n", ["--out", "./l.csv"], "a log audited"),
]:
    case(name, {"l.csv": content.encode()}, ["audit", "l.csv", "--no-fit", *argv], message)

# -- Options of the exact commands --------------------------------------------------------
for name, argv, message in [
    ("opt_decks_0", ["report", "--decks", "0"], "at least 1"),
    ("opt_decks_neg", ["report", "--decks", "-1"], "at least 1"),
    ("opt_decks_float", ["report", "--decks", "1.5"], "not a whole number"),
    ("opt_decks_28", ["report", "--decks", "28"], "too large"),
    ("opt_decks_wrap", ["report", "--decks", "354745078340568301"], "too large"),
    ("opt_decks_huge", ["report", "--decks", "100000000000000000000"], "too large"),
    ("opt_decks_digits", ["report", "--decks", "9" * 5000], "not a whole number"),
    ("opt_decks_empty", ["report", "--decks", ""], "not a whole number"),
    ("opt_decks_hex", ["report", "--decks", "0x8"], "not a whole number"),
    ("opt_decks_unicode", ["report", "--decks", "\u0668"], "not a whole number"),
    ("opt_mode", ["report", "--mode", "nope"], "unknown mode 'nope'"),
    ("opt_mode_empty", ["report", "--mode", ""], "unknown mode"),
    ("opt_bet", ["report", "--bet", "nope"], "unknown bet 'nope'"),
    ("opt_bet_esc", ["report", "--bet", "\x1b[31m"], "unknown bet '\\x1b[31m'"),
    ("opt_format", ["report", "--format", "xml"], "invalid choice"),
    ("opt_lang", ["report", "--lang", "fr"], "invalid choice"),
    ("opt_paytable", ["report", "--paytable", "no-such-game"], "unknown paytable"),
    ("opt_paytable_missing", ["report", "--paytable", "x/none.toml"], "no such file"),
    ("opt_paytable_dir", ["report", "--paytable", "."], "is a directory"),
    ("opt_remove_bad", ["report", "--remove", "ZZ"], "unknown card 'ZZ'"),
    ("opt_remove_empty", ["report", "--remove", "S"], "unknown card 'S'"),
    ("opt_remove_too_many", ["report", "--decks", "1", "--remove", "AS AS"], "none left"),
    ("opt_remove_rank", ["report", "--decks", "1", "--remove", "A A A A A"], "no A left"),
    (
        "opt_remove_to_5",
        [
            "report",
            "--decks",
            "1",
            "--remove",
            " ".join(
                ["K"] * 4
                + [f"{r}{s}" for r in "A23456789" for s in "SHDC"]
                + [f"{r}{s}" for r in ("10", "J", "Q") for s in "SHDC"][:11]
            ),
        ],
        "cards left",
    ),
    ("opt_unknown_flag", ["report", "--bogus"], "unrecognized arguments"),
    ("opt_no_command", [], "COMMAND"),
    ("opt_unknown_command", ["dance"], "invalid choice"),
    ("play_few", ["play", "2S", "3H", "2D"], "too few cards"),
    ("play_many", ["play", "2S", "3H", "2D", "KC", "8H", "9D"], "too many cards"),
    ("play_bad_card", ["play", "2S", "3H", "2D", "ZZ"], "unknown card 'ZZ'"),
    ("play_bare_rank", ["play", "2", "3H", "2D", "KC"], "write rank then suit"),
    ("play_mode", ["play", "2S", "3H", "2D", "KC", "8H", "--mode", "x"], "unknown mode"),
    ("play_nine_aces", ["play", *["AS"] * 9], "cannot remove AS"),
    ("play_format", ["play", "AS", "AH", "AD", "AC", "--format", "csv"], "invalid choice"),
    ("verify_missing", ["verify", "none.toml"], "no such file"),
    ("verify_dir", ["verify", "."], "is a directory"),
    ("eor_nothing_to_remove", ["eor", "--shoe", "{six}"], "no card can be removed"),
    ("eor_plot_suffix", ["eor", "--bet", "tie", "--plot", "e.jpg"], "name a .png file"),
    ("eor_plot_dir", ["eor", "--bet", "tie", "--plot", "sub.png"], "is a folder"),
    ("eor_plot_missing", ["eor", "--bet", "tie", "--plot", "none/e.png"], "does not exist"),
    ("eor_plot_empty", ["eor", "--bet", "tie", "--plot", ""], "name a file"),
    ("docs_out_file", ["docs", "--out", "file.txt"], "not a folder"),
    ("docs_out_missing", ["docs", "--out", "none/deeper"], "does not exist"),
    ("docs_out_empty", ["docs", "--out", ""], "name a folder"),
    ("docs_site_file", ["docs", "--site", "file.txt"], "not a folder"),
    ("docs_site_not_empty", ["docs", "--site", "sub.png"], "is not empty (--force replaces it)"),
    ("docs_site_missing", ["docs", "--site", "none/deeper"], "does not exist"),
    ("docs_site_remove", ["docs", "--site", "new", "--remove", "5"], "describe a full shoe"),
    ("docs_site_shoe", ["docs", "--site", "new", "--shoe", "file.txt"], "describe a full shoe"),
    ("docs_site_unknown", ["docs", "--site", "new", "--paytable", "nope"], "unknown paytable"),
    ("docs_site_decks", ["docs", "--site", "new", "--decks", "0"], "decks"),
    ("docs_out_eor", ["docs", "--out", "new", "--eor"], "--eor goes with --site, not --out"),
    ("docs_out_force", ["docs", "--out", "new", "--force"], "--force goes with --site, not --out"),
    (
        "docs_out_two",
        ["docs", "--out", "new", "--paytable", "tie-max", "--paytable", "monkey"],
        "give one --paytable",
    ),
    ("docs_both", ["docs", "--out", "a", "--site", "b"], "not allowed with argument"),
    ("docs_neither", ["docs"], "one of the arguments --out --site is required"),
]:
    case(name, {"sub.png/x": "", "file.txt": ""}, argv, message)

# -- Options of the long-running commands (checked before any folder is made) ------------
#: A paytable of 3,400 bets: 10,000 shoes of them would hold over 1 GiB per partition.
MANY_BETS = 'name = "Many"\nmodes = ["m"]\n' + "".join(
    f'[[bet]]\nid = "b{i}"\nrule = [{{ when = "winner == \'tie\'", pays = 8 }}]\n'
    for i in range(3400)
)
COUNT = ["count", "--bet", "tie", "--shoes", "20", "--no-progress"]
SIMULATE = ["simulate", "--shoes", "20", "--no-progress"]
for name, argv, message in [
    ("run_seed_negative", [*COUNT, "--seed", "-1"], "at least 0"),
    ("run_seed_huge", [*COUNT, "--seed", str(2**64)], "at most"),
    ("run_seed_float", [*COUNT, "--seed", "1.5"], "not a whole number"),
    ("run_shoes_0", ["count", "--bet", "tie", "--shoes", "0"], "at least 1"),
    ("run_shoes_huge", ["count", "--bet", "tie", "--shoes", "1" + "0" * 20], "at most"),
    ("run_partitions", [*COUNT[:4], "1000000000", "--partition-size", "1"], "partitions"),
    ("run_partition_0", [*COUNT, "--partition-size", "0"], "at least 1"),
    ("run_partition_huge", [*COUNT, "--partition-size", "1000000000"], "at most 10,000"),
    ("run_workers_0", [*COUNT, "--workers", "0"], "at least 1"),
    ("run_workers_huge", [*COUNT, "--workers", "100000"], "at most"),
    ("run_decks_28", [*SIMULATE, "--decks", "28"], "too large"),
    ("run_decks_28_perfect", [*COUNT, "--decks", "28", "--perfect"], "too large"),
    ("run_cut_card_small", [*COUNT, "--cut-card", "3"], "cut card must leave"),
    ("run_cut_card_big", [*COUNT, "--cut-card", "1000"], "cut card must leave"),
    ("run_cut_card_huge", [*COUNT, "--cut-card", "9" * 30], "at most"),
    ("run_cut_card_negative", [*COUNT, "--cut-card", "-5"], "at least 0"),
    ("run_bet_unknown", ["count", "--bet", "nope", "--shoes", "10"], "unknown bet 'nope'"),
    ("run_bet_missing", ["count", "--shoes", "10"], "--bet"),
    ("run_mode_unknown", [*COUNT, "--mode", "x"], "unknown mode"),
    ("run_mode_not_offered", ["count", "--bet", "banker", "--shoes", "5", "--mode", "x"], "mode"),
    ("run_perfect_tags", [*COUNT, "--perfect", "--tags", "A=1"], "--perfect"),
    ("run_perfect_threshold", [*COUNT, "--perfect", "--threshold", "1"], "--perfect"),
    ("run_perfect_divisor", [*COUNT, "--perfect", "--true-count-decks", "unseen"], "--perfect"),
    ("run_divisor_unknown", [*COUNT, "--true-count-decks", "half"], "invalid choice"),
    ("run_last_round_unknown", [*COUNT, "--last-round", "two-more"], "invalid choice"),
    ("run_tags_rank", [*COUNT, "--tags", "Z=1"], "unknown rank 'Z'"),
    ("run_tags_no_rank", [*COUNT, "--tags", "=1"], "unknown rank ''"),
    ("run_tags_no_value", [*COUNT, "--tags", "A="], "is not an integer"),
    ("run_tags_float", [*COUNT, "--tags", "A=1.5"], "is not an integer"),
    ("run_tags_exp", [*COUNT, "--tags", "A=1e3"], "is not an integer"),
    ("run_tags_huge", [*COUNT, "--tags", "A=99999999999999999999"], "is not an integer"),
    ("run_tags_big", [*COUNT, "--tags", f"A={2**63 - 1}"], "is not an integer"),
    ("run_tags_limit", [*COUNT, "--tags", "A=1001"], "at most 1000"),
    ("run_tags_no_sep", [*COUNT, "--tags", "A1"], "RANK=INTEGER"),
    ("run_tags_twice", [*COUNT, "--tags", "A=1,A=2"], "already tagged"),
    ("run_tags_alias", [*COUNT, "--tags", "10=1,T=-1"], "already tagged"),
    ("run_tags_equal", [*COUNT, "--tags", "A=0"], "tags are all equal"),
    ("run_tags_commas", [*COUNT, "--tags", ","], "--tags is empty"),
    ("run_threshold_nan", [*COUNT, "--threshold", "nan"], "finite"),
    ("run_threshold_inf", [*COUNT, "--threshold", "inf"], "finite"),
    ("run_threshold_1e400", [*COUNT, "--threshold", "1e400"], "finite"),
    ("run_threshold_word", [*COUNT, "--threshold", "high"], "not a decimal number"),
    ("run_threshold_underscores", [*COUNT, "--threshold", "1_000"], "not a decimal number"),
    ("run_max_gain_arabic_digit", [*COUNT, "--max-gain", "\u0663"], "not a decimal number"),
    ("run_max_gain_fullwidth", [*COUNT, "--max-gain", "\uff11"], "not a decimal number"),
    ("run_max_gain_shown_whole", [*COUNT, "--max-gain", "1000000.5"], "got 1000000.5"),
    ("run_tags_empty", [*COUNT, "--tags", ""], "--tags is empty"),
    ("run_tags_empty_perfect", [*COUNT, "--perfect", "--tags", ""], "--perfect"),
    ("run_threshold_huge", [*COUNT, "--tags", "A=1", "--threshold", "1e300"], "within"),
    ("run_pair_no_count", ["count", "--bet", "player_pair", "--shoes", "10"], "no linear count"),
    ("run_max_gain_negative", [*COUNT, "--max-gain", "-1"], "--max-gain must be more than 0"),
    ("run_max_gain_zero", [*COUNT, "--max-gain", "0"], "--max-gain must be more than 0"),
    ("run_max_gain_huge", [*COUNT, "--max-gain", "1e300"], "at most 1,000,000"),
    ("run_max_gain_nan", [*COUNT, "--max-gain", "nan"], "finite"),
    ("run_bets_one_unknown", [*COUNT, "--bet", "lucky_six", "--bet", "nope"], "unknown bet 'nope'"),
    ("run_bets_all_unknown", [*COUNT, "--bet", "all", "--bet", "nope"], "unknown bet 'nope'"),
    ("run_gain_plot_suffix", [*COUNT, "--gain-plot", "g.svg"], "name a .png file"),
    ("run_gain_plot_dir", [*COUNT, "--gain-plot", "dirpng.png"], "is a folder"),
    ("run_out_suffix", [*COUNT, "--out", "r.xlsx"], ".csv or .parquet"),
    ("run_out_dir", [*COUNT, "--out", "d.csv"], "is a folder"),
    ("run_out_missing", [*COUNT, "--out", "none/r.csv"], "does not exist"),
    ("run_plot_dir", [*COUNT, "--out", "ok.csv", "--plot", "dirpng.png"], "is a folder"),
    ("run_plot_suffix", [*COUNT, "--plot", "e.svg"], "name a .png file"),
    ("run_work_dir_empty", [*COUNT, "--work-dir", ""], "--work-dir"),
    ("run_format", [*COUNT, "--format", "pdf"], "invalid choice"),
    ("sim_format", [*SIMULATE, "--format", "csv"], "invalid choice"),
    ("count_xlsx_no_file", [*COUNT, "--format", "xlsx"], "give --report-out FILE.xlsx"),
    ("count_report_out_same", [*COUNT, "--out", "r.csv", "--report-out", "r.csv"], "same file"),
    ("eor_xlsx_no_file", ["eor", "--decks", "1", "--format", "xlsx"], "give --out FILE.xlsx"),
    ("eor_xlsx_suffix", ["eor", "--format", "xlsx", "--out", "e.txt"], "names text but --format"),
    ("eor_xlsx_no_suffix", ["eor", "--format", "xlsx", "--out", "e.data"], "name a .xlsx file"),
    ("sim_seed_negative", [*SIMULATE, "--seed", "-1"], "at least 0"),
    ("sim_paytable", [*SIMULATE, "--paytable", "none"], "unknown paytable"),
    ("sim_shoes_missing", ["simulate"], "--shoes"),
    (
        "sim_partition_too_big",
        ["simulate", "--shoes", "10000", "--paytable", "many.toml", "--partition-size", "10000"],
        "MB of memory per partition (at most 1,074 MB): lower --partition-size to 6,579",
    ),
]:
    case(name, {"d.csv/x": "", "dirpng.png/x": "", "many.toml": MANY_BETS}, argv, message)

#: Ranks and colours of all six cards, told apart: suit by suit (colours are), over the walk's
#: limit (suits compared only with each other are counted by pattern).
ALL_SUITS_ALIKE = (
    "player_card1_rank == banker_card1_rank and player_card1_suit == banker_card1_suit and "
    "player_card2_colour == banker_card1_colour and player_card2_rank == banker_card2_rank and "
    "player_card3_rank == banker_card2_rank and banker_card3_colour == player_card3_colour"
)

# -- Work over a limit or the budget, refused before any of it (no shoe dealt, no folder) --
#: One bet whose card walk is over the walk's own limit (2.0e10 rounds, at most 3e9): ranks
#: and colours of six cards (colours are walked suit by suit).
HUGE_WALK = (
    'name = "Huge"\nmodes = ["m"]\n[[bet]]\nid = "huge"\nrule = [{ when = "'
    + ALL_SUITS_ALIKE
    + '", pays = 99 }]\n'
)
#: A walk too long to compile into terms (8.1e8 rounds): a count walks it for every round.
#: (A suit asked beside the flush: every suit dealt, where a flush alone is summed.)
UNCOMPILED = (
    'name = "Flush"\nmodes = ["m"]\n[[bet]]\nid = "flush"\nrule = [{ when = "'
    + "first_four_flush and first_four_straight and winner == 'player'"
    + " and player_card1_suit == 'S'"
    + '", pays = 99 }]\n'
)
WALK_LIMIT = "the bets ask for about 2.0e+10 kinds of deal to be told apart (at most 3e+09"
for name, argv, message in [
    ("walk_limit_report", ["report", "--paytable", "huge.toml"], WALK_LIMIT),
    ("walk_limit_simulate", [*SIMULATE, "--paytable", "huge.toml"], WALK_LIMIT),
    (
        "walk_limit_count",
        [*COUNT[:1], "--bet", "huge", *COUNT[3:], "--perfect", "--paytable", "huge.toml"],
        WALK_LIMIT,
    ),
    ("walk_limit_eor", ["eor", "--paytable", "huge.toml"], WALK_LIMIT),
    (  # no card can leave a shoe of six: bets on the cards once gave a traceback here
        "eor_card_bets_on_six_cards",
        ["eor", "--paytable", "lucky-nines", "--shoe", "six.csv"],
        "no card can be removed: the shoe holds 6 cards",
    ),
    ("walk_limit_docs", ["docs", "--out", "out", "--paytable", "huge.toml"], WALK_LIMIT),
    (  # 250 shoes x 106 rounds x 3,400 bets x 56 bytes: its results alone were 27 MB
        "count_partition_memory",
        [
            *COUNT[:1],
            "--bet",
            "all",
            "--perfect",
            "--shoes",
            "1000",
            "--no-progress",
            "--paytable",
            "many.toml",
        ],
        "needs about 5,046 MB of memory per partition (at most 1,074 MB): lower "
        "--partition-size to 53",
    ),
    (
        "count_walks_every_round",
        [
            *COUNT[:1],
            "--bet",
            "flush",
            "--shoes",
            "2",
            "--perfect",
            "--no-progress",
            "--paytable",
            "flush.toml",
        ],
        "counting up to 208 rounds with the exact EV of each walks about 1.7e+11 rounds of cards",
    ),
]:
    files = {"huge.toml": HUGE_WALK, "flush.toml": UNCOMPILED, "many.toml": MANY_BETS}
    files["six.csv"] = "card,count\nAS,1\n9S,2\nKH,1\n7D,1\n2C,1\n"
    case(name, files, argv, message)

# -- Found by attacking the hardened tree (second round) ------------------------------------
LONG = "a" * 300
for name, files, argv, message in [
    ("path_too_long_paytable", {}, ["report", "--paytable", LONG + ".toml"], "File name too long"),
    ("path_too_long_plot", {}, ["eor", "--bet", "tie", "--plot", LONG + ".png"], "too long"),
    ("path_too_long_docs", {}, ["docs", "--out", LONG], "too long"),
    ("path_too_long_out", {}, [*COUNT, "--out", LONG + ".csv"], "too long"),
    ("path_under_a_file", {"file": ""}, ["report", "--paytable", "file/x.toml"], "Not a directory"),
    ("docs_under_a_file", {"file": ""}, ["docs", "--out", "file/x"], "file is not a folder"),
    ("path_newline", {}, ["report", "--paytable", "a\nb.toml"], "a\\nb.toml: no such file"),
    ("path_escape", {}, ["report", "--paytable", "\x1b[2J.toml"], "\\x1b[2J.toml"),
    ("sched_label", {}, [*SIMULATE, "--scheduler", f"tcp://{LONG}:8786"], "not a valid host"),
    ("sched_space", {}, [*SIMULATE, "--scheduler", "tcp://exa mple:1"], "cannot reach"),
    ("sched_nothing", {}, [*SIMULATE, "--scheduler", "tcp://127.0.0.1:1"], "cannot reach"),
    ("count_mode_empty", {}, [*COUNT, "--mode", ""], "unknown mode ''"),
    ("play_long_s", {}, ["play", "2\u017f", "3H", "2D", "KC", "8H"], "unknown card"),
    (
        "mode_capital",
        {"p.toml": paytable(head='name = "T"\nmodes = ["Both"]\n')},
        REPORT,
        "lower-case",
    ),
    (
        "mode_space",
        {"p.toml": paytable(head='name = "T"\nmodes = ["both "]\n')},
        REPORT,
        "lower-case",
    ),
    (
        "mode_lookalike",
        {"p.toml": paytable(head='name = "T"\nmodes = ["comm\u0456ssion"]\n')},
        REPORT,
        "lower-case",
    ),
    ("bet_id_long", {"p.toml": paytable(bet=f'id = "{"b" * 5000}"\n')}, REPORT, "at most 64"),
    ("bet_id_newline", {"p.toml": paytable(bet='id = "tie\\n"\n')}, REPORT, "at most 64"),
    (
        "mode_newline",
        {"p.toml": paytable(head='name = "T"\nmodes = ["m\\n"]\n')},
        REPORT,
        "lower-case",
    ),
    ("name_isolate", {"p.toml": paytable(head='name = "a\u2066b"\n')}, REPORT, "U+2066"),
    ("name_line_separator", {"p.toml": paytable(head='name = "a\u2028b"\n')}, REPORT, "U+2028"),
    ("claims_rtp_with_bet", {"c.toml": claims(RTP + 'bet = "nope"\n')}, VERIFY, "takes no 'bet'"),
    # Free text (a description, a source) is text, and not a book.
    ("pt_source_table", {"p.toml": "source = [1, {a = 2}]\n" + paytable()}, REPORT, "'source'"),
    ("pt_description_int", {"p.toml": f"description = {10**19}\n" + paytable()}, REPORT, "'des"),
    (
        "pt_description_long",
        {"p.toml": f'description = "{"x" * 3000}"\n' + paytable()},
        REPORT,
        "2,000",
    ),
    (
        "claims_source_table",
        {"c.toml": claims(RTP + "source = {a = [1, {b = 3}]}\n")},
        VERIFY,
        "'source'",
    ),
    ("claims_source_long", {"c.toml": claims(RTP + f'source = "{"s" * 5000}"\n')}, VERIFY, "2,000"),
    (
        "claims_description_int",
        {"c.toml": "description = 5\n" + claims(RTP)},
        VERIFY,
        "'description'",
    ),
    (
        "shoe_description_long",
        {"s.toml": f'description = "{"d" * 3000}"\n[ranks]\nA = 32\n'},
        [*SHOE[:-1], "s.toml"],
        "2,000",
    ),
    ("cards_too_detailed", {"p.toml": paytable(when=ALL_SUITS_ALIKE)}, REPORT, "too many cards"),
    (
        "cards_suits_unknown",
        {"p.toml": paytable(when="player_card1_colour == 'red'")},
        [*REPORT, "--remove", "5"],
        "suits are not known",
    ),
]:
    case(name, {**files, "d.csv/x": "", "dirpng.png/x": ""}, argv, message)


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


#: The cases that take seconds rather than a fraction of one: left out of the quick check
#: (pytest -m "not slow").
SLOW_CASES = {
    "pt_multiplier_products_too_many",
    "sim_partition_too_big",
    "eor_card_bets_on_six_cards",
    "count_partition_memory",
    "count_walks_every_round",
}
assert SLOW_CASES.issubset(c[0] for c in CASES)


@pytest.mark.parametrize(
    ("files", "argv", "message"),
    [
        pytest.param(*c[1:], id=c[0], marks=[pytest.mark.slow] if c[0] in SLOW_CASES else [])
        for c in CASES
    ],
)
def test_hostile_case_is_one_line_exit_2_nothing_written(
    tmp_path, monkeypatch, capsys, files, argv, message
) -> None:
    monkeypatch.chdir(tmp_path)
    for name, content in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    (tmp_path / "claims.toml").write_text(claims(RTP))
    (tmp_path / "six.toml").write_text("[ranks]\nA = 6\n")
    first = next(iter(files), "")
    argv = [
        a.replace("{f}", first).replace("{claims}", "claims.toml").replace("{six}", "six.toml")
        for a in argv
    ]
    before = _tree(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2, (code, out, err)
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n") and err.startswith("baccarat-odds: error: ")
    assert "Traceback" not in err and "\x1b" not in err
    assert message in err, err
    assert _tree(tmp_path) == before, "a file or folder was left behind"


def test_the_corpus_is_large() -> None:
    assert len(CASES) >= 200
    assert len({c[0] for c in CASES}) == len(CASES)


# -- Odd but valid input gives the right number -------------------------------------------


def _report_json(capsys, *argv: str) -> list[dict]:
    code, out, err = run(capsys, "report", "--format", "json", *argv)
    assert code == 0, err
    return json.loads(out)["bets"]


def test_bom_in_toml_and_csv_is_read(tmp_path, capsys) -> None:
    expected = analyze(decks=1, mode="commission", bets=["tie"]).result("tie").house_edge
    toml_shoe = tmp_path / "s.toml"
    toml_shoe.write_bytes(
        b"\xef\xbb\xbf[ranks]\n"
        + "".join(f"{r} = 4\n" for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"]).encode()
    )
    csv_shoe = tmp_path / "s.csv"
    csv_shoe.write_bytes(
        b"\xef\xbb\xbfrank,count\n"
        + "".join(f"{r},4\n" for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"]).encode()
    )
    for path in (toml_shoe, csv_shoe):
        rows = _report_json(capsys, "--shoe", str(path), "--bet", "tie", "--mode", "commission")
        assert Fraction(rows[0]["house_edge"]) == expected


def test_constants_in_conditions_give_the_right_numbers(tmp_path, capsys) -> None:
    """D-7: documented syntax with constants gives what the plain condition gives."""
    tie = analyze(decks=8, mode="commission", bets=["tie"]).result("tie").house_edge
    for when in (
        "winner == 'tie' and true",
        "false or winner == 'tie'",
        "winner == 'tie' and 1 == 1",
        "(1 < 2 < 3) and winner == 'tie'",
        "winner == 'tie' and 0 <= player_score < 10 <= 10",
    ):
        path = tmp_path / "p.toml"
        path.write_text(paytable(when=when, pays='"8:1"', head='name = "T"\n'))
        rows = _report_json(capsys, "--paytable", str(path))
        assert Fraction(rows[0]["house_edge"]) == tie, when


def test_report_json_is_strict_and_csv_is_spreadsheet_safe(tmp_path, capsys) -> None:
    path = tmp_path / "p.toml"
    path.write_text(
        paytable(bet='id = "b"\nname = "=HYPERLINK(\\"x\\")"\nnames = { tl = "@SUM(1)" }\n')
    )
    code, out, _ = run(capsys, "report", "--paytable", str(path), "--format", "csv")
    assert code == 0
    assert "'=HYPERLINK" in out
    assert "\n=" not in out and ",=" not in out
    code, out, _ = run(capsys, "report", "--paytable", str(path), "--format", "csv", "--lang", "tl")
    assert code == 0 and ",'@SUM(1)," in out and ",@" not in out
    code, out, _ = run(capsys, "report", "--paytable", str(path), "--format", "json")
    json.loads(out, parse_constant=lambda c: pytest.fail(f"non-standard JSON {c}"))


def test_latex_headings_escape_every_special_character(tmp_path, capsys) -> None:
    path = tmp_path / "p.toml"
    path.write_text(paytable(head='name = "a\\\\b ^ ~ & % $ # _ { }"\n'))
    code, out, _ = run(capsys, "report", "--paytable", str(path), "--format", "latex")
    assert code == 0
    heading = out.splitlines()[1]  # (under the comment saying what the tables need)
    assert heading == (
        r"\section*{a\textbackslash{}b \textasciicircum{} \textasciitilde{} \& \% \$ \# \_ "
        r"\{ \}: 8 decks (416 cards), exact, per unit staked; modes: standard}"
    )


def test_play_refuses_cards_the_paytables_shoe_cannot_hold(tmp_path, capsys) -> None:
    path = tmp_path / "one.toml"
    path.write_text(paytable(head='name = "T"\ndecks = 1\n'))
    code, out, err = run(capsys, "play", "AS", "AS", "2D", "KC", "8H", "--paytable", str(path))
    assert code == 2 and out == "" and "1 deck" in err and err.count("\n") == 1


def test_claims_paytable_is_found_beside_the_claims_file_only(tmp_path, capsys, monkeypatch):
    """A relative paytable never falls back to a file of the same name in the current
    folder."""
    (tmp_path / "claims").mkdir()
    (tmp_path / "claims" / "c.toml").write_text(claims(RTP, 'paytable = "p.toml"\n'))
    (tmp_path / "p.toml").write_text(paytable())
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "verify", "claims/c.toml")
    assert code == 2 and "not found beside the claims file" in err


# -- The Python API validates like the command line ---------------------------------------

SHAPE_13 = (13,)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Shoe(np.full(13, 32.7)), "whole numbers"),
        (lambda: Shoe(np.full(13, 32.0)), "whole numbers"),
        (lambda: Shoe(np.full(13, np.nan)), "whole numbers"),
        (lambda: Shoe([True] * 13), "whole numbers"),
        (lambda: Shoe(["32"] * 13), "whole numbers"),
        (lambda: Shoe([2**70] + [32] * 12), "1,450"),
        (lambda: Shoe([2**63 - 1, 2**63 - 1, 102] + [0] * 10), "1,450"),
        (lambda: Shoe(np.array([2**64 - 1] + [32] * 12, dtype=np.uint64)), "1,450"),
        (lambda: Shoe([-1] + [32] * 12), "negative"),
        (lambda: Shoe([32] * 12), "shape"),
        (lambda: Shoe([[32] * 13]), "shape"),
        (lambda: Shoe([32] * 13, np.full((13, 4), 8.5)), "whole numbers"),
        (lambda: Shoe([32] * 13, np.full((4, 13), 8)), "shape"),
        (lambda: Shoe([32] * 13, np.full((13, 4), 7)), "do not add up"),
        (lambda: Shoe([[1, 2], [3]]), "shape"),
        (lambda: Shoe.standard(10**20), "too large"),
        (lambda: Shoe.standard(28), "too large"),
        (lambda: Shoe.standard(1.5), "whole number"),
        (lambda: Shoe.standard(True), "whole number"),
        (lambda: analyze(decks=10**20), "too large"),
        (lambda: analyze(decks=354745078340568301), "too large"),
        (lambda: analyze(decks=2.0), "whole number"),
        (lambda: analyze(mode="nope"), "unknown mode"),
        (lambda: analyze(mode=3), "mode name"),
        (lambda: analyze(bets="tie"), "list of bet ids"),
        (lambda: analyze(bets=[3]), "list of bet ids"),
        (lambda: analyze(paytable="no-such-game"), "unknown paytable 'no-such-game'"),
        (lambda: analyze(paytable=3), "paytable must be a Paytable"),
        (lambda: analyze(shoe=[32] * 13), "must be a Shoe"),
        (lambda: analyze(decks=8, shoe=Shoe.standard(8)), "not both"),
        (lambda: batch_expected_values(seed_paytable(), np.full((2, 13), 32.5)), "whole"),
        (lambda: batch_expected_values(seed_paytable(), [[32] * 13, [32] * 12]), "rows differ"),
        (lambda: batch_expected_values(seed_paytable(), np.zeros((0, 13), int)), "n >= 1"),
        (lambda: batch_expected_values(seed_paytable(), np.full((2, 12), 32)), "(n, 13)"),
        (
            lambda: batch_expected_values(seed_paytable(), [[2**64 + 5] + [0] * 12]),
            "more than 1,450",
        ),
        (
            lambda: batch_expected_values(
                seed_paytable(), np.array([[2**64 - 1] + [32] * 12], dtype=np.uint64)
            ),
            "more than 1,450",
        ),
        (
            lambda: batch_expected_values(seed_paytable(), [[2**62] * 4 + [0] * 9]),
            "more than 1,450",
        ),
        (
            lambda: batch_expected_values(seed_paytable(), [[32] * 13], modes=("nope",)),
            "unknown mode",
        ),
        (
            lambda: batch_expected_values(seed_paytable(), [[32] * 13], modes="commission"),
            "tuple of mode names",
        ),
    ],
)
def test_api_refuses_bad_input(make, message) -> None:
    with pytest.raises(AnalyzerError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(min_value=2**63 - 2**12, max_value=2**64 + 2**12), min_size=1, max_size=3),
    st.integers(min_value=0, max_value=12),
)
def test_counts_near_2_63_and_2_64_are_refused_never_wrapped(huge, where) -> None:
    counts = [32] * 13
    for offset, value in enumerate(huge):
        counts[(where + offset) % 13] = value
    with pytest.raises(AnalyzerError, match="1,450"):
        Shoe(counts)
    with pytest.raises(AnalyzerError, match="1,450"):
        batch_expected_values(seed_paytable(), [counts])
    as_uint = [min(c, 2**64 - 1) for c in counts]  # what a uint64 array can hold
    with pytest.raises(AnalyzerError, match="1,450"):
        Shoe(np.array(as_uint, dtype=np.uint64))


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=2**63 - 2**12, max_value=2**64 + 2**12))
def test_shoe_file_counts_near_2_64_are_refused(tmp_path_factory, value) -> None:
    path = tmp_path_factory.mktemp("shoe") / "s.csv"
    path.write_text(f"rank,count\nA,{value}\n2,{value}\n3,102\n")
    with pytest.raises(AnalyzerError, match="1,450"):
        analyzer.shoe_from_file(path)


# -- What the installed command does --------------------------------------------------------

CLI = [sys.executable, "-m", "analyzer"]


def test_closed_and_full_stdout_are_one_line() -> None:
    closed = subprocess.run(
        [*CLI, "play", "2S", "3H", "2D", "KC", "8H"],
        stdout=subprocess.DEVNULL,
        capture_output=False,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        close_fds=True,
        preexec_fn=lambda: os.close(1),
    )
    assert closed.returncode == 2
    assert (
        closed.stderr.splitlines()
        == ["baccarat-odds: error: cannot write the output: standard output is closed"]
        or "Bad file descriptor" in closed.stderr.splitlines()[0]
    )
    if Path("/dev/full").exists():
        with open("/dev/full", "w") as full:
            done = subprocess.run(
                [*CLI, "play", "2S", "3H", "2D", "KC", "8H"],
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                check=False,
            )
        assert done.returncode == 2
        assert done.stderr.splitlines() == [
            "baccarat-odds: error: cannot write the output: No space left on device"
        ]


def test_ctrl_c_at_start_up_is_one_line() -> None:
    """SIGINT while the modules load (before any work) ends in one line, exit 130.

    The first delay leaves the interpreter its own start-up (about 50 ms), before any of
    our code runs: a signal then is Python's to handle.
    """
    for delay in (0.15, 0.3, 0.45, 0.6):
        process = subprocess.Popen(
            [*CLI, "report"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        if process.returncode == 0:  # finished before the signal: nothing to test
            continue
        assert process.returncode == 130, err
        assert len(err.splitlines()) == 1 and "interrupted" in err and "Traceback" not in err


@pytest.mark.slow
def test_output_files_honour_the_umask(tmp_path) -> None:
    old = os.umask(0o027)
    try:
        done = subprocess.run(
            [*CLI, "docs", "--out", str(tmp_path / "docs"), "--paytable", "tie-9-to-1"],
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        os.umask(old)
    assert done.returncode == 0, done.stderr
    modes = {p.stat().st_mode & 0o777 for p in (tmp_path / "docs").rglob("*") if p.is_file()}
    assert modes == {0o640}


# -- Outputs: all or nothing, on a full or read-only folder -------------------------------


def _small_tmpfs(path: Path, size: str) -> bool:
    """Mount a tiny tmpfs at ``path`` when the test may (root, with mount); else False."""
    path.mkdir()
    if os.geteuid() != 0:
        return False
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


def _unmount(path: Path) -> None:
    subprocess.run(["umount", str(path)], capture_output=True, check=False)


def test_docs_on_a_full_folder_writes_nothing(tmp_path, capsys, monkeypatch) -> None:
    """D-23: a write that fails part-way leaves no table behind (36 files, all or none)."""
    full = tmp_path / "full"
    mounted = _small_tmpfs(full, "40k")
    try:
        if not mounted:  # no tmpfs here: make the 6th file fail as a full disk would
            import analyzer.files as files

            calls = {"n": 0}
            real = files.text_writer

            def failing(text: str):
                calls["n"] += 1
                if calls["n"] == 6:
                    raise OSError(28, "No space left on device")
                return real(text)

            monkeypatch.setattr(files, "text_writer", failing)
        out = full / "docs"
        code, stdout, err = run(capsys, "docs", "--out", str(out))
        assert code == 2 and stdout == "" and err.count("\n") == 1
        assert "No space left on device" in err and "nothing was written" in err
        assert list(full.iterdir()) == []
        # Over an existing folder of older tables, a failed write leaves them as they were.
        out.mkdir()
        (out / "en").mkdir()
        (out / "en" / "summary.txt").write_text("older tables\n")
        calls_before = list(full.rglob("*"))
        code, _, err = run(capsys, "docs", "--out", str(out))
        assert code == 2 and "nothing was written" in err
        assert (out / "en" / "summary.txt").read_text() == "older tables\n"
        assert list(full.rglob("*")) == calls_before
    finally:
        if mounted:
            _unmount(full)


@pytest.mark.slow
def test_count_outputs_are_both_written_or_neither(tmp_path, capsys, monkeypatch) -> None:
    """D-13: --out is not left behind when --plot fails afterwards."""
    import analyzer.reports.plots as plots  # count imports it when it runs

    def broken_writer(fig):
        def write(temporary):
            raise OSError(28, "No space left on device")

        return write

    monkeypatch.setattr(plots, "png_writer", broken_writer)
    out, plot = tmp_path / "rounds.csv", tmp_path / "ev.png"
    code, stdout, err = run(
        capsys,
        *COUNT,
        "--perfect",
        "--work-dir",
        str(tmp_path / "w"),
        "--out",
        str(out),
        "--plot",
        str(plot),
    )
    assert code == 2 and stdout == "" and err.count("\n") == 1
    assert "No space left on device" in err
    assert not out.exists() and not plot.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp-")]


def test_outputs_to_a_read_only_folder_are_refused_before_the_work(tmp_path, capsys) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    mounted = False
    if os.geteuid() == 0:
        mounted = (
            subprocess.run(
                ["mount", "--bind", "-o", "ro", str(folder), str(folder)],
                capture_output=True,
                check=False,
            ).returncode
            == 0
        )
        if mounted:
            subprocess.run(
                ["mount", "-o", "remount,bind,ro", str(folder)], capture_output=True, check=False
            )
    else:
        folder.chmod(0o555)
    if os.access(folder, os.W_OK) and not mounted:
        pytest.skip("cannot make a read-only folder here")
    try:
        for argv in (
            ["eor", "--bet", "tie", "--plot", str(folder / "e.png")],
            [
                *COUNT,
                "--perfect",
                "--work-dir",
                str(tmp_path / "w"),
                "--out",
                str(folder / "r.csv"),
            ],
            ["docs", "--out", str(folder / "docs")],
        ):
            started = time.perf_counter()
            code, out, err = run(capsys, *argv)
            assert code == 2 and out == "" and err.count("\n") == 1, err
            assert "cannot write" in err or "Read-only" in err or "Permission" in err
            assert time.perf_counter() - started < 5  # refused before the work, not after
        assert list(folder.iterdir()) == []
        assert not (tmp_path / "w").exists()
    finally:
        if mounted:
            _unmount(folder)
        folder.chmod(0o755)


# -- No output is ever written over an input (R3 of the review of 2026-12-06) ---------------
#: What the commands below read: a paytable, a shoe file and a log (small, so that the
#: unguarded commands ran in a moment and wrote over them).
READ_FILES = {
    "p.toml": 'name = "T"\ndecks = 1\nmodes = ["m"]\n[[bet]]\nid = "tie"\n'
    'rule = [{ when = "winner == \'tie\'", pays = "8:1" }]\n',
    "s.csv": "rank,count\n" + "".join(f"{r},4\n" for r in "A23456789TJQK"),
    "log.csv": "shoe,round,player_cards,banker_cards\nS1,1,9S KH,8D QC\nS1,2,KS QH,2D 3C 4H\n",
    "c.toml": 'operator = "X"\n',
    "cl.toml": '[[claim]]\npaytable = "p.toml"\nbet = "tie"\nquantity = "house_edge"\n',
    "d.csv": "bet,mode,best\n",
    "page.html": "<p>The Tie pays 8:1.</p>\n",
}
_INPUT_FILES = {
    "paytable": "p.toml",
    "shoe": "s.csv",
    "log": "log.csv",
    "config": "c.toml",
    "claims": "cl.toml",
    "decisions": "d.csv",
    "page": "page.html",
}
_RUNS = ["--workers", "1", "--work-dir", "w"]
_DECISIONS = ["--decisions", "{decisions}"]
#: Per command: its command line ({paytable}, {shoe}, {log}: the inputs as given), then each
#: option that writes, with the inputs it could be written over.
OVERWRITES = {
    "report": (
        ["report", "--paytable", "{paytable}", "--shoe", "{shoe}", "--decisions", "{decisions}"],
        {o: ("paytable", "shoe", "decisions") for o in ("--out", "--progress")},
    ),
    "eor": (
        ["eor", "--paytable", "{paytable}", "--shoe", "{shoe}"],
        {o: ("paytable", "shoe") for o in ("--out", "--plot", "--progress")},
    ),
    "verify": (["verify", "{claims}", "--shoe", "{shoe}"], {"--progress": ("claims", "shoe")}),
    "fit": (["fit", "{claims}"], {"--progress": ("claims",)}),
    "certify": (
        ["certify", "{page}", "--paytable", "{paytable}"],
        {o: ("page", "paytable") for o in ("--claims-out", "--out", "--progress")},
    ),
    "solve": (
        ["solve", "--paytable", "{paytable}"],
        {"--out": ("paytable",), "--progress": ("paytable",)},
    ),
    "count": (
        ["count", "--paytable", "{paytable}", "--bet", "tie", "--perfect", "--shoes", "2", *_RUNS],
        {
            o: ("paytable",)
            for o in ("--out", "--report-out", "--plot", "--gain-plot", "--progress")
        },
    ),
    "dealt": (
        ["dealt", "--paytable", "{paytable}", "--shoe", "{shoe}", "--shoes", "2", *_RUNS],
        {"--progress": ("paytable", "shoe")},
    ),
    "simulate": (
        ["simulate", "--paytable", "{paytable}", "--shoes", "2", *_DECISIONS, *_RUNS],
        {o: ("paytable", "decisions") for o in ("--log", "--progress")},
    ),
    "audit": (
        ["audit", "{log}", "--paytable", "{paytable}"],
        {o: ("paytable", "log") for o in ("--out", "--plot", "--progress")},
    ),
    "strategy": (
        ["strategy", "--paytable", "{paytable}", "--shoe", "{shoe}"],
        {"--out": ("paytable", "shoe"), "--progress": ("paytable", "shoe")},
    ),
    "docs": (
        ["docs", "--paytable", "{paytable}", "--shoe", "{shoe}", "--config", "{config}", "--force"],
        {o: ("paytable", "shoe", "config") for o in ("--out", "--site", "--progress")},
    ),
}
#: Where an input lies for an output folder: a file the folder's output writes (docs --out
#: writes en/summary.txt and en/summary.csv among its tables), or any file in a folder
#: replaced whole (docs --site).
_IN_FOLDER = {
    "--out": (
        "d",
        {"paytable": "d/en/summary.txt", "shoe": "d/en/summary.csv", "config": "d/en/summary.md"},
    ),
    "--site": ("site", {"paytable": "site/p.toml", "shoe": "site/s.csv", "config": "site/c.toml"}),
}
#: Each way to name one file twice: (input as given, output as given), from the input's
#: file and the output's argument that reaches it.
SPELLINGS = {
    "same": lambda file, out: (file, out),
    "dot": lambda file, out: (file, f"./{out}"),
    "absolute": lambda file, out: (file, str(Path(out).absolute())),
    "dotdot": lambda file, out: (file, f"links/../{out}"),
    "symlink": lambda file, out: (file, _linked(out, "link")),
    "hardlink": lambda file, out: (_linked(file, "hard", hard=True), out),
    "input_by_symlink": lambda file, out: (_linked(file, "soft"), out),
}


def _linked(target: str, name: str, hard: bool = False) -> str:
    """A link ``links/name`` (with the target's suffix) to ``target``."""
    link = Path("links", name + Path(target).suffix)
    if hard:
        os.link(target, link)
    else:
        link.symlink_to(Path(target).absolute())
    return str(link)


OVERWRITE_CASES = [
    (command, option, what, spelling)
    for command, (_, outputs) in OVERWRITES.items()
    for option, inputs in outputs.items()
    for what in inputs
    for spelling in SPELLINGS
    # A hard link outside a folder replaced whole keeps the file it names: nothing is lost.
    if not (option == "--site" and spelling == "hardlink")
]


@pytest.mark.parametrize(
    ("command", "option", "what", "spelling"),
    OVERWRITE_CASES,
    ids=["-".join(c) for c in OVERWRITE_CASES],
)
def test_no_output_is_written_over_an_input_by_any_name(
    tmp_path, monkeypatch, capsys, command, option, what, spelling
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("links").mkdir()
    folder, file = None, _INPUT_FILES[what]
    if command == "docs" and option in _IN_FOLDER:  # (docs --out and --site: folders)
        folder, files = _IN_FOLDER[option]
        file = files[what]
        Path(file).parent.mkdir(parents=True)
    for key, name in _INPUT_FILES.items():
        Path(file if key == what else name).write_text(READ_FILES[name], encoding="utf-8")
    given = dict(_INPUT_FILES)
    given[what], out = SPELLINGS[spelling](file, folder or file)
    argv = [a.format(**given) for a in OVERWRITES[command][0]]
    if command == "docs" and option not in _IN_FOLDER:  # (docs writes --out or --site)
        argv += ["--out", "tables"]
    contents = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    before = _tree(tmp_path)
    code, stdout, err = run(capsys, *argv, option, out)
    assert (code, stdout) == (2, ""), (code, err)
    assert err.count("\n") == 1 and err.startswith("baccarat-odds: error: "), err
    assert "Traceback" not in err and f"{option} {out}: " in err, err
    assert f"{given[what]}): choose another " in err, err
    assert {p: p.read_bytes() for p in contents} == contents
    assert _tree(tmp_path) == before, "a file or folder was left behind"


def test_the_overwrite_cases_cover_every_output_and_input_of_every_command() -> None:
    """Each option that writes, of each command, against each file the command reads."""
    import argparse

    from analyzer.cli.main import COMMANDS, command_module
    from analyzer.cli.options import file_options

    kinds = {
        "paytable": "paytable",
        "shoe": "shoe",
        "logs": "log",
        "claims": "claims",
        "config": "config",
        "decisions": "decisions",
        "page": "page",
    }
    declared = set()
    for name in COMMANDS:
        parser = argparse.ArgumentParser()
        command_module(name).add_arguments(parser)
        actions = file_options(parser)
        reads = [kinds[a.dest] for a in actions if a.file_role[0] == "reads"]
        writes = [a.option_strings[-1] for a in actions if a.file_role[0] == "writes"]
        declared |= {(name, option, what) for option in writes for what in reads}
    covered = {
        (command, option, what)
        for command, (_, outputs) in OVERWRITES.items()
        for option, inputs in outputs.items()
        for what in inputs
    }
    assert covered == declared


@pytest.mark.slow
def test_outputs_beside_their_inputs_are_written(tmp_path, monkeypatch, capsys) -> None:
    """Distinct files are written as ever; so is a folder of tables holding the paytable
    where no table goes, and a file named as a shipped paytable (not a file read)."""
    monkeypatch.chdir(tmp_path)
    Path("d").mkdir()
    for name, text in READ_FILES.items():
        Path(name).write_text(text, encoding="utf-8")
    Path("d/p.toml").write_text(READ_FILES["p.toml"], encoding="utf-8")
    for argv, written in (
        (["report", "--paytable", "p.toml", "--shoe", "s.csv", "--out", "r.txt"], "r.txt"),
        (["solve", "--paytable", "p.toml", "--out", "p.txt"], "p.txt"),
        (["audit", "log.csv", "--paytable", "p.toml", "--no-fit", "--out", "a.txt"], "a.txt"),
        (["report", "--paytable", "tie-9-to-1", "--out", "tie-9-to-1"], "tie-9-to-1"),
        (["docs", "--paytable", "d/p.toml", "--out", "d"], "d/en/summary.txt"),
    ):
        code, _, err = run(capsys, *argv)
        assert (code, err) == (0, ""), (argv, err)
        assert Path(written).stat().st_size > 0
    for name, text in READ_FILES.items():
        assert Path(name).read_text(encoding="utf-8") == text
    assert Path("d/p.toml").read_text(encoding="utf-8") == READ_FILES["p.toml"]


# -- count derives its numbers from the shoe it deals ---------------------------------------


def test_count_decks_option_is_the_same_game_as_a_paytable_of_those_decks(tmp_path, capsys) -> None:
    """D-3: tags and threshold come from the dealt shoe's decks, not the paytable's."""
    one = tmp_path / "one.toml"
    one.write_text(
        (
            Path(__file__).parents[1]
            / "analyzer"
            / "paytables"
            / "shipped"
            / "paytables"
            / "seed-game.toml"
        )
        .read_text()
        .replace("decks = 8", "decks = 1")
    )
    common = ["count", "--bet", "lucky_six", "--shoes", "60", "--seed", "1", "--no-progress"]
    common += ["--format", "json", "--workers", "1"]
    code, by_option, err = run(capsys, *common, "--decks", "1", "--work-dir", str(tmp_path / "a"))
    assert code == 0, err
    code, by_paytable, err = run(
        capsys, *common, "--paytable", str(one), "--work-dir", str(tmp_path / "b")
    )
    assert code == 0, err
    (a,), (b,) = json.loads(by_option)["bets"], json.loads(by_paytable)["bets"]
    assert a["strategy"] == b["strategy"]
    figures = [key for key in a if key.startswith(("with_limit_", "without_limit_"))]
    assert figures and all(a[key] == b[key] for key in figures)
    assert a["without_limit_bet_frequency"] > 0  # with 8-deck tags it never bet


def test_ranks_with_identical_effects_get_identical_tags() -> None:
    """Ten-value ranks move every value-level bet the same way: they must count alike."""
    effects = analyzer.effects_of_removal(seed_paytable(), None, "commission")
    for count in analyzer.linear_counts(effects):
        group = effects[(effects["bet"] == count.bet) & (effects["mode"] == count.mode)]
        by_effect: dict[Fraction, set[int]] = {}
        for rank, delta in zip(group["rank"], group["delta_ev_exact"], strict=True):
            by_effect.setdefault(delta, set()).add(count.tags[rank])
        assert all(len(tags) == 1 for tags in by_effect.values()), (count.bet, count.tags)


# -- Second round: names, odd files, closed streams ----------------------------------------


def test_a_file_in_the_current_folder_never_stands_in_for_a_shipped_paytable(
    tmp_path, capsys, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    shipped = _report_json(capsys, "--bet", "tie", "--mode", "commission")
    (tmp_path / "seed-game").write_text(paytable(pays='"9:1"', head='name = "T"\n'))
    assert _report_json(capsys, "--bet", "tie", "--mode", "commission") == shipped
    (tmp_path / "seed-game").unlink()
    (tmp_path / "seed-game").mkdir()  # e.g. after "docs --out seed-game"
    assert _report_json(capsys, "--bet", "tie", "--mode", "commission") == shipped


def test_docs_over_a_folder_with_something_in_the_way_writes_nothing(tmp_path, capsys) -> None:
    out = tmp_path / "out"
    (out / "ms" / "detail.json").mkdir(parents=True)  # a folder where a table goes
    (out / "en").mkdir()
    (out / "en" / "summary.txt").write_text("older\n")
    code, stdout, err = run(capsys, "docs", "--out", str(out), "--paytable", "tie-9-to-1")
    assert code == 2 and stdout == "" and err.count("\n") == 1 and "nothing was written" in err
    assert sorted(p.name for p in out.rglob("*")) == ["detail.json", "en", "ms", "summary.txt"]
    assert (out / "en" / "summary.txt").read_text() == "older\n"
    other = tmp_path / "other"
    other.mkdir()
    (other / "tl").write_text("a file where a folder goes\n")
    code, _, err = run(capsys, "docs", "--out", str(other), "--paytable", "tie-9-to-1")
    assert code == 2 and "tl is not a folder" in err and len(list(other.iterdir())) == 1


def test_dates_in_a_paytable_are_refused_in_one_line(tmp_path, capsys) -> None:
    """TOML dates where text goes (they once broke the runs' JSON identity) are not text."""
    path = tmp_path / "p.toml"
    path.write_text(
        'name = "T"\ndescription = 1979-05-27T07:32:00Z\n'
        + paytable(when="winner == 'tie'", pays='"8:1"', head="")
    )
    for command in (["count", "--bet", "b", "--perfect"], ["simulate"]):
        code, out, err = run(
            capsys,
            *command,
            *("--paytable", str(path), "--shoes", "4", "--no-progress"),
            *("--work-dir", str(tmp_path / "w"), "--format", "json"),
        )
        assert (code, out) == (2, "") and err.count("\n") == 1
        assert "'description' must be text" in err
    assert not (tmp_path / "w").exists()


@pytest.mark.slow
def test_devices_fifos_and_loops_are_refused_at_once(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    os.mkfifo("fifo.toml")
    os.symlink("/dev/zero", "zero.csv")
    os.symlink("loop.toml", "loop.toml")
    for argv, message in (
        (["report", "--paytable", "./fifo.toml"], "not a regular file"),
        (["report", "--paytable", "/dev/zero"], "not a regular file"),
        (["report", "--shoe", "zero.csv"], "not a regular file"),
        (["verify", "/dev/zero"], "not a regular file"),
        (["report", "--paytable", "loop.toml"], "Too many levels of symbolic links"),
    ):
        done = subprocess.run(
            [*CLI, *argv], capture_output=True, text=True, timeout=60, check=False
        )
        assert done.returncode == 2 and done.stdout == "", (argv, done.stderr)
        assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


@pytest.mark.slow
def test_a_closed_stderr_never_sends_notes_to_stdout(tmp_path) -> None:
    argv = [*CLI, *COUNT, "--perfect", "--format", "json", "--work-dir", str(tmp_path)]
    for _ in range(2):  # the second run runs the first one's partitions again
        done = subprocess.run(
            argv,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            check=False,
            timeout=300,
            preexec_fn=lambda: os.close(2),
        )
        assert done.returncode == 0
        json.loads(done.stdout)


def test_a_terminal_without_utf8_still_gets_the_result(tmp_path) -> None:
    path = tmp_path / "p.toml"
    path.write_text(paytable(head='name = "Jeu \\u00e9 \\u2713"\n'), encoding="utf-8")
    done = subprocess.run(
        [*CLI, "report", "--paytable", str(path)],
        capture_output=True,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Jeu \u00e9 \u2713" in done.stdout.decode("utf-8")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Shoe.standard(8).remove([analyzer.Card(-1, 0)]), "rank is an index"),
        (lambda: Shoe.standard(8).remove([analyzer.Card(0, -1)]), "suit is an index"),
        (lambda: Shoe.standard(8).remove([analyzer.Card(99, 0)]), "rank is an index"),
        (lambda: Shoe.standard(8).remove([analyzer.Card(0, 7)]), "suit is an index"),
        (lambda: Shoe.standard(8).remove(["AS"]), "Card objects"),
        (lambda: Shoe.standard(8).remove(None), "list of Card"),
        (lambda: Shoe.standard(8).remove("AS"), "list of Card"),
        (lambda: batch_expected_values("no-game", [[32] * 13]), "unknown paytable 'no-game'"),
        (lambda: batch_expected_values(None, [[32] * 13]), "must be a Paytable"),
        (lambda: batch_expected_values(seed_paytable(), [[32] * 13], modes=5), "mode names"),
        (
            lambda: analyzer.paytable_from_dict({1: 2, "name": "T", "bet": []}),
            "every key must be text",
        ),
        (
            lambda: analyzer.paytable_from_dict(
                {
                    "name": "T",
                    "bet": [{"id": "b", "names": {1: "x"}, "rule": [{"when": "true", "pays": 1}]}],
                }
            ),
            "every key must be text",
        ),
    ],
)
def test_api_refuses_bad_cards_and_objects(make, message) -> None:
    with pytest.raises(AnalyzerError, match=message):
        make()


@pytest.mark.slow
def test_a_signal_as_the_output_is_written_is_judged_by_what_was_written() -> None:
    """Ctrl-C or SIGTERM at any moment of the output: a complete output is exit 0 with
    nothing on stderr (the handlers once raised between the last write and its count, or
    went back to Python's for a moment, and a complete output was called cut short); a
    partial one says so, exit 130. The verdict depends on the bytes that arrived, never on
    when the signal was sent, so the test holds on a busy machine."""
    argv = [*CLI, "play", "2S", "3H", "2D", "KC", "8H"]
    whole = subprocess.run(argv, capture_output=True, check=True).stdout
    assert len(whole) > 1000
    for trial in range(24):
        process = subprocess.Popen(  # unbuffered: communicate() gets every other byte
            argv,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            bufsize=0,
        )
        first = process.stdout.read(1)  # the output has begun
        time.sleep((trial % 6) * 0.0001)  # only spreads where the signal lands
        os.killpg(process.pid, signal.SIGINT if trial % 2 else signal.SIGTERM)
        rest, err = process.communicate(timeout=60)
        out = first + rest
        if out == whole:
            assert (process.returncode, err) == (0, b""), trial
        else:
            assert whole.startswith(out), trial
            assert process.returncode == 130, (trial, err)
            assert (
                err == b"baccarat-odds: interrupted while writing the output: it may be cut short\n"
            )


# -- Public functions given the wrong type: one AnalyzerError naming the argument ----------
# (issue 17: a class or a list where a Shoe, a Bet or counts belong raised AttributeError,
# TypeError or numpy's AxisError from deep inside)


def _seed_bet(bet_id: str = "tie") -> analyzer.Bet:
    return seed_paytable().bet(bet_id, "commission")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: analyzer.count_outcomes(list), "shoe must be a Shoe"),
        (lambda: analyzer.count_outcomes([32] * 13), "shoe must be a Shoe"),
        (lambda: analyzer.count_outcomes(Shoe.standard(1), 3), "pair detail must be text"),
        (lambda: analyzer.outcome_table(str), "outcomes must be an OutcomeCounts"),
        (lambda: analyzer.expected_value_expression(str), "bet must be a Bet"),
        (lambda: analyzer.expected_value_expression("tie"), "bet must be a Bet"),
        (lambda: analyzer.deal_round(str), "cards must be a list of Card objects"),
        (lambda: analyzer.deal_round(None), "cards must be a list of Card objects"),
        (lambda: analyzer.deal_round("2S 3H 2D KC 8H"), "cards must be a list of Card objects"),
        (lambda: analyzer.deal_round(["2S", "3H", "2D", "KC"]), "item 0 is str '2S'"),
        (lambda: analyzer.check_printed_value("1/2", "50%"), "exact value must be a Fraction"),
        (lambda: analyzer.check_printed_value(Fraction(1, 2), 0.5), "published value must be text"),
        (lambda: analyzer.evaluate_bet(str, _seed_bet(), "commission"), "table must be an Outcome"),
        (
            lambda: analyzer.evaluate_bet(
                analyzer.outcome_table(analyzer.count_outcomes(Shoe.standard(1))), "tie", "m"
            ),
            "bet must be a Bet",
        ),
        (lambda: analyzer.parse_card(3), "a card must be text"),
        (lambda: analyzer.parse_cards(None), "cards must be a list of card names"),
        (lambda: analyzer.parse_cards([1, 2]), "item 0 is int 1"),
        (lambda: analyzer.analyze(bets=3), "bets must be a list of bet ids, got int 3"),
        (lambda: analyzer.load_paytable(Fraction(1, 2)), "paytable must be text or a path"),
        (lambda: analyzer.shoe_from_file(None), "shoe file must be text or a path"),
        (lambda: seed_paytable().bet(3, "commission"), "bet id must be text"),
        (lambda: analyze(mode="commission", bets=["tie"]).result(list), "bet must be text"),
        (lambda: analyzer.effects_of_removal(3), "paytable must be a Paytable"),
        (lambda: analyzer.linear_counts([1, 2]), "effects must be a DataFrame"),
        (lambda: analyzer.linear_counts(pd.DataFrame({"bet": []})), "no mode, rank, delta_ev"),
    ],
)
def test_public_functions_refuse_wrong_types_in_one_line(call, message) -> None:
    with pytest.raises(AnalyzerError, match=message) as caught:
        call()
    assert "\n" not in str(caught.value)
