"""Cases 26-32: network renumbering (`renames.networks`)."""

from __future__ import annotations

from tests.adversarial.harness import (
    Outcome,
    Scratch,
    case,
    config,
    differing,
    first_line,
    ok,
    refused_config,
    require,
    swept,
)

NET = {"10.250.0.0/16": "10.251.0.0/16"}


@case(26, "net", "renamed")
def case_26(s: Scratch) -> Outcome:
    """broadcast, `/24` literal, ranges, `dhcp-range`, `/31`, `/32`"""
    lines = ["broadcast 10.250.255.255", "net 10.250.50.0/24", "range 10.250.50.10-10.250.50.20",
             "dhcp-range=10.250.50.100,10.250.50.200,12h", "p2p 10.250.50.0/31", "host 10.250.50.54/32",
             "whole 10.250.0.0/16"]
    root, _ = swept(s, {"net.txt": "\n".join(lines) + "\n"}, cfg=config(networks=NET))
    wrong = differing((root / "net.txt").read_text().splitlines(),
                      [line.replace("10.250.", "10.251.") for line in lines])
    require(not wrong, f"not renumbered: {'; '.join(wrong)}")
    return ok(f"all {len(lines)} renumbered")


@case(27, "net", "renamed")
def case_27(s: Scratch) -> Outcome:
    """`50.250.10.in-addr.arpa` in renumbered /16"""
    text = 'zone "50.250.10.in-addr.arpa" { type master; };\nzone "250.10.in-addr.arpa" {};\n'
    root, _ = swept(s, {"named.conf": text}, cfg=config(networks=NET))
    after = (root / "named.conf").read_text()
    require(after == text.replace(".250.10.", ".251.10.").replace('"250.10.', '"251.10.'),
            f"reverse zones left: {after!r}")
    return ok("the /24 and /16 reverse zones follow the network")


@case(28, "net", "untouched")
def case_28(s: Scratch) -> Outcome:
    """supernet `10.250.0.0/15`"""
    text = "aggregate 10.250.0.0/15\nsummary 10.250.0.0/8\n"
    root, result = swept(s, {"routes.txt": text}, cfg=config(networks=NET))
    after = (root / "routes.txt").read_text()
    require(after == text, f"rewritten: {after!r}")
    flagged = "supernet" in result.stdout
    return ok("left as written" + (", reported as residual (supernet)" if flagged else ""))


@case(29, "net", "refused")
def case_29(s: Scratch) -> Outcome:
    """overlapping old networks"""
    return refused_config(s, config(networks={**NET, "10.250.50.0/24": "10.252.50.0/24"}), "overlaps")


@case(30, "net", "refused")
def case_30(s: Scratch) -> Outcome:
    """two networks → one"""
    cfg = config(networks={"10.250.0.0/24": "10.251.0.0/24", "10.252.0.0/24": "10.251.0.0/24"})
    return refused_config(s, cfg, "10.251.0.0/24")


@case(31, "net", "refused")
def case_31(s: Scratch) -> Outcome:
    """network chain"""
    return refused_config(s, config(networks={**NET, "10.251.0.0/16": "10.252.0.0/16"}))


@case(32, "net", "refused")
def case_32(s: Scratch) -> Outcome:
    """address into an old network"""
    cfg = config(addresses={"10.250.50.54": "10.251.50.54"}, networks={"10.251.0.0/16": "10.252.0.0/16"})
    outcome = refused_config(s, cfg, "10.251.0.0/16")
    if outcome.verdict != "ok":
        return outcome
    require("contains old value" not in outcome.detail, f"the confusing message: {outcome.detail}")
    return ok(first_line(outcome.detail))
