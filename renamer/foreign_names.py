"""Names in another service's namespace (break-it round 10, finding 5): no host, and no move renames them.

The model is the image rule (image_refs.py): `image: pihole/pihole` names a registry repository.
The same holds for

* a repository on a code forge: the path of a URL on a forge (`https://github.com/acme/pug`,
  `git@github.com:acme/pug.git`, Terraform's `git::https://host/infra/pug.git//modules/vm`, a
  `.git` path on any server, a URL `git clone` or a `repo:` key takes, a scheme-less
  `github.com/acme/pug`), a GitHub Actions `uses: acme/pug@v1`, a Terraform registry `source`
  (`acme/pug/aws`): kept `repository`. The URL's host is a host and follows; so does a path
  after the repository (`//modules/x`, `/blob/main/...`, `?ref=`), which names a file in it.
* a Go module path (go.mod's `module`, `require`, `replace`; a .go file's import): kept
  `repository` for its owner and repository after the host (t36-sweep finding 20); a package
  manifest's own name (package.json's `"name"`, pyproject's and Cargo's `name =`): kept
  `package`; a Grafana dashboard's UID in its URL (`/d/UID/slug`): kept `dashboard`.
* where data lives in a storage service: an object store's bucket and key (`s3://pug/`, `gs://`,
  `az://`, Terraform's `s3::https://endpoint/pug/x`), a restic repository on one
  (`-r s3:endpoint/pug`, `b2:`, `gs:`, `azure:`, `swift:`, `rclone:`, a rest-server's path,
  `RESTIC_REPOSITORY=`), a ZFS dataset or pool (the arguments of `zfs`/`zpool`, syncoid's
  `[user@host:]pool/ds`, a sanoid section `[pool/ds]`; break-it round 14, finding 11: the value of
  a key that names a dataset (`dest_dataset: tank/pug`, `zfs_dataset:`, `datasets: [...]`), zrepl's
  `root_fs:` and `filesystems:` keys (`"tank/pug<": true`), the `name:` of an Ansible zfs/zpool
  module, a Proxmox `zfspool:` stanza's `pool`): kept `storage`. Renamed in the text
  alone, the next run writes to a new, empty place (or someone else's bucket: S3 names are
  global), like a Terraform state's name (`terraform-state`). A storage endpoint's host follows
  the plain rules; a restic repository on a file system (a local path, `sftp:host:/path`) is a
  `state-name` residual since break-it round 23 (state_locations.py).

Every occurrence in such a name is decided the same way, so one line never keeps one dataset and
renames its counterpart (`zfs send tank/pug@snap | ssh b zfs recv pool/pug`); `tank/pug@snap` is
no account. Pure: bytes in, spans out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from renamer import lazy_re

_Add = Callable[[int, int, str], None]
REPOSITORY = "repository"
STORAGE = "storage"
PACKAGE = "package"
DASHBOARD = "dashboard"

FORGES = frozenset({
    "github.com", "www.github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "gitea.com", "git.sr.ht",
    "hg.sr.ht", "dev.azure.com", "ssh.dev.azure.com", "gitee.com", "salsa.debian.org", "framagit.org",
    "git.launchpad.net", "source.developers.google.com",
})
_STORAGE_SCHEMES = frozenset({b"s3", b"s3a", b"s3n", b"gs", b"gcs", b"az", b"abfs", b"abfss", b"wasb",
                              b"wasbs", b"adl", b"b2", b"r2", b"oss", b"cos", b"swift", b"minio"})
_WEB_SCHEMES = frozenset({b"http", b"https", b"ssh", b"git", b"git+ssh", b"git+https", b"git+http",
                          b"git+git", b"git+file"})
# Lines are only read where one of these stands in the file.
_HINTS = (b"://", b"git@", b".git", b"zfs", b"zpool", b"syncoid", b"sanoid", b"autosnap", b"restic",
          b"RESTIC_", b"epository", b"uses:", b"ataset", b"ATASET", b"root_fs", b"filesystems", b"source",
          b"module", b"import", b"require", b"\"name\"", b"name =", b"name=",
          *(f.encode() for f in FORGES if f.count(".") == 1))

_URL = lazy_re.compile(rb"(?P<pre>(?:git|s3|gcs)::)?(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://"
                  rb"(?P<user>[^\s/@\"'<>()]*@)?(?P<host>\[[^\]\s]*\]|[^\s/:\"'<>?#()]*)(?::[0-9]*)?"
                  rb"(?P<path>/[^\s\"'<>()`]*)?")
# `git@github.com:acme/pug.git`: scp-like, a forge's when the user is `git`, the host a forge or
# the path ends in `.git`.
_SCP = lazy_re.compile(rb"(?<![\w.@/:+-])(?P<user>[A-Za-z0-9._-]+)@(?P<host>[A-Za-z0-9.-]+):"
                  rb"(?P<path>[A-Za-z0-9._~-][^\s\"'<>:()`]*)")
_FORGE_NAMES = b"|".join(re.escape(f.encode()) for f in sorted(FORGES))
_BARE_FORGE = lazy_re.compile(rb"(?<![\w.@/:+-])(?P<host>" + _FORGE_NAMES + rb")(?P<path>/[^\s\"'<>()`]*)")
_GIT_COMMAND = lazy_re.compile(rb"\bgit[ \t]+(?:-[Cc][ \t]+\S+[ \t]+)*(?:clone|remote[ \t]+(?:add|set-url)|"
                          rb"submodule[ \t]+add|fetch|pull|push|ls-remote)\b")
_REPO_KEY = lazy_re.compile(rb"""(?:^|[\s{,])["']?(?:repo|repo_url|repoURL|git_repo|git_url|clone_url|"""
                       rb"""remote_url|git_remote)["']?[ \t]*[:=][ \t]*["']?$""")
# Where a URL's path stops naming the repository: a subfolder (`//`), a ref, a forge's own pages.
_REPO_END = lazy_re.compile(rb"//|[?#@]|/-/|/(?:blob|tree|raw|src|commit|commits|releases|archive|pull|"
                       rb"issues|wiki|actions|compare)(?:/|$)")
_USES = lazy_re.compile(
    rb"""(?m)^[ \t]*(?:-[ \t]+)?uses[ \t]*:[ \t]*["']?(?P<ref>[A-Za-z0-9][\w.-]*/[\w./-]+)""")
_SOURCE = lazy_re.compile(rb"""(?m)^[ \t]*source[ \t]*=[ \t]*"(?P<ref>[^"\s]+)\"""")
_RESTIC_VALUE = lazy_re.compile(
    rb"""(?:(?<![\w-])(?:-r|--repo|--repository|--repo2|--from-repo)(?:[ \t]+|=)|"""
    rb"""\bRESTIC_(?:FROM_)?REPOSITORY2?["']?[ \t]*[=:][ \t]*|"""
    rb"""(?:^|[\s{,])["']?repository["']?[ \t]*[:=][ \t]*"""
    rb"""(?=["']?(?:s3|sftp|rest|b2|azure|gs|swift|rclone|local):))"""
    rb"""["']?(?P<value>[^\s"']+)""")
_RESTIC_ALL = (b"b2:", b"azure:", b"gs:", b"swift:", b"rclone:")  # all of the rest names storage
# `zfs`/`zpool` then one of their subcommands: prose ("restart zfs on pug") names no dataset.
_ZFS = lazy_re.compile(
    rb"\b(?:zfs[ \t]+(?:create|destroy|snapshot|snap|rollback|clone|promote|rename|list|set|get|inherit|"
    rb"upgrade|userspace|groupspace|projectspace|mount|unmount|umount|share|unshare|bookmark|send|"
    rb"receive|recv|redact|allow|unallow|hold|holds|release|diff|load-key|unload-key|change-key|wait|"
    rb"project)|zpool[ \t]+(?:create|destroy|add|remove|attach|detach|replace|split|import|export|"
    rb"status|list|iostat|scrub|resilver|trim|online|offline|clear|history|get|set|upgrade|reguid|"
    rb"reopen|sync|initialize|checkpoint|wait|events))(?![\w-])(?P<args>[^|;&\n)`]*)")
_SYNCOID = lazy_re.compile(rb"\bsyncoid[ \t]+(?P<args>[^|;&\n)`]*)")
_DATASET = lazy_re.compile(rb"(?P<remote>(?:[A-Za-z0-9._-]+@)?[A-Za-z0-9._-]+:)?"
                      rb"(?P<name>[A-Za-z0-9][\w.:-]*(?:/[\w.:-]+)*(?:[@#][\w.:-]+)?)")
# A key whose value names datasets (break-it round 14, finding 11): any key holding `dataset`
# (zfs-autobackup's `dest_dataset:`, `zfs_dataset:`, `datasets:`), a `zfs`/`zpool` word, zrepl's
# `root_fs`; the value (a scalar or a flow list, each a `pool/ds` with a `/`) names storage.
_KEY_LINE = lazy_re.compile(rb"""^[ \t]*(?:-[ \t]+)?["']?(?P<key>[\w.-]+)["']?[ \t]*[:=][ \t]*"""
                       rb"""(?P<value>[^\r\n#]*)""")
_INLINE_KEY = lazy_re.compile(rb"""(?:^|(?<=[\s{,]))["']?(?P<key>[\w.-]+)["']?[ \t]*[:=][ \t]*"""
                         rb"""(?P<value>"[^"\n]*"|'[^'\n]*'|\[[^\]\n{]*\]|[^\s,}\]#\[{][^\s,}\]#]*)""")
_ITEM_LINE = lazy_re.compile(rb"""^[ \t]*-[ \t]+(?P<value>[^\s:#{}\[\]]+)[ \t]*\r?$""")
_DATASET_KEY = lazy_re.compile(rb"(?i)dataset|(?:^|[_.-])(?:zfs|zpool)(?:$|[_.-])|^root_fs$")
# Ansible's zfs modules (`community.general.zfs:` then `name: tank/pug`, or `name=tank/pug`).
_MODULES = rb"(?:community\.general\.)?(?:zfs|zfs_facts|zfs_delegate_admin|zpool|zpool_facts)"
_ZFS_MODULE = lazy_re.compile(rb"^" + _MODULES + rb"$")
_MODULE_ARGS = lazy_re.compile(rb"\b" + _MODULES + rb"[ \t]*:[ \t]+[^\n]*?\bname=[\"']?(?P<name>[^\s\"']+)")
# zrepl's filesystems filter: `"tank/pug<": true` (`<`: the subtree), in a `filesystems:` map.
_FILTER = lazy_re.compile(rb"""["']?(?P<name>[A-Za-z0-9][\w.:-]*(?:/[\w.:-]+)*)<?["']?[ \t]*:[ \t]*"""
                     rb"""(?:true|false)\b""")
_PROXMOX = lazy_re.compile(rb"^[ \t]+pool[ \t]+(?P<name>\S+)[ \t]*\r?$")
_SANOID = lazy_re.compile(rb"(?m)^[ \t]*\[(?P<name>[A-Za-z0-9][\w.:-]*(?:/[\w.:-]+)+)\][ \t]*\r?$")


# A Go module path (t36-sweep finding 20): go.mod's `module`/`require`/`replace` and a `require (...)`
# block's lines, a .go file's import (`import "host/owner/repo/pkg"`, an import block's line): the
# module's host is a host and follows; its path names the repository (`go get` finds it there).
_GO_PATH = rb"(?P<gohost>[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})(?P<gopath>/[A-Za-z0-9._~/-]+)"
_GO_MOD = lazy_re.compile(rb"^[ \t]*(?:(?:module|require|replace)[ \t]+(?:\([ \t]*)?"
                          rb"|(?=[^\s\"]+[ \t]+v[0-9]))" + _GO_PATH + rb"(?=[ \t]|$)")
_GO_IMPORT = lazy_re.compile(rb"^[ \t]*(?:import[ \t]+(?:\([ \t]*)?)?(?:[A-Za-z_.][\w]*[ \t]+)?\""
                             + _GO_PATH + rb"\"")
# A package manifest's own name (finding 20): package.json's top-level `"name"` (beside its
# `"version"` and what a manifest holds), pyproject's `[project]`/`[tool.poetry]` and Cargo's
# `[package]` `name =`: the published package's identity, which the move does not rename.
_JSON_NAME = lazy_re.compile(rb"^[ \t]{0,2}\{?[ \t]*\"name\"[ \t]*:[ \t]*\"(?P<name>[^\"\n]+)\"")
_MANIFEST_KEYS = (b'"dependencies"', b'"devDependencies"', b'"scripts"', b'"private"', b'"main"',
                  b'"license"', b'"workspaces"', b'"peerDependencies"')
_TOML_NAME = lazy_re.compile(rb"^name[ \t]*=[ \t]*[\"'](?P<name>[^\"'\n]+)[\"']")
_TOML_TABLE = lazy_re.compile(rb"(?m)^\[(?P<table>[^\]\n]+)\][ \t]*$")
_PACKAGE_TABLES = (b"project", b"package", b"tool.poetry")
# A Grafana dashboard's URL (`https://grafana.lab/d/UID/slug`, `/d-solo/UID/`): the UID is Grafana's.
_GRAFANA = lazy_re.compile(rb"^/d(?:-solo)?/(?P<uid>[A-Za-z0-9_-]+)")


def might_hold(data: bytes) -> bool:
    return any(hint in data for hint in _HINTS)


def foreign_spans(data: bytes, near: Iterable[int]) -> list[tuple[int, int, str]]:
    """The (start, end, reason) of every foreign name on the lines holding an offset of `near`."""
    out: list[tuple[int, int, str]] = []
    seen: set[int] = set()
    sanoid = b"autosnap" in data or b"use_template" in data or b"sanoid" in data
    for pos in near:
        low = data.rfind(b"\n", 0, pos) + 1
        if low in seen:
            continue
        seen.add(low)
        high = data.find(b"\n", pos)
        high = len(data) if high == -1 else high
        out += _line_spans(data, low, high, sanoid=sanoid)
    return out


def _line_spans(data: bytes, low: int, high: int, *, sanoid: bool) -> list[tuple[int, int, str]]:
    line = data[low:high]
    out: list[tuple[int, int, str]] = []

    def add(start: int, end: int, reason: str) -> None:
        if end > start:
            out.append((low + start, low + end, reason))

    git_line = _GIT_COMMAND.search(line) is not None
    for url in _URL.finditer(line):
        scheme = url.group("scheme").lower()
        pre = (url.group("pre") or b"").lower()
        if scheme in _STORAGE_SCHEMES:
            add(url.start("host"), url.end(), STORAGE)
            continue
        path = url.group("path") or b""
        if pre in (b"s3::", b"gcs::"):  # Terraform's getter: the endpoint, then the bucket and key
            add(url.start("path") + 1, url.end(), STORAGE)
            continue
        if scheme not in _WEB_SCHEMES or not path:
            continue
        host = url.group("host").lower().decode("ascii", "replace")
        forge = (pre == b"git::" or scheme.startswith(b"git") or url.group("user") == b"git@"
                 or host in FORGES or git_line or _repo_end(path).endswith(b".git")
                 or _REPO_KEY.search(line, 0, url.start()) is not None)
        if forge:
            add(url.start("path") + 1, url.start("path") + len(_repo_end(path)), REPOSITORY)
        else:
            dashboard = _GRAFANA.match(path)
            if dashboard is not None:
                at = url.start("path")
                add(at + dashboard.start("uid"), at + dashboard.end("uid"), DASHBOARD)
    for scp in _SCP.finditer(line):
        path = _repo_end(scp.group("path"))
        host = scp.group("host").lower().decode("ascii", "replace")
        if scp.group("user") == b"git" or host in FORGES or path.endswith(b".git"):
            add(scp.start("path"), scp.start("path") + len(path), REPOSITORY)
    for bare in _BARE_FORGE.finditer(line):
        add(bare.start("path") + 1, bare.start("path") + len(_repo_end(bare.group("path"))), REPOSITORY)
    for uses in _USES.finditer(line):
        ref = uses.group("ref")
        if not ref.startswith((b"./", b"docker:")):
            add(uses.start("ref"), uses.start("ref") + len(_repo_end(ref)), REPOSITORY)
    for source in _SOURCE.finditer(line):
        _registry_source(source.group("ref"), source.start("ref"), add)
    if b"restic" in line or b"RESTIC_" in line or b"repository" in line:
        for value in _RESTIC_VALUE.finditer(line):
            if value.group().startswith(b"-") and b"restic" not in line:
                continue  # `rsync -r`: a restic option only in a restic command
            _restic(value.group("value"), value.start("value"), add)
    for commands, regex in (((b"zfs", b"zpool"), _ZFS), ((b"syncoid",), _SYNCOID)):
        if any(command in line for command in commands):
            for hit in regex.finditer(line):
                _datasets(line, hit.start("args"), hit.end("args"), add)
    if sanoid and b"[" in line:
        for section in _SANOID.finditer(line):
            add(section.start("name"), section.end("name"), STORAGE)
    _keyed(data, low, line, add)
    _go_paths(line, add)
    _package_name(data, low, line, add)
    return out


def _go_paths(line: bytes, add: _Add) -> None:
    """A Go module path's repository part: the owner and repository after its host (a package
    path under them, `/internal/health`, names a folder of the repository: it follows)."""
    if b"/" not in line:
        return
    for regex in (_GO_MOD, _GO_IMPORT):
        found = regex.match(line)
        if found is not None:
            path = found.group("gopath")
            parts = path.split(b"/")  # ['', owner, repo, ...]
            kept = b"/".join(parts[:3])
            add(found.start("gopath") + 1, found.start("gopath") + len(kept), REPOSITORY)
            return


def _package_name(data: bytes, low: int, line: bytes, add: _Add) -> None:
    """A package manifest's own `name` (see _JSON_NAME, _TOML_NAME)."""
    found = _JSON_NAME.match(line)
    if found is not None and b'"version"' in data and any(key in data for key in _MANIFEST_KEYS):
        add(found.start("name"), found.end("name"), PACKAGE)
        return
    found = _TOML_NAME.match(line)
    if found is not None:
        tables = [t.group("table").strip() for t in _TOML_TABLE.finditer(data, 0, low)]
        if tables and tables[-1] in _PACKAGE_TABLES:
            add(found.start("name"), found.end("name"), PACKAGE)


def _keyed(data: bytes, low: int, line: bytes, add: _Add) -> None:
    """Datasets named by a configuration key rather than a command (break-it round 14, finding 11):
    a dataset key's value, a list item under one, an Ansible zfs module's `name:`, zrepl's
    `filesystems:` filter, a Proxmox `zfspool:` stanza's `pool`. A path (`/tank/pug/file`, a
    mounted file system) is never a dataset."""
    for module in _MODULE_ARGS.finditer(line):
        _dataset_word(line, module.start("name"), module.group("name"), add, bare=True)
    keyed = _KEY_LINE.match(line)
    parents = None
    if keyed is not None:
        key = keyed.group("key")
        if key == b"name" or key == b"pool":
            parents = _parents(data, low)
            if parents[:1] and (_ZFS_MODULE.match(parents[0]) or _DATASET_KEY.search(parents[0])
                                or (key == b"pool" and parents[0] in (b"zfspool", b"zfs"))):
                bare = _ZFS_MODULE.match(parents[0]) is not None or key == b"pool"
                _dataset_words(line, keyed.start("value"), keyed.end("value"), add, bare=bare)
        elif key == b"filesystems":
            _filters(line, keyed.start("value"), add)
    for pair in _INLINE_KEY.finditer(line):  # `dest_dataset: tank/pug`, `{"dest_dataset": "tank/pug"}`
        if pair.group("key") not in (b"name", b"pool") and _DATASET_KEY.search(pair.group("key")) \
                and b"://" not in pair.group("value"):
            _dataset_words(line, pair.start("value"), pair.end("value"), add, bare=False)
    if (keyed is None or keyed.group("key") != b"filesystems") and _FILTER.search(line) is not None:
        parents = parents if parents is not None else _parents(data, low)
        if parents[:1] == [b"filesystems"]:
            _filters(line, 0, add)
    item = _ITEM_LINE.match(line)
    if item is not None:
        parents = parents if parents is not None else _parents(data, low)
        if parents[:1] and _DATASET_KEY.search(parents[0]):
            _dataset_word(line, item.start("value"), item.group("value"), add, bare=False)
    proxmox = _PROXMOX.match(line)
    if proxmox is not None:
        parents = parents if parents is not None else _parents(data, low)
        if parents[:1] in ([b"zfspool"], [b"zfs"]):
            _dataset_word(line, proxmox.start("name"), proxmox.group("name"), add, bare=True)


def _dataset_words(line: bytes, start: int, end: int, add: _Add, *, bare: bool) -> None:
    for word in re.finditer(rb"[^\s,\[\]{}]+", line[start:end]):
        _dataset_word(line, start + word.start(), word.group(), add, bare=bare)


def _dataset_word(line: bytes, at: int, word: bytes, add: _Add, *, bare: bool) -> None:
    """`tank/pug` (or, where only a dataset can stand, a pool `tank`), quoted or not, with zrepl's
    `<`; never a path, a URL, a variable or a `key=value`."""
    quote = word[:1] if word[:1] in (b'"', b"'") else b""
    text = word.strip(b"\"'").rstrip(b"<")
    if not text or text.startswith((b"/", b".", b"~", b"$", b"{", b"-")) or b"=" in text or b"://" in text:
        return
    hit = _DATASET.fullmatch(text)
    if hit is None or (not bare and b"/" not in hit.group("name")):
        return
    offset = at + len(quote)
    add(offset + hit.start("name"), offset + hit.end("name"), STORAGE)


def _filters(line: bytes, start: int, add: _Add) -> None:
    for hit in _FILTER.finditer(line, start):
        add(hit.start("name"), hit.end("name"), STORAGE)


def _parents(data: bytes, low: int, limit: int = 400) -> list[bytes]:
    """The keys above the line at `low` by indentation, nearest first (YAML's block structure; a
    Proxmox stanza's head `zfspool: local-zfs` is read as the key `zfspool`)."""
    line_end = data.find(b"\n", low)
    line = data[low:line_end if line_end != -1 else len(data)]
    own = _indent(line)
    item = line.lstrip(b" \t").startswith(b"-")
    if item:  # `key:` then `- value` at the same indent is a list of the key's too
        own += 1
    out: list[bytes] = []
    end = low - 1
    for _ in range(limit):
        if end <= 0 or own == 0:
            break
        start = data.rfind(b"\n", 0, end) + 1
        text = data[start:end]
        end = start - 1
        stripped = text.strip()
        if not stripped or stripped.startswith(b"#"):
            continue
        indent = _indent(text)
        if item and indent == own - 1 and stripped.startswith(b"-"):
            continue  # the list's item before
        keyed = _KEY_LINE.match(text) if indent < own else None
        if item and indent == own - 1 and keyed is not None and keyed.group("value").strip():
            break  # `key: value` then `- item`: no list of the key's
        item = False
        if indent < own:
            if keyed is None:
                break
            out.append(keyed.group("key"))
            own = indent
    return out


def _indent(text: bytes) -> int:
    return len(text) - len(text.lstrip(b" \t"))


def _repo_end(path: bytes) -> bytes:
    """`path` cut where it stops naming the repository (`/infra/pug.git//modules` -> `/infra/pug.git`)."""
    git = path.find(b".git")
    while git != -1 and path[git + 4:git + 5] not in (b"", b"/", b"?", b"#", b"@"):
        git = path.find(b".git", git + 1)
    if git != -1:
        path = path[:git + 4]
    cut = _REPO_END.search(path, 1)
    return path[:cut.start()] if cut else path


def _registry_source(ref: bytes, at: int, add: _Add) -> None:
    """A Terraform `source`: a registry address (`acme/pug/aws`, `host/acme/pug/aws`, a provider's
    `acme/pug`) names a repository; a local path (`./`, `../`) or a URL (read above) does not."""
    if ref.startswith((b".", b"/")) or b"::" in ref or b"://" in ref or b"@" in ref:
        return
    address = ref.split(b"//")[0].split(b"?")[0]
    parts = address.split(b"/")
    if not 2 <= len(parts) <= 4:
        return
    skip = len(parts[0]) + 1 if len(parts) == 4 and b"." in parts[0] else 0  # the registry's host
    add(at + skip, at + len(address), REPOSITORY)


def _restic(value: bytes, at: int, add: _Add) -> None:
    """A restic repository: on a storage service its bucket and path are storage names; its endpoint
    is a host; on a file system (a local path, `sftp:`) it is a path like any other."""
    if value.startswith(_RESTIC_ALL):
        add(at + value.index(b":") + 1, at + len(value), STORAGE)
    elif value.startswith(b"s3:"):
        rest = value[3:]
        scheme = rest.find(b"://")
        slash = rest.find(b"/", scheme + 3 if scheme != -1 else 0)
        if slash != -1:
            add(at + 3 + slash + 1, at + len(value), STORAGE)
    elif value.startswith(b"rest:"):
        url = _URL.match(value, 5)
        if url is not None and url.group("path"):
            add(at + url.start("path") + 1, at + url.end(), STORAGE)


def _datasets(line: bytes, start: int, end: int, add: _Add) -> None:
    """Every word of a `zfs`/`zpool`/`syncoid` command's arguments that names a dataset, a pool, a
    snapshot or a bookmark: no option, no option's value, no path, no property assignment."""
    words = list(re.finditer(rb"\S+", line[start:end]))
    for i, word in enumerate(words):
        text = word.group().strip(b"\"'")
        offset = start + word.start() + (1 if word.group()[:1] in (b'"', b"'") else 0)
        if text.startswith((b"-", b"/", b".", b"~", b"$", b"<", b">")) or b"=" in text or b"," in text:
            continue
        if i > 0 and words[i - 1].group() in (b"-o", b"-O", b"-t", b"-s", b"-S", b"-d", b"-x", b"-e"):
            continue  # an option's value (`-o compression=lz4`, `-t snapshot`)
        hit = _DATASET.fullmatch(text)
        if hit is None:
            continue
        add(offset + hit.start("name"), offset + hit.end("name"), STORAGE)


