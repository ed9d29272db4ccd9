"""Edits that would break the structure they sit in (issue 27 item 7, adversarial B-3, B-7):
refused with file and line, the dry run listing exactly what a sweep that writes refuses on,
and nothing written anywhere."""

from __future__ import annotations

import configparser
import json
import tomllib
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.testing.repos import git, snapshot

ALLOW = "version: 1\ncurrent: ['**']\nkeep:\n  - {name: legacy, path: '**', line_contains: legacy, reason: kept}\n"
FINE = {"stacks/fine.env": "HOST=ana-ml2\n"}  # a file the sweep would rewrite, had it not refused


@pytest.mark.parametrize("rel, text, line, says", [
    # B-3 and its variants: an anchor and its aliases must be renamed together or not at all.
    pytest.param("c.yaml", "base: &ana-ml2 {port: 80}\nsvc:\n  <<: *ana-ml2   # renamer: keep legacy alias\n",
                 3, "the alias *ana-ml2 would name no anchor", id="b3-alias-kept-by-marker"),
    pytest.param("c.yaml", "base: &ana-ml2 {port: 80}  # legacy\nsvc:\n  <<: *ana-ml2\n",
                 3, "the alias *fv-ml1 would name no anchor", id="anchor-kept-by-rule"),
    pytest.param("c.yaml", "a: &fv-ml1 {gpu: 8}\nb: &ana-ml2 {gpu: 4}\nc: *fv-ml1\nd: *ana-ml2\n",
                 3, "the alias *fv-ml1 would name the anchor at line 2", id="anchor-onto-existing"),
    # B-7 and its variants: INI sections and keys, keys inside Jinja templates.
    pytest.param("hosts.ini", "[ana-ml2]\nip=1\n[fv-ml1]\nip=2\n", 3,
                 "renaming a section would collide with the existing section 'fv-ml1'", id="b7-ini-section"),
    pytest.param("inventory/hosts.cfg", "[gpu]\nana-ml2\nfv-ml1\n", 3,
                 "renaming a key would collide with the existing key 'gpu.fv-ml1'", id="ini-inventory-host"),
    pytest.param("supervisor/app.conf", "[program:fv-ml1]\ncommand=y\n[program:ana-ml2]\ncommand=x\n", 1,
                 "the section '[program:fv-ml1]' would stand twice", id="ini-like-conf"),
    pytest.param("hosts.yaml", "{% if x %}\nana-ml2: {ip: 1}\nfv-ml1: {ip: 2}\n{% endif %}\n", 3,
                 "the key 'fv-ml1' would stand twice", id="b7-yaml-in-jinja"),
    pytest.param("templates/compose.yml.j2",
                 "services:\n{% for s in stacks %}\n  {{ s }}:\n    ana-ml2: 1\n    fv-ml1: 2\n{% endfor %}\n",
                 5, "the key 'fv-ml1' under services would stand twice", id="j2-for-body"),
    # Duplicate keys in every parsed format.
    pytest.param("d.yaml", "hosts:\n  ana-ml2: 1\n  fv-ml1: 2\n", 3, "would collide with an existing key",
                 id="yaml-key"),
    pytest.param("d.json", '{"ana-ml2": 1, "fv-ml1": 2}\n', 1, "would collide with the existing key 'fv-ml1'",
                 id="json-key"),
    pytest.param("d.toml", "[ana-ml2]\nport = 1\n[fv-ml1]\nport = 2\n", 3,
                 "renaming a key or table would collide with the existing 'fv-ml1'", id="toml-table"),
    # A merge key brings the anchor's keys into the mapping: a renamed key meeting one there is lost
    # without any parser saying so (break-it pass).
    pytest.param("c.yaml", "base: &base\n  fv-ml1: {gpu: 8}\nsvc:\n  <<: *base\n  ana-ml2: {gpu: 4}\n", 5,
                 "svc: renaming key 'ana-ml2' to 'fv-ml1' would collide with the key 'fv-ml1' at line 2, which "
                 "the merge key `<<` brings", id="yaml-merge-local-key-renamed"),
    pytest.param("c.yaml", "base: &base\n  ana-ml2: {gpu: 8}\nsvc:\n  <<: *base\n  fv-ml1: {gpu: 4}\n", 2,
                 "renaming key 'ana-ml2' to 'fv-ml1' would collide with the key 'fv-ml1' at line 5",
                 id="yaml-merge-anchor-key-renamed"),
    pytest.param("c.yaml", "a: &a {ana-ml2: 1}\nb: &b {fv-ml1: 2}\nsvc:\n  <<: [*a, *b]\n  x: 1\n", 1,
                 "would collide with the key 'fv-ml1' at line 2", id="yaml-merge-two-anchors"),
    pytest.param("c.yaml", "a: &a {fv-ml1: 1}\nb: &b {<<: *a, y: 2}\nsvc:\n  <<: *b\n  ana-ml2: 3\n", 5,
                 "would collide with the key 'fv-ml1' at line 1", id="yaml-merge-through-a-merge"),
    # A dotted TOML key's part names the host as well (break-it pass): renamed, so it can collide.
    pytest.param("d.toml", "[servers.ana-ml2]\nport = 1\n[servers.fv-ml1]\nport = 2\n", 3,
                 "would collide with the existing 'servers', 'fv-ml1'", id="toml-dotted-table"),
    pytest.param("d.toml", "[[hosts.ana-ml2]]\nport = 1\n[hosts.fv-ml1]\nport = 2\n", 3,
                 "would collide with the existing 'hosts', 'fv-ml1'", id="toml-array-of-tables"),
    pytest.param("d.toml", "servers.ana-ml2.port = 1\nservers.fv-ml1.port = 2\n", 2,
                 "renaming a key would collide with the existing key there", id="toml-dotted-key"),
    # Break-it round 21, findings 10, 11, 20, 30: siblings of more shapes, each written silently before.
    pytest.param("hosts", "web01 ansible_host=10.0.0.1\nfv-ml1 ansible_host=10.0.0.2\nana-ml2 ansible_host=10.0.0.3\n",
                 2, "the inventory host 'fv-ml1' would stand for 'ana-ml2' and 'fv-ml1'", id="ungrouped-inventory"),
    pytest.param("app.env", "export ana-ml2=1\nfv-ml1=2\n", 2, "the key 'fv-ml1' would stand twice",
                 id="env-export"),
    pytest.param("my.ini", "[ana-ml2]\nx=1\n[ fv-ml1 ]\nx=2\n", 1,
                 "would collide with the existing section 'fv-ml1' (read with its blanks trimmed)", id="ini-trimmed-section"),
    pytest.param("haproxy.cfg", "backend b\n    server ana-ml2 10.0.0.1:80 check\n    server fv-ml1 10.0.0.2:80\n",
                 3, "the HAProxy server 'fv-ml1' would stand twice", id="haproxy-server"),
    pytest.param("nginx/map.conf", "map $host $pool {\n    default x;\n    ana-ml2.lab 1;\n    fv-ml1.lab 2;\n}\n",
                 4, "the nginx map key 'fv-ml1.lab' would stand twice", id="nginx-map-key"),
    pytest.param(".netrc", "machine ana-ml2 login a password x\nmachine fv-ml1 login b password y\n", 2,
                 "the .netrc machine 'fv-ml1' would stand twice", id="netrc-machine"),
    pytest.param(".ssh/config", "Match host ana-ml2\n  User a\nMatch host fv-ml1\n  User b\n", 3,
                 "the ssh Match host 'fv-ml1' would stand twice", id="ssh-match-host"),
    # Break-it round 21, finding 11 (the rest): lists whose reader takes the first entry of a name.
    pytest.param("compose.yaml", 'services:\n  x:\n    image: a\n    extra_hosts:\n      - "ana-ml2:10.0.0.1"\n'
                 '      - "fv-ml1:10.0.0.2"\n', 6, "two extra_hosts entries of the list at line 4 (the first one "
                 "wins) name 'fv-ml1' (lines 5, 6)", id="compose-extra-hosts"),
    pytest.param("compose.yaml", "services:\n  x:\n    image: a\n    extra_hosts:\n      - \"ana-ml2:10.0.0.1\"\n"
                 "      - FV-ML1:10.0.0.2\n", 6, "two extra_hosts entries", id="compose-extra-hosts-any-case"),
    pytest.param("pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: a}]\n"
                 "  hostAliases:\n    - ip: 10.0.0.1\n      hostnames: [ana-ml2]\n    - ip: 10.0.0.2\n"
                 "      hostnames:\n        - fv-ml1\n", 11,
                 "two hostAliases entries of the list at line 6 (the first one wins) name 'fv-ml1' (lines 8, 11)",
                 id="kubernetes-host-aliases"),
    pytest.param("ethers", "00:11:22:33:44:55 ana-ml2\n00:11:22:33:44:66 fv-ml1\n", 2,
                 "the ethers entry 'fv-ml1' would stand twice", id="etc-ethers"),
    # HCL, read by python-hcl2 (issue 32 item 1): an object constructor written on one line was
    # written silently before (no key-like line to see), and terraform then fails on it.
    pytest.param("infra/main.tf", 'resource "terraform_data" "x" {\n  input = { ana-ml2 = "a", fv-ml1 = "b" }\n}\n',
                 2, "two object keys 'fv-ml1' in one object (both on line 2; HCL allows one)", id="hcl-inline-object"),
    pytest.param("live/terragrunt.hcl", 'inputs = {\n  backends = { "ana-ml2" = 1, "fv-ml1" = 2 }\n}\n',
                 2, "two object keys 'fv-ml1' in one object", id="terragrunt-inline-object"),
    pytest.param("infra/hosts.tfvars", 'hosts = {\n  "fv-ml1"  = "10.0.0.2"\n  "ana-ml2" = "10.0.0.1"\n}\n',
                 3, "two object keys 'fv-ml1' in one object (lines 2, 3; HCL allows one)", id="tfvars-map"),
    pytest.param("infra/locals.tf", 'locals {\n  ana-ml2 = "a"\n  fv-ml1  = "b"\n}\n',
                 2, "two attributes 'fv-ml1' in one body (lines 2, 3; HCL allows one)", id="hcl-attribute"),
    pytest.param("jobs/web.nomad.hcl", 'job "web" {\n  group "g" {\n    task "ana-ml2" {\n      driver = "docker"\n'
                 '    }\n    task "fv-ml1" {\n      driver = "docker"\n    }\n  }\n}\n',
                 3, """two blocks 'task "fv-ml1"' in one body (lines 3, 6; HCL allows one)""",
                 id="nomad-nested-task"),
])
def test_refused_with_file_and_line_and_nothing_written(repo, run, rel: str, text: str, line: int,
                                                        says: str) -> None:
    root = repo({rel: text, **FINE}, allowlist=ALLOW)
    before, head = snapshot(root), git(root, "rev-parse", "HEAD")
    dry = run(root, "sweep", "--dry-run", "--format", "json")
    assert dry.exit_code == 0
    listed = json.loads(dry.stdout)["refused"]
    assert [(r["path"], r["line"]) for r in listed] == [(rel, line)]
    assert says in listed[0]["problem"]
    for args in (("sweep", "--commit"), ("sweep",)):
        done = run(root, *args)
        assert done.exit_code == 3, done.stdout + done.stderr
        assert done.stderr.startswith(f"renamer: error: 1 file would no longer parse, would collide or would dangle: "
                                      f"{rel}:{line}: {listed[0]['problem']}; nothing written")
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
        assert snapshot(root) == before and git(root, "rev-parse", "HEAD") == head
    verify = run(root, "verify")
    assert verify.exit_code == 1 and f"{rel}:" in verify.stdout and "residual (structure)" in verify.stdout


