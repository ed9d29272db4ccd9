"""Outside pass round 7 of issue 33 (q33-counts): excepts that a resize makes equal their cidr, VCL
ACLs, size counts under more names and in more table markups, bare lengths in those tables, SLAAC
hosts, IPv4 addresses written as one number. End to end on real git repos through the CLI; each
failed on main before (sweep 0, the file rewritten to one its tool refuses or that contradicts
itself, verify OK). Varnish's own compiler (`varnishd -C`) reads the swept VCL."""

from __future__ import annotations

import ipaddress
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
import yaml

from tests.testing.repos import Run, make_repo, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


def _refused(run: Run, root: Path, *places: str) -> str:
    before = snapshot(root)
    dry = run(root, "sweep", "--dry-run")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before  # nothing written
    said = dry.stdout + dry.stderr + done.stderr
    for place in places:
        assert place in said, (place, said)
    return str(said)


def _written(run: Run, root: Path) -> None:
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 0, checked.stdout + checked.stderr


def _verify_fails(run: Run, root: Path, *places: str) -> str:
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout + checked.stderr
    for place in places:
        assert place in checked.stdout, (place, checked.stdout)
    return str(checked.stdout)


# -- theme 1: an except a resize makes equal to its cidr (or wider) -------------------------------

NP = ("apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: lab\nspec:\n"
      "  podSelector: {}\n  ingress:\n  - from:\n    - ipBlock:\n        cidr: CIDR\n        except:\n"
      "        - EXC\n")
PULUMI_PY = ('import pulumi_kubernetes as k8s\n\nk8s.networking.v1.NetworkPolicy(\n    "lab",\n'
             '    spec=k8s.networking.v1.NetworkPolicySpecArgs(\n'
             '        pod_selector=k8s.meta.v1.LabelSelectorArgs(),\n'
             '        ingress=[k8s.networking.v1.NetworkPolicyIngressRuleArgs(\n'
             '            from_=[k8s.networking.v1.NetworkPolicyPeerArgs(\n'
             '                ip_block=k8s.networking.v1.IPBlockArgs(\n'
             '                    cidr="CIDR",\n'
             '                    except_=["EXC"],\n'
             '                ),\n            )],\n        )],\n    ),\n)\n')
PULUMI_ONE_LINE = 'block = k8s.networking.v1.IPBlockArgs(cidr="CIDR", except_=["EXC"])\n'
PULUMI_TS = ('import * as k8s from "@pulumi/kubernetes";\n\nnew k8s.networking.v1.NetworkPolicy("lab", {\n'
             '    spec: {\n        podSelector: {},\n        ingress: [{\n            from: [{\n'
             '                ipBlock: {\n                    cidr: "CIDR",\n                    except: ["EXC"],\n'
             '                },\n            }],\n        }],\n    },\n});\n')
TERRAFORM = ('resource "kubernetes_network_policy" "lab" {\n  metadata {\n    name = "lab"\n  }\n  spec {\n'
             '    pod_selector {}\n    ingress {\n      from {\n        ip_block {\n          cidr   = "CIDR"\n'
             '          except = ["EXC"]\n        }\n      }\n    }\n    policy_types = ["Ingress"]\n  }\n}\n')
EXCEPT_LINES = {"np.yaml": 12, "main.py": 11, "one.py": 1, "index.ts": 10, "main.tf": 11}


def _policies(cidr: str, exc: str) -> dict[str, str]:
    return {name: text.replace("CIDR", cidr).replace("EXC", exc)
            for name, text in (("np.yaml", NP), ("main.py", PULUMI_PY), ("one.py", PULUMI_ONE_LINE),
                               ("index.ts", PULUMI_TS), ("main.tf", TERRAFORM))}


