"""A moved network's prefix kept in a variable and completed elsewhere (issue 27, break-it round 21,
findings 03, 04, 15, 17, 25, 27, 31). `base: "192.168.2"` composed by Jinja subscripts, `~`, `join`,
`format`, Terraform's `format()`/`join()`, a Python f-string, shell `printf`, two loop variables,
`sed` over a `10.0.0.X` template, `with_sequence format=10.0.0.%d`, `seq -f`, an IPv6 prefix without
its `::`: the sweep left the value, no composer was read, and verify said OK while the consumers
made the old addresses. The guard for the class: the value itself is a residual (`prefix`); and
Ansible's address filters over a network in a variable are evaluated (`composed-address`). Each
case runs the consumer (Jinja, python, bash, seq, make) to show what it makes after the sweep."""

from __future__ import annotations

import ipaddress
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest
from ruamel.yaml import YAML

from tests.conftest import Result

Repo = Callable[..., Path]
Run = Callable[..., Result]
ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _config(renames: str) -> str:
    return f"version: 1\nrenames: {renames}\nallowlist: allow.yaml\n"


def _findings(root: Path, run: Run, reason: str = "prefix") -> list[tuple[str, int, str]]:
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    return sorted((f["path"], f["line"], f["old"]) for f in data["findings"] if f["reason"] == reason)


def _render(root: Path, variables: str, template: str) -> str:
    values = YAML(typ="safe").load((root / variables).read_text())
    return jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(template).render(**values)


def _swept_and_failing(root: Path, run: Run, files: dict[str, str]) -> None:
    """The sweep writes none of these files, exits 1; verify and audit keep naming them."""
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    for path, text in files.items():
        assert (root / path).read_text() == text, path  # nothing rewritten by guess
    checked = run(root, "verify")
    assert checked.exit_code == 1, checked.stdout
    assert "residual (prefix)" in checked.stdout, checked.stdout


JINJA_VARS = 'networks:\n  lan:\n    cidr: 192.168.2.0/24\n    base: "192.168.2"\noctets: [192, 168, 2]\n'
JINJA_USES = """\
a1: "{{ networks['lan']['base'] }}.5"
a2: "{{ networks['lan'].base }}.6"
a5: "{{ octets | join('.') }}.9"
a6: "{{ networks.lan.base ~ '.10' }}"
a7: "{{ '%s.11' | format(networks.lan.base) }}"
a8: "{{ [networks.lan.base, '12'] | join('.') }}"
"""


def test_finding_03_a_prefix_variable_jinja_composes_is_a_residual(repo: Repo, run: Run) -> None:
    files = {"group_vars/all/vars.yml": JINJA_VARS, "t/a.yaml": JINJA_USES}
    root = repo(files, config=_config("{networks: {192.168.2.0/24: 192.168.4.0/24}}"), allowlist=ALLOW)
    assert _findings(root, run) == [("group_vars/all/vars.yml", 4, "192.168.2"),
                                    ("group_vars/all/vars.yml", 5, "[192, 168, 2]")]
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    [base] = [f for f in data["findings"] if f["line"] == 4 and f["path"] == "group_vars/all/vars.yml"]
    assert (base["status"], base["column"]) == ("residual", 12)
    assert "leading octets of the moved network 192.168.2.0/24 (`192.168.4` in the new network" in base["note"]
    _swept_and_failing(root, run, {"t/a.yaml": JINJA_USES})
    # What Ansible would render after the sweep: every line still an old-network address.
    rendered = [_render(root, "group_vars/all/vars.yml", line.split(": ", 1)[1].strip('"'))
                for line in JINJA_USES.splitlines()]
    assert rendered == ["192.168.2.5", "192.168.2.6", "192.168.2.9", "192.168.2.10", "192.168.2.11",
                        "192.168.2.12"]
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    assert sorted(r["line"] for r in audit["references"] if r["reason"] == "prefix") == [4, 5]


def test_finding_04_terraform_python_and_shell_prefixes_are_residuals(repo: Repo, run: Run) -> None:
    files = {
        "main.tf": ('variable "base" {\n  default = "192.168.2"\n}\nlocals {\n  b = format("%s.6", var.base)\n'
                    '  c = join(".", [var.base, "7"])\n}\n'),
        "app.py": 'BASE = "192.168.2"\nA = f"{BASE}.5"\nB = "%s.6" % BASE\nC = "{}.7".format(BASE)\nD = BASE + ".8"\n'
                  'print(A, B, C, D)\n',
        "run.sh": 'BASE=192.168.2\nC=$(printf "%s.7" "$BASE")\necho $C\n',
    }
    root = repo(files, config=_config("{networks: {192.168.2.0/24: 192.168.4.0/24}}"), allowlist=ALLOW)
    assert _findings(root, run) == [("app.py", 1, "192.168.2"), ("main.tf", 2, "192.168.2"),
                                    ("run.sh", 1, "192.168.2")]
    _swept_and_failing(root, run, files)
    printed = subprocess.run(["python3", "app.py"], cwd=root, capture_output=True, text=True, check=True).stdout
    assert printed.split() == ["192.168.2.5", "192.168.2.6", "192.168.2.7", "192.168.2.8"]
    shell = subprocess.run(["bash", "run.sh"], cwd=root, capture_output=True, text=True, check=True).stdout
    assert shell.strip() == "192.168.2.7"


