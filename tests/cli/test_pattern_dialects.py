"""Patterns the sweep did not read, end to end through the CLI (issue 27, break-it round 22,
findings 01, 03, 22, 25, 26).

01: a glob or regex whose wildcard sits in the old name's first characters (`?eb01`, `*-cls1`,
`n\\d-cls\\d`) spelled no "head" and was never a candidate. 03: dialects not read (Ansible's `~`
group then quantifier, fnmatch `[!..]`, POSIX `[[:digit:]]`, Lua `%d`/`%.`). 22: prefix tests of a
host's own name (`startswith`, `is match`, `re.match`, `grep ^x`) were silent where the glob `x*`
is a residual. 25: matchers that declare case-insensitivity (`(?i)`, nginx `~*`, HAProxy `-i`,
`grep -i`) were near-misses (case) only. 26: an alternation of whole names was rewritten in its
first branch and a residual in the others. Each variant below failed before (verify OK, or the
two answers); the consumers (Python re / fnmatch, bash) say what each pattern matches.
"""

from __future__ import annotations

import fnmatch
import json
import re
import subprocess

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = """\
version: 1
renames:
  hosts: {n1-cls1: pve-a, web01: app01, kworker01: kw-a}
  addresses: {10.0.0.70: 10.0.1.90}
allowlist: allow.yaml
"""

FILES = {
    # 01: the wildcard in the name's first characters
    "top.sls": "base:\n  'n?-cls?.homelab.lan':\n    - proxmox\n  '*-cls1':\n    - c1\n  '?eb01':\n    - web\n",
    "net.sls": "{% if grains['host'] is match('n\\d-cls\\d') %}bridge: vmbr0{% endif %}\n"
               "{% if grains['host'] is match('\\w+-cls1') %}ceph: true{% endif %}\n",
    "nodes.sls": "{% for i in range(1, 4) %}\n'n{{ i }}-cls1.homelab.lan':\n  - ceph\n{% endfor %}\n",
    "nodes.sh": "for i in 1 2 3; do ssh \"n${i}-cls1\" uptime; done\n",
    "rules.yml": "- expr: up{instance=~\"n.-cls1.homelab.lan:9100\"} == 0\n- expr: up{job=~\".eb01\"} == 0\n",
    # 03: dialects
    "site.yml": "- hosts: \"~(web|db)\\\\d{2}\"\n  tasks: []\n",
    "pick.py": "import fnmatch\nPRIMARY = fnmatch.fnmatchcase(HOST, 'web0[!2-9]')\n",
    "check.sh": "case \"$h\" in web0[[:digit:]]) echo web ;; esac\n",
    "access.lua": "if host:match(\"^web%d%d$\") then return 1 end\n"
                  "if string.find(addr, \"^10%.0%.0%.%d+$\") then return 2 end\n",
    # 22: prefix tests of the host's own name
    "role.py": "import re\nif NAME.startswith('kworker'):\n    ROLE = 'w'\nif re.match(r'kwork', NAME):\n    ROLE = 'w'\n",
    "boot.sh": "hostname | grep -q '^kworker' && systemctl start kubelet\n",
    # 25: declared case-insensitive
    "prom.yml": "relabel_configs:\n  - regex: \"(?i)WEB01\\\\.lab:9100\"\n    action: keep\n",
    "nginx.conf": "server { server_name ~*^WEB01\\.lab$; }\n",
    "haproxy.cfg": "frontend f\n  acl w hdr(host) -i WEB01.lab\n",
    "t.sh": "grep -qi '^WEB01' /etc/hostname && echo web\n",
}
EXPECTED = {("top.sls", 2, "n1-cls1"), ("top.sls", 4, "n1-cls1"), ("top.sls", 6, "web01"),
            ("net.sls", 1, "n1-cls1"), ("nodes.sls", 2, "n1-cls1"), ("nodes.sh", 1, "n1-cls1"), ("net.sls", 2, "n1-cls1"), ("rules.yml", 1, "n1-cls1"),
            ("rules.yml", 2, "web01"), ("site.yml", 1, "web01"), ("pick.py", 2, "web01"),
            ("check.sh", 1, "web01"), ("access.lua", 1, "web01"), ("access.lua", 2, "10.0.0.70"),
            ("role.py", 2, "kworker01"), ("role.py", 4, "kworker01"), ("boot.sh", 1, "kworker01"),
            ("prom.yml", 2, "web01"), ("nginx.conf", 1, "web01"), ("haproxy.cfg", 2, "web01"),
            ("t.sh", 1, "web01")}
