"""The sweep tells the truth, outside pass t28 (issue 27), structure and sets: findings 05, 06, 07,
11, 14, 18, 19 and 23, each end to end through the CLI on a real git repo (each failed on main).

14. A shell default after a positional or special parameter or an array element (`${1:-web01}`,
    `${@:-web01}`, `${HOSTS[0]:-web01}`) was a near-miss "'web01' looks like 'web01'", never
    rewritten: the script still defaulted to the old host. Bash itself reads the result.
05. Ranges in more dress had one end rewritten: rst double backticks, `...`, a Markdown-escaped
    hyphen, an abbreviated end after a spaced dash or `to`, parenthesised ends, U+2010/U+2011,
    U+FF5E/U+301C: now `range` residuals (key pairs `min:`/`max:`, `lo:`/`hi:`: tests/cli/test_keyed_ranges.py).
06. A renamed key meeting a standing one was only warned (written, exit 0) in a Python dict, a
    one-line PHP array, Jsonnet, Ruby, Lua or Perl list, and OpenWrt UCI sections: now refused.
07. A name split by PowerShell's backtick, cmd.exe's caret or a Dockerfile's `# escape=` mark
    was never read: now a `split` residual.
19. A brace set glued to an old name (`web01{,-bmc}`) had its head rewritten: it named app01-bmc.
11. Two machines made one name through a derived rename (an FQDN that follows its short name,
    `derived_names`, another machine moved into the domain) were never refused: now refused at
    load (exit 2) as a direct many-to-one is.
23. An interface's own address renamed into another network beside its stanza's gateway (netplan
    `via:`/`gateway4:`, ifupdown `gateway`) was rewritten silently: now a `gateway` residual.
18. Redis RESP (`$17\r\n...`) and netstring (`17:...,`) lengths stayed while the string changed.
"""

from __future__ import annotations

import subprocess

import pytest

from tests.testing.repos import CURRENT_ALL, Repo, Run


def _config(renames: str, options: str = "") -> str:
    extra = f"options: {{{options}}}\n" if options else ""
    return f"version: 1\nrenames: {{{renames}}}\n{extra}allowlist: allow.yaml\n"


# -- 14: shell defaults after positional and special parameters -----------------------------------

