"""A Terraform address written outside the configuration follows its label (break-it round 8,
finding 13).

An OPA/conftest policy's `input.resource_changes[_].address == "module.pug.x.y"`, infracost's
`{"ignore": ["module.pug"]}`, a Sentinel or checkov rule: each names a resource by its address,
and the `.` before `pug` keeps the plain rules away, so after the label moved (with its
`moved {}` block) the policy named an address no plan holds, and verify said OK with a
near-miss. A top-level address (`module.NAME`, `TYPE.NAME`, `data.TYPE.NAME`) in a current-state
file that is no Terraform file is read against the repo's labels of that kind, type and name
(renamer/sweep/terraform_labels.py): every such label moving, the address follows (rewritten);
every one staying, it stays; one refused, or labels of that name in folders whose fates differ,
a `terraform-label` residual (which root module a policy reads cannot be told). A terraform
command's address (a Makefile, a script) is terraform_labels' own business (it holds the label).
"""

from __future__ import annotations

import re

from renamer.occurrences import Match
from renamer.sweep.terraform_labels import TerraformIndex, is_terraform

_ADDRESS = re.compile(rb"(?<![\w.$-])(?:(?P<module>module)"
                      rb"|(?P<data>data\.)?(?P<type>[a-z][a-z0-9]*_[a-z0-9_]+))\.(?P<name>[A-Za-z_][\w-]*)(?![\w-])")
REASON = "terraform-label"


def address_matches(data: bytes, rel: str, matches: list[Match], index: TerraformIndex) -> list[Match]:
    """`matches` with each Terraform address of a non-Terraform file decided by its label's fate."""
    if is_terraform(rel) or rel in index.outside or not index.olds:
        return matches
    if not index.holds_old(data, "."):
        return matches
    index.load()
    if not index.labels:
        return matches
    taken = {(m.start, m.end) for m in matches}
    added: list[Match] = []
    for found in _ADDRESS.finditer(data):
        name = found.group("name").decode()
        if name not in index.olds or (found.start("name"), found.end("name")) in taken:
            continue
        kind = "module" if found.group("module") else "data" if found.group("data") else "resource"
        type_ = "" if kind == "module" else found.group("type").decode()
        keys = [k for k in index.labels if k[1] == kind and k[2] == type_ and k[3] == name]
        verdicts = [v for k in keys if (v := index.verdict(k)) is not None]
        if not keys or not verdicts:
            continue
        actions = {v.action for v in verdicts}
        shown = found.group().decode()
        where = ", ".join(f"{index.labels[k][0][0]}:{index.labels[k][0][1].line}" for k in keys)
        new = index.renames[name]
        if actions == {"moves"}:
            note = (f"a Terraform address outside the configuration: `{shown}` names the label declared at "
                    f"{where}, renamed {new} (with its `moved` block): the address follows it")
            added.append(Match(found.start("name"), found.end("name"), name, new, "host", note=note))
        elif actions != {"stays"}:
            why = next((v.why for v in verdicts if v.action == "refused"), "")
            mixed = ("moves in one folder and not in another: which root module this file reads cannot "
                     "be told")
            note = (f"`{shown}` names the Terraform label {name} declared at {where}, which "
                    + (f"is not renamed: {why}" if actions == {"refused"} else mixed))
            added.append(Match(found.start("name"), found.end("name"), name, new, "host", refused=REASON,
                               note=note))
    if not added:
        return matches
    return sorted([*matches, *added], key=lambda m: m.start)
