"""Cases 1-14 and 23-25: what the exact rules rename, and what the loose pass flags."""

from __future__ import annotations

from collections.abc import Sequence

from tests.adversarial.harness import (
    MK_CONFIG,
    Outcome,
    Scratch,
    case,
    config,
    decided,
    differing,
    documented,
    doubtful,
    fates,
    no_crash,
    ok,
    require,
    rewritten,
    same_address,
    succeeded,
    swept,
)

OLD_IP, NEW_IP = "10.250.50.54", "10.251.50.54"


def _all_renamed(scratch: Scratch, lines: Sequence[str], old: str, new: str, cfg: str = MK_CONFIG) -> Outcome:
    after = rewritten(scratch, "\n".join(lines) + "\n", cfg=cfg).splitlines()
    wrong = differing(after, [line.replace(old, new) for line in lines])
    require(not wrong, f"not renamed: {'; '.join(wrong)}")
    return ok(f"{len(lines)} spelling{'s' if len(lines) > 1 else ''} renamed")


def _untouched_and_flagged(scratch: Scratch, lines: Sequence[str]) -> Outcome:
    _, found = fates(scratch, lines)
    wrong = [fate for fate in found if "near-miss" not in fate]
    require(not wrong, f"not as expected: {'; '.join(wrong)}")
    return ok("; ".join(found))


@case(1, "match", "renamed")
def case_1(s: Scratch) -> Outcome:
    """`10.250.50.54:8000`, `/32`, `http://…/`, `[..]`, `,`, `;`, final `.`"""
    lines = [f"a {OLD_IP}:8000", f"b {OLD_IP}/32", f"c http://{OLD_IP}/", f"d [{OLD_IP}]", f"e {OLD_IP},",
             f"f {OLD_IP};", f"g the end is {OLD_IP}."]
    return _all_renamed(s, lines, OLD_IP, NEW_IP)


@case(2, "match", "untouched")
def case_2(s: Scratch) -> Outcome:
    """`10.250.50.540`, `110.250.50.54`, `10.250.50.54.1`"""
    lines = ["a 10.250.50.540", "b 110.250.50.54", "c 10.250.50.54.1"]
    _, found = fates(s, lines)
    changed = [fate for fate in found if "->" in fate]
    require(not changed, f"rewritten: {'; '.join(changed)}")
    return ok("; ".join(found))


@doubtful(3, "match", "?")
def case_3(s: Scratch) -> Outcome:
    """`10.250.50.54.nip.io`"""
    _, (fate,) = fates(s, [f"url {OLD_IP}.nip.io"])
    return decided(f"{fate}; the address boundary (only `.digit` stops a match on the right) is "
                   f"{documented('no `.` followed by a digit')}")


@case(4, "match", "untouched, flagged")
def case_4(s: Scratch) -> Outcome:
    """`v10.250.50.54`"""
    return _untouched_and_flagged(s, [f"tag v{OLD_IP}"])


@case(5, "match", "renamed")
def case_5(s: Scratch) -> Outcome:
    """`::ffff:10.250.50.54` (no v6 network)"""
    return _all_renamed(s, [f"mapped ::ffff:{OLD_IP}"], OLD_IP, NEW_IP)


@case(6, "match", "renamed")
def case_6(s: Scratch) -> Outcome:
    """`54.50.250.10.in-addr.arpa`, with final dot"""
    return _all_renamed(s, ["ptr 54.50.250.10.in-addr.arpa.", "zone 54.50.250.10.in-addr.arpa"],
                        "54.50.250.10", "54.50.251.10")


@doubtful(7, "match", "renamed or flagged")
def case_7(s: Scratch) -> Outcome:
    """`54.50.250.10.IN-ADDR.ARPA`"""
    _, (fate,) = fates(s, ["ptr 54.50.250.10.IN-ADDR.ARPA"])
    return decided(f"{fate}; upper-case reverse names are {documented('IN-ADDR.ARPA')}")


@doubtful(8, "match", "flagged")
def case_8(s: Scratch) -> Outcome:
    """`10.250.050.054`"""
    _, (fate,) = fates(s, ["ip 10.250.050.054"])
    return decided(f"{fate}; zero-padded octets are {documented('zero-padded', 'leading zero')}")


