"""Spellings of a moved network's addresses that the address-rename side already read and the
network side did not (issue 33, outside pass t36-33, findings 03, 11, 12, 13, 14, 10).

Each test builds a real git repo moving a network, runs `verify`, `sweep --commit` and `verify`
through the CLI, and reads the files after: a version number is never renumbered, a dressed
address is said (never OK), a cloud name is said or follows.
"""

from __future__ import annotations

import json

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _findings(run: Run, root: object) -> list[dict[str, object]]:
    checked = run(root, "verify", "--format", "json")
    return list(json.loads(checked.stdout)["findings"])


def _said(found: list[dict[str, object]], reason: str) -> set[tuple[object, object]]:
    return {(f["path"], f["line"]) for f in found if f["reason"] == reason}


# --- finding 03: a four-part version number is no address -------------------------------------

VERSIONS = {
    "package.json": '{"name": "app", "version": "10.0.0.12", "server": "10.0.0.5"}\n',
    "Properties/AssemblyInfo.cs": '[assembly: AssemblyVersion("10.0.0.1")]\n'
                                  '[assembly: AssemblyFileVersion("10.0.0.1")]\n',
    "app.csproj": "<Project><PropertyGroup><Version>10.0.0.3</Version>"
                  "<FileVersion>10.0.0.4</FileVersion></PropertyGroup></Project>\n",
    "requirements.txt": "foo==10.0.0.2\nbar>=10.0.0.6\nbaz~=10.0.0.7\n",
    "Gemfile": "gem 'qux', '~> 10.0.0.8'\n",
    "setup.cfg": "[metadata]\nversion = 10.0.0.9\n",
    "Makefile": "VERSION ?= 10.0.0.10\n",
}


@pytest.mark.parametrize("networks", ["10.0.0.0/24: 10.9.0.0/24", "10.0.0.0/24: 10.8.0.0/22"])
def test_a_version_number_inside_a_moved_network_is_a_residual_never_renumbered(
        repo: Repo, run: Run, networks: str) -> None:
    files = {**VERSIONS, "s.yml": "server: 10.0.0.5\n"}
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    found = _findings(run, root)
    versions = [f for f in found if f["reason"] == "version"]
    assert {f["path"] for f in versions} == set(VERSIONS), found
    assert len(versions) == 11, versions
    assert all(f["status"] == "residual" for f in versions)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout
    for path, text in VERSIONS.items():
        after = (root / path).read_text()
        if path == "package.json":  # the server beside the version follows, the version stays
            assert '"version": "10.0.0.12"' in after, after
            assert "10.0.0.5" not in after, after
        else:
            assert after == text, (path, after)
    assert run(root, "verify").exit_code == 1


