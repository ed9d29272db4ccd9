"""A match inside or beside a zone name's escape is decided by the label BIND decodes (break-it
round 5, finding 6), in owners and RDATA names (CNAME, MX, SRV, NS, PTR) alike:

* `pug\\045x` is the label pug-x, a derived name: a derived-name candidate exactly as a plain
  `pug-x` is (listed by the dry run and verify, rewritten only with `derived_names: true`);
* `pug\\.ana`, `pug\\046ana`, `pug\\\\x`, `pug\\032x` are ONE label holding a character no host
  name holds (a dot, a backslash, a space): not the host pug, never rewritten, whatever the bytes
  before the escape spell; a name with such a label elsewhere (`pug.x\\.y`) is decided by its
  other labels, as its plain spelling is;
* `\\080ug` is Pug, the host: decided as the plain spelling (a residual `zone-owner` when the
  host moves to another zone, rewritten in the case found when it stays, plainly where no
  escaped character stands in the new name, the reference saying so).

BIND's own reading (named-checkzone's canonical dump) is checked before and after each sweep."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import make_repo
from tests.testing.zones import loaded

Run = Callable[..., Result]
ALLOW = "version: 1\ncurrent: ['**']\n"
MOVE = ("version: 1\nrenames:\n  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}\n"
        "  addresses: {10.0.0.5: 10.1.0.5}\nallowlist: allow.yaml\n")
IN_ZONE = "version: 1\nrenames:\n  hosts: {pug: wolf, pug.ana.lan: wolf.ana.lan}\nallowlist: allow.yaml\n"
DERIVED = "options: {derived_names: true}\n"
HEAD = "$ORIGIN ana.lan.\n$TTL 300\n@ IN SOA ns1 root 2026010101 1 1 1 1\n@ IN NS ns1\nns1 IN A 10.0.0.53\n"
REVERSE = ("$ORIGIN 0.0.10.in-addr.arpa.\n$TTL 300\n@ IN SOA ns1.ana.lan. root.ana.lan. 1 1 1 1 1\n"
           "@ IN NS ns1.ana.lan.\n")
SHAPES = [
    pytest.param("{n} IN A 10.0.0.9\n", id="owner"),
    pytest.param("{n}.ana.lan. IN A 10.0.0.9\n  IN TXT \"x\"\n", id="absolute-owner"),
    pytest.param("www IN CNAME {n}\nweb IN CNAME {n}.ana.lan.\n", id="cname-targets"),
    pytest.param("mail IN MX 10 {n}\n_http._tcp IN SRV 0 5 80 {n}.ana.lan.\nsub IN NS {n}\n", id="mx-srv-ns"),
]
CONFIGS = [pytest.param(MOVE, id="moved-to-another-zone"), pytest.param(IN_ZONE, id="renamed-in-its-zone"),
           pytest.param(MOVE + DERIVED, id="moved-derived-names"),
           pytest.param(IN_ZONE + DERIVED, id="in-zone-derived-names")]


def _body(path: Path) -> str:
    """The zone after its five head lines (the SOA's serial is bumped by any change)."""
    return path.read_text().split("\n", 5)[5]


def _outcome(root: Path, run: Run, origin: str) -> tuple[int, list[tuple[str, str, str]], list[object]]:
    """(the sweep's exit code, BIND's records after it, verify's findings and near-misses by line)."""
    code = run(root, "sweep", "--commit").exit_code
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    found = sorted((f["line"], f["status"], f["reason"] or "") for f in data["findings"])
    near = sorted((m["line"], m["kind"], m["text"].lower()) for m in data["near_misses"])
    return code, loaded(root / "db", origin), [*found, *near]


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("shape", SHAPES)
# Each plain spelling with every escaped one of it: the plain repo's sweep is run once for them all
# (the suite's time), each escaped spelling in a repo of its own.
@pytest.mark.parametrize(("escapes", "plain"), [
    pytest.param({"decimal-dash": "pug\\045x", "backslash-dash": "pug\\-x"}, "pug-x", id="dash"),
    pytest.param({"decimal-letter-and-dash": "\\080ug\\045x"}, "Pug-x", id="decimal-letter-and-dash"),
    pytest.param({"two-dashes": "pug\\045x\\045y"}, "pug-x-y", id="two-dashes"),
])
def test_an_escaped_derived_name_is_a_derived_name_as_its_plain_spelling(
        tmp_path: Path, run: Run, config: str, shape: str, escapes: dict[str, str], plain: str) -> None:
    plain_repo = make_repo(tmp_path / "plain", {"db": HEAD + shape.format(n=plain)}, config=config, allowlist=ALLOW)
    plain_records = loaded(plain_repo / "db", "ana.lan")
    expected = _outcome(plain_repo, run, "ana.lan")
    if "derived" not in config:
        assert any(isinstance(x, tuple) and x[1] == "derived-name" for x in expected[2])
    for case, escaped in escapes.items():
        escaped_repo = make_repo(tmp_path / case, {"db": HEAD + shape.format(n=escaped)}, config=config,
                                 allowlist=ALLOW)
        assert loaded(escaped_repo / "db", "ana.lan") == plain_records, case  # one zone to BIND
        dry = run(escaped_repo, "sweep", "--dry-run").stdout
        if "derived" not in config:
            assert "Derived-name candidates, not renamed" in dry and "pug-x" in dry.lower(), case
        assert _outcome(escaped_repo, run, "ana.lan") == expected, case
        if "derived" not in config:
            assert (escaped_repo / "db").read_text() == HEAD + shape.format(n=escaped), case  # never rewritten as pug


@pytest.mark.parametrize("config", [CONFIGS[0], CONFIGS[3]])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("label", [
    pytest.param("pug\\.ana", id="escaped-dot"),
    pytest.param("pug\\046ana", id="decimal-dot"),
    pytest.param("pug\\\\x", id="escaped-backslash"),
    pytest.param("pug\\032x", id="decimal-space"),
    pytest.param("\\080ug\\.x", id="escaped-letter-and-dot"),
    pytest.param("x\\.pug", id="dot-before"),
    pytest.param("pug\\.ana\\.lan", id="the-fqdn-as-one-label"),
])
def test_one_label_holding_an_escaped_dot_or_blank_is_never_the_host(
        tmp_path: Path, run: Run, config: str, shape: str, label: str) -> None:
    zone = HEAD + shape.format(n=label)
    root = make_repo(tmp_path / "repo", {"db": zone}, config=config, allowlist=ALLOW)
    before = loaded(root / "db", "ana.lan")
    dry = run(root, "sweep", "--dry-run")
    assert dry.exit_code == 0 and "would change 0 files" in dry.stdout
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "db").read_text() == zone
    assert loaded(root / "db", "ana.lan") == before
    verdict = run(root, "verify")
    assert verdict.exit_code == 0, verdict.stdout