def test_finding_15_a_template_head_sed_completes_may_spell_a_renamed_address(repo: Repo, run: Run) -> None:
    files = {
        "cloud-init/network-config": "network:\n  ethernets:\n    eth0:\n      addresses:\n        - 10.0.0.X/24\n",
        "cloud-init/user-data": "#cloud-config\nhostname: nodeX\n",
        "Makefile": ("prepare-n2:\n\tsed 's/nodeX/node2/g' cloud-init/user-data > out-user-data\n"
                     "\tsed 's/X/12/g' cloud-init/network-config > out-network-config\n"),
    }
    root = repo(files, config=_config("{hosts: {node2: cp1}, addresses: {10.0.0.12: 10.0.0.42}}"),
                allowlist=ALLOW)
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    [found] = [f for f in data["findings"] if f["reason"] == "prefix"]
    assert (found["path"], found["line"], found["column"]) == ("cloud-init/network-config", 5, 11)
    assert "may spell 10.0.0.12 (renamed 10.0.0.42)" in found["note"]
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout
    assert (root / "cloud-init/network-config").read_text() == files["cloud-init/network-config"]
    assert run(root, "verify").exit_code == 1
    subprocess.run(["make", "-s", "prepare-n2"], cwd=root, check=True)
    assert "10.0.0.12/24" in (root / "out-network-config").read_text()  # what the node boots on


def test_finding_17_a_prefix_with_its_final_dot_two_loop_variables_complete(repo: Repo, run: Run) -> None:
    defaults = ('dhcp_ranges:\n  - rangename: "server"\n    netaddress: "192.168.178."\n'
                '    firsthostaddress: "5"\n    lasthostaddress: "10"\n')
    template = ("{% for r in dhcp_ranges %}\ndhcp-range={{ r.netaddress }}{{ r.firsthostaddress }},"
                "{{ r.netaddress }}{{ r.lasthostaddress }},12h\n{% endfor %}\n")
    files = {"roles/dnsmasq/defaults/main.yml": defaults, "roles/dnsmasq/templates/dnsmasq.conf.j2": template}
    root = repo(files, config=_config("{networks: {192.168.178.0/24: 192.168.179.0/24}}"), allowlist=ALLOW)
    assert _findings(root, run) == [("roles/dnsmasq/defaults/main.yml", 3, "192.168.178.")]
    _swept_and_failing(root, run, files)
    rendered = _render(root, "roles/dnsmasq/defaults/main.yml", template).strip()
    assert rendered == "dhcp-range=192.168.178.5,192.168.178.10,12h"


def test_finding_25_an_ipv6_prefix_without_its_double_colon(repo: Repo, run: Run) -> None:
    files = {"run.sh": "PREFIX=fd00:250:0:1\necho ${PREFIX}::5\n"}
    root = repo({**files, "p2.sh": "P2=fd00:250:0:1::\n"},
                config=_config('{networks: {"fd00:250:0:1::/64": "fd00:251:0:1::/64"}}'), allowlist=ALLOW)
    # The dry run's diff shows an address as it is, never as a pgpass line's password (`P2=fd00:250:0:1:****`).
    diff = run(root, "sweep", "--dry-run", "--color", "never").stdout
    assert "-P2=fd00:250:0:1::\n" in diff and "+P2=fd00:251:0:1::\n" in diff, diff
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    [found] = [f for f in data["findings"] if f["reason"] == "prefix"]
    assert (found["path"], found["line"], found["old"]) == ("run.sh", 1, "fd00:250:0:1")
    assert "(`fd00:251:0:1` in the new network fd00:251:0:1::/64)" in found["note"]
    _swept_and_failing(root, run, files)
    shell = subprocess.run(["bash", "run.sh"], cwd=root, capture_output=True, text=True, check=True).stdout
    assert shell.strip() == "fd00:250:0:1::5"


WIDE_VARS = 'prefix48: "fd00:250:0"\nlan48: "FD00:0250:0000:"\nsibling: "fd00:250:0:2"\n'
WIDE_USES = 'addr2: "{{ prefix48 }}:1::8"\naddr3: "{{ lan48 }}1::9"\n'