@pytest.mark.parametrize("rel, text", [
    pytest.param("d.toml", '[servers.ana-ml2]\nport = 1\n[servers."ana-ml2".tls]\non = true\n', id="toml-header"),
    pytest.param("d.toml", "[[hosts.ana-ml2]]\nport = 1\n[[hosts.ana-ml2]]\nport = 2\n", id="toml-array-header"),
    pytest.param("d.toml", "a.ana-ml2.port = 1\nb = { ana-ml2.gpu = 8 }\n[c]\nd.ana-ml2 = 'x'\n", id="toml-dotted-keys"),
    pytest.param("d.toml", "[servers . ana-ml2]\nport = 1\n", id="toml-header-spaced-dots"),
])
def test_toml_key_parts_are_renamed(repo, run, rel: str, text: str) -> None:
    root = repo({rel: text}, allowlist=ALLOW)
    assert run(root, "verify").exit_code == 1
    assert run(root, "sweep", "--commit").exit_code == 0
    after = (root / rel).read_text()
    assert after == text.replace("ana-ml2", "fv-ml1")
    tomllib.loads(after)
    assert run(root, "verify", "--strict").exit_code == 0


def test_toml_noop_a_dot_inside_a_string_or_another_name(repo, run) -> None:
    text = 'a = "sub.ana-ml2"\nb = """\nx.ana-ml2 = 1\n"""\n[servers.ana-ml20]\n[servers.xana-ml2]\n'
    root = repo({"d.toml": text}, allowlist=ALLOW)
    run(root, "sweep", "--commit")
    assert (root / "d.toml").read_text() == text
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize("rel, text", [
    pytest.param("c.yaml", "base: &ana-ml2 {port: 80}\nsvc:\n  <<: *ana-ml2\n", id="anchor-and-alias"),
    pytest.param("c.yaml", "a: &a {ana-ml2: 1, fv-ml2: 0}\nsvc:\n  <<: *a\n  ana-ml2: 2\n", id="yaml-merge-override-kept"),
    pytest.param("c.yaml", "a: &a {fv-ml1: 1}\nsvc:\n  <<: *a\nother:\n  ana-ml2: 2\n", id="yaml-merge-elsewhere"),
    pytest.param("hosts.ini", "[ana-ml2]\nip=1\n[b]\nfv-ml1=2\n", id="ini-apart"),
    pytest.param("hosts.yaml", "{% if x %}\nana-ml2: 1\n{% else %}\nfv-ml1: 2\n{% endif %}\n", id="jinja-if-else"),
    pytest.param("t.yml.j2", "{% for h in hs %}\n{{ h }}:\n  peer: ana-ml2\n{% endfor %}\nfv-ml1: 1\n",
                 id="j2-values"),
    # each service's extra_hosts, each pod's hostAliases is a list of its own; one entry naming both is one
    pytest.param("compose.yaml", 'services:\n  a:\n    extra_hosts: ["ana-ml2:10.0.0.1"]\n  b:\n'
                 '    extra_hosts: ["fv-ml1:10.0.0.2"]\n', id="extra-hosts-of-two-services"),
    pytest.param("pod.yaml", "spec:\n  hostAliases:\n    - ip: 10.0.0.1\n      hostnames: [ana-ml2, fv-ml1]\n",
                 id="host-aliases-one-entry"),
    pytest.param("ethers", "00:11:22:33:44:55 ana-ml2\n00:11:22:33:44:66 fv-ml2\n", id="ethers-apart"),
])
def test_safe_edits_are_made(repo, run, rel: str, text: str) -> None:
    root = repo({rel: text}, allowlist=ALLOW)
    assert json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)["refused"] == []
    assert run(root, "sweep", "--commit").exit_code == 0
    after = (root / rel).read_text()
    assert after == text.replace("ana-ml2", "fv-ml1")
    if rel.endswith(".yaml") and "{%" not in after:
        YAML(typ="safe").load(after)
    if rel.endswith(".ini"):
        configparser.ConfigParser().read_string(after)


