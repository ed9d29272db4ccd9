"""A rename onto a name that stands already, spelled otherwise (issue 27 round 3, break-it 1, 2
and 4): keys compare after their escapes are decoded (JSON `\\u`, YAML `\\x`/`\\u`, TOML basic
strings), addresses in their canonical spelling (IPv6 in any form, IPv4-mapped, bracketed), DNS
names in any case; and a file with a parser that loaded before the rewrite must load after it
with as many keys per mapping (a TOML dotted key the rename would overwrite). Each is refused:
exit 3, one `renamer: error:` line naming the file and line, nothing written."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from tests.conftest import Result
from tests.testing.repos import git, snapshot

ALLOW = "version: 1\ncurrent: ['**']\n"
CONFIG = ("version: 1\nname: ml\ncutover: 2026-10-05\nrenames:\n"
          "  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}\n"
          "  addresses: {10.250.50.54: 10.251.50.54, 'fd00:250::54': 'fd00:251::54'}\nallowlist: allow.yaml\n")
PREFIX = "renamer: error: 1 file would no longer parse, would collide or would dangle: "
M1, M2 = "aa:bb:cc:dd:ee:01", "aa:bb:cc:dd:ee:02"


def _refused(root: Path, run: Callable[..., Result], rel: str) -> tuple[int, str]:
    """The dry run lists the file as refused; both writing sweeps refuse it, changing nothing.
    Returns the line and the problem the refusal names."""
    before, head = snapshot(root), git(root, "rev-parse", "HEAD")
    dry = run(root, "sweep", "--dry-run", "--format", "json")
    assert dry.exit_code == 0, dry.stdout + dry.stderr
    listed = json.loads(dry.stdout)["refused"]
    assert [r["path"] for r in listed] == [rel], listed
    line, problem = listed[0]["line"], listed[0]["problem"]
    assert line > 0
    for args in (("sweep", "--commit"), ("sweep",)):
        done = run(root, *args)
        assert done.exit_code == 3, done.stdout + done.stderr
        assert done.stderr.startswith(f"{PREFIX}{rel}:{line}: {problem}; nothing written"), done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
        assert snapshot(root) == before and git(root, "rev-parse", "HEAD") == head
    verify = run(root, "verify", "--strict")
    assert verify.exit_code == 1, verify.stdout  # the old name stays, to be decided by hand
    return line, problem


def _duplicate(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    assert len(set(keys)) == len(keys), f"duplicate key {keys}"
    return dict(pairs)


def _loads(rel: str, text: str) -> None:
    """Load `text` as its reader would (each refuses a duplicate key)."""
    if rel.endswith(".json"):
        json.loads(text, object_pairs_hook=_duplicate)
    elif rel.endswith(".toml"):
        tomllib.loads(text)
    else:
        YAML(typ="safe").load(text)


@pytest.mark.parametrize("rel, text", [
    pytest.param("h.json", '{"hosts": {"ana-ml2": 1, "fv\\u002dml1": 2}}\n', id="json-one-line"),
    pytest.param("app/h.json", '{\n  "hosts": {\n    "ana-ml2": 1,\n    "fv\\u002Dml1": 2\n  }\n}\n',
                 id="json-upper-hex-pretty"),
    pytest.param("h.json", '[{"x": 1}, {"\\u0066\\u0076-ml1": 2, "ana-ml2": 1}]\n', id="json-letters-escaped"),
    pytest.param("h.toml", 'hosts = { ana-ml2 = 1, "fv\\u002dml1" = 2 }\n', id="toml-inline-table"),
    pytest.param("h.toml", '[hosts]\nana-ml2 = 1\n"fv\\U0000002dml1" = 2\n', id="toml-long-escape"),
    pytest.param("h.toml", '[ana-ml2]\na = 1\n["fv\\u002dml1"]\nb = 2\n', id="toml-table-header"),
    pytest.param("h.yaml", 'hosts:\n  ana-ml2: 1\n  "fv\\x2dml1": 2\n', id="yaml-x-escape"),
    pytest.param("h.yml", 'hosts: {ana-ml2: 1, "fv\\u002dml1": 2}\n', id="yaml-flow-mapping"),
    pytest.param("h.yaml", '? "fv\\x2dml1"\n: 2\nana-ml2: 1\n', id="yaml-explicit-key"),
    pytest.param("h.yaml", '- name: a\n  "fv\\x2Dml1": 2\n  ana-ml2: 1\n', id="yaml-in-a-list-item"),
])
def test_a_key_standing_in_an_escaped_spelling_is_refused(rel: str, text: str, repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    _loads(rel, text)  # the file loads today
    with pytest.raises((AssertionError, tomllib.TOMLDecodeError, YAMLError)):
        _loads(rel, text.replace("ana-ml2", "fv-ml1"))  # what a plain sweep would write does not
    root = repo({rel: text, "notes.txt": "ssh ana-ml2\n"}, config=CONFIG, allowlist=ALLOW)
    _line, problem = _refused(root, run, rel)
    # The refusal names the key, decoded, or quotes the line that holds it as written.
    standing = next(line.strip() for line in text.splitlines() if "fv\\" in line or "\\u0066" in line)
    assert "fv-ml1" in problem or repr(standing) in problem, problem


@pytest.mark.parametrize("rel, text", [
    pytest.param("c.toml", "ana-ml2.ana.lan = 1\nfv-ml1.fv = {lan = 2}\n", id="toml-inline-table-below"),
    pytest.param("c.toml", "ana-ml2.ana.lan = 1\nfv-ml1 . fv . lan = 2\n", id="toml-spaced-dotted-key"),
    pytest.param("c.toml", "ana-ml2.ana.lan = 1\n[fv-ml1]\nfv = {lan = 2}\n", id="toml-table-then-inline"),
    pytest.param("c.toml", 'ana-ml2.ana.lan = 1\n"fv-ml1".fv."lan" = 2\n', id="toml-quoted-parts"),
    pytest.param("c.toml", "ana-ml2.ana.lan = 1\n[fv-ml1.fv]\nlan = 2\n", id="toml-table-header"),
    pytest.param("c.yaml", 'ana-ml2.ana.lan: 1\n"fv-ml1.fv\\x2elan": 2\n', id="yaml-escaped-dot"),
])
def test_a_parsed_file_must_load_after_the_rewrite_as_before(rel: str, text: str, repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    _loads(rel, text)
    with pytest.raises((AssertionError, tomllib.TOMLDecodeError, YAMLError)):
        _loads(rel, text.replace("ana-ml2.ana.lan", "fv-ml1.fv.lan"))
    root = repo({rel: text}, config=CONFIG, allowlist=ALLOW)
    _refused(root, run, rel)


@pytest.mark.parametrize("rel, text, what", [
    pytest.param("dnsmasq.conf", f"dhcp-host={M1},ana-ml2,[fd00:250::54]\ndhcp-host={M2},other,[fd00:251:0:0::54]\n",
                 "the dhcp-host address fd00:251::54", id="dhcp-host-ipv6-zeros-spelled"),
    pytest.param("dnsmasq.d/v6.conf", f"dhcp-host={M2},other,[FD00:251::54]\ndhcp-host={M1},gpu,[fd00:250::54]\n",
                 "the dhcp-host address fd00:251::54", id="dhcp-host-ipv6-upper-case"),
    pytest.param("dnsmasq.conf", f"dhcp-host={M1},gpu,[fd00:250::54]\ndhcp-host={M2},other,[fd00:0251:0000::0054]\n",
                 "the dhcp-host address fd00:251::54", id="dhcp-host-ipv6-leading-zeros"),
    pytest.param("dnsmasq.conf", f"dhcp-host={M1},ana-ml2,10.0.0.1\ndhcp-host={M2},FV-ML1,10.0.0.2\n",
                 "the dhcp-host name fv-ml1", id="dhcp-host-name-any-case"),
    pytest.param("unbound.conf", 'server:\n  local-data-ptr: "fd00:251:0::54 other.lan"\n'
                 '  local-data-ptr: "fd00:250::54 ana-ml2.lan"\n', "the local-data-ptr fd00:251::54",
                 id="unbound-ptr-ipv6-spelled"),
    pytest.param("ssh_config", "Host ana-ml2\n  HostName 10.0.0.1\nHost FV-ML1\n  HostName 10.0.0.5\n",
                 "the ssh Host block fv-ml1", id="ssh-host-any-case"),
])
def test_a_dns_key_standing_in_another_spelling_is_refused(rel: str, text: str, what: str,
                                                           repo: Callable[..., Path],
                                                           run: Callable[..., Result]) -> None:
    root = repo({rel: text}, config=CONFIG, allowlist=ALLOW)
    _line, problem = _refused(root, run, rel)
    assert f"both would be {what}," in problem, problem


@pytest.mark.parametrize("rel, text", [
    # The same address in two spellings is one record: no two things under one name.
    pytest.param("dnsmasq.conf", "host-record=ana-ml2.lan,fd00:250::54\nhost-record=fv-ml1.lan,fd00:251:0::54\n",
                 id="host-record-same-address"),
    pytest.param("h.json", '{"ana-ml2": 1, "fv\\u002dml2": 2}\n', id="json-escape-spelling-another-name"),
    pytest.param("h.yaml", "ana-ml2: 1\n'fv\\x2dml1': 2\n", id="yaml-single-quotes-decode-nothing"),
    pytest.param("h.yaml", "ana-ml2: 1\nFV-ML1: 2\n", id="yaml-keys-keep-their-case"),
    pytest.param("h.toml", "ana-ml2.ana.lan = 1\nfv-ml1.fv.www = 2\n", id="toml-dotted-sibling"),
])
def test_where_the_meanings_differ_the_sweep_writes(rel: str, text: str, repo: Callable[..., Path],
                                                     run: Callable[..., Result]) -> None:
    root = repo({rel: text}, config=CONFIG, allowlist=ALLOW)
    assert json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)["refused"] == []
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    written = (root / rel).read_text()
    assert "ana-ml2" not in written and "fv-ml1" in written
    if not rel.endswith(".conf"):
        _loads(rel, written)
    assert run(root, "verify", "--strict").exit_code == 0