@pytest.mark.parametrize(("cidr", "exc", "new"), [
    ("10.0.48.0/22", "10.0.48.0/24", "10.0.48.0/22"),  # the except grown onto its whole cidr
    ("10.0.0.0/16", "10.0.0.0/24", "10.0.0.0/16"),
    ("10.0.0.0/16", "10.0.0.0/24", "10.0.0.0/15"),  # past it
    ("2001:db8:a::/48", "2001:db8:a::/56", "2001:db8:a::/48"),  # IPv6
])
def test_an_except_grown_onto_its_cidr_refuses_in_every_spelling(run: Run, tmp_path: Path, cidr: str,
                                                                 exc: str, new: str) -> None:
    """Kubernetes' ValidateIPBlock: each except strictly inside its cidr. An except whose network
    grows to the cidr itself was written (sweep 0) and only verify saw it; Pulumi's Python `except_=`
    was not read at all. Now each refuses at the except, nothing written."""
    root = _repo(tmp_path, _policies(cidr, exc), f"'{exc}': '{new}'")
    said = _refused(run, root, *(f"{name}:{line}: tool-refuses" for name, line in EXCEPT_LINES.items()))
    assert "Kubernetes rejects an ipBlock whose except is not a strict subset of its cidr" in said


@pytest.mark.parametrize(("cidr", "exc", "old", "new"), [
    ("10.0.48.0/24", "10.0.48.0/25", "10.0.48.0/24", "10.0.48.0/25"),  # the cidr shrunk onto its except
    ("2001:db8:a::/48", "2001:db8:a::/56", "2001:db8:a::/48", "2001:db8:a::/56"),
])
def test_a_cidr_shrunk_onto_its_except_refuses_in_pulumi_python_too(run: Run, tmp_path: Path, cidr: str,
                                                                    exc: str, old: str, new: str) -> None:
    root = _repo(tmp_path, _policies(cidr, exc), f"'{old}': '{new}'")
    _refused(run, root, *(f"{name}:{line}: tool-refuses" for name, line in EXCEPT_LINES.items()))


def test_an_except_grown_inside_its_cidr_is_written(run: Run, tmp_path: Path) -> None:
    """The except grows but stays strictly inside (/24 -> /23 of a /22): written, ValidateIPBlock holds."""
    root = _repo(tmp_path, _policies("10.0.48.0/22", "10.0.48.0/24"), "10.0.48.0/24: 10.0.48.0/23")
    _written(run, root)
    block = yaml.safe_load((root / "np.yaml").read_text())["spec"]["ingress"][0]["from"][0]["ipBlock"]
    cidr, excepted = ipaddress.ip_network(block["cidr"]), ipaddress.ip_network(block["except"][0])
    assert excepted == ipaddress.ip_network("10.0.48.0/23") and excepted.subnet_of(cidr) and excepted != cidr
    assert 'except_=["10.0.48.0/23"]' in (root / "main.py").read_text()


def test_a_written_except_equal_to_its_cidr_fails_verify_in_pulumi_python(run: Run, tmp_path: Path) -> None:
    root = _repo(tmp_path, {"main.py": PULUMI_PY.replace("CIDR", "10.0.48.0/22").replace("EXC", "10.0.48.0/22")},
                 "10.0.48.0/24: 10.0.48.0/22")
    _verify_fails(run, root, "main.py:11:31: residual (tool-refuses): 10.0.48.0/22")


# -- theme 4: Varnish VCL acl ----------------------------------------------------------------------

VCL = ('vcl 4.1;\n\nbackend default { .host = "127.0.0.1"; .port = "8080"; }\n\n'
       'acl purgers {\n    "localhost";\n    "10.0.48.0"/24;\n    ! "10.0.48.5";\n    "2001:db8:a::" / 48;\n}\n\n'
       'acl office {\n    "10.0.48.0"/24;\n    !"10.0.48.0"/25;\n}\n\n'
       'sub vcl_recv {\n    if (req.method == "PURGE" && client.ip ~ purgers) {\n        return (purge);\n    }\n'
       '    if (client.ip ~ office) {\n        return (pass);\n    }\n}\n')


def _varnish_compiles(path: Path, tmp: Path) -> subprocess.CompletedProcess[str]:
    varnishd = shutil.which("varnishd") or "/usr/sbin/varnishd"
    work = Path(tempfile.mkdtemp(dir=tmp))
    return subprocess.run([varnishd, "-j", "none", "-C", "-n", str(work), "-f", str(path)], capture_output=True, text=True,
                          timeout=60, cwd=work)


