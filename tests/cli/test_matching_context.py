"""What surrounds an occurrence decides whether it is rewritten, end to end through the CLI.

Ranges and regular expressions that stand for an old value are left for a person (`range`,
`pattern`); backslash escapes are boundaries; regex-escaped spellings are the same value; a user
account named like the host is not the host (`account`); a zone file's SOA serial follows its
records.
"""

from __future__ import annotations

import datetime
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.testing.repos import CONFIG, CURRENT_ALL, Files, Repo, Run, git, make_repo, snapshot


def _config(hosts: str, addresses: str = "{}", options: str = "") -> str:
    extra = f"options: {options}\n" if options else ""
    return f"version: 1\nrenames:\n  hosts: {hosts}\n  addresses: {addresses}\n{extra}allowlist: allow.yaml\n"


def _findings(run: Run, root: Path) -> tuple[int, list[dict[str, Any]]]:
    result = run(root, "verify", "--format", "json")
    return result.exit_code, json.loads(result.stdout)["findings"]


def _by_reason(findings: list[dict[str, Any]]) -> set[tuple[str, int, str | None]]:
    return {(f["path"], f["line"], f["reason"]) for f in findings}


# -- 1. ranges ---------------------------------------------------------------------------------

RANGE_CONFIG = _config("{web01: app01, nlk8s-ctrl01: nlk8s-cp01}", "{192.0.2.10: 192.0.2.20}")

# Each range sits in five contexts; the number is the line that holds it.
RANGE_CONTEXTS = {
    "notes.md": ("# Pools\n\nThe pool {r} serves the API.\n", 3),
    "table.md": ("| pool | hosts |\n| --- | --- |\n| api | {r} |\n", 3),
    "values.yaml": ("pool:\n  members: '{r}'\n  size: 4\n", 2),
    "tool.py": ('"""Pools."""\nPOOL = "{r}"\n', 2),
    "deploy.sh": ("#!/bin/sh\n# drain {r} first\necho ok\n", 2),
}