@pytest.mark.parametrize(("config", "after"), [
    pytest.param(IN_ZONE, "wolf.x\\.y IN A 10.0.0.9\nwww IN CNAME wolf.x\\.y\n", id="renamed-in-its-zone"),
    pytest.param(MOVE, "wolf.x\\.y IN A 10.0.0.9\nwww IN CNAME wolf.x\\.y\n", id="moved-to-another-zone"),
])
def test_a_name_with_an_opaque_label_is_decided_by_its_other_labels(
        tmp_path: Path, run: Run, config: str, after: str) -> None:
    """`pug.x\\.y` is pug under a label x.y, as the plain `pug.x_y` is pug under x_y: the matcher's
    rules decide the plain labels, and the opaque one's bytes stay as they are."""
    escaped = make_repo(tmp_path / "escaped", {"db": HEAD + "pug.x\\.y IN A 10.0.0.9\nwww IN CNAME pug.x\\.y\n"},
                        config=config, allowlist=ALLOW)
    plain = make_repo(tmp_path / "plain", {"db": HEAD + "pug.x_y IN A 10.0.0.9\nwww IN CNAME pug.x_y\n"},
                      config=config, allowlist=ALLOW)
    assert run(escaped, "sweep", "--commit").exit_code == run(plain, "sweep", "--commit").exit_code == 0
    assert _body(escaped / "db") == after
    assert _body(plain / "db") == after.replace("x\\.y", "x_y")
    assert ("wolf.x\\.y.ana.lan.", "A", "10.0.0.9") in loaded(escaped / "db", "ana.lan")


