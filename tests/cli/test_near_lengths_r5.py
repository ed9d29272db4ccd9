"""Issue 33, outside pass round 5 (t32-33) findings 07 and 08, end to end on real git repos: a length
near its address written with an article, a square bracket, a dash or as `prefix length N`, and
pasted ipcalc-ng / sipcalc blocks (IPv4 and IPv6). Before: the address moved, the length stayed
(`10.0.60.0 (a /24)`, `Netmask: 255.255.252.0 = 24`, `HostMax: 10.0.60.254`); sweep 0, verify OK.
No ipcalc or sipcalc here: what each line means is checked with Python's ipaddress.
"""

from __future__ import annotations

import ipaddress
import re
import tempfile
from pathlib import Path

from tests.testing.repos import Run, make_repo, snapshot
from tests.testing.said import once

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


NOTES = ("The LAN is 10.0.48.0 (a /24).\nThe LAN is 10.0.48.0 \u2014 /24.\nThe LAN is 10.0.48.0 [/24].\n"
         "IPv6: 2001:db8:a:10:: (a /64).\nDMZ 10.0.70.0 \u2013 /29\nSite 2001:db8:c:: [/48]\n")
WORDED = "Guest: 10.0.48.0 with prefix length 24.\nSite: 2001:db8:c:: (the site's /48)\n"
MOVES = ('10.0.48.0/24: 10.0.60.0/22, "2001:db8:a:10::/64": "2001:db8:b:20::/60", 10.0.70.0/29: 10.0.70.0/28, '
         '"2001:db8:c::/48": "2001:db8:c::/56"')


def test_a_length_an_article_a_bracket_or_a_dash_away_follows(run: Run, tmp_path: Path) -> None:
    """t32-33 08: each length beside its address follows the move (grow /24 -> /22, /29 -> /28,
    IPv6 /64 -> /60, /48 -> /56 shrink), and each line then names the new network."""
    root = _repo(tmp_path, {"notes.md": NOTES}, MOVES)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    text = (root / "notes.md").read_text()
    assert text == ("The LAN is 10.0.60.0 (a /22).\nThe LAN is 10.0.60.0 \u2014 /22.\nThe LAN is 10.0.60.0 [/22].\n"
                    "IPv6: 2001:db8:b:20:: (a /60).\nDMZ 10.0.70.0 \u2013 /28\nSite 2001:db8:c:: [/56]\n"), text
    said = {ipaddress.ip_network(f"{a}/{n}") for a, n in re.findall(r"([0-9a-f.:]+:?[0-9a-f.]*) \W*(?:an? )?/(\d+)", text)}
    assert said == {ipaddress.ip_network(n) for n in ("10.0.60.0/22", "2001:db8:b:20::/60", "10.0.70.0/28",
                                                      "2001:db8:c::/56")}
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_length_its_words_name_is_a_residual_before_and_after(run: Run, tmp_path: Path) -> None:
    """`with prefix length 24`, `(the site's /48)`: prose, never rewritten: a `mask` residual
    naming the line and column; the address moves, verify keeps failing on the length."""
    root = _repo(tmp_path, {"guest.md": WORDED}, MOVES)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "guest.md").read_text() == WORDED.replace("10.0.48.0", "10.0.60.0")
    assert "guest.md:1:37" in done.stdout + done.stderr and "guest.md:2:" in done.stdout + done.stderr
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1 and "guest.md:1:37: residual (mask): 24" in checked.stdout, checked.stdout


IPCALC_NG = ("Address:\t10.0.48.1\nNetwork:\t10.0.48.0/24\nNetmask:\t255.255.255.0 = 24\nBroadcast:\t10.0.48.255\n\n"
             "Address space:\tPrivate Use\nHostMin:\t10.0.48.1\nHostMax:\t10.0.48.254\nHosts/Net:\t254\n")
SIPCALC = ("-[ipv4 : 10.0.48.0/24] - 0\n\n[CIDR]\nHost address\t\t- 10.0.48.0\nNetwork address\t\t- 10.0.48.0\n"
           "Network mask\t\t- 255.255.255.0\nNetwork mask (bits)\t- 24\nBroadcast address\t- 10.0.48.255\n"
           "Usable range\t\t- 10.0.48.1 - 10.0.48.254\nAddresses in network\t- 256\n")
IPCALC_NG6 = ("Address:\t2001:db8:a:10::1\nNetwork:\t2001:db8:a:10::/64\nNetmask:\tffff:ffff:ffff:ffff:: = 64\n\n"
              "Address space:\tDocumentation\nHostMin:\t2001:db8:a:10::\nHostMax:\t2001:db8:a:10:ffff:ffff:ffff:ffff\n"
              "Hosts/Net:\t2^(64)\n")
SIPCALC6 = ("-[ipv6 : 2001:db8:c::/48] - 0\n\n[IPV6 INFO]\nCompressed address\t- 2001:db8:c::\n"
            "Prefix address\t\t- ffff:ffff:ffff:0:0:0:0:0\nPrefix length\t\t- 48\n"
            "Network range\t\t- 2001:0db8:000c:0000:0000:0000:0000:0000 -\n\t\t\t  2001:0db8:000c:ffff:ffff:ffff:ffff:ffff\n")


def _consistent(text: str) -> bool:
    """Whether an ipcalc/sipcalc block still agrees with itself: its length and its network."""
    length = int(re.search(r"(?:= |\(bits\)\t- |Prefix length\t\t- )(\d+)", text).group(1))  # type: ignore[union-attr]
    net = re.search(r"(?:Network:\t|ipv[46] : )([0-9a-f.:]+)/(\d+)", text)
    assert net is not None
    return int(net.group(2)) == length


def test_pasted_ipcalc_ng_and_sipcalc_blocks_are_left_whole(run: Run, tmp_path: Path) -> None:
    """t32-33 07: the four blocks under a grow (/24 -> /22, /64 -> /60) and a shrink (/48 -> /56) are
    residuals, nothing in them rewritten (each still agrees with itself); verify fails on them."""
    files = {"ng.txt": IPCALC_NG, "sip.txt": SIPCALC, "ng6.txt": IPCALC_NG6, "sip6.txt": SIPCALC6}
    root = _repo(tmp_path, files, MOVES)
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert snapshot(root) == before
    assert all(_consistent(text) for text in files.values())
    out = done.stdout + done.stderr
    for name in files:
        assert f"{name}:" in out and "ipcalc's output for" in out, out
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    # each block's lines share its explanation: said once, numbered in its class (t35, finding 23)
    for where, number in (("ng.txt:8:10: residual (mask): 10.0.48.254", 1),
                          ("sip.txt:9:17: residual (mask): 10.0.48.1", 1),
                          ("ng6.txt:7:10: residual (mask): 2001:db8:a:10:ffff:ffff:ffff:ffff", 2),
                          ("sip6.txt:1:10: residual (mask): 2001:db8:c::/48", 3)):
        assert f"{where} (why: mask #{number})\n" in checked.stdout, checked.stdout
    for number, network in ((1, "10.0.48.0/24"), (2, "2001:db8:a:10::/64"), (3, "2001:db8:c::/48")):
        once(checked.stdout, f"mask #{number}: ipcalc's output for {network}: every value in it",
             f"ipcalc's output for {network}:")