def test_a_vcl_acl_length_outside_the_quotes_follows_a_resize(run: Run, tmp_path: Path) -> None:
    """`"10.0.48.0"/24` kept its /24 under a grow in place (sweep 0, verify OK); the quoted
    address's length now follows, `! "10.0.48.5"` stays, and varnishd compiles the result."""
    root = _repo(tmp_path, {"default.vcl": VCL}, "10.0.48.0/24: 10.0.48.0/22, '2001:db8:a::/48': '2001:db8:a::/56'")
    _written(run, root)
    text = (root / "default.vcl").read_text()
    assert text == (VCL.replace('"10.0.48.0"/24', '"10.0.48.0"/22')
                    .replace('"2001:db8:a::" / 48', '"2001:db8:a::" / 56'))
    compiled = _varnish_compiles(root / "default.vcl", tmp_path)
    assert compiled.returncode == 0, compiled.stderr


def test_a_vcl_acl_length_follows_a_move_elsewhere(run: Run, tmp_path: Path) -> None:
    root = _repo(tmp_path, {"default.vcl": VCL}, "10.0.48.0/24: 10.9.0.0/23")
    _written(run, root)
    text = (root / "default.vcl").read_text()
    assert '"10.9.0.0"/23;' in text and '! "10.9.0.5";' in text and '!"10.9.0.0"/25;' in text
    assert _varnish_compiles(root / "default.vcl", tmp_path).returncode == 0


def test_a_vcl_negated_entry_a_shrink_makes_the_whole_network_refuses(run: Run, tmp_path: Path) -> None:
    """Under /24 -> /25 the office acl would read `"10.0.48.0"/25; !"10.0.48.0"/25;`: VCC's
    "Conflicting ACL entries" (asked here of the hand-written result). Refused, nothing written."""
    root = _repo(tmp_path, {"default.vcl": VCL}, "10.0.48.0/24: 10.0.48.0/25")
    _refused(run, root, "default.vcl:14: tool-refuses", "Varnish VCL acl")
    by_hand = tmp_path / "by-hand.vcl"
    by_hand.write_text(VCL.replace('"10.0.48.0"/24', '"10.0.48.0"/25'))
    compiled = _varnish_compiles(by_hand, tmp_path)
    assert compiled.returncode != 0 and "Conflicting ACL entries" in compiled.stderr + compiled.stdout
    root = _repo(tmp_path, {"default.vcl": by_hand.read_text()}, "10.0.48.0/24: 10.0.48.0/25")
    _verify_fails(run, root, "default.vcl:14:7: residual (tool-refuses)")


# -- theme 2: counts under more names, and in other markups' tables ---------------------------------

RECORD = ("subnets:\n  - name: lab\n    cidr: 10.0.48.0/24\n    hosts: 254\n    max_hosts: 254\n"
          "    num_addresses: 256\n    usable_host_count: 254\n    ipCapacity: 256\n    subnet_size: 256\n"
          "    size: 256\n    capacity: 254\n    vlan: 48\n    hosts_in_use: 37\n")
GRID = ("Networks\n========\n\n+-------+--------------+--------------+-------+\n"
        "| Name  | Network      | Usable hosts | Bits  |\n+=======+==============+==============+=======+\n"
        "| lab   | 10.0.48.0    | 254          | 24    |\n+-------+--------------+--------------+-------+\n"
        "| wan   | 192.0.2.0/24 | 254          | 24    |\n+-------+--------------+--------------+-------+\n")
SIMPLE = ("Networks\n========\n\n=====  ============  ============  ======\nName   Network       Usable hosts  Prefix\n"
          "=====  ============  ============  ======\nlab    10.0.48.0     254           /24\n"
          "=====  ============  ============  ======\n")
LIST_TABLE = ("Networks\n========\n\n.. list-table:: Subnets\n   :header-rows: 1\n\n   * - Name\n     - Network\n"
              "     - Hosts\n     - Addresses\n   * - lab\n     - 10.0.48.0/24\n     - 254\n     - 256\n")