@pytest.mark.parametrize(("line", "args"), [
    pytest.param('H=${1:-web01}; echo "$H"', [], id="positional"),
    pytest.param('echo "${2:-web01.lab}"', [], id="positional-fqdn"),
    pytest.param('echo "${10:-web01}"', [], id="two-digits"),
    pytest.param('A=("$@"); echo "${A[0]:-web01}"', [], id="array-element"),
    pytest.param('A=("$@"); echo "${A[@]:-web01}"', [], id="array-all"),
    pytest.param('for h in "${@:-web01}"; do echo "$h"; done', [], id="at"),
    pytest.param('echo "${*:-web01}"', [], id="star"),
    pytest.param('echo "${1-web01}"', [], id="positional-no-colon"),
    pytest.param('A=(); echo "${A[0]-web01}"', [], id="array-no-colon"),
])
def test_a_default_after_a_special_parameter_is_rewritten(line: str, args: list[str], repo: Repo, run: Run) -> None:
    root = repo({"run.bash": f"#!/bin/bash\n{line}\n"}, config=_config("hosts: {web01: app01, web01.lab: app01.lab}"),
                allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    printed = subprocess.run(["bash", str(root / "run.bash"), *args], capture_output=True, text=True,
                             check=True, timeout=30).stdout
    assert "app01" in printed and "web01" not in printed, (printed, (root / "run.bash").read_text())
    checked = run(root, "verify")
    assert checked.exit_code == 0 and "0 near-misses" in checked.stdout, checked.stdout


# -- 06: a renamed key meeting a standing one, on any layout ---------------------------------------

@pytest.mark.parametrize(("path", "text"), [
    pytest.param("inv.py", 'HOSTS = {\n    "web01": "10.0.0.70",\n    "app01": "10.0.0.80",\n}\n', id="python-dict"),
    pytest.param("one.py", "H = {'web01': 1, 'app01': 2}\n", id="python-one-line"),
    pytest.param("nested.py", 'C = {"hosts": {"web01": {"ip": 1}, "app01": {"ip": 2}}}\n', id="python-nested"),
    pytest.param("hosts.php", "<?php $hosts = ['web01' => '10.0.0.70', 'app01' => '10.0.0.80'];\n", id="php"),
    pytest.param("hosts.jsonnet", '{ web01: { ip: "10.0.0.70" }, app01: { ip: "10.0.0.80" } }\n', id="jsonnet"),
    pytest.param("hosts.rb", 'H = { "web01" => 1, "app01" => 2 }\n', id="ruby-one-line"),
    pytest.param("hosts.lua", 'local h = { ["web01"] = 1, ["app01"] = 2 }\n', id="lua-brackets"),
    pytest.param("hosts.pl", "my %h = (web01 => 1, app01 => 2);\n", id="perl-one-line"),
    pytest.param("etc/config/dhcp", "config host 'web01'\n\toption mac '52:54:00:00:00:70'\n\toption ip '10.0.0.70'\n\n"
                 "config host 'app01'\n\toption mac '52:54:00:00:00:80'\n\toption ip '10.0.0.80'\n", id="uci"),
    pytest.param("etc/config/network", 'config interface "web01"\n\toption proto static\n\n'
                 "config interface app01\n\toption proto dhcp\n", id="uci-quoting"),
])
def test_a_renamed_key_meeting_a_standing_one_is_refused(path: str, text: str, repo: Repo, run: Run) -> None:
    root = repo({path: text}, config=_config("hosts: {web01: app01}"), allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert (root / path).read_text() == text
    assert "would collide with an existing one" in done.stdout + done.stderr
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1 and f"{path}:" in checked.stdout and "residual (structure)" in checked.stdout, \
        checked.stdout


@pytest.mark.parametrize(("path", "text", "expected"), [
    pytest.param("t.txt", 'targets: ["web01:80", "app01:80"]\n', 'targets: ["app01:80", "app01:80"]\n',
                 id="list-of-words"),
    pytest.param("t.lua", "t = { web01:80, app01 }\n", "t = { app01:80, app01 }\n", id="no-key"),
    pytest.param("etc/config/dhcp", "config host 'web01'\n\toption ip '10.0.0.70'\n\nconfig domain 'app01'\n"
                 "\toption ip '10.0.0.80'\n", "config host 'app01'\n\toption ip '10.0.0.70'\n\nconfig domain 'app01'\n"
                 "\toption ip '10.0.0.80'\n", id="uci-other-type"),
    pytest.param("two.py", "A = {'web01': 1}\nB = {'app01': 2}\n", "A = {'app01': 1}\nB = {'app01': 2}\n",
                 id="python-two-dicts"),
])
def test_a_key_beside_no_standing_one_is_rewritten(path: str, text: str, expected: str, repo: Repo, run: Run) -> None:
    root = repo({path: text}, config=_config("hosts: {web01: app01}"), allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / path).read_text() == expected


# -- 18: length-prefixed strings beyond PHP -----------------------------------------------------------

def _resp(data: bytes) -> list[list[bytes]]:
    """A strict reader of RESP arrays of bulk strings (a Redis append-only file): raises where Redis
    refuses the file ("Bad file format")."""
    out, at = [], 0
    while at < len(data):
        assert data[at:at + 1] == b"*", data[at:]
        end = data.index(b"\r\n", at)
        count, at, command = int(data[at + 1:end]), end + 2, []
        for _ in range(count):
            assert data[at:at + 1] == b"$", data[at:]
            end = data.index(b"\r\n", at)
            length, at = int(data[at + 1:end]), end + 2
            assert data[at + length:at + length + 2] == b"\r\n", f"${length} does not end where its string does"
            command.append(data[at:at + length])
            at += length + 2
        out.append(command)
    return out


def _netstrings(data: bytes) -> list[bytes]:
    """A strict netstring reader (djb's spec): `N:` then N bytes then `,`, one after another."""
    out, at = [], 0
    while at < len(data) and data[at:at + 1] != b"\n":
        colon = data.index(b":", at)
        length, begin = int(data[at:colon]), colon + 1
        assert data[begin + length:begin + length + 1] == b",", f"{length}: does not end where its string does"
        out.append(data[begin:begin + length])
        at = begin + length + 1
    return out


@pytest.mark.parametrize("new", ["db.lab.example", "application01.lab.example"])
def test_resp_and_netstring_lengths_follow_the_string(new: str, repo: Repo, run: Run) -> None:
    aof = (b"*3\r\n$3\r\nSET\r\n$4\r\nhost\r\n$17\r\nweb01.lab.example\r\n"
           b"*3\r\n$4\r\nSADD\r\n$5\r\nnodes\r\n$22\r\nweb01.lab.example:6379\r\n")
    net = b"17:web01.lab.example,5:hello,\n"
    nested = b"26:17:web01.lab.example,2:ok,,\n"
    root = repo({"appendonly.aof": aof, "hosts.netstring": net, "nested.ns": nested},
                config=_config(f"hosts: {{web01.lab.example: {new}}}"), allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert _resp((root / "appendonly.aof").read_bytes()) == [[b"SET", b"host", new.encode()],
                                                              [b"SADD", b"nodes", new.encode() + b":6379"]]
    assert _netstrings((root / "hosts.netstring").read_bytes()) == [new.encode(), b"hello"]
    outer = _netstrings((root / "nested.ns").read_bytes())
    assert len(outer) == 1 and _netstrings(outer[0]) == [new.encode(), b"ok"]
    assert run(root, "verify").exit_code == 0


# -- 19: a brace set glued to an old name names derived machines --------------------------------------

@pytest.mark.parametrize("line", [
    "for h in web01{,-bmc,-ipmi}; do echo $h; done",
    "echo web01{,-bmc}.lab",
    "echo /srv/backups/web01{.lab,-old}",
    "echo {web01,db01}{,-bmc}",
    "echo web01{,-old}:22",
])
def test_a_set_glued_to_an_old_name_is_a_residual(line: str, repo: Repo, run: Run) -> None:
    text = f"#!/bin/bash\n{line}\n"
    root = repo({"ops.sh": text}, config=_config("hosts: {web01: app01}"), allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "ops.sh").read_text() == text
    checked = run(root, "verify")
    assert checked.exit_code == 1 and "ops.sh:2:" in checked.stdout and "residual (range)" in checked.stdout, \
        checked.stdout


@pytest.mark.parametrize(("line", "expected"), [
    ("echo {web01,db01}.lab", "app01.lab db01.lab"),
    ("echo {db01,web01}", "db01 app01"),
])
def test_a_set_whose_member_moves_whole_is_rewritten(line: str, expected: str, repo: Repo, run: Run) -> None:
    root = repo({"ops.sh": f"#!/bin/bash\n{line}\n"}, config=_config("hosts: {web01: app01}"), allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    printed = subprocess.run(["bash", str(root / "ops.sh")], capture_output=True, text=True, check=True,
                             timeout=30).stdout
    assert printed.strip() == expected


# -- 07: line continuations of other shells -----------------------------------------------------------

@pytest.mark.parametrize(("path", "text", "lines"), [
    pytest.param("deploy.ps1", "Invoke-Command -ComputerName web`\n01 -ScriptBlock { hostname }\n"
                 "Test-Connection 10.0.0.`\n70\n", [1, 3], id="powershell"),
    pytest.param("mod/Tools.psm1", "$h = \"web0`\r\n1\"\r\n", [1], id="powershell-module-crlf"),
    pytest.param("check.bat", "ping web^\r\n01\r\nping 10.0.0.^\r\n70\r\n", [1, 3], id="cmd"),
    pytest.param("run.cmd", "@echo off\nssh w^\neb01 uptime\n", [2], id="cmd-lf"),
    pytest.param("Dockerfile", "# escape=`\nFROM mcr.microsoft.com/windows/servercore:ltsc2022\nRUN ping -n 1 web`\n01\n",
                 [3], id="dockerfile-backtick"),
    pytest.param("win.dockerfile", "# syntax=docker/dockerfile:1\n#escape=`\nFROM x\nRUN ping 10.0.0.`\n70\n",
                 [4], id="dockerfile-second-directive"),
])
def test_a_name_split_by_another_shells_continuation_is_a_residual(path: str, text: str, lines: list[int],
                                                                   repo: Repo, run: Run) -> None:
    root = repo({path: text.encode()}, config=_config("hosts: {web01: app01}, addresses: {10.0.0.70: 10.0.1.90}"),
                allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / path).read_bytes() == text.encode()
    checked = run(root, "verify")
    assert checked.exit_code == 1, checked.stdout
    found = sorted(int(line.split(":")[1]) for line in checked.stdout.splitlines()
                   if line.startswith(f"{path}:") and "residual (split)" in line)
    assert found == lines, checked.stdout


@pytest.mark.parametrize(("path", "text"), [
    pytest.param("notes.sh", "echo web`\n01\n", id="backtick-in-a-shell-script"),
    pytest.param("Dockerfile", "# escape=`\nFROM x\nRUN echo C:\\web\\\n01\n", id="backslash-under-escape-backtick"),
    pytest.param("a.ps1", "echo web^\n01\n", id="caret-in-powershell"),
])
def test_a_mark_of_another_reader_joins_nothing(path: str, text: str, repo: Repo, run: Run) -> None:
    root = repo({path: text}, config=_config("hosts: {web01: app01}"), allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert run(root, "verify").exit_code == 0


# -- 11: many-to-one through derived renames ---------------------------------------------------------

@pytest.mark.parametrize(("renames", "options", "named"), [
    pytest.param("hosts: {web01: app01, web02.lab: app01.lab}", "", ("web02.lab", "web01.lab"), id="fqdn-follows"),
    pytest.param("hosts: {web01.lab: app01.lab, web02.lab.example: app01.lab.example}", "",
                 ("web02.lab.example", "web01.lab.example"), id="name-under-an-fqdn"),
    pytest.param("hosts: {web01: app01, WEB02.lab: App01.lab}", "", ("WEB02.lab", "web01.lab"), id="any-case"),
    pytest.param("hosts: {web01: app01, db01: app01-db}", "derived_names: true", ("db01", "web01-db"),
                 id="derived-names"),
    # another machine moved into a domain: web01.fv.lan would follow web01 there (f30-left; was loaded)
    pytest.param("hosts: {web01: app01, web02.ana.lan: app01.fv.lan}", "", ("web02.ana.lan", "web01.fv.lan"),
                 id="into-another-domain"),
    pytest.param("hosts: {web01: app01, web02.site.ana.lan: app01.fv.lan.example}", "",
                 ("web02.site.ana.lan", "web01.fv.lan.example"), id="into-another-longer-domain"),
    pytest.param("hosts: {WEB01: app01, web02.ana.lan: APP01.fv.lan}", "", ("web02.ana.lan", "WEB01.fv.lan"),
                 id="into-another-domain-any-case"),
])
def test_a_merge_through_a_derived_rename_is_refused_at_load(renames: str, options: str, named: tuple[str, str],
                                                             repo: Repo, run: Run) -> None:
    files = {"check.sh": "ssh web01.lab uptime\nssh web02.lab uptime\nssh web01-db uptime\nssh db01 uptime\n"}
    root = repo(files, config=_config(renames, options), allowlist=CURRENT_ALL)
    for command in (("sweep", "--commit"), ("verify", "--strict")):
        done = run(root, *command)
        assert done.exit_code == 2, done.stdout + done.stderr
        error = done.stderr.strip()
        assert error.startswith("renamer: error: renamer.yaml:") and "\n" not in error, error
        assert all(f"'{name}'" in error for name in named) and "renames.merges" in error, error
    assert (root / "check.sh").read_text() == files["check.sh"]


@pytest.mark.parametrize(("renames", "options"), [
    pytest.param("hosts: {web01: app01, web01.lab: app01.lab}", "", id="the-fqdn-itself"),
    pytest.param("hosts: {web01: app01, db01: app01-db}", "", id="no-derived-names"),
    pytest.param("hosts: {web01: app01, web01-db: app01-db}", "derived_names: true", id="the-derived-name-itself"),
    pytest.param("hosts: {web01: app01, web02.lab: app01.lab, web01.lab: app01.lab}, "
                 "merges: {app01.lab: [web01.lab, web02.lab]}", "", id="the-advice-followed"),
    # one machine's own move to another domain derives no other machine's name there
    pytest.param("hosts: {web01: app01, web01.ana.lan: app01.fv.lan}", "", id="its-own-move-to-another-domain"),
    pytest.param("hosts: {web01.lab: app01.lab, web02.ana.lan: app01.fv.lan}", "", id="the-fqdn-renamed-alone"),
])
def test_a_derived_rename_that_merges_nothing_loads(renames: str, options: str, repo: Repo, run: Run) -> None:
    root = repo({"check.sh": "ssh web01.lab uptime\n"}, config=_config(renames, options), allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "check.sh").read_text() == "ssh app01.lab uptime\n"


# -- 23: an address renamed out of its subnet beside its gateway --------------------------------------

NETPLAN = """network:
  version: 2
  ethernets:
    eth0:
      addresses: [10.0.0.70/24]
      routes:
        - to: default
          via: 10.0.0.1
"""
NETPLAN_LIST = """network:
  ethernets:
    ens3:
      addresses:
        - 10.0.0.70/24
      gateway4: 10.0.0.1
"""
IFUPDOWN = "auto eth0\niface eth0 inet static\n  address 10.0.0.70\n  netmask 255.255.255.0\n  gateway 10.0.0.1\n"
IFUPDOWN_CIDR = "iface eth0 inet static\n    address 10.0.0.70/24\n    gateway 10.0.0.1\n"


@pytest.mark.parametrize(("path", "text", "line"), [
    pytest.param("netplan.yaml", NETPLAN, 5, id="netplan-via"),
    pytest.param("01-net.yaml", NETPLAN_LIST, 5, id="netplan-list-gateway4"),
    pytest.param("interfaces", IFUPDOWN, 3, id="ifupdown-netmask"),
    pytest.param("interfaces.d/eth0", IFUPDOWN_CIDR, 2, id="ifupdown-cidr"),
])
def test_an_address_renamed_off_its_gateways_network_is_a_residual(path: str, text: str, line: int,
                                                                     repo: Repo, run: Run) -> None:
    root = repo({path: text}, config=_config("addresses: {10.0.0.70: 10.0.1.90}"), allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / path).read_text() == text
    checked = run(root, "verify")
    assert checked.exit_code == 1 and f"{path}:{line}:" in checked.stdout and "residual (gateway)" in checked.stdout, \
        checked.stdout


@pytest.mark.parametrize(("renames", "expected"), [
    pytest.param("addresses: {10.0.0.70: 10.0.0.90}", ("10.0.0.90/24", "10.0.0.1"), id="same-network"),
    pytest.param('networks: {"10.0.0.0/24": "10.0.1.0/24"}', ("10.0.1.70/24", "10.0.1.1"), id="network-moves-gateway"),
])
def test_an_address_that_keeps_its_gateway_on_link_is_rewritten(renames: str, expected: tuple[str, str],
                                                                repo: Repo, run: Run) -> None:
    root = repo({"netplan.yaml": NETPLAN}, config=_config(renames), allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    text = (root / "netplan.yaml").read_text()
    assert f"addresses: [{expected[0]}]" in text and f"via: {expected[1]}" in text, text


# -- 05: ranges in more dress -------------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    pytest.param("``web01``\u2013``web05``", id="rst-double-backticks"),
    pytest.param("``10.0.0.70``\u2013``10.0.0.74``", id="rst-addresses"),
    pytest.param("web01...web05", id="three-dots"),
    pytest.param("web01 ... web05", id="three-dots-spaced"),
    pytest.param("10.0.0.70...74", id="three-dots-address"),
    pytest.param("web01 \\- web05", id="markdown-escaped-hyphen"),
    pytest.param("web01 \u2013 05", id="spaced-dash-abbreviated"),
    pytest.param("web01 to 05", id="to-abbreviated"),
    pytest.param("(web01)-(web05)", id="parenthesised"),
    pytest.param("web01 \u2010 web05", id="u2010"),
    pytest.param("web01\u2011web05", id="u2011"),
    pytest.param("web01 \uff5e web05", id="fullwidth-tilde"),
    pytest.param("web01\u301cweb05", id="wave-dash"),
    pytest.param("10.0.0.70\u301c10.0.0.74", id="wave-dash-address"),
    pytest.param("web05 &#8208; web01", id="entity-hyphen-descending"),
])
def test_a_range_in_more_dress_is_a_residual(line: str, repo: Repo, run: Run) -> None:
    text = f"hosts {line} are the web tier\n"
    root = repo({"notes.md": text}, config=_config("hosts: {web01: app01}, addresses: {10.0.0.70: 10.0.1.90}"),
                allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "notes.md").read_text() == text
    checked = run(root, "verify")
    assert checked.exit_code == 1 and "notes.md:1:" in checked.stdout and "residual (range)" in checked.stdout, \
        checked.stdout


@pytest.mark.parametrize(("line", "expected"), [
    pytest.param("web01 \u2013 10 hosts", "app01 \u2013 10 hosts", id="a-count-after-a-dash"),
    pytest.param("web01 to 2024", "app01 to 2024", id="a-year"),
    pytest.param("see (web01) and (db01)", "see (app01) and (db01)", id="two-members"),
])
def test_prose_beside_a_name_is_no_range(line: str, expected: str, repo: Repo, run: Run) -> None:
    root = repo({"notes.md": line + "\n"}, config=_config("hosts: {web01: app01}"), allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "notes.md").read_text() == expected + "\n"
