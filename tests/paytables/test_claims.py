"""Claims files: every bad claim is one line, exit status 2."""

from __future__ import annotations

import re

import pytest
from helpers import run, write_claims


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('[[claim]]\nquantity = "max_rtp"\nvalue = "98.94%"\n', "claim 1: name its 'paytable'"),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "rtp_max"\nvalue = "1%"\n',
            "claim 1: 'quantity' must be one of",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "max_rtp"\nvalue = 98.94\n',
            "claim 1: value must be printed as a string",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nbet = "nope"\nquantity = "rtp"\nvalue = "1%"\n',
            "claim 1: unknown bet 'nope'",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "rtp"\nvalue = "1%"\n',
            "claim 1: quantity 'rtp' needs a 'bet'",
        ),
        (
            'paytable = "nowhere"\n[[claim]]\nquantity = "max_rtp"\nvalue = "1%"\n',
            "unknown paytable 'nowhere'",
        ),
        ('paytable = "seed-game"\n', "needs at least one [[claim]]"),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "odds"\nvalue = "1%"\n',
            "claim 1: 'quantity' must be one of",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "count"\nbet = "tie"\nrule = 3\n'
            'value = "1"\n',
            "claim 1: bet 'tie' (commission) has 1 rule(s): there is no rule 3",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "count"\nbet = "tie"\n'
            'label = "Nope"\nvalue = "1"\n',
            "has no rule labelled 'Nope'",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "probability"\n'
            'event = "__import__(\'os\')"\nvalue = "0.1"\n',
            "claim 1: 'event': ",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "probability"\nevent = "tie"\n'
            'value = "0.1"\n',
            "claim 1: 'event': ",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "session"\nbet = "tie"\n'
            'rounds = 0\nstatistic = "mean"\nvalue = "1"\n',
            "claim 1: 'rounds' must be from 1",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "session"\nrounds = 10\n'
            'mix = { player = 1, nope = 1 }\nstatistic = "mean"\nvalue = "1"\n',
            "claim 1: unknown bet 'nope'",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "session"\nbet = "tie"\n'
            'rounds = 10\nstatistic = "quantile"\nlevel = 2\nvalue = "1"\n',
            "claim 1: 'level' is a probability between 0 and 1",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "session"\nbet = "tie"\n'
            'rounds = 10\nstatistic = "p_between"\nlow = 1\nvalue = "1"\n',
            "claim 1: statistic 'p_between' needs 'high'",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "rtp"\nbet = "tie"\n'
            'given = "natural"\nvalue = "1%"\n',
            "claim 1: unknown key 'given'",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "count"\n'
            'event = "player_pair and banker_pair"\nover = "two_cards"\nvalue = "1"\n',
            "counts unordered pairs of one hand's first two cards, but the condition asks",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "count"\nevent = "natural"\n'
            'value = "12.5"\n',
            "claim 1: a count is a whole number",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "count"\nevent = "natural"\n'
            'value = "1"\ndigits = 0\n',
            "'digits' is the number of significant digits",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "eor"\nbet = "tie"\nvalue = "0.1"\n',
            "quantity 'eor' needs 'remove'",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "eor"\nbet = "tie"\n'
            'remove = "QX"\nvalue = "0.1"\n',
            "claim 1: 'remove': ",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "rtp"\nbet = "tie"\n'
            'scale = -1\nvalue = "1%"\n',
            "claim 1: 'scale' must be more than 0",
        ),
        (
            'paytable = "seed-game"\ndecks = 1\nremove = "AS AS"\n[[claim]]\n'
            'quantity = "rtp"\nbet = "tie"\nvalue = "1%"\n',
            "claim 1: cannot remove AS: none left in the shoe",
        ),
        (
            'paytable = "seed-game"\ndecks = 99\n[[claim]]\nquantity = "rtp"\nbet = "tie"\n'
            'value = "1%"\n',
            "'decks'",
        ),
        ("[[claim\n", "invalid TOML"),
    ],
)
def test_bad_claims_files(tmp_path, capsys, body, message) -> None:
    code, out, err = run(capsys, "verify", str(write_claims(tmp_path, body)))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_a_claim_says_how_its_source_played_the_decisions(tmp_path, capsys) -> None:
    """Baccarat Gold's Tie edge both ways (frixo.com prints 7.55% standing on 5 and 4.91%
    drawing); a file-level strategy applies to every claim that gives none."""
    path = write_claims(
        tmp_path,
        'paytable = "baccarat-gold"\nstrategy = "player:5=stand"\n'
        '[[claim]]\nbet = "tie"\nquantity = "house_edge"\nvalue = "7.55%"\n'
        '[[claim]]\nbet = "tie"\nquantity = "house_edge"\nvalue = "4.91%"\n'
        'strategy = "player:5=draw"\n',
    )
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 0, out
    assert "[baccarat-gold, 8 decks, player:5=stand]" in out
    assert "[baccarat-gold, 8 decks, player:5=draw]" in out