ADOC = ('= Networks\n\n[cols="1,1,1,1",options="header"]\n|===\n|Name |Network |Usable hosts |Prefix\n'
        "|lab |10.0.48.0 |254 |24\n|===\n\n|===\n|Name |Network |Hosts\n\n|lab\n|10.0.48.0/24\n|254\n|===\n")
HTML = ("<table>\n<tr><th>Name</th><th>Network</th><th>Max hosts</th><th>Capacity</th></tr>\n"
        "<tr><td>lab</td><td>10.0.48.0/24</td><td>254</td><td>256</td></tr>\n</table>\n")


def _docutils_reads(text: str) -> None:
    import docutils.core
    import docutils.utils

    docutils.core.publish_doctree(text, settings_overrides={"halt_level": 2, "report_level": 2})
    with pytest.raises(docutils.utils.SystemMessage):  # the check would see a broken table
        docutils.core.publish_doctree(text.replace("| 1022         |", "| 1022          |"),
                                      settings_overrides={"halt_level": 2, "report_level": 2})


def test_counts_under_names_read_by_their_words_follow_and_bare_sizes_are_said(run: Run, tmp_path: Path) -> None:
    """`max_hosts`, `num_addresses`, `usable_host_count`, `ipCapacity`, `subnet_size` were left at
    the /24's counts beside a /22 (verify OK). Now they follow; `size` and `capacity` (a disk's as
    often) are `tied-length` residuals, never written; `hosts_in_use: 37` is no count of the length."""
    root = _repo(tmp_path, {"net.yaml": RECORD}, "10.0.48.0/24: 10.0.48.0/22")
    dry = run(root, "sweep", "--dry-run")
    assert "net.yaml:10:" in dry.stdout + dry.stderr and "net.yaml:11:" in dry.stdout + dry.stderr
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr  # left for a decision: size, capacity
    record = yaml.safe_load((root / "net.yaml").read_text())["subnets"][0]
    assert record == {"name": "lab", "cidr": "10.0.48.0/22", "hosts": 1022, "max_hosts": 1022,
                      "num_addresses": 1024, "usable_host_count": 1022, "ipCapacity": 1024, "subnet_size": 1024,
                      "size": 256, "capacity": 254, "vlan": 48, "hosts_in_use": 37}
    out = _verify_fails(run, root, "net.yaml:10:11: residual (tied-length): 256",
                        "net.yaml:11:15: residual (tied-length): 254")
    assert "FAILED: 2 residual" in out, out


def test_counts_and_lengths_in_rst_asciidoc_and_html_tables_follow(run: Run, tmp_path: Path) -> None:
    """reStructuredText grid, simple and list-table rows and AsciiDoc `|===` rows were not read at
    all: the usable hosts and the length column kept the /24's values beside the /22 (verify OK).
    Now each follows; a grid table's columns stay where they were (docutils reads the result), the
    other network's row (192.0.2.0/24) stays as it is; an HTML `Capacity` cell is said, not written."""
    files = {"docs/grid.rst": GRID, "docs/simple.rst": SIMPLE, "docs/list.rst": LIST_TABLE,
             "docs/net.adoc": ADOC, "docs/net.html": HTML}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr  # the HTML `Capacity` cell: said
    grid = (root / "docs/grid.rst").read_text()
    assert "| lab   | 10.0.48.0    | 1022         | 22    |" in grid
    assert "| wan   | 192.0.2.0/24 | 254          | 24    |" in grid
    _docutils_reads(grid)
    simple = (root / "docs/simple.rst").read_text()
    assert "lab    10.0.48.0     1022          /22\n" in simple
    import docutils.core

    for name in ("docs/simple.rst", "docs/list.rst"):
        docutils.core.publish_doctree((root / name).read_text(),
                                      settings_overrides={"halt_level": 2, "report_level": 2})
    assert "     - 10.0.48.0/22\n     - 1022\n     - 1024\n" in (root / "docs/list.rst").read_text()
    adoc = (root / "docs/net.adoc").read_text()
    assert "|lab |10.0.48.0 |1022 |22\n" in adoc and "|10.0.48.0/22\n|1022\n" in adoc
    assert "<td>10.0.48.0/22</td><td>1022</td><td>256</td>" in (root / "docs/net.html").read_text()
    _verify_fails(run, root, "docs/net.html:3:")


