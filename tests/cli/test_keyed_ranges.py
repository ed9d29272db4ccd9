"""Ranges written as a key pair (break-it round 22, finding 05, the part left by f29-structure):
`nodes: {min: web01, max: web05}`, `lo: 10.0.0.70` / `hi: 10.0.0.74`, and the other start and end
words, in YAML flow and block maps, JSON, TOML, HCL and INI sections, had one end rewritten: sweep
exit 0, verify OK. Each is now a `range` residual that names both keys and both ends, nothing
written; pairs that are no range (other words, other stems, `from`/`to` of a move) are rewritten.
And the joiners and dressings the tester's list led to (U+22EF, U+2025, typographic quotes and
guillemets around the ends): ranges too. End to end through the CLI on a real git repo."""

from __future__ import annotations

import pytest

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = "version: 1\nrenames: {hosts: {web01: app01}, addresses: {10.0.0.70: 10.0.1.90}}\nallowlist: allow.yaml\n"
WORDS = [("min", "max"), ("lo", "hi"), ("low", "high"), ("begin", "end"), ("first", "last"), ("start", "stop"),
         ("minimum", "maximum"), ("lower", "upper"), ("start", "end")]
FORMATS = {
    "yaml-flow": ("ranges.yml", "nodes: {{{a}: {x}, {b}: {y}}}\n"),
    "yaml-block": ("ranges.yaml", "scan:\n  {a}: {x}\n  {b}: {y}\n"),
    "json": ("ranges.json", '{{"nodes": {{"{a}": "{x}", "{b}": "{y}"}}}}\n'),
    "toml": ("ranges.toml", '[nodes]\n{a} = "{x}"\n{b} = "{y}"\n'),
    "hcl": ("ranges.tf", 'locals {{\n  nodes = {{\n    {a} = "{x}"\n    {b} = "{y}"\n  }}\n}}\n'),
    "ini": ("ranges.ini", "[nodes]\n{a} = {x}\n{b} = {y}\n"),
}
ENDS = [("web01", "web05"), ("10.0.0.70", "10.0.0.74"), ("web01.lab", "web05.lab")]


def _swept_whole(repo: Repo, run: Run, files: dict[str, str]) -> str:
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    swept = run(root, "sweep", "--commit")
    for rel, text in files.items():
        assert (root / rel).read_text() == text, (rel, swept.stdout)
    assert swept.exit_code == 1, swept.stdout + swept.stderr
    checked = run(root, "verify")
    assert checked.exit_code == 1, checked.stdout
    return swept.stdout


# every start and end word in one shape, and every shape with two pairs of words and every kind of end
CASES = [pytest.param(a, b, "yaml-flow", "web01", "web05", id=f"{a}-{b}") for a, b in WORDS] + [
    pytest.param(a, b, shape, x, y, id=f"{shape}-{a}-{b}-{kind}") for shape in FORMATS
    for a, b in (("min", "max"), ("lo", "hi")) for (x, y), kind in zip(ENDS, ("names", "addresses", "fqdns"),
                                                                        strict=True)]


@pytest.mark.parametrize(("a", "b", "shape", "x", "y"), CASES)
def test_a_key_pair_range_is_a_residual_naming_both_ends(a: str, b: str, shape: str, x: str, y: str,
                                                         repo: Repo, run: Run) -> None:
    rel, text = FORMATS[shape]
    out = _swept_whole(repo, run, {rel: text.format(a=a, b=b, x=x, y=y)})
    assert "(range: " in out, out
    assert f"{a}: {x} and {b}: {y}" in out, out  # before: rewritten at one end, sweep 0, verify OK


@pytest.mark.parametrize("text", [
    pytest.param("nodes: {max: web05, min: web01}\n", id="end-key-first"),
    pytest.param("nodes: {min: web00, max: web01}\n", id="the-end-renamed"),
    pytest.param("dhcp:\n  range: {from: web01, to: web05}\n", id="from-to-under-a-range-word"),
    pytest.param("scan:\n  lo: 10.0.0.70\n  # the last one\n  hi: 10.0.0.74\n", id="a-comment-between"),
    pytest.param("- name: web tier\n  first_host: web01\n  last_host: web05\n", id="words-in-longer-keys"),
    pytest.param("nodes:\n  rangeStart: web01\n  rangeEnd: web05\n", id="camel-case"),
])
def test_more_key_pairs_are_ranges(text: str, repo: Repo, run: Run) -> None:
    out = _swept_whole(repo, run, {"ranges.yml": text})
    assert "(range: " in out and "are the two ends of one range" in out, out


@pytest.mark.parametrize(("text", "after"), [
    pytest.param("nodes: {primary: web01, secondary: web05}\n", "nodes: {primary: app01, secondary: web05}\n",
                 id="no-start-or-end-words"),
    pytest.param("nodes: {min: web01, max: db05}\n", "nodes: {min: app01, max: db05}\n", id="two-stems"),
    pytest.param("migrate: {from: web01, to: web02}\n", "migrate: {from: app01, to: web02}\n",
                 id="from-to-of-a-move"),
    pytest.param("nodes: {min: web01, max: web01}\n", "nodes: {min: app01, max: app01}\n", id="one-machine"),
    pytest.param("scan: {lo: 10.0.0.70, hi: 10.0.0.9}\n", "scan: {lo: 10.0.1.90, hi: 10.0.0.9}\n",
                 id="addresses-out-of-order"),
])
def test_a_pair_that_is_no_range_is_rewritten(text: str, after: str, repo: Repo, run: Run) -> None:
    root = repo({"pairs.yml": text}, config=CONFIG, allowlist=CURRENT_ALL)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert (root / "pairs.yml").read_text() == after


@pytest.mark.parametrize("line", [
    pytest.param("web01⋯web05", id="midline-ellipsis"),
    pytest.param("web01‥web05", id="two-dot-leader"),
    pytest.param("‘web01’–‘web05’", id="single-quotes"),
    pytest.param("“web01”–“web05”", id="double-quotes"),
    pytest.param("«web01»–«web05»", id="guillemets"),
    pytest.param("「web01」〜「web05」", id="corner-brackets"),
    pytest.param("web01 － web05", id="full-width-hyphen-minus"),
    pytest.param("web01 ⸺ web05", id="two-em-dash"),
    pytest.param("10.0.0.70⋯10.0.0.74", id="addresses-midline-ellipsis"),
    pytest.param("‘10.0.0.70’ – ‘10.0.0.74’", id="addresses-quoted"),
])
def test_more_joiners_and_dressings_are_ranges(line: str, repo: Repo, run: Run) -> None:
    out = _swept_whole(repo, run, {"notes.md": f"the tier: {line}\n"})
    assert "(range: " in out, out