def test_an_address_beside_version_words_that_are_no_key_follows(repo: Repo, run: Run) -> None:
    files = {"hosts.yml": "server: 10.0.0.5\nversion_server:\n  ip: 10.0.0.6\n",
             "check.py": 'if ip == "10.0.0.7":\n    pass\n',
             "verify.sh": "curl --verbose http://10.0.0.8/\n"}
    root = repo(files, config=_config("10.0.0.0/24: 10.9.0.0/24"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout
    assert (root / "hosts.yml").read_text() == "server: 10.9.0.5\nversion_server:\n  ip: 10.9.0.6\n"
    assert (root / "check.py").read_text() == 'if ip == "10.9.0.7":\n    pass\n'
    assert (root / "verify.sh").read_text() == "curl --verbose http://10.9.0.8/\n"
    assert run(root, "verify").exit_code == 0


def test_a_renamed_address_as_a_version_is_a_residual_too(repo: Repo, run: Run) -> None:
    config = "version: 1\nrenames:\n  addresses: {10.0.0.12: 10.0.1.12}\nallowlist: allow.yaml\n"
    root = repo({"package.json": '{"version": "10.0.0.12"}\n', "s.yml": "a: 10.0.0.12\n"},
                config=config, allowlist=ALLOW)
    found = _findings(run, root)
    assert _said(found, "version") == {("package.json", 1)}, found
    run(root, "sweep", "--commit")
    assert (root / "package.json").read_text() == '{"version": "10.0.0.12"}\n'
    assert (root / "s.yml").read_text() == "a: 10.0.1.12\n"


# --- finding 13: a cloud's host name spelling a moved address ----------------------------------

CLOUD = {
    "nodes.yml": "workers:\n  - name: ip-192-168-40-5.ec2.internal\n    address: 192.168.40.5\n"
                 "  - name: ip-192-168-40-6.eu-west-1.compute.internal\n    address: 192.168.40.6\n",
    "ssh_config": "Host bastion\n  HostName ip-192-168-40-7.ec2.internal\n",
    "drain.sh": "kubectl drain ip-192-168-40-5 --ignore-daemonsets\n",
    "public.txt": "ec2-192-168-40-8.compute-1.amazonaws.com\n",
}


def test_a_cloud_host_name_of_a_resized_network_is_a_residual(repo: Repo, run: Run) -> None:
    root = repo(CLOUD, config=_config("192.168.40.0/24: 10.20.0.0/22"), allowlist=ALLOW)
    found = _findings(run, root)
    assert _said(found, "wildcard-dns") == {("nodes.yml", 2), ("nodes.yml", 4), ("ssh_config", 2), ("drain.sh", 1),
                    ("public.txt", 1)}, found
    run(root, "sweep", "--commit")
    nodes = (root / "nodes.yml").read_text()
    assert "ip-192-168-40-5.ec2.internal" in nodes and "address: 10.20.0.5" in nodes, nodes
    assert run(root, "verify").exit_code == 1


def test_a_cloud_host_name_follows_an_equal_length_move(repo: Repo, run: Run) -> None:
    files = {**CLOUD, "other.txt": "ip-10-1-2-3.ec2.internal ip-192-168-040-5 skip-192-168-40-5\n"}
    root = repo(files, config=_config("192.168.40.0/24: 10.20.7.0/24"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout
    nodes = (root / "nodes.yml").read_text()
    assert "name: ip-10-20-7-5.ec2.internal\n    address: 10.20.7.5" in nodes, nodes
    assert "ip-10-20-7-6.eu-west-1.compute.internal" in nodes, nodes
    assert "HostName ip-10-20-7-7.ec2.internal" in (root / "ssh_config").read_text()
    assert (root / "drain.sh").read_text() == "kubectl drain ip-10-20-7-5 --ignore-daemonsets\n"
    assert (root / "public.txt").read_text() == "ec2-10-20-7-8.compute-1.amazonaws.com\n"
    assert (root / "other.txt").read_text() == files["other.txt"]


# --- finding 11: padded, octal and dotted-hex spellings of a moved network's addresses ---------

DRESSED = {
    "hosts.yml": "nas: 192.168.040.005\nlan: 192.168.040.000/24\nprinter: 192.168.40.05\n",
    "check.sh": "ping -c1 0300.0250.050.05\nping -c1 0xc0.0xa8.0x28.0x05\ncurl http://192.168.0x28.7/\n",
    "app.ini": "[db]\nhost = 0192.0168.0040.0010\n",
}


@pytest.mark.parametrize("networks", ["192.168.40.0/24: 10.20.0.0/22", "192.168.40.0/24: 10.20.7.0/24"])
def test_a_dressed_address_of_a_moved_network_is_a_residual(repo: Repo, run: Run, networks: str) -> None:
    files = {**DRESSED, "plain.yml": "gw: 192.168.40.1\nother: 192.168.041.005\n"}
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    found = _findings(run, root)
    assert _said(found, "dressed-address") == {("hosts.yml", 1), ("hosts.yml", 2), ("hosts.yml", 3),
                                                ("check.sh", 1), ("check.sh", 2), ("check.sh", 3),
                                                ("app.ini", 2)}, found
    assert all(f["status"] == "residual" for f in found if f["reason"] == "dressed-address")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout
    for path, text in DRESSED.items():  # nothing of a dressed address is written
        assert (root / path).read_text() == text, path
    plain = (root / "plain.yml").read_text()
    assert "192.168.40.1" not in plain and "other: 192.168.041.005" in plain, plain
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1 and "dressed-address" in checked.stdout, checked.stdout


def test_a_renamed_address_in_hex_dress_is_a_residual(repo: Repo, run: Run) -> None:
    config = "version: 1\nrenames:\n  addresses: {10.0.0.70: 10.0.1.70}\nallowlist: allow.yaml\n"
    root = repo({"check.sh": "ping 0x0a.0x00.0x00.0x46\nping 10.0.0.70\n"}, config=config, allowlist=ALLOW)
    found = _findings(run, root)
    assert _said(found, "dressed-address") == {("check.sh", 1)}, found
    run(root, "sweep", "--commit")
    assert (root / "check.sh").read_text() == "ping 0x0a.0x00.0x00.0x46\nping 10.0.1.70\n"


# --- finding 12: netboot files named by a moved address in hex --------------------------------

def _tracked(root: object) -> set[str]:
    import subprocess
    out = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout
    return set(out.splitlines())


NETBOOT = {
    "host_vars/192.168.40.5.yml": "role: nas\n",
    "tftpboot/pxelinux.cfg/C0A82805": "DEFAULT install-nas\n",  # 192.168.40.5
    "tftpboot/pxelinux.cfg/C0A828": "DEFAULT lan-rescue\n",  # 192.168.40.0/24
    "tftpboot/pxelinux.cfg/C0A8288": "DEFAULT upper-half\n",  # 192.168.40.128/28
    "tftpboot/pxelinux.cfg/default": "DEFAULT local\n",
    "tftpboot/grub/grub.cfg-C0A82806": "menuentry nas {}\n",  # 192.168.40.6
    "tftpboot/pxelinux.cfg/0A630005": "DEFAULT other\n",  # 10.99.0.5: another network's
    "deploy.sh": "cp nas.cfg tftpboot/pxelinux.cfg/C0A82805\n",
}


@pytest.mark.parametrize(("networks", "names"), [
    ("192.168.40.0/24: 10.20.0.0/22", {"C0A82805": "0A140005", "C0A828": "0A1400", "C0A8288": "0A14008", "grub.cfg-C0A82806": "grub.cfg-0A140006"}),
    ("192.168.40.0/24: 10.20.7.0/24", {"C0A82805": "0A140705", "C0A828": "0A1407", "C0A8288": "0A14078",
                                        "grub.cfg-C0A82806": "grub.cfg-0A140706"}),
])
def test_a_netboot_hex_file_name_follows_its_network(repo: Repo, run: Run, networks: str,
                                                     names: dict[str, str]) -> None:
    root = repo(NETBOOT, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout
    files = _tracked(root)
    for old, new in names.items():
        folder = "tftpboot/grub/" if old.startswith("grub") else "tftpboot/pxelinux.cfg/"
        assert folder + new in files and folder + old not in files, (old, sorted(files))
    assert "tftpboot/pxelinux.cfg/0A630005" in files and "tftpboot/pxelinux.cfg/default" in files
    moved = names["C0A82805"]
    assert (root / "deploy.sh").read_text() == f"cp nas.cfg tftpboot/pxelinux.cfg/{moved}\n"
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_netboot_name_a_move_cannot_carry_is_a_residual(repo: Repo, run: Run) -> None:
    files = {"tftpboot/pxelinux.cfg/C0A828C8": "DEFAULT far\n",  # 192.168.40.200: outside a /25
             "tftpboot/pxelinux.cfg/C0A8": "DEFAULT site\n",  # 192.168.0.0/16 around the moved /24
             "tftpboot/pxelinux.cfg/C0A82805": "DEFAULT nas\n",
             "inventory.ini": "[lan]\n192.168.40.5\n"}
    root = repo(files, config=_config("192.168.40.0/24: 10.20.0.0/25"), allowlist=ALLOW)
    found = _findings(run, root)
    said = {(f["path"], f["reason"]) for f in found if f["reason"] == "hex-name"}
    assert said == {("tftpboot/pxelinux.cfg/C0A828C8", "hex-name"), ("tftpboot/pxelinux.cfg/C0A8", "hex-name")}, \
        found
    assert all(f["status"] == "residual" for f in found if f["reason"] == "hex-name")


# --- finding 14: an SNMP OID indexed by a moved address ----------------------------------------

SNMP = {
    "snmp.sh": "snmpget -v2c -c public 192.168.40.1 IP-MIB::ipAdEntNetMask.192.168.40.1\n"
               "snmpget -v2c -c public 192.168.40.1 .1.3.6.1.2.1.4.20.1.3.192.168.40.1\n"
               "snmpwalk -v2c -c public 192.168.40.1 BGP4-MIB::bgpPeerState.192.168.40.9\n",
    "telegraf.conf": '[[inputs.snmp]]\n  agents = ["udp://192.168.40.1:161"]\n  [[inputs.snmp.field]]\n'
                     '    name = "lan_mask"\n    oid = "IP-MIB::ipAdEntNetMask.192.168.40.1"\n',
    "zabbix.yaml": "items:\n  - key: ipNetToMediaPhysAddress.2.192.168.40.7\n"
                   "    snmp_oid: 1.3.6.1.2.1.4.22.1.2.2.192.168.40.7\n",
}


@pytest.mark.parametrize("networks", ["192.168.40.0/24: 10.20.0.0/22", "192.168.40.0/24: 10.20.7.0/24"])
def test_an_snmp_index_of_a_moved_address_is_a_residual(repo: Repo, run: Run, networks: str) -> None:
    root = repo(SNMP, config=_config(networks), allowlist=ALLOW)
    found = _findings(run, root)
    assert _said(found, "snmp-index") == {("snmp.sh", 1), ("snmp.sh", 2), ("snmp.sh", 3), ("telegraf.conf", 5),
                                          ("zabbix.yaml", 2), ("zabbix.yaml", 3)}, found
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout
    text = (root / "snmp.sh").read_text()
    assert text.count("192.168.40.1") == 2 and "public 192.168.40.1" not in text, text  # agents moved
    assert "ipAdEntNetMask.192.168.40.1" in (root / "telegraf.conf").read_text()
    assert run(root, "verify").exit_code == 1


# --- finding 10: compressed and binary files holding a moved network's addresses --------------

def _packed(root: object, name: str, text: bytes) -> None:
    import bz2
    import gzip
    import io
    import lzma
    import zipfile
    from pathlib import Path
    path = Path(str(root)) / name
    if name.endswith(".gz"):
        path.write_bytes(gzip.compress(text, mtime=0))
    elif name.endswith(".xz"):
        path.write_bytes(lzma.compress(text))
    elif name.endswith(".bz2"):
        path.write_bytes(bz2.compress(text))
    elif name.endswith((".zip", ".xlsx")):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("xl/sharedStrings.xml", text)
        path.write_bytes(buffer.getvalue())
    else:  # a database row: the address glued to the name before it
        path.write_bytes(b"SQLite format 3\x00\x10\x00" + b"\x00" * 40 + b"nas" + text + b"\x00\x01")


PACKED = {"backup-cfg.yml.gz": b"nas: 192.168.40.5\n", "dump.sql.xz": b"INSERT INTO h VALUES ('192.168.40.6');\n",
          "old.conf.bz2": b"gw 192.168.40.1\n", "ipam.xlsx": b"<sst><si><t>192.168.40.0/24</t></si></sst>",
          "site.zip": b"server=192.168.40.7\n", "kuma.db": b"192.168.40.8"}


@pytest.mark.parametrize("networks", ["192.168.40.0/24: 10.20.0.0/22", "192.168.40.0/24: 10.20.7.0/24"])
def test_a_compressed_or_binary_file_holding_a_moved_address_fails_strict(repo: Repo, run: Run,
                                                                          networks: str) -> None:
    import subprocess
    root = repo({"lan.yml": "gw: 192.168.40.1\n"}, config=_config(networks), allowlist=ALLOW)
    for name, text in PACKED.items():
        _packed(root, name, text)
    _packed(root, "other.gz", b"nas: 10.99.0.5\n")  # another network's: not listed
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", "packed"], cwd=root, check=True)
    before = {name: (root / name).read_bytes() for name in PACKED}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout
    assert {name: (root / name).read_bytes() for name in PACKED} == before  # never rewritten
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1, strict.stdout
    for name in PACKED:
        assert f"  {name} (binary, 1)" in strict.stdout, strict.stdout
    assert "other.gz" not in strict.stdout


def test_a_compressed_address_a_grow_in_place_leaves_is_not_listed(repo: Repo, run: Run) -> None:
    import subprocess
    root = repo({"lan.yml": "gw: 192.168.40.1\n"}, config=_config("192.168.40.0/24: 192.168.40.0/22"),
                allowlist=ALLOW)
    _packed(root, "hosts.gz", b"nas: 192.168.40.5\n")  # the address stays where it is
    _packed(root, "net.gz", b"lan: 192.168.40.0/24\n")  # the length changes
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", "packed"], cwd=root, check=True)
    run(root, "sweep", "--commit")
    strict = run(root, "verify", "--strict")
    assert "  net.gz (binary, 1)" in strict.stdout and "hosts.gz" not in strict.stdout, strict.stdout