@pytest.mark.parametrize("text", [
    pytest.param("web01–web04", id="en-dash"),
    pytest.param("web01-web04", id="hyphen"),
    pytest.param("web01..web04", id="dots"),
    pytest.param("web01 to web04", id="to"),
    pytest.param("web01-04", id="hyphen-short"),
    pytest.param("web01–04", id="en-dash-short"),
    pytest.param("nlk8s-ctrl01-03", id="dashed-stem-short"),
    pytest.param("web{01..03}", id="brace-range"),
    pytest.param("192.0.2.10–.14", id="ip-en-dash-tail"),
    pytest.param("192.0.2.10-192.0.2.14", id="ip-hyphen"),
    pytest.param("192.0.2.10 - 192.0.2.14", id="ip-spaced"),
    pytest.param("192.0.2.6-192.0.2.10", id="ip-second-end"),
    pytest.param("192.0.2.9-10", id="ip-short-second-end"),
    pytest.param("192.0.2.{9,10,11}", id="ip-brace-set"),
])
def test_a_range_is_never_rewritten_and_verify_names_it(run: Run, tmp_path: Path, text: str) -> None:
    files: Files = {path: body.format(r=text) for path, (body, _) in RANGE_CONTEXTS.items()}
    expected = {(path, line, "range") for path, (_, line) in RANGE_CONTEXTS.items()}
    problems = []  # both settings of derived_names checked, every problem shown at once
    for derived in ("false", "true"):
        config = RANGE_CONFIG.replace("allowlist:", f"options: {{derived_names: {derived}}}\nallowlist:")
        root = make_repo(tmp_path / f"derived-{derived}", files, config=config, allowlist=CURRENT_ALL)
        before = snapshot(root)
        assert run(root, "sweep").exit_code == 1  # issue 27 item 18: the ranges are left for a decision
        changed = sorted(path for path, data in snapshot(root).items() if before.get(path) != data)
        if changed:
            problems.append(f"derived_names={derived}: sweep rewrote {changed}")
        code, findings = _findings(run, root)
        if code != 1 or _by_reason(findings) != expected:
            problems.append(f"derived_names={derived}: verify exit {code}, findings "
                            f"{sorted(_by_reason(findings), key=str)}")
        verify = run(root, "verify").stdout
        unnamed = [f"{path}:{line}" for path, line, _ in sorted(expected) if not re.search(
            rf"^{re.escape(path)}:{line}:\d+: residual \(range\)", verify, re.M)]
        if unnamed:
            problems.append(f"derived_names={derived}: verify text names no range at {unnamed}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("text, derived, after", [
    pytest.param("192.0.2.10 - see below", False, "192.0.2.20 - see below", id="ip-dash-prose"),
    pytest.param("web01 and web04", False, "app01 and web04", id="two-hosts"),
    pytest.param("web01-bmc", True, "app01-bmc", id="derived-on"),
    pytest.param("ana-ml2-1", True, "fv-ml1-1", id="derived-numeric-tail"),
])
def test_what_only_looks_like_a_range_is_rewritten(repo: Repo, run: Run, text: str, derived: bool,
                                                   after: str) -> None:
    config = _config("{web01: app01, ana-ml2: fv-ml1}", "{192.0.2.10: 192.0.2.20}",
                     f"{{derived_names: {str(derived).lower()}}}")
    root = repo({"notes.md": f"See {text} for details.\n"}, config=config, allowlist=CURRENT_ALL)
    assert "range" not in {f["reason"] for f in _findings(run, root)[1]}
    assert run(root, "sweep").exit_code == 0
    assert (root / "notes.md").read_text() == f"See {after} for details.\n"
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize("text", [
    pytest.param("web01-bmc", id="bmc"),
    pytest.param("ana-ml2-1", id="numeric-tail"),
])
def test_without_derived_names_a_suffixed_name_is_a_candidate_not_a_range(repo: Repo, run: Run,
                                                                          text: str) -> None:
    config = _config("{web01: app01, ana-ml2: fv-ml1}")
    root = repo({"notes.md": f"See {text} for details.\n"}, config=config, allowlist=CURRENT_ALL)
    dry = run(root, "sweep", "--dry-run", "--format", "json")
    assert dry.exit_code == 0
    assert text in json.dumps(json.loads(dry.stdout)["summary"]["derived_candidates"])
    assert run(root, "sweep").exit_code == 0
    assert (root / "notes.md").read_text() == f"See {text} for details.\n"
    code, findings = _findings(run, root)
    assert code == 0 and findings == []


@pytest.mark.parametrize("files, allowlist", [
    pytest.param({"notes.md": "The pool web01-web04 serves it. <!-- renamer: keep the rack's span -->\n"},
                 CURRENT_ALL, id="inline-marker"),
    pytest.param({"notes.md": "The pool web01-web04 serves it.\n"},
                 CURRENT_ALL + "keep:\n  - name: pool-span\n    path: notes.md\n    line_contains: pool\n"
                 "    reason: the rack's span\n", id="keep-rule"),
])
def test_a_kept_range_passes_verify(repo: Repo, run: Run, files: dict[str, str], allowlist: str) -> None:
    root = repo(files, config=RANGE_CONFIG, allowlist=allowlist)
    before = snapshot(root)
    assert run(root, "sweep").exit_code == 0
    assert snapshot(root) == before
    result = run(root, "verify")
    assert result.exit_code == 0, result.stdout


# -- 2. escapes ---------------------------------------------------------------------------------

ESCAPE_CONFIG = _config("{web01: app01}", "{192.0.2.10: 192.0.2.20}")