@pytest.mark.parametrize(
    ("strategy", "message"),
    [
        ('"player:4=draw"', "claim 1: strategy: player:4 is not a decision cell"),
        ('"player:5=4/3"', "claim 1: strategy: player:5: the probability '4/3' is outside"),
        ("3", "claim 1: strategy: must be text"),
    ],
)
def test_a_bad_claim_strategy_is_one_line(tmp_path, capsys, strategy, message) -> None:
    path = write_claims(
        tmp_path,
        f'paytable = "baccarat-gold"\n[[claim]]\nstrategy = {strategy}\nbet = "tie"\n'
        'quantity = "house_edge"\nvalue = "4.91%"\n',
    )
    code, out, err = run(capsys, "verify", str(path))
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


# -- The claims file's format: one table of keys, the parser's and verify --explain's ------


def _explained() -> dict[str, dict[str, tuple[set[str], str]]]:
    """The keys ``claims_format`` prints, by section ("File keys", "Claim keys"): each
    with the quantities it says take it and its example line."""
    from analyzer.paytables.claims import QUANTITIES, claims_format

    sections: dict[str, dict[str, tuple[set[str], str]]] = {}
    section = key = ""
    taken: dict[str, set[str]] = {}
    examples: dict[str, str] = {}
    for line in claims_format().splitlines():
        if not line.startswith(" ") and (line.endswith(":") or line.startswith("Claim keys")):
            section = line.split(" (")[0].rstrip(":")
        elif re.fullmatch(r"  [a-z_]+", line):
            key = line.strip()
            taken[key] = set(QUANTITIES)
        elif line.startswith("      taken by every quantity but "):
            taken[key] = set(QUANTITIES) - set(line.split(" but ", 1)[1].split(", "))
        elif line.startswith("      taken by ") and line.endswith(" only"):
            taken[key] = set(line[len("      taken by ") : -len(" only")].split(", "))
        elif line.startswith("      e.g. "):
            examples[key] = line[len("      e.g. ") :]
            sections.setdefault(section, {})[key] = (taken[key], examples[key])
    return sections


def _refused_keys(data: dict, where: str) -> set[str]:
    """The keys the parser accepts where ``data`` gives an unknown one, as its refusal
    lists them."""
    from analyzer.errors import AnalyzerError
    from analyzer.paytables.claims import claims_from_dict

    with pytest.raises(AnalyzerError) as refused:
        claims_from_dict(data, "c.toml", None)
    message = str(refused.value)
    assert f"{where}: unknown key 'not_a_key' (keys: " in message, message
    return set(message.split("(keys: ", 1)[1].rstrip(")").split(", "))


def test_every_key_the_parser_takes_is_explained_and_no_other() -> None:
    from analyzer.paytables.claims import QUANTITIES

    explained = _explained()
    assert set(explained) == {"File keys", "Claim keys"}
    top = _refused_keys({"paytable": "seed-game", "not_a_key": 1}, "c.toml")
    assert top == set(explained["File keys"])
    claim_keys = explained["Claim keys"]
    for quantity in QUANTITIES:
        claim = {"quantity": quantity, "not_a_key": 1}
        taken = _refused_keys({"paytable": "seed-game", "claim": [claim]}, "c.toml: claim 1")
        said = {key for key, (quantities, _) in claim_keys.items() if quantity in quantities}
        assert taken == said, quantity


