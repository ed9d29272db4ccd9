"""t36-sweep, finding 24: `web01 -> monitoring` where `[monitoring]` is a group of the same Ansible
inventory. The sweep wrote it, exit 0, saying "1 that `renamer verify --strict` fails on", and
`verify --strict` then said OK: Ansible warns "Found both group and host with same name", and
`hosts: monitoring` targets the group's hosts and the renamed one alike. A host renamed onto a
group's name is now refused (INI headers, `:children` members, YAML inventories), and found by
verify where written by hand; the sweep's count of what verify --strict fails on, once written,
is what verify then fails on."""

from __future__ import annotations

import re

import pytest

from tests.testing.repos import Repo, Run, git, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _config(hosts: str) -> str:
    return f"version: 1\nname: t\ncutover: 2026-01-01\nrenames:\n  hosts: {hosts}\nallowlist: allow.yaml\n"


INI = "[web]\nweb01 ansible_host=10.0.0.70\n\n[monitoring]\nmon01 ansible_host=10.0.0.80\n"
CHILDREN = ("[web]\nweb01 ansible_host=10.0.0.70\n\n[prom]\nmon01\n\n[monitoring:children]\nprom\n"
            "[grafana:children]\nmonitoring\n")
YAML = ("all:\n  children:\n    web:\n      hosts:\n        web01:\n          ansible_host: 10.0.0.70\n"
        "    monitoring:\n      hosts:\n        mon01: {}\n")
YAML_CHILD = ("web:\n  hosts:\n    web01: {}\nobservability:\n  children:\n    monitoring:\n      hosts:\n"
              "        mon01: {}\n")


@pytest.mark.parametrize("rel, text, group_line", [
    ("hosts.ini", INI, 4),
    ("inventory/hosts", INI.replace("[web]\n", "[web]  # the web tier\n"), 4),
    ("hosts.ini", CHILDREN, 7),  # a `:children` section names a group
    ("hosts.yml", YAML, 7),
    ("inventory/prod.yaml", YAML_CHILD, 6),  # a group nested under another
])
def test_a_host_renamed_onto_a_group_name_is_refused(repo: Repo, run: Run, rel: str, text: str,
                                                     group_line: int) -> None:
    root = repo({rel: text, "site.yml": "- hosts: monitoring\n  roles: [grafana]\n"},
                config=_config("{web01: monitoring}"), allowlist=ALLOW)
    before = snapshot(root)
    dry = run(root, "sweep", "--dry-run")
    assert "share its name with" in dry.stderr and "group" in dry.stderr, dry.stdout + dry.stderr
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert f"{rel}:" in done.stderr and "nothing written" in done.stderr, done.stderr
    assert re.search(rf"\(lines? (?:\d+, )?{group_line}\)", done.stderr), done.stderr  # the group's line
    assert snapshot(root) == before


@pytest.mark.parametrize("rel, text", [("hosts.ini", INI), ("hosts.yml", YAML)])
def test_a_host_renamed_onto_a_group_by_hand_fails_verify_strict(repo: Repo, run: Run, rel: str,
                                                                  text: str) -> None:
    """A move made by hand (sed, then a commit), after the move's first commit: verify reads the
    inventory then and now."""
    root = repo({rel: text, "other.yml": "note: web01\n"}, config=_config("{web01: monitoring}"),
                allowlist=ALLOW)
    (root / "other.yml").write_text("note: monitoring\n")
    git(root, "commit", "-qam", "renamer: web01 -> monitoring (other.yml)")
    (root / rel).write_text(text.replace("web01", "monitoring"))
    git(root, "commit", "-qam", "by hand")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert f"{rel}:" in checked.stdout and "group" in checked.stdout, checked.stdout


@pytest.mark.parametrize("rel, text", [
    ("hosts.ini", "[web]\nweb01\nmonitoring\n\n[monitoring]\nmon01\n"),  # host and group alike before
    ("hosts.ini", INI.replace("[monitoring]", "[monitoring_hosts]")),  # no group of that name
    ("hosts.yml", YAML.replace("    monitoring:\n", "    monitors:\n")),
    # a group named after its one host, both renamed (tests/cli/test_kept_vars.py's inventory):
    # the rename carries a clash that stood before, it makes none
    ("hosts.ini", "[web01]\nweb01\n\n[db]\ndb01\n"),
    ("hosts.yml", "all:\n  children:\n    web01:\n      hosts:\n        web01: {}\n"),
])
def test_a_clash_the_rename_does_not_make_is_not_blamed_on_it(repo: Repo, run: Run, rel: str, text: str) -> None:
    hosts = ("{web01: web02}" if "monitoring\n\n" in text or "web01:\n" in text or "[web01]" in text
             else "{web01: monitoring}")
    root = repo({rel: text}, config=_config(hosts), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_name_collision_the_sweep_writes_is_counted_as_what_verify_then_says(repo: Repo, run: Run) -> None:
    """Two names in one YAML file, neither an identity (a value beside a value): the dry run's
    verify --strict fails on it; once written, verify cannot tell that web01 stood there, and the
    sweep says so, not that verify --strict fails on it."""
    files = {"app.yml": "upstream: web01\nfallback: monitoring\n"}
    root = repo(files, config=_config("{web01: monitoring}"), allowlist=ALLOW)
    assert run(root, "verify", "--strict").exit_code == 1
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert ("(0 that `renamer verify --strict` fails on; 1 in one file, which verify cannot tell once "
            "written: check it now)") in done.stderr, done.stderr
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_strict_sweep_names_what_verify_cannot_tell_once_written(repo: Repo, run: Run) -> None:
    root = repo({"app.yml": "upstream: web01\nfallback: monitoring\n"}, config=_config("{web01: monitoring}"),
                allowlist=ALLOW)
    done = run(root, "sweep", "--commit", "--strict")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert ("renamer: --strict: 1 collision in one file that verify cannot tell once written (listed above): "
            "written, left for a decision") in done.stderr, done.stderr
    assert (root / "app.yml").read_text() == "upstream: monitoring\nfallback: monitoring\n"
