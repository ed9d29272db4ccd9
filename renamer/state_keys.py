"""Literal names that key state outside the repo, by the tool that keeps it (break-it round 24,
findings 05 and 18; state_locations.py reads backup repositories' paths and ACME lineages).

A flag, key or path that names a stored object by the host's name: a backup tool's snapshot group
(`proxmox-backup-client --backup-id web01`, `kopia --override-hostname`, restic's `--host` filter, a
duplicity or autorestic target's path), a certificate lineage outside certbot's Linux folder
(`certbot --cert-name`, lego's `.lego/certificates/NAME.crt`, NixOS `/var/lib/acme/NAME/`,
dehydrated's `certs/NAME/`, `C:\\Certbot\\live\\NAME\\`, `acme.sh --renew -d NAME`), a config
management CA's signed node certificate or accepted key (Puppet `ssl/certs/NAME.pem`, `certname`,
Salt `pki/master/minions/NAME`), and a member identity a cluster or daemon keeps its data or peer
set under (RabbitMQ `rabbit@NAME`, Vault raft `node_id`, Consul `node_name`, Galera
`wsrep_node_name`, Patroni `name:`, etcd `ETCD_NAME` and `INITIAL_CLUSTER` members, corosync's
`nodelist` `name:`, Proxmox `/etc/pve/nodes/NAME/`, a local PersistentVolume's `nodeAffinity`
(immutable), Rook's `storage.nodes[].name`). Renamed in the text, the state does not move: the next
run opens or creates another, empty one. Each is read by its own grammar, not a word list of keys.
Pure: bytes in, a short description of what keys state out.
"""

from __future__ import annotations

import re

from renamer import lazy_re, state_locations, state_nodes, state_objects

# Words one of which a file holding such a key spells (a cheap gate before any line is read).
LITERALS = (b"--backup-id", b"override-hostname", b"restic", b"RESTIC_HOST", b"duplicity", b"duply",
            b"--cert-name", b"certificates/", b"/acme/", b"\\acme\\", b"certs/", b"\\live\\", b"acme.sh",
            b"ssl/", b"certname", b"pki/", b"rabbit", b"node_id", b"node_name", b"wsrep_node_name",
            b"PATRONI", b"ETCD", b"etcd", b"initial-cluster", b"nodelist", b"/pve/nodes/",
            b"PersistentVolume", b"CephCluster", b"scope:", b"lego", b"RABBIT", b"NODENAME", b"NODE_ID",
            b"\\Live\\", b"\\LIVE\\")

_RAFT = "a raft member's `node_id` (Vault integrated storage's peer set)"
_V = rb"[\"']?(?P<v>[A-Za-z0-9][A-Za-z0-9._-]*)"  # a flag's or key's value, quoted or not