def test_finding_25_an_ipv6_head_wider_than_the_moved_network(repo: Repo, run: Run) -> None:
    """`prefix48: "fd00:250:0"` composed as `{{ prefix48 }}:1::8` under a /64 move (the gap round 21's
    finding 25 left): the /48 head holds the moved /64, so the value is a residual, in YAML, shell and
    Terraform, in any case and zero padding; a sibling /64's head is not."""
    files = {
        "group_vars/all.yml": WIDE_VARS,
        "t/addrs.yml": WIDE_USES,
        "run.sh": "NET48=fd00:250:0\necho ${NET48}:1::5\n",
        "vars.tf": 'variable "p48" {\n  default = "fd00:250:0"\n}\n',
        "other.sh": "P=fd00:250:0:2\nQ=fd00:250:0::1\n",
    }
    root = repo(files, config=_config('{networks: {"fd00:250:0:1::/64": "fd00:251:0:1::/64"}}'), allowlist=ALLOW)
    assert _findings(root, run) == [("group_vars/all.yml", 1, "fd00:250:0"), ("group_vars/all.yml", 2, "FD00:0250:0000:"),
                                    ("run.sh", 1, "fd00:250:0"), ("vars.tf", 2, "fd00:250:0")]
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    [wide] = [f for f in data["findings"] if f["path"] == "group_vars/all.yml" and f["line"] == 1]
    assert "fd00:250::/48, which holds the moved network fd00:250:0:1::/64" in wide["note"], wide["note"]
    _swept_and_failing(root, run, files)
    rendered = [_render(root, "group_vars/all.yml", line.split(": ", 1)[1].strip('"'))
                for line in WIDE_USES.splitlines()]
    assert [ipaddress.ip_address(r) in ipaddress.ip_network("fd00:250:0:1::/64") for r in rendered] == [True, True]
    shell = subprocess.run(["bash", "run.sh"], cwd=root, capture_output=True, text=True, check=True).stdout
    assert shell.strip() == "fd00:250:0:1::5"


def test_finding_27_a_format_over_a_sequence_may_spell_a_renamed_address(repo: Repo, run: Run) -> None:
    files = {
        "play.yml": ("- hosts: localhost\n  gather_facts: false\n  tasks:\n    - debug: msg=\"{{ item }}\"\n"
                     "      with_sequence: start=70 end=74 format=10.0.0.%d\n"),
        "run.sh": 'seq -f "10.0.0.%g" 70 74\n',
    }
    root = repo(files, config=_config("{addresses: {10.0.0.70: 10.0.1.70}}"), allowlist=ALLOW)
    assert _findings(root, run) == [("play.yml", 5, "10.0.0.%d"), ("run.sh", 1, "10.0.0.%g")]
    _swept_and_failing(root, run, files)
    made = subprocess.run(["bash", "run.sh"], cwd=root, capture_output=True, text=True, check=True).stdout
    assert "10.0.0.70" in made.split()


def test_finding_31_address_filters_over_a_network_in_a_variable(repo: Repo, run: Run) -> None:
    files = {
        "group_vars/all/net.yml": "subnet: 10.0.0.0/24\ngw: 10.0.0.1\nother: 10.9.0.0/24\n",
        "group_vars/all/hosts.yml": ('web_ip: "{{ subnet | ansible.utils.nthhost(70) }}"\n'
                                     'web_ip2: "{{ subnet | nthhost(70) }}"\n'
                                     'web_ip3: "{{ subnet | ansible.utils.ipaddr(70) }}"\n'
                                     'web_ip4: "{{ gw | ansible.utils.ipmath(69) }}"\n'
                                     'not_old: "{{ subnet | nthhost(71) }}"\n'
                                     'elsewhere: "{{ other | nthhost(70) }}"\n'),
    }
    root = repo(files, config=_config("{addresses: {10.0.0.70: 10.0.1.70}}"), allowlist=ALLOW)
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    found = [f for f in data["findings"] if f["reason"] == "composed-address"]
    assert [(f["line"], f["old"], f["new"]) for f in found] == [(n, "10.0.0.70", "10.0.1.70") for n in (1, 2, 3, 4)]
    assert "`subnet` is 10.0.0.0/24 at group_vars/all/net.yml:1" in found[0]["note"]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "group_vars/all/hosts.yml").read_text() == files["group_vars/all/hosts.yml"]
    assert run(root, "verify").exit_code == 1
    import ipaddress  # what Ansible's filters compute (ansible.utils over netaddr counts the same)

    assert str(ipaddress.ip_network("10.0.0.0/24")[70]) == "10.0.0.70"
    assert str(ipaddress.ip_address("10.0.0.1") + 69) == "10.0.0.70"