QUIET = {
    # patterns that match no old value, or the new value as well: no decision
    "quiet.sls": "base:\n  '*-cls2':\n    - c2\n  '*p*':\n    - any\n",
    "quiet.py": "import fnmatch\nX = fnmatch.fnmatchcase(H, 'web0[!0-9]')\nY = H.startswith('db')\n"
                "Z = H.startswith('kw')\n",
    "quiet.j2": "{% for i in range(3) %}x{{ i }}-cls1 and {{ i }}-cls1{% endfor %}\n",
    "quiet.lua": "if host:match(\"^db%d$\") then return 1 end\n",
}


def test_the_consumers_match_the_old_value_and_not_the_new() -> None:
    pairs = [("web01", "app01"), ("n1-cls1", "pve-a"), ("kworker01", "kw-a")]
    for glob, (old, new) in [("?eb01", pairs[0]), ("*-cls1", pairs[1]), ("web0[!2-9]", pairs[0])]:
        assert fnmatch.fnmatchcase(old, glob) and not fnmatch.fnmatchcase(new, glob)
    for regex, (old, new) in [(r"n\d-cls\d", pairs[1]), (r"\w+-cls1", pairs[1]), ("kwork", pairs[2])]:
        assert re.match(regex, old) and not re.match(regex, new)
    assert re.search(r"(?i)WEB01\.lab", "web01.lab") and re.fullmatch(r"(web|db)\d{2}", "web01")
    script = 'for h in web01 app01; do case "$h" in web0[[:digit:]]) echo "$h";; esac; done'
    assert subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True).stdout == "web01\n"
    done = subprocess.run(["bash", "-c", "printf 'web01\\napp01\\n' | grep -i '^WEB01'"],
                          capture_output=True, text=True, check=True)
    assert done.stdout == "web01\n"


def test_round22_patterns_the_sweep_did_not_read_are_residuals(repo: Repo, run: Run) -> None:
    root = repo({**FILES, **QUIET}, config=CONFIG, allowlist=CURRENT_ALL)
    done = run(root, "verify", "--format", "json")
    assert done.exit_code == 1
    findings = json.loads(done.stdout)["findings"]
    assert {(f["path"], f["line"], f["old"]) for f in findings} == EXPECTED
    assert {f["reason"] for f in findings} == {"pattern"}
    before = {path: (root / path).read_bytes() for path in (*FILES, *QUIET)}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert {path: (root / path).read_bytes() for path in before} == before


def test_round22_26_an_alternation_of_whole_names_is_rewritten_in_every_branch(repo: Repo, run: Run) -> None:
    rules = ('expr: up{instance=~"n1-cls1.homelab.lan|n2-cls1.homelab.lan|n3-cls1.homelab.lan"}\n'
             'expr: up{instance=~"web01:9100|web02:9100|db01:9100"}\n')
    grouped = "server_name ~^(n2-cls1|n3-cls1)\\.homelab\\.lan$;\n"
    config = "version: 1\nrenames:\n  hosts: {n1-cls1: pve-a, n3-cls1: pve-c, db01: pg-a}\nallowlist: allow.yaml\n"
    root = repo({"global.rules": rules, "g.conf": grouped}, config=config, allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit", "--format", "json")
    assert done.exit_code == 1  # the group followed by a domain is still a pattern
    assert (root / "global.rules").read_text() == (
        'expr: up{instance=~"pve-a.homelab.lan|n2-cls1.homelab.lan|pve-c.homelab.lan"}\n'
        'expr: up{instance=~"web01:9100|web02:9100|pg-a:9100"}\n')
    assert (root / "g.conf").read_text() == grouped
    verify = run(root, "verify", "--format", "json")
    findings = json.loads(verify.stdout)["findings"]
    assert {(f["path"], f["old"], f["reason"]) for f in findings} == {("g.conf", "n3-cls1", "pattern")}


def test_round22_25_a_caseless_matcher_in_lower_case_is_rewritten(repo: Repo, run: Run) -> None:
    root = repo({"haproxy.cfg": "frontend f\n  acl w hdr(host) -i web01.lab\n"}, config=CONFIG,
                allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "haproxy.cfg").read_text() == "frontend f\n  acl w hdr(host) -i app01.lab\n"
    assert run(root, "verify").exit_code == 0