# (line regex, what keys state, a word the line or file must hold or None): the `v` group is the key.
_LINE_RULES: tuple[tuple[re.Pattern[bytes], str, bytes | None], ...] = (
    (re.compile(rb"--backup-id[= ]+" + _V), "a Proxmox Backup Server backup group (`--backup-id`)", None),
    (re.compile(rb"--override-hostname[= ]+" + _V), "kopia's snapshot source (`--override-hostname`)", None),
    (re.compile(rb"(?:--host|--hostname)[= ]+" + _V), "restic's snapshot host (`--host`)", b"restic"),
    (re.compile(rb"\bRESTIC_HOST[\"']?\s*[=:]\s*" + _V), "restic's snapshot host (`RESTIC_HOST`)", None),
    (re.compile(rb"--cert-name[= ]+" + _V), "a certbot lineage (`--cert-name`)", None),
    (re.compile(rb"(?:^|\s)(?:-d|--domain)[= ]+" + _V + rb"(?=.*--(?:install-cert|renew|remove|revoke|info"
                rb"|deploy|to-pkcs))"), "an acme.sh lineage (`-d` of an existing certificate)", b"acme.sh"),
    (re.compile(rb"--(?:install-cert|renew|remove|revoke|info|deploy|to-pkcs)\b.*?(?:\s-d|--domain)[= ]+"
                + _V),
     "an acme.sh lineage (`-d` of an existing certificate)", b"acme.sh"),
    (re.compile(rb"\.lego/certificates/(?P<v>[A-Za-z0-9._-]+?)(?:\.crt|\.key|\.json|\.issuer\.crt|\.pem)\b"),
     "a lego certificate (`.lego/certificates/NAME.crt`)", None),
    (re.compile(rb"/var/lib/acme/(?P<v>[A-Za-z0-9._-]+)"),
     "a NixOS security.acme lineage (`/var/lib/acme/NAME/`)", None),
    (re.compile(rb"dehydrated/certs/(?P<v>[A-Za-z0-9._-]+)"), "a dehydrated lineage (`certs/NAME/`)", None),
    (re.compile(rb"(?i:\\(?:certbot|letsencrypt)\\(?:live|archive|renewal)\\)(?P<v>[A-Za-z0-9._-]+)"),
     "a certbot lineage on Windows (`\\Certbot\\live\\NAME\\`)", None),
    (re.compile(rb"puppet[A-Za-z]*/(?:puppet/)?ssl/(?:certs|private_keys|public_keys|certificate_requests"
                rb"|ca/signed|ca/requests)/(?P<v>[A-Za-z0-9._-]+?)\.pem\b"),
     "a Puppet node certificate (`ssl/certs/NAME.pem`)", None),
    (re.compile(rb"(?:^|\s)(?:--)?certname\s*[= ]\s*" + _V),
     "a Puppet agent's certname (its signed certificate)", b"puppet"),
    (re.compile(rb"pki/master/minions(?:_pre|_rejected|_denied|_autosign)?/(?P<v>[A-Za-z0-9._-]+)"),
     "a Salt master's accepted minion key (`pki/master/minions/NAME`)", None),
    (re.compile(rb"\b(?:RABBITMQ_NODENAME|NODENAME)\s*=\s*[\"']?[A-Za-z0-9_.-]+@(?P<v>[A-Za-z0-9._-]+)"),
     "a RabbitMQ node name (its Mnesia database is named after it)", None),
    (re.compile(rb"\brabbit(?:mq)?@(?P<v>[A-Za-z0-9._-]+)"),
     "a RabbitMQ node name (its Mnesia database is named after it)", None),
    (re.compile(rb"\bnode_id\s*[=:]\s*" + _V), _RAFT, None),
    (re.compile(rb"\bVAULT_RAFT_NODE_ID\s*=\s*" + _V), _RAFT, None),
    (re.compile(rb"\bnode_name\s*[=:]\s*" + _V),
     "a Consul agent's `node_name` (the catalog and raft peer set know the node by it)", b"consul"),
    (re.compile(rb"\bwsrep_node_name\s*=\s*" + _V), "a Galera member's `wsrep_node_name`", None),
    (re.compile(rb"\bPATRONI_NAME\s*[=:]\s*" + _V), "a Patroni member's `name` (its key in the DCS)", None),
    (re.compile(rb"\bETCD_NAME\s*[=:]\s*" + _V), "an etcd member's name (`ETCD_NAME`, in its data directory)",
     None),
    (re.compile(rb"--name[= ]+" + _V), "an etcd member's name (`--name`, in its data directory)", b"etcd"),
    (re.compile(rb"(?:^|\s)(?:-d|--domains?)[= ]+" + _V + rb"(?=.*\brenew\b)"),
     "a lego certificate (`lego --domains NAME renew` reads `.lego/certificates/NAME.crt`)", b"lego"),
    (re.compile(rb"/etc/pve/nodes/(?P<v>[A-Za-z0-9._-]+)"), "a Proxmox cluster node (`/etc/pve/nodes/NAME/`)",
     None),
)

# An etcd member list (`web01=https://10.0.0.70:2380,web02=...`): each member's name.
# A backup target's location (duplicity's or duply's URL, an autorestic backend's `path:`): its path part.
_TARGET = lazy_re.compile(rb"(?P<loc>[a-z][a-z0-9+]*://[^\s\"']+|(?<![\w/])[A-Za-z0-9._@-]+:/[^\s\"']+)")
_TARGET_WORDS = (b"duplicity", b"duply", b"autorestic")

_CLUSTER = lazy_re.compile(
    rb"(?:ETCD_INITIAL_CLUSTER|--initial-cluster|initial-cluster)[\"']?\s*[=: ]\s*[\"']?"
                      rb"(?P<list>[^\s\"']+)")
_MEMBER = lazy_re.compile(rb"(?:^|,)(?P<v>[A-Za-z0-9._-]+)=")
_YAML_KEY = lazy_re.compile(rb"^(?P<ind>[ \t]*)(?:-[ \t]+)?(?P<key>[A-Za-z_][A-Za-z0-9_.-]*)[ \t]*:")
_YAML_NAME = lazy_re.compile(rb"^[ \t]*(?:-[ \t]+)?name[ \t]*:[ \t]*" + _V)


def might_hold(rel: str, data: bytes) -> bool:
    """Cheap: might `data` (of the file `rel`) spell one of the keys this module reads?"""
    return (any(word in data for word in LITERALS) or "autorestic" in rel.rsplit("/", 1)[-1].lower()
            or state_nodes.might_hold(data)
            or state_objects.might_hold(rel, data))