def test_a_move_elsewhere_keeps_a_grid_and_a_simple_tables_columns(run: Run, tmp_path: Path) -> None:
    """`10.0.48.0` -> `10.9.0.0` is a character shorter: the grid's `|` and the simple table's next
    column moved left (docutils: "Malformed table", "Text in column margin"). The blanks after the
    cell now take the difference; the length column follows the /23."""
    root = _repo(tmp_path, {"docs/grid.rst": GRID, "docs/simple.rst": SIMPLE}, "10.0.48.0/24: 10.9.0.0/23")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    grid = (root / "docs/grid.rst").read_text()
    assert "| lab   | 10.9.0.0     | 510          | 23    |" in grid
    simple = (root / "docs/simple.rst").read_text()
    assert "lab    10.9.0.0      510           /23\n" in simple
    import docutils.core

    for text in (grid, simple):
        docutils.core.publish_doctree(text, settings_overrides={"halt_level": 2, "report_level": 2})
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 0, checked.stdout


# -- theme 3: a bare length in the next cell of another markup's table ------------------------------

@pytest.mark.parametrize(("name", "text", "line"), [
    ("docs/simple.rst", "=====  ============  =====\nName   Network       Note\n=====  ============  =====\n"
                        "lab    10.0.48.0     24\n=====  ============  =====\n", 4),
    ("docs/net.adoc", "[%header]\n|===\n|Name |Network |Note\n|lab |10.0.48.0 |/24\n|===\n", 4),
    ("docs/grid.rst", "+-----+-----------+------+\n| Nm  | Network   | Note |\n+=====+===========+======+\n"
                      "| lab | 10.0.48.0 | /24  |\n+-----+-----------+------+\n", 4),
])
def test_a_bare_length_in_the_next_cell_without_a_length_header_is_said(run: Run, tmp_path: Path, name: str,
                                                                        text: str, line: int) -> None:
    root = _repo(tmp_path, {name: text}, "10.0.48.0/24: 10.0.48.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    _verify_fails(run, root, f"{name}:{line}:", "residual (mask)")


# -- theme 6: a moved network's addresses written as one number -------------------------------------

SQL = ("CREATE TABLE hosts (name text, ip_int bigint);\nINSERT INTO hosts VALUES ('pug', 167784453);\n"
       "INSERT INTO hosts VALUES ('rex', INET_ATON('10.0.48.6'));\n-- ipcalc: Decimal 167784448\n")
NUMBERS_YAML = "lab:\n  net: 10.0.48.0/24\n  gw_num: 0x0A003001\n  order_id: 167784999\n  port: 8080\n"


@pytest.mark.parametrize("networks", ["10.0.48.0/24: 10.9.0.0/24", "10.0.48.0/24: 10.0.48.0/22"])
def test_a_moved_networks_address_as_one_number_is_said(run: Run, tmp_path: Path, networks: str) -> None:
    """`167784453` (10.0.48.5) in an `ip_int` row, ipcalc's decimal, `0x0A003001`, a CSV holding
    numbers alone: sweep 0, verify OK before. Now each is a `number-address` residual naming the
    address it spells, never rewritten; `167784999` (outside the /24), `8080` are left unsaid."""
    csv_text = "name,ip_int\npug,167784453\nrex,167785000\n"
    root = _repo(tmp_path, {"db.sql": SQL, "net.yaml": NUMBERS_YAML, "ips.csv": csv_text}, networks)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "INET_ATON('10.9.0.6')" in (root / "db.sql").read_text() or "10.0.48.6" in (root / "db.sql").read_text()
    assert "167784453" in (root / "db.sql").read_text() and "0x0A003001" in (root / "net.yaml").read_text()
    out = _verify_fails(run, root, "db.sql:2:34: residual (number-address): 167784453",
                        "db.sql:4:20: residual (number-address): 167784448",
                        "net.yaml:3:11: residual (number-address): 0x0A003001",
                        "ips.csv:2:5: residual (number-address): 167784453", "is 10.0.48.5 spelled as one number")
    assert "FAILED: 4 residual" in out and "167784999" not in out and "167785000" not in out