def test_the_dry_run_and_the_commit_refuse_the_same_list(repo, run) -> None:
    files = {
        "a/c.yaml": "base: &ana-ml2 {port: 80}\nsvc:\n  <<: *ana-ml2  # legacy\n",
        "b/hosts.ini": "[ana-ml2]\nip=1\n[fv-ml1]\nip=2\n",
        "c/hosts.yaml": "{% if x %}\nana-ml2: {ip: 1}\nfv-ml1: {ip: 2}\n{% endif %}\n",
        "d/ok.yaml": "h: ana-ml2\n",
    }
    root = repo(files, allowlist=ALLOW)
    data = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    listed = [f"{r['path']}:{r['line']}: {r['problem']}" for r in data["refused"]]
    assert [r.split(":")[0] for r in listed] == ["a/c.yaml", "b/hosts.ini", "c/hosts.yaml"]
    # Every collision the dry run finds in a refused file says so, at a line the refusal names.
    refused_at = {(r["path"], r["line"]) for r in data["refused"]}
    assert [(c["path"], c["line"], c["refused"]) for c in data["collisions"]] == [
        ("b/hosts.ini", 3, True), ("c/hosts.yaml", 3, True)]
    assert {(c["path"], c["line"]) for c in data["collisions"]} <= refused_at
    text = run(root, "sweep", "--dry-run", "--format", "summary").stdout
    assert [f"  {r}" for r in listed] == text.splitlines()[-3:]
    assert "b/hosts.ini:3:2 [fv-ml1]: error: collision" in text
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert done.stderr == (f"renamer: error: 3 files would no longer parse, would collide or would dangle: {'; '.join(listed)}; "
                           "nothing written: edit them by hand, or keep them with a keep rule or the inline "
                           "marker, then sweep again\n")
    assert (root / "d" / "ok.yaml").read_text() == "h: ana-ml2\n"
    # Decided by hand: the sweep goes ahead.
    (root / "b" / "hosts.ini").write_text("[fv-ml1]\nip=2\n")
    (root / "c" / "hosts.yaml").write_text("{% if x %}\nfv-ml1: {ip: 2}\n{% endif %}\n")
    (root / "a" / "c.yaml").write_text("base: &ana-ml2 {port: 80}  # legacy\nsvc:\n  <<: *ana-ml2  # legacy\n")
    git(root, "commit", "-qam", "decided")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "d" / "ok.yaml").read_text() == "h: fv-ml1\n"
    assert YAML(typ="safe").load((root / "a" / "c.yaml").read_text())["svc"] == {"port": 80}
    assert run(root, "verify").exit_code == 0