def _line(data: bytes, start: int) -> tuple[int, int]:
    head = data.rfind(b"\n", 0, start) + 1
    tail = data.find(b"\n", start)
    return head, len(data) if tail < 0 else tail


def keyed(rel: str, data: bytes, start: int, end: int) -> str | None:
    """What keys state at `data[start:end]` (an old name found there), in words, or None."""
    head, tail = _line(data, start)
    line = data[head:tail]
    low_line, name = line.lower(), rel.rsplit("/", 1)[-1].lower()
    for pattern, what, word in _LINE_RULES:
        if word is not None and word not in low_line and word.decode() not in name:
            continue
        for m in pattern.finditer(line):
            if m.start("v") + head <= start and end <= m.end("v") + head:
                return what
    if any(w in low_line or w.decode() in name for w in _TARGET_WORDS) and (
            b"duplicity" in low_line or b"target" in low_line or re.match(rb"\s*path\s*:", line)):
        local = re.match(rb"\s*path\s*:\s*[\"']?(?P<loc>/[^\s\"']+)", line)  # a local backend's folder
        for m in (*_TARGET.finditer(line), *([local] if local is not None else [])):
            span = (head + m.start("loc"), head + m.end("loc"))
            if span[0] <= start and end <= span[1] and state_locations.in_path_part(data, start, span):
                return "a backup target's path (duplicity, duply or autorestic keep the backups under it)"
    for m in _CLUSTER.finditer(line):
        base = head + m.start("list")
        for member in _MEMBER.finditer(m.group("list")):
            if base + member.start("v") <= start and end <= base + member.end("v"):
                return "an etcd member's name in the cluster's member list (`INITIAL_CLUSTER`)"
    found = _structured(rel, data, start, end, head, line)
    found = found if found is not None else state_objects.keyed(rel, data, start, end)  # t36 06, 07
    return found if found is not None else state_nodes.keyed(rel, data, start, end)  # round 25, finding 02


def _structured(rel: str, data: bytes, start: int, end: int, head: int, line: bytes) -> str | None:
    """A name under a key whose meaning its file's structure gives: Patroni's top-level `name:`,
    etcd's config file `name:`, corosync's `nodelist` node `name:`, a local PersistentVolume's
    `nodeAffinity`, Rook's `storage.nodes[].name`."""
    m = _YAML_NAME.match(line)
    at = m is not None and m.start("v") + head <= start and end <= m.end("v") + head
    top = at and not line[:1].isspace()
    if top and re.search(rb"(?m)^scope[ \t]*:", data) and re.search(rb"(?m)^(?:restapi|postgresql)[ \t]*:",
                                                                     data):
        return "a Patroni member's `name` (its key in the DCS)"
    if top and re.search(rb"(?m)^initial-cluster[ \t]*:", data):
        return "an etcd member's name (`name:`, in its data directory)"
    if at and b"nodelist" in data:
        block = data.rfind(b"nodelist", 0, start)
        if block >= 0 and data.count(b"{", block, start) > data.count(b"}", block, start) + 1:
            return "a corosync cluster node's `name` (Proxmox keeps the node's guests under it)"
    doc = _document(data, start)
    if (b"PersistentVolume" in doc[1] and re.search(rb"(?m)^kind:[ \t]*PersistentVolume[ \t]*$", doc[1])
            and _under(data, doc[0], start, b"nodeAffinity")):
        return "a local PersistentVolume's `nodeAffinity` (immutable: its data is on that node's disk)"
    if (at and b"CephCluster" in doc[1] and re.search(rb"(?m)^kind:[ \t]*CephCluster[ \t]*$", doc[1])
            and _under(data, doc[0], start, b"nodes") and _under(data, doc[0], start, b"storage")):
        return "a Rook storage node (`storage.nodes[].name`: its OSDs are on that node)"
    return None


def _document(data: bytes, start: int) -> tuple[int, bytes]:
    """(offset, text) of the YAML document holding `start`."""
    begin = data.rfind(b"\n---", 0, start)
    begin = 0 if begin < 0 else begin + 1
    stop = data.find(b"\n---", start)
    return begin, data[begin:len(data) if stop < 0 else stop]


def _under(data: bytes, begin: int, start: int, key: bytes) -> bool:
    """Does the line at `start` stand inside the block of a YAML key `key` of the document from
    `begin` (a line before it, less indented, naming the key, with no shallower key between)?"""
    head = data.rfind(b"\n", 0, start) + 1
    lead = len(data[head:start]) - len(data[head:start].lstrip(b" -\t"))
    lines = data[begin:head].split(b"\n")
    for text in reversed(lines):
        m = _YAML_KEY.match(text)
        if m is None:
            continue
        ind = len(m.group("ind"))
        if ind < lead:
            if m.group("key") == key:
                return True
            lead = ind
            if ind == 0:
                return False
    return False
