"""Zone heuristics fire only on text that is a zone (break-it round 4, finding 9): a shell comment
`# a 1.2.3.4` read as an owner `#` with type `a` gave shell scripts, configs and notes a
"serial NOT bumped" note. What decides is formats/zone.holds_records (records with their class
word, or an SOA record), so a real zone or fragment in lower case is still one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.zones import loaded, serial

Repo = Callable[..., Path]
Run = Callable[..., Result]
ALLOW = "version: 1\ncurrent: ['**']\n"
CONFIG = ("version: 1\nrenames:\n  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}\n"
          "  addresses: {10.250.50.54: 10.251.50.54}\nallowlist: allow.yaml\n")
UNBUMPED = "serial NOT bumped"


@pytest.mark.parametrize(("name", "text"), [
    pytest.param("deploy.sh", "#!/bin/sh\n# a 1.2.3.4\nssh ana-ml2 true\n", id="reported-shell-comment"),
    pytest.param("tool.py", "# a 1.2.3.4\nHOST = 'ana-ml2'\n", id="python-comment"),
    pytest.param("app.ini", "[main]\n# a 1.2.3.4\nhost = ana-ml2\n", id="ini-comment"),
    pytest.param("notes.md", "# Hosts\n\n  ns ns1\n\nssh ana-ml2\n", id="markdown-indented-ns"),
    pytest.param("dnsmasq.conf", "# a 1.2.3.4\nserver=/ana.lan/10.0.0.53\naddress=/ana-ml2/10.250.50.54\n",
                 id="dnsmasq-comment"),
    pytest.param("Makefile", "deploy:\n\tns ns1\n\tssh ana-ml2\n", id="makefile-recipe"),
    pytest.param("settings.conf", "a   IN  a\n  mx mail\nhost ana-ml2\n", id="in-a-words"),
    pytest.param("run.sh", "# a 10.250.50.54\n  a 1.2.3.4 ana-ml2\n", id="shell-indented-a-record-look-alike"),
])
def test_no_zone_note_on_text_that_is_no_zone(repo: Repo, run: Run, name: str, text: str) -> None:
    root = repo({name: text}, config=CONFIG, allowlist=ALLOW)
    dry = run(root, "sweep", "--dry-run")
    assert dry.exit_code == 0 and UNBUMPED not in dry.stdout and "serial" not in dry.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert UNBUMPED not in done.stdout
    assert "fv-ml1" in (root / name).read_text()


ZONE_HEAD = "$TTL 300\n"


@pytest.mark.parametrize(("name", "text", "said", "code"), [
    # A fragment nobody includes: its zone's serial is a residual `zone-serial` as well (exit 1).
    pytest.param("hosts.inc", "www in cname ana-ml2.ana.lan.\nmail in mx 10 ana-ml2.ana.lan.\n", UNBUMPED, 1,
                 id="fragment-in-lower-case"),
    pytest.param("db.broken", "@ in soa ns. root. 99999999999 1 1 1 1\nwww in cname ana-ml2.ana.lan.\n", UNBUMPED,
                 0, id="serial-out-of-range-lower-case"),
    pytest.param("db.ana", "$ORIGIN ana.lan.\n@ in soa ns. root. 5 1 1 1 1\n@ in ns ns.fv.lan.\n"
                 "www in cname ana-ml2.ana.lan.\n", "serial 5 -> 6", 0, id="lower-case-zone-is-bumped"),
])
def test_real_zones_in_lower_case_are_still_zones(repo: Repo, run: Run, name: str, text: str, said: str,
                                                  code: int) -> None:
    root = repo({name: ZONE_HEAD + text}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == code, done.stdout + done.stderr
    assert f"{name}: " in done.stdout and said in done.stdout
    assert "fv-ml1.fv.lan." in (root / name).read_text()
    if name == "db.ana":
        assert serial(root / name, "ana.lan") == "6"
        assert ("www.ana.lan.", "CNAME", "fv-ml1.fv.lan.") in loaded(root / name, "ana.lan")


SHORT = "version: 1\nrenames:\n  hosts: {ana-ml2: fv-ml1}\nallowlist: allow.yaml\n"


@pytest.mark.parametrize(("name", "text"), [
    pytest.param("notes.txt", "Hosts:\nana-ml2 A 10.0.0.1\nfv-ml1 A 10.0.0.5\n", id="a-note"),
    pytest.param("run.sh", "#!/bin/sh\n  ana-ml2 CNAME x\nfv-ml1 CNAME y\n", id="a-script"),
    pytest.param("README", "ana-ml2 in a 10.0.0.1\nsee fv-ml1 in a minute\n", id="prose"),
])
def test_record_look_alike_lines_outside_a_zone_never_collide(repo: Repo, run: Run, name: str, text: str) -> None:
    """The collision check reads zone records only in a zone: two lines of a note are no records."""
    root = repo({name: text}, config=SHORT, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / name).read_text() == text.replace("ana-ml2", "fv-ml1")


def test_a_lower_case_zone_s_records_still_collide(repo: Repo, run: Run) -> None:
    """`ana-ml2 in a` renamed onto a standing `fv-ml1 in a`: two machines under one name, refused
    with both lines as in upper case (the zone's keywords in any case), nothing written."""
    zone = ("$ORIGIN ana.lan.\n$TTL 300\n@ in soa ns1 root 2 1 1 1 1\n@ in ns ns1\nns1 in a 10.0.0.53\n"
            "ana-ml2 in a 10.0.0.1\nfv-ml1 in a 10.0.0.5\n")
    root = repo({"db.ana": zone}, config=SHORT, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert "db.ana:6: ana-ml2 would become fv-ml1, and line 7 already holds it" in done.stderr
    assert (root / "db.ana").read_text() == zone