def test_interactive_and_the_library_refuse_too(repo) -> None:
    import renamer

    root: Path = repo({"hosts.ini": "[ana-ml2]\nip=1\n[fv-ml1]\nip=2\n"}, allowlist=ALLOW)
    project = renamer.open_project(root)
    plan = project.plan()
    assert plan.data()["refused"] == [{"path": "hosts.ini", "line": 3,
                                       "problem": "renaming a section would collide with the existing "
                                                  "section 'fv-ml1' (line 1 ('[ana-ml2]') meets line 3 "
                                                  "('[fv-ml1]'))"}]
    with pytest.raises(renamer.UnsafeError, match=r"hosts\.ini:3: renaming a section"):
        project.apply(plan)
    assert (root / "hosts.ini").read_text() == "[ana-ml2]\nip=1\n[fv-ml1]\nip=2\n"


RETYPING = ("version: 1\nrenames:\n  hosts:\n    ana-ml2: '1e3'\n    ana-ml3: 'no'\n    ana-ml4: 'true'\n"
            "    ana-ml5: '0o10'\nallowlist: allow.yaml\n")


def test_each_refused_line_says_its_own_reason(repo, run) -> None:
    """Adversarial pass 2 B-19: three retyped scalars in one file all said the first line's reason."""
    text = "a: ana-ml2\nb: ana-ml3\nc: ana-ml4\nd: [x, ana-ml5]\ne: 'ana-ml2'\n"
    root = repo({"c.yaml": text, "compose.yml": "services:\n  web: {hostname: ana-ml3, image: ana-ml2}\n"},
                config=RETYPING, allowlist=ALLOW)
    before = snapshot(root)
    result = run(root, "verify", "--format", "json")
    assert result.exit_code == 1
    notes = {(f["path"], f["line"]): f["note"] for f in json.loads(result.stdout)["findings"]}
    assert notes == {
        ("c.yaml", 1): "a: '1e3' would be read as float, not str; quote it by hand",
        ("c.yaml", 2): ("b: 'no' would be read as a boolean or null by YAML 1.1 readers (PyYAML, docker "
                        "compose); quote it by hand"),
        ("c.yaml", 3): "c: 'true' would be read as bool, not str; quote it by hand",
        ("c.yaml", 4): "d[1]: '0o10' would be read as int, not str; quote it by hand",
        # quoted, fine on its own: left with the file, naming the line that refused it
        ("c.yaml", 5): ("the whole file is left as it is: line 1: a: '1e3' would be read as float, not str; "
                        "quote it by hand"),
        ("compose.yml", 2): ("services.web.hostname: 'no' would be read as a boolean or null by YAML 1.1 "
                             "readers (PyYAML, docker compose); quote it by hand"),
    }
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 3 and "nothing written" in swept.stderr, swept.stderr
    assert snapshot(root) == before