def test_an_escaped_letter_is_the_host_and_is_written_plainly_saying_so(tmp_path: Path, run: Run) -> None:
    """`\\080ug` is Pug: the host. Renamed in its zone it becomes `Wolf` (the case found; no
    escaped character stands in the new name, so it is written plainly and the reference says
    so); moved to another zone it is a residual `zone-owner` with its whole record."""
    zone = HEAD + "\\080ug IN A 10.0.0.5\nwww IN CNAME \\080ug\n"
    in_zone = make_repo(tmp_path / "in-zone", {"db": zone}, config=IN_ZONE, allowlist=ALLOW)
    (first, _) = json.loads(run(in_zone, "verify", "--format", "json").stdout)["findings"]
    assert "escapes are not all carried over" in first["note"] and first["new"] == "Wolf"
    assert run(in_zone, "sweep", "--commit").exit_code == 0
    assert _body(in_zone / "db") == "Wolf IN A 10.0.0.5\nwww IN CNAME Wolf\n"
    assert ("www.ana.lan.", "CNAME", "Wolf.ana.lan.") in loaded(in_zone / "db", "ana.lan")
    moved = make_repo(tmp_path / "moved", {"db": zone}, config=MOVE, allowlist=ALLOW)
    assert run(moved, "sweep", "--commit").exit_code == 1
    reasons = [(f["line"], f["reason"]) for f in json.loads(run(moved, "verify", "--format", "json").stdout)["findings"]]
    assert (6, "zone-owner") in reasons
    assert (moved / "db").read_text().splitlines()[5] == "\\080ug IN A 10.0.0.5"  # owner and address wait


@pytest.mark.parametrize("derived", [pytest.param("", id="no-derived-names"), pytest.param(DERIVED, id="derived")])
def test_ptr_targets_in_a_reverse_zone(tmp_path: Path, run: Run, derived: str) -> None:
    """PTR targets are RDATA names like any other: `pug\\.ana.ana.lan.` stays, `pug\\045x.ana.lan.`
    is the derived name pug-x.ana.lan (its short name's rule, with derived names), `\\080ug.ana.lan.`
    the host (it follows to Wolf.fv.lan)."""
    zone = REVERSE + "9 IN PTR pug\\.ana.ana.lan.\n10 IN PTR pug\\045x.ana.lan.\n11 IN PTR \\080ug.ana.lan.\n"
    root = make_repo(tmp_path / "repo", {"db": zone}, config=MOVE + derived, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    records = loaded(root / "db", "0.0.10.in-addr.arpa")
    assert ("9.0.0.10.in-addr.arpa.", "PTR", "pug\\.ana.ana.lan.") in records
    assert ("11.0.0.10.in-addr.arpa.", "PTR", "Wolf.fv.lan.") in records  # the case found
    assert ("10.0.0.10.in-addr.arpa.", "PTR", "wolf-x.ana.lan." if derived else "pug-x.ana.lan.") in records
    near = json.loads(run(root, "verify", "--format", "json").stdout)["near_misses"]
    assert [m["kind"] for m in near if m["line"] == 6] == ([] if derived else ["derived-name"])


def test_names_under_an_origin_with_an_opaque_label_are_decided_as_under_its_plain_spelling(
        tmp_path: Path, run: Run) -> None:
    """`$ORIGIN pug\\.ana.ana.lan.` is a zone below ONE label pug.ana, as `pug_ana` would be: `@`
    under it is not pug, nor is the origin itself; a relative `pug` under it is what it is under
    the plain spelling (the short name's rule rewrites it), never read against ana.lan."""
    tail = "@ IN A 10.0.0.9\npug IN A 10.0.0.10\nwww IN CNAME pug\n"
    escaped = make_repo(tmp_path / "escaped", {"db": HEAD + "$ORIGIN pug\\.ana.ana.lan.\n" + tail},
                        config=MOVE, allowlist=ALLOW)
    plain = make_repo(tmp_path / "plain", {"db": HEAD + "$ORIGIN pug_ana.ana.lan.\n" + tail}, config=MOVE,
                      allowlist=ALLOW)
    assert run(escaped, "sweep", "--commit").exit_code == run(plain, "sweep", "--commit").exit_code == 0
    assert _body(escaped / "db") == _body(plain / "db").replace("pug_ana", "pug\\.ana")
    assert _body(escaped / "db").startswith("$ORIGIN pug\\.ana.ana.lan.\n@ IN A 10.0.0.9\n")
    assert ("pug\\.ana.ana.lan.", "A", "10.0.0.9") in loaded(escaped / "db", "ana.lan")
    assert run(escaped, "verify").exit_code == run(plain, "verify").exit_code == 0
