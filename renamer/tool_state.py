"""State a tool writes about the world, other than Terraform's (break-it round 24, finding 13;
terraform_state.py holds Terraform's).

A Pulumi checkpoint (the file backend's `.pulumi/stacks/PROJECT/STACK.json`, its `history/` and
`backups/`, a `pulumi stack export`) records each resource's URN and provider `id`: rewritten,
`pulumi up` sees no diff while the real resource keeps the old name, or a refresh drops the id and a
second resource is created beside the orphan. Packer's `packer-manifest.json` records the builds it
made, and an Ansible fact cache entry (the `jsonfile` plugin's file per host, named after the host)
records what was gathered from a machine: rewritten, they claim an artifact or facts that never
existed. Each is recognised by what the tool writes in it, wherever it lies; its old values are
`state-name` residuals (the tool rewrites its own state: `pulumi state rename`, `pulumi refresh`, the
next `packer build`, the next fact gathering), and its path keeps its name. Pure: bytes in.
"""

from __future__ import annotations

import re

LITERALS = (b"urn:pulumi:", b"packer_run_uuid", b"ansible_")

_PULUMI = re.compile(rb'"urn"\s*:\s*"urn:pulumi:')
_PACKER = re.compile(rb'"packer_run_uuid"\s*:')
# facts only gathering writes (a vars file sets `ansible_host`, never these)
_FACTS = (b'"ansible_default_ipv4"', b'"ansible_machine_id"', b'"ansible_nodename"', b'"ansible_fqdn"',
          b'"ansible_hostname"', b'"ansible_distribution"', b'"ansible_kernel"')


def might_hold(data: bytes) -> bool:
    return any(word in data for word in LITERALS)


def written_by(data: bytes) -> str | None:
    """Which tool wrote `data` as its own state, in words, or None."""
    if not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return None
    if b"urn:pulumi:" in data and _PULUMI.search(data):
        return ("a Pulumi checkpoint (resource URNs and provider ids): `pulumi state rename` or `pulumi "
                "refresh` rewrites it, never a text edit, or `pulumi up` sees no diff while the resource "
                "keeps its old name")
    if b"packer_run_uuid" in data and _PACKER.search(data):
        return ("Packer's build manifest, a record of the artifacts a build made: the next `packer build` "
                "appends to it; rewritten, it claims an artifact that was never built")
    if sum(1 for word in _FACTS if word in data) >= 2:
        return ("an Ansible fact cache entry, the facts gathered from a machine: the next gathering writes "
                "the renamed host's own; rewritten (or renamed), it claims facts that were never gathered")
    return None