@pytest.mark.parametrize("path, text", [
    pytest.param("tool.py", r'''MSG = "node:\nweb01"
TAB = 'a\tweb01'
ADDR = "\r\n192.0.2.10"
''', id="python"),
    pytest.param("data.json", r'{"msg": "node:\nweb01", "tab": "a\tweb01", "addr": "\r\n192.0.2.10"}' "\n",
                 id="json"),
    pytest.param("values.yaml", r'''msg: "node:\nweb01"
tab: "a\tweb01"
addr: "\r\n192.0.2.10"
''', id="yaml-double-quoted"),
    pytest.param("banner.sh", r'''#!/bin/sh
printf 'node:\nweb01\n'
printf 'a\tweb01\n'
printf '\r\n192.0.2.10\n'
''', id="shell-printf"),
    pytest.param("notes.txt", r"node:\nweb01 then a\tweb01 then \r\n192.0.2.10" "\n", id="plain-text"),
])
def test_an_escape_is_a_boundary(repo: Repo, run: Run, path: str, text: str) -> None:
    root = repo({path: text}, config=ESCAPE_CONFIG, allowlist=CURRENT_ALL)
    code, findings = _findings(run, root)
    assert code == 1 and len(findings) == 3, findings
    assert run(root, "sweep").exit_code == 0
    assert (root / path).read_text() == text.replace("web01", "app01").replace("192.0.2.10", "192.0.2.20")
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize("path, text", [
    pytest.param("tool.py", 'MSG = "\\\\nweb01"\n', id="python"),
    pytest.param("data.json", '{"msg": "\\\\nweb01"}\n', id="json"),
    pytest.param("values.yaml", 'msg: "\\\\nweb01"\n', id="yaml-double-quoted"),
])
def test_an_escaped_backslash_then_n_is_part_of_the_name(repo: Repo, run: Run, path: str, text: str) -> None:
    assert "\\\\nweb01" in text
    root = repo({path: text}, config=ESCAPE_CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep").exit_code == 0
    assert (root / path).read_text() == text
    code, findings = _findings(run, root)
    assert code == 0 and findings == []


# -- 3. regex-escaped spellings -------------------------------------------------------------------

REGEX_CONFIG = _config("{ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}", "{192.168.1.69: 192.168.1.59}")


@pytest.mark.parametrize("path, before, after", [
    pytest.param("scripts/scrub.sh", r'replace_in_files "192\.168\.1\.69" "$NEW"' "\n",
                 r'replace_in_files "192\.168\.1\.59" "$NEW"' "\n", id="shell-backslash-dot"),
    pytest.param("prometheus.yml", "scrape_configs:\n  - job_name: node\n    relabel_configs:\n"
                 "      - source_labels: [__address__]\n        regex: '192\\.168\\.1\\.69:9100'\n"
                 "        target_label: instance\n",
                 "scrape_configs:\n  - job_name: node\n    relabel_configs:\n"
                 "      - source_labels: [__address__]\n        regex: '192\\.168\\.1\\.59:9100'\n"
                 "        target_label: instance\n", id="prometheus-relabel"),
    pytest.param("rules.json", r'{"match": "192\\.168\\.1\\.69"}' "\n",
                 r'{"match": "192\\.168\\.1\\.59"}' "\n", id="json-double-backslash"),
    pytest.param("alerts.yml", 'groups:\n  - name: node\n    rules:\n      - alert: StudioDown\n'
                 '        expr: up{instance=~"192[.]168[.]1[.]69:9100"} == 0\n',
                 'groups:\n  - name: node\n    rules:\n      - alert: StudioDown\n'
                 '        expr: up{instance=~"192[.]168[.]1[.]59:9100"} == 0\n', id="alert-bracket-dot"),
    pytest.param("fix.sh", r"sed -i 's/ana\-ml2/x/' hosts" "\n", r"sed -i 's/fv\-ml1/x/' hosts" "\n",
                 id="sed-escaped-hyphen"),
    pytest.param("grep.sh", r"grep -E '\bana-ml2\b' hosts" "\n", r"grep -E '\bfv-ml1\b' hosts" "\n",
                 id="word-boundaries"),
    pytest.param("fqdn.sh", r"grep 'ana-ml2\.ana\.lan' hosts" "\n", r"grep 'fv-ml1\.fv\.lan' hosts" "\n",
                 id="fqdn-escaped-dots"),
    pytest.param("scrub.py", 'import re\nHOST = re.compile(r"192\\.168\\.1\\.69")\nOLD = "ana\\\\-ml2"\n',
                 'import re\nHOST = re.compile(r"192\\.168\\.1\\.59")\nOLD = "fv\\\\-ml1"\n', id="python-raw-and-plain"),
    pytest.param("docs/alerts.md", "Match `192\\.168\\.1\\.69` and `ana\\-ml2`.\n",
                 "Match `192\\.168\\.1\\.59` and `fv\\-ml1`.\n", id="markdown-code-span"),
])
def test_a_regex_escaped_spelling_is_rewritten_in_its_own_style(repo: Repo, run: Run, path: str,
                                                                 before: str, after: str) -> None:
    root = repo({path: before}, config=REGEX_CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "verify").exit_code == 1
    assert run(root, "sweep").exit_code == 0
    assert (root / path).read_text() == after
    result = run(root, "verify")
    assert result.exit_code == 0, result.stdout


# -- 4. patterns that match an old value ------------------------------------------------------------

@pytest.mark.parametrize("path, text", [
    pytest.param("scripts/check.sh", "#!/bin/sh\ngrep -E '192.168.1.6[0-9]' /var/log/syslog\n"
                 "grep -P '192\\.168\\.1\\.\\d+' /var/log/syslog\npgrep -f 'ana-ml\\d'\n", id="shell"),
    pytest.param("rules.yaml", "match:\n  - '192.168.1.6[0-9]'\n  - '192\\.168\\.1\\.\\d+'\n  - 'ana-ml\\d'\n",
                 id="yaml"),
    pytest.param("rules.json", '{\n  "a": "192.168.1.6[0-9]",\n  "b": "192\\\\.168\\\\.1\\\\.\\\\d+",\n'
                 '  "c": "ana-ml\\\\d"\n}\n', id="json"),
    pytest.param("match.py", 'import re\nA = re.compile(r"192.168.1.6[0-9]")\n'
                 'B = re.compile(r"192\\.168\\.1\\.\\d+")\nC = re.compile(r"ana-ml\\d")\n', id="python"),
    pytest.param("notes.md", "# Filters\n- `192.168.1.6[0-9]` covers the rack\n"
                 "- `192\\.168\\.1\\.\\d+` too\n- `ana-ml\\d` matches the box\n", id="markdown"),
])
def test_a_pattern_matching_an_old_value_is_a_residual(repo: Repo, run: Run, path: str, text: str) -> None:
    root = repo({path: text}, config=REGEX_CONFIG, allowlist=CURRENT_ALL)
    before = snapshot(root)
    code, findings = _findings(run, root)
    assert code == 1
    # line 3's `192\.168\.1\.\d+` matches the new address 192.168.1.59 too: it covers the machine
    # before and after the move, so it asks no decision (patterns._covers_new); lines 2 and 4
    # match the old value only
    assert _by_reason(findings) == {(path, line, "pattern") for line in (2, 4)}, findings
    verify = run(root, "verify")
    assert verify.stdout.count("residual (pattern)") == 2, verify.stdout
    assert run(root, "sweep").exit_code == 1  # issue 27 item 18: the patterns are left for a decision
    assert snapshot(root) == before


# -- 5. accounts ----------------------------------------------------------------------------------

ACCOUNT_CONFIG = _config("{thestudio: newstudio}")
PLIST = ('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'
         "  <key>UserName</key>\n  <string>thestudio</string>\n</dict>\n</plist>\n")

# (path, text, line of the account)
ACCOUNTS = [
    pytest.param("setup.sh", "#!/bin/sh\nls /home/thestudio\n", 2, id="home"),
    pytest.param("setup.sh", "#!/bin/sh\ncp x /Users/thestudio/x\n", 2, id="macos-home"),
    pytest.param("setup.sh", "#!/bin/sh\ncd ~thestudio\n", 2, id="tilde"),
    pytest.param("setup.ps1", "Set-Location C:\\Users\\thestudio\n", 1, id="windows-home"),
    pytest.param("setup.sh", "#!/bin/sh\nchown thestudio:staff f\n", 2, id="chown-user"),
    pytest.param("setup.sh", "#!/bin/sh\nchown -R root:thestudio f\n", 2, id="chown-group"),
    pytest.param("studio.service", "[Service]\nUser=thestudio\nExecStart=/bin/true\n", 2, id="systemd-user"),
    pytest.param("studio.service", "[Service]\nGroup=thestudio\nExecStart=/bin/true\n", 2, id="systemd-group"),
    pytest.param("com.studio.agent.plist", PLIST, 5, id="launchd-username"),
    pytest.param("inventory.yml", "all:\n  vars:\n    ansible_user: thestudio\n", 3, id="ansible-user"),
    pytest.param("play.yml", "- hosts: all\n  become_user: thestudio\n", 2, id="become-user"),
    pytest.param("compose.yml", "services:\n  app:\n    user: thestudio\n", 3, id="yaml-user"),
    pytest.param("setup.sh", "#!/bin/sh\ngit clone thestudio@host:repo\n", 2, id="user-at-host"),
]


@pytest.mark.parametrize("path, text, line", ACCOUNTS)
def test_an_account_named_like_the_host_is_kept(repo: Repo, run: Run, path: str, text: str, line: int) -> None:
    root = repo({path: text}, config=ACCOUNT_CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep").exit_code == 0
    assert (root / path).read_text() == text
    verify = run(root, "verify")
    assert verify.exit_code == 0, verify.stdout
    references = json.loads(run(root, "audit", "--format", "json").stdout)["references"]
    assert [(r["path"], r["line"], r["status"], r["reason"]) for r in references] == \
        [(path, line, "kept", "account")]
    table = run(root, "audit").stdout
    assert "account (1)" in table and f"{path}:{line}" in table, table


@pytest.mark.parametrize("text, after", [
    pytest.param("ssh root@thestudio uptime\n", "ssh root@newstudio uptime\n", id="root-at-host"),
    pytest.param("ssh thestudio uptime\n", "ssh newstudio uptime\n", id="ssh-host"),
])
def test_the_host_next_to_an_account_is_rewritten(repo: Repo, run: Run, text: str, after: str) -> None:
    root = repo({"setup.sh": text}, config=ACCOUNT_CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep").exit_code == 0
    assert (root / "setup.sh").read_text() == after
    assert run(root, "verify").exit_code == 0


def test_accounts_rewrite_renames_accounts_too(repo: Repo, run: Run) -> None:
    files = {f"case{i:02d}/{p.values[0]}": str(p.values[1]) for i, p in enumerate(ACCOUNTS)}
    root = repo(files, config=_config("{thestudio: newstudio}", options="{accounts: rewrite}"),
                allowlist=CURRENT_ALL)
    assert run(root, "sweep").exit_code == 0
    changed = {path: (root / path).read_text() for path in files}
    assert changed == {path: text.replace("thestudio", "newstudio") for path, text in files.items()}
    assert run(root, "verify").exit_code == 0


def test_an_unknown_accounts_choice_is_refused(repo: Repo, run: Run) -> None:
    config = _config("{thestudio: newstudio}", options="{accounts: maybe}")
    line = config.splitlines().index("options: {accounts: maybe}") + 1
    root = repo({"setup.sh": "ls /home/thestudio\n"}, config=config, allowlist=CURRENT_ALL)
    before = snapshot(root)
    result = run(root, "sweep")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"renamer: error: renamer.yaml:{line}: options.accounts"), result.stderr
    assert snapshot(root) == before


# -- 6. zone files ----------------------------------------------------------------------------------

NAMED_CHECKZONE = Path("/usr/bin/named-checkzone")
ZONE_ALLOWLIST = (CURRENT_ALL + "records:\n  - name: zone-history\n    paths: [history/**]\n"
                  "    reason: the zones as they were served\n")
MULTI_LINE_ZONE = """\
$ORIGIN lab.
$TTL 3600
@       IN  SOA ns1.lab. hostmaster.lab. (
                2026050401 ; serial
                3600       ; refresh
                900        ; retry
                604800     ; expire
                300 )      ; minimum
        IN  NS  ns1.lab.
ns1     IN  A   10.250.50.1
ana-ml2 IN  A   10.250.50.54   ; the GPU box
gpu     IN  CNAME ana-ml2
"""
ONE_LINE_ZONE = """\
$ORIGIN lab.
$TTL 300
@ 300 IN SOA ns1.lab. hostmaster.lab. 42 3600 900 604800 300 ; one-line SOA
@ IN NS ns1.lab.
ns1 IN A 10.250.50.1
ana-ml2 IN A 10.250.50.54
"""
# (its $ORIGIN says what `ana-ml2` means: without it, a zone of unknown origin, that relative
# owner is a residual zone-origin, the renames holding ana-ml2.ana.lan too)
OTHER_ZONE = ONE_LINE_ZONE.replace("ana-ml2 IN A 10.250.50.54\n", "www IN A 10.250.50.2\n")


def _date_serial(old: str) -> str:
    return str(max(int(datetime.date.today().strftime("%Y%m%d")) * 100 + 1, int(old) + 1))


ZONES = [
    pytest.param("zones/lab.db", MULTI_LINE_ZONE, "2026050401", _date_serial("2026050401"), id="multi-line-date"),
    pytest.param("coredns/db.lab", ONE_LINE_ZONE, "42", "43", id="one-line-counter"),
]


def _renamed(zone: str, old: str, new: str) -> str:
    out = zone.replace("ana-ml2", "fv-ml1").replace("10.250.50.54", "10.251.50.54")
    return re.sub(rf"(?<![0-9]){old}(?![0-9])", new, out, count=1)


def _checkzone(path: Path) -> str:
    assert NAMED_CHECKZONE.exists()
    done = subprocess.run([str(NAMED_CHECKZONE), "lab", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.parametrize("path, zone, old, new", ZONES)
def test_a_committed_sweep_bumps_the_serial_of_a_zone_it_edits(repo: Repo, run: Run, path: str, zone: str,
                                                               old: str, new: str) -> None:
    root = repo({path: zone}, config=CONFIG, allowlist=ZONE_ALLOWLIST)
    assert f"loaded serial {old}\n" in _checkzone(root / path)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stderr
    assert (root / path).read_text() == _renamed(zone, old, new)
    assert f"loaded serial {new}\n" in _checkzone(root / path)
    assert f"{path}: serial {old} -> {new}" in git(root, "log", "-1", "--format=%B")
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize("path, zone, old, new", ZONES)
def test_a_dry_run_lists_the_serial_it_would_bump(repo: Repo, run: Run, path: str, zone: str,
                                                  old: str, new: str) -> None:
    root = repo({path: zone}, config=CONFIG, allowlist=ZONE_ALLOWLIST)
    text = run(root, "sweep", "--dry-run")
    assert text.exit_code == 0
    assert f"{path}: serial {old} -> {new}" in text.stdout, text.stdout
    document = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert document["serials"] == [{"path": path, "old": old, "new": new}]
    assert (root / path).read_text() == zone


def test_a_second_sweep_does_not_bump_the_serial_again(repo: Repo, run: Run) -> None:
    root = repo({"zones/lab.db": MULTI_LINE_ZONE}, config=CONFIG, allowlist=ZONE_ALLOWLIST)
    assert run(root, "sweep", "--commit").exit_code == 0
    swept, head = (root / "zones/lab.db").read_bytes(), git(root, "rev-parse", "HEAD")
    document = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert document["serials"] == [] and document["edits"] == []
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "zones/lab.db").read_bytes() == swept
    assert git(root, "rev-parse", "HEAD") == head


def test_a_zone_without_an_old_value_keeps_its_serial(repo: Repo, run: Run) -> None:
    root = repo({"zones/lab.db": MULTI_LINE_ZONE, "zones/other.db": OTHER_ZONE},
                config=CONFIG, allowlist=ZONE_ALLOWLIST)
    document = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert [s["path"] for s in document["serials"]] == ["zones/lab.db"]
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "zones/other.db").read_text() == OTHER_ZONE


def test_a_zone_in_a_record_class_is_never_touched(repo: Repo, run: Run) -> None:
    root = repo({"history/lab.db": MULTI_LINE_ZONE, "zones/lab.db": ONE_LINE_ZONE},
                config=CONFIG, allowlist=ZONE_ALLOWLIST)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "history/lab.db").read_text() == MULTI_LINE_ZONE
    assert "history/lab.db" not in git(root, "log", "-1", "--format=%B")
    assert run(root, "verify").exit_code == 0


def test_markdown_quoting_an_soa_in_a_fence_is_no_zone(repo: Repo, run: Run) -> None:
    doc = ("# DNS\n\nThe zone starts:\n\n```\n"
           "@ 300 IN SOA ns1.lab. hostmaster.lab. 2026050401 3600 900 604800 300\n"
           "ana-ml2 IN A 10.250.50.54\n```\n")
    root = repo({"docs/dns.md": doc}, config=CONFIG, allowlist=ZONE_ALLOWLIST)
    document = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert document["serials"] == []
    assert run(root, "sweep").exit_code == 0
    assert (root / "docs/dns.md").read_text() == doc.replace("ana-ml2", "fv-ml1").replace(
        "10.250.50.54", "10.251.50.54")