NETPLAN = "network:\n  vlans:\n    app:\n      addresses: [ '{{ networks.app.base }}.228/24' ]\n"
NETWORKS = ("networks:\n  lan:\n    cidr: 192.168.2.0/24\n    base: 192.168.2\n  app:\n    cidr: 10.0.0.0/24\n"
            "    base: 10.0.0\n")


def test_finding_02_a_composed_address_reads_the_variable_its_path_names(repo: Repo, run: Run) -> None:
    files = {"group_vars/all/vars.yml": NETWORKS, "roles/t/netplan.yaml": NETPLAN}
    root = repo(files, config=_config("{networks: {192.168.2.0/24: 192.168.4.0/24}}"), allowlist=ALLOW)
    assert _render(root, "group_vars/all/vars.yml", NETPLAN).splitlines()[-1].endswith("'10.0.0.228/24' ]")
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    # 10.0.0.228 is not in the moved network: nothing about netplan.yaml; lan's base is the residual.
    assert [(f["path"], f["line"], f["reason"]) for f in data["findings"] if f["reason"] is not None] == [
        ("group_vars/all/vars.yml", 4, "prefix")]
    assert not [f for f in data["findings"] if f["path"] == "roles/t/netplan.yaml"]
    # Both networks moving: the residual names networks.app.base's value and the address it makes.
    (root / "renamer.yaml").write_text(_config("{networks: {192.168.2.0/24: 192.168.4.0/24, "
                                               "10.0.0.0/24: 10.0.1.0/24}}"))
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    [made] = [f for f in data["findings"] if f["reason"] == "composed-address"]
    assert (made["path"], made["old"], made["new"]) == ("roles/t/netplan.yaml", "10.0.0.228", "10.0.1.228")
    assert "`base` is 10.0.0 at group_vars/all/vars.yml:7" in made["note"], made["note"]


def test_a_keep_rule_with_a_reason_silences_a_prefix(repo: Repo, run: Run) -> None:
    allow = ('version: 1\ncurrent: ["**"]\nkeep:\n  - name: lab-base\n    path: vars.yml\n'
             '    line_contains: "base:"\n    reason: the lab keeps its old base until the switch moves\n')
    root = repo({"vars.yml": 'base: "192.168.2"\n', "run.sh": "BASE=192.168.2  # renamer: keep the lab's old base\n"},
                config=_config("{networks: {192.168.2.0/24: 192.168.4.0/24}}"), allowlist=allow)
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    assert sorted((r["path"], r["status"]) for r in audit["references"]) == [("run.sh", "kept"), ("vars.yml", "kept")]
    # Without the rule, the same line fails verify again.
    (root / "allow.yaml").write_text(ALLOW)
    assert run(root, "verify").exit_code == 1


NET = "{networks: {10.0.0.0/24: 10.0.9.0/24}}"


@pytest.mark.parametrize(("files", "renames"), [
    pytest.param({"vars.yml": "version: 10.0.0\nchart_version: \"10.0.0\"\nimage: nginx:10.0.0\n"
                              "requirement: pkg==10.0.0\nrelease: v10.0.0\nnode: 10.0.0-rc1\n"},
                 NET, id="version-numbers"),
    pytest.param({"CHANGELOG.md": "## 1.2.3 (2026-01-01)\n\n- fixed 1.2.3 in the parser\n",
                  "app.yml": "notes: upgraded from 1.2.3 last week\n"},
                 "{networks: {1.2.3.0/24: 1.2.9.0/24}}", id="a-changelog-line"),
    pytest.param({"hosts.yml": "gw: 10.0.0.1\nbase: 10.0.0\n"}, "{networks: {10.0.1.0/24: 10.0.2.0/24}}",
                 id="an-unmoved-network"),
    pytest.param({"snmpd.conf": "view all included .1.3.6.1.2.1\noid: 1.3.6.1.4.1.2021\nsysName 1.3.6.1.2.1.1.5.0\n"},
                 "{networks: {1.3.6.0/24: 1.3.9.0/24}}", id="snmp-oids"),
    pytest.param({"run.sh": "printf '10.0.40.%d' 11\nping 10.0.40.5\n", "a.yml": "ip: 10.0.0.5\n"},
                 "{addresses: {10.0.40.5: 10.0.41.5}}", id="a-format-given-another-number"),
    pytest.param({"vars.yml": "dates: 2026.10.0\nratio: 10.0\nlong: 10.0.0.0.1\n"}, NET, id="other-dotted-numbers"),
])
def test_dotted_numbers_that_are_no_prefix_are_left_alone(files: dict[str, str], renames: str, repo: Repo,
                                                         run: Run) -> None:
    root = repo(files, config=_config(renames), allowlist=ALLOW)
    assert _findings(root, run) == []
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    for path, text in files.items():
        if "10.0.40.5" not in text:
            assert (root / path).read_text() == text, path
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 0, checked.stdout