@case(9, "match", "near-miss")
def case_9(s: Scratch) -> Outcome:
    """`10-250-50-54`"""
    return _untouched_and_flagged(s, ["host ip-10-250-50-54 and 10-250-50-54"])


@doubtful(10, "match", "per doc")
def case_10(s: Scratch) -> Outcome:
    """`10.250.50.54a` / `e3`"""
    _, found = fates(s, [f"a {OLD_IP}a", f"b {OLD_IP}e3"])
    return decided(f"{'; '.join(found)}; a letter after an address is allowed by the boundary rule, "
                   f"{documented('on the right no digit and no `.` followed by a digit')}")


@case(11, "match", "renamed")
def case_11(s: Scratch) -> Outcome:
    """host in URL, email, markdown link, path, `host:/mnt`, quoted"""
    lines = ["url http://ana-ml2:8016/v1", "mail ops@ana-ml2", "link [box](http://ana-ml2/)",
             "path /srv/ana-ml2/data", "nfs ana-ml2:/mnt", "quoted \"ana-ml2\" and 'ana-ml2'"]
    return _all_renamed(s, lines, "ana-ml2", "fv-ml1")


@doubtful(12, "match", "FQDN rule or flag")
def case_12(s: Scratch) -> Outcome:
    """`ana-ml2.ANA.LAN`, `ana-ml2.ana`"""
    root, found = fates(s, ["a ana-ml2.ANA.LAN", "b ana-ml2.ana"])
    strict = s.cli(root, "verify", "--strict")
    no_crash(strict)
    flagged = "flagged by" if strict.exit_code else "not flagged by"
    return decided(f"{'; '.join(found)}: hybrid names, {flagged} verify --strict afterwards; "
                   f"{documented('ana-ml2.ANA.LAN', 'hybrid')}")


@doubtful(13, "match", "untouched?")
def case_13(s: Scratch) -> Outcome:
    """`éana-ml2`, `ana-ml2é`"""
    _, found = fates(s, ["a éana-ml2", "b ana-ml2é"])
    return decided(f"{'; '.join(found)}; boundaries are ASCII classes, "
                   f"{documented('a character outside `[A-Za-z0-9_.-]`')}")


@case(14, "match", "flagged")
def case_14(s: Scratch) -> Outcome:
    """`ANA-ML2`, `Ana-Ml2`, `ana-ml2-bmc`"""
    return _untouched_and_flagged(s, ["a ANA-ML2", "b Ana-Ml2", "c ana-ml2-bmc"])


V6 = {"fd00:250::54": "fd00:251::54"}


@case(23, "match", "renamed")
def case_23(s: Scratch) -> Outcome:
    """IPv6 alternative spellings"""
    spellings = ["fd00:250:0:0:0:0:0:54", "fd00:250::0:54", "Fd00:250::54", "fd00:250:0::54",
                 "FD00:0250:0000:0000:0000:0000:0000:0054"]
    root, _ = swept(s, {"a.txt": "\n".join(spellings) + "\n"}, cfg=config(addresses=V6))
    after = (root / "a.txt").read_text().splitlines()
    missed = [old for old, new in zip(spellings, after, strict=True) if not same_address(new, "fd00:251::54")]
    require(not missed, f"not renamed: {', '.join(missed)}")
    strict = s.cli(root, "verify", "--strict")
    succeeded(strict, "verify --strict after the sweep")
    return ok(f"all {len(spellings)} spellings now fd00:251::54; verify --strict OK")


@case(24, "match", "renamed")
def case_24(s: Scratch) -> Outcome:
    """v6 network + v4 address after `hex:`"""
    cfg = config(addresses={OLD_IP: NEW_IP}, networks={"fd00:250::/64": "fd00:251::/64"})
    lines = [f"a ::ffff:{OLD_IP}", f"b 1:{OLD_IP}", f"c cafe:{OLD_IP}", f"d 12:30:{OLD_IP}"]
    return _all_renamed(s, lines, OLD_IP, NEW_IP, cfg=cfg)


@case(25, "match", "renamed")
def case_25(s: Scratch) -> Outcome:
    """v6 network: `fd00:250::1.`"""
    cfg = config(networks={"fd00:250::/64": "fd00:251::/64"})
    return _all_renamed(s, ["the gateway is fd00:250::1.", "see fd00:250::1, then"],
                        "fd00:250::", "fd00:251::", cfg=cfg)