#: A claim each explained key's example is tried in (the key's example line added to it,
#: over the same key): a claim the parser accepts without it.
_CLAIM_FOR = {
    "rule": 'quantity = "count"\nbet = "banker"\nvalue = "1"',
    "label": 'quantity = "count"\nbet = "banker"\nvalue = "1"',
    "event": 'quantity = "probability"\nvalue = "0.1"',
    "given": 'quantity = "probability"\nevent = "winner == \'tie\'"\nvalue = "0.1"',
    "over": 'quantity = "probability"\nevent = "player_pair"\nvalue = "0.07"',
    "remove": 'quantity = "eor"\nbet = "tie"\nvalue = "-0.116"\nscale = 100',
    "mix": 'quantity = "session"\nrounds = 100\nstatistic = "mean"\nvalue = "-1"',
    "amount": 'quantity = "session"\nbet = "player"\nrounds = 100\n'
    'statistic = "p_win_at_least"\nvalue = "0.1"',
    "low": 'quantity = "session"\nbet = "player"\nrounds = 100\nstatistic = "p_between"\n'
    'high = 5\nvalue = "0.1"',
    "high": 'quantity = "session"\nbet = "player"\nrounds = 100\nstatistic = "p_between"\n'
    'low = -5\nvalue = "0.1"',
    "level": 'quantity = "session"\nbet = "player"\nrounds = 100\nstatistic = "quantile"\n'
    'value = "-10"',
    **dict.fromkeys(
        ("rounds", "statistic", "stake", "method"),
        'quantity = "session"\nbet = "player"\nrounds = 100\nstatistic = "mean"\nvalue = "-1"',
    ),
    **dict.fromkeys(
        ("tags", "threshold", "cut_card", "last_round", "true_count_decks", "burn", "shoes"),
        'quantity = "counting"\nbet = "tie"\nstatistic = "bet_frequency"\nvalue = "1%"',
    ),
    "seed": 'quantity = "counting"\nbet = "tie"\nstatistic = "bet_frequency"\nvalue = "1%"',
    "across": 'quantity = "house_edge"\nbet = "player"\ndecks = [1, 8]\nvalue = "1.29%"',
    "decisions": 'quantity = "resolved"\nbet = "banker"\nstatistic = "mean"\nvalue = "506.8"',
}


def test_every_explained_example_is_a_line_the_parser_accepts() -> None:
    import tomllib

    from analyzer.paytables.claims import claims_from_dict

    explained = _explained()
    for key, (_, example) in explained["File keys"].items():
        data = tomllib.loads(example)
        assert set(data) == {key}, example
        if key != "claim":
            claim = {"quantity": "max_rtp", "value": "98.94%"}
            claims_from_dict({"paytable": "seed-game", "claim": [claim], **data}, "c", None)
    for key, (_, example) in explained["Claim keys"].items():
        data = tomllib.loads(example)
        assert set(data) == {key}, example
        base = _CLAIM_FOR.get(key, 'quantity = "house_edge"\nbet = "banker"\nvalue = "1.06%"')
        claim = {**tomllib.loads(base), **data}
        claims = claims_from_dict({"paytable": "seed-game", "claim": [claim]}, "c", None)
        assert len(claims) == 1, example


def test_the_explained_example_file_parses_claim_by_claim() -> None:
    import tomllib

    from analyzer.paytables.claims import EXAMPLE_CLAIMS, claims_format, claims_from_dict

    text = claims_format()
    assert text.endswith(EXAMPLE_CLAIMS + "\n")
    claims = claims_from_dict(tomllib.loads(EXAMPLE_CLAIMS), "example", None)
    assert len(claims) == EXAMPLE_CLAIMS.count("[[claim]]") >= 5


def test_every_quantity_is_explained() -> None:
    from analyzer.paytables.claims import QUANTITIES, claims_format

    quantities = claims_format().split("\nQuantities:\n", 1)[1].split("\n\n", 1)[0]
    said = re.findall(r"^  ([a-z_]+): ", quantities, re.MULTILINE)
    assert said == list(QUANTITIES)
