"""YAML: the key path of a reference, and whether an edit keeps the document's structure.

Both use ruamel.yaml's composer, whose nodes carry exact start and end marks.
"""

from __future__ import annotations

import bisect
import contextlib
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from renamer import lazy_re
from renamer.formats import keylines
from renamer.formats.base import BaseFormat, Comment, Location
from renamer.formats.yaml_source import parse_yaml_text

KEY = "key"
VALUE = "value"
COMMENT = "comment"
OTHER = "other"
_PLAIN_KEY = lazy_re.compile(r"[A-Za-z0-9_-]+\Z")


def _compose(text: str) -> list[Any]:
    """Every document's node tree, with exact start and end marks.

    libyaml's parser (ruamel.yaml.clib) gives the same marks about ten times
    faster than the pure-Python one, which stays the fallback.
    """
    fast = YAML(typ="safe", pure=False)
    if fast.Parser.__name__ == "CParser":
        return list(fast.compose_all(text))
    return list(YAML(typ="rt").compose_all(text))


def compose_nodes(text: str) -> list[Any]:
    """Every document's node tree with its marks (`_compose`); ValueError where it does not parse
    (renamer/data_records.py reads records held as data with their spans)."""
    try:
        return _compose(text)
    except (YAMLError, RecursionError) as exc:
        raise ValueError(str(exc).splitlines()[0] if str(exc) else "not YAML") from exc


def _scalars(text: str, limit: int | None = None) -> list[tuple[int, int, str, str]]:
    """(start, end, key path, key|value) for every scalar, by character offset (libyaml's
    events stop after `limit`: nothing past the last offset asked for is needed)."""
    fast = YAML(typ="safe", pure=False)
    if fast.Parser.__name__ == "CParser":
        return _scalars_from_events(fast.parse(text), limit)
    out: list[tuple[int, int, str, str]] = []
    seen: set[int] = set()

    def walk(node: Any, path: str) -> None:
        if id(node) in seen:  # an alias: its text lives at the anchor, already walked
            return
        seen.add(id(node))
        kind = type(node).__name__
        if kind == "MappingNode":
            for key, value in node.value:
                child = _join(path, key.value)
                out.append((key.start_mark.index, key.end_mark.index, child, KEY))
                walk(value, child)
        elif kind == "SequenceNode":
            for index, item in enumerate(node.value):
                walk(item, f"{path}[{index}]")
        elif kind == "ScalarNode":
            out.append((node.start_mark.index, node.end_mark.index, path, VALUE))

    for document in _compose(text):
        if document is not None:
            walk(document, "")
    out.sort()
    return out


class _Frame:
    """One open collection while walking parser events."""

    __slots__ = ("index", "is_map", "key", "path")

    def __init__(self, is_map: bool, path: str) -> None:
        self.is_map, self.path, self.index = is_map, path, 0
        self.key: str | None = None  # a mapping's current key, None while expecting one


def _scalars_from_events(events: Any, limit: int | None = None) -> list[tuple[int, int, str, str]]:
    """Key paths straight from libyaml's events: no node tree, no tag resolution; up to the
    first event that starts past `limit`."""
    out: list[tuple[int, int, str, str]] = []
    stack: list[_Frame] = []

    def slot() -> tuple[str, str]:
        """(path, role) of whatever comes next, and advance the parent."""
        if not stack:
            return "", VALUE
        top = stack[-1]
        if not top.is_map:
            top.index += 1
            return f"{top.path}[{top.index - 1}]", VALUE
        if top.key is None:
            return top.path, KEY
        path, top.key = _join(top.path, top.key), None
        return path, VALUE

    for event in events:
        if limit is not None and event.start_mark.index > limit:
            break
        kind = type(event).__name__
        if kind == "ScalarEvent":
            path, role = slot()
            value = str(event.value)
            if role == KEY:
                stack[-1].key = value
                path = _join(path, value)
            out.append((event.start_mark.index, event.end_mark.index, path, role))
        elif kind in ("MappingStartEvent", "SequenceStartEvent"):
            path, role = slot()
            if role == KEY:  # a complex key: its content sits under "<path>?"
                stack[-1].key = "?"
                path += "?"
            stack.append(_Frame(kind == "MappingStartEvent", path))
        elif kind in ("MappingEndEvent", "SequenceEndEvent"):
            stack.pop()
        elif kind == "AliasEvent":
            path, role = slot()
            if role == KEY:
                stack[-1].key = "*"
    out.sort()
    return out


def _join(path: str, key: Any) -> str:
    key = str(key)
    if _PLAIN_KEY.match(key):
        return f"{path}.{key}" if path else key
    return f'{path}["{key}"]'


def locate(text: str, offsets: Sequence[int]) -> list[tuple[str | None, str]] | None:
    """(key path, role) for each character offset; None when the YAML does not parse as far as
    the last offset (what follows is not read: it names nothing asked for)."""
    try:
        scalars = _scalars(text, max(offsets, default=0))
    except (YAMLError, RecursionError, ValueError):
        return None
    starts = [s[0] for s in scalars]
    out: list[tuple[str | None, str]] = []
    for offset in offsets:
        index = bisect.bisect_right(starts, offset) - 1
        if index >= 0 and scalars[index][0] <= offset < scalars[index][1]:
            out.append((scalars[index][2] or None, scalars[index][3]))
            continue
        line_start = text.rfind("\n", 0, offset) + 1
        role = COMMENT if "#" in text[line_start:offset] else OTHER
        out.append((None, role))
    return out


def edit_problem(before: str, after: str) -> str | None:
    """Why the edited YAML differs in structure from the original, or None if it does not."""
    try:
        old_docs = _compose(before)
    except (YAMLError, RecursionError, ValueError):
        # Not YAML a parser reads (a Jinja template): its key-like lines still must not collide.
        return keylines.collision(before, after)
    try:
        bound = _bindings(before)
        problem = _rebound(bound, _bindings(after))
    except (YAMLError, RecursionError, ValueError):
        problem = None  # the composer below says why
    if problem:
        return problem
    try:
        new_docs = _compose(after)
    except (YAMLError, ValueError) as exc:
        return f"the edit would make the YAML invalid: {str(exc).splitlines()[0]}"
    if len(old_docs) != len(new_docs):
        return "the edit would change the number of YAML documents"
    seen: set[tuple[int, int]] = set()
    try:
        for old, new in zip(old_docs, new_docs, strict=True):
            problem = _compare(old, new, "", seen)
            if problem:
                return problem
    except RecursionError:
        return "nested too deeply to check its structure; edit it by hand"
    return _object_collision(old_docs, new_docs)


Binding = tuple[int, str, int | None]  # an alias: (its line, its name, the line of the anchor it names)


def _bindings(text: str) -> list[Binding]:
    """Each alias, in order, with the anchor it refers to (the last one of its name before it,
    within its document): what a renamed anchor or alias must leave as it was."""
    fast = YAML(typ="safe", pure=False)
    events = fast.parse(text) if fast.Parser.__name__ == "CParser" else YAML(typ="rt").parse(text)
    anchors: dict[str, int] = {}
    out: list[Binding] = []
    for event in events:
        kind = type(event).__name__
        if kind == "DocumentStartEvent":
            anchors = {}
        elif kind == "AliasEvent":
            out.append((event.start_mark.line + 1, str(event.anchor), anchors.get(str(event.anchor))))
        elif getattr(event, "anchor", None) is not None:
            anchors[str(event.anchor)] = event.start_mark.line + 1
    return out


def _rebound(before: list[Binding], after: list[Binding]) -> str | None:
    """Why the aliases of the edited text no longer name the anchors they named, or None."""
    for (line, old_name, old_anchor), (_, name, anchor) in zip(before, after, strict=False):
        if anchor is None and old_anchor is not None:
            return (f"line {line}: the alias *{name} would name no anchor: the anchor &{old_name} "
                    f"(line {old_anchor}) and its alias would no longer be spelled alike; rename both, "
                    "or keep both")
        if anchor != old_anchor:
            return (f"line {line}: the alias *{name} would name the anchor at line {anchor}, not the "
                    f"one at line {old_anchor}")
    return None


def _compare(old: Any, new: Any, path: str, seen: set[tuple[int, int]]) -> str | None:
    # Aliases share nodes: each pair is compared once, so a YAML bomb stays linear.
    if (id(old), id(new)) in seen:
        return None
    seen.add((id(old), id(new)))
    where = path or "the document"
    if old is None or new is None:
        return None if old is new else f"{where}: the edit would change the document"
    if type(old).__name__ != type(new).__name__:
        return f"{where}: the edit would change a {_kind(old)} into a {_kind(new)}"
    if type(old).__name__ == "ScalarNode":
        return _scalar_problem(old, new, where)
    if type(old).__name__ == "SequenceNode":
        if len(old.value) != len(new.value):
            return f"{where}: the edit would change the list's length"
        for index, (a, b) in enumerate(zip(old.value, new.value, strict=True)):
            problem = _compare(a, b, f"{path}[{index}]", seen)
            if problem:
                return problem
        return _identity_collision(old, new, path)
    if len(old.value) != len(new.value):
        return f"{where}: the edit would change the mapping's length"
    before: dict[str, tuple[str, int]] = {}  # new key -> the key it was before the edit, its line
    for (old_key, old_value), (new_key, new_value) in zip(old.value, new.value, strict=True):
        old_text, new_text = _key_text(old_key), _key_text(new_key)
        child = _join(path, new_text)
        line = new_key.start_mark.line + 1
        if new_text in before and before[new_text][0] != old_text:  # not a key held twice already
            renamed = old_text if old_text != new_text else before[new_text][0]
            standing = line if old_text == new_text else before[new_text][1]  # the key already there
            return (f"line {standing}: {child}: renaming key {renamed!r} to {new_text!r} would collide with "
                    "an existing key")
        before[new_text] = (old_text, line)
        problem = _compare(old_key, new_key, child, seen) or _compare(old_value, new_value, child, seen)
        if problem:
            return problem
    return _merge_collision(old, new, where)


# A list item's identifying field: its reader refuses two items alike (Prometheus two scrape
# jobs of one `job_name`, Kubernetes two containers, volumes or ports of one `name`, Alertmanager
# two receivers, a rule file two groups, a kubeconfig two clusters, contexts or users). `name`
# counts only in the lists named here: an Ansible task's `name` is a free label.
_ID_ANYWHERE = frozenset({"job_name"})
_NAMED_LISTS = frozenset({"containers", "initContainers", "ephemeralContainers", "volumes", "ports",
                          "receivers", "groups", "clusters", "contexts", "users", "datasources",
                          "listeners", "scrape_configs"})


# Lists of `KEY=value` strings whose keys are unique (docker compose `labels` and `environment`:
# two `traefik.http.routers.wolf.rule=` labels, the second silently wins).
_KEYED_LISTS = frozenset({"labels", "environment"})
_KEY_EQUALS = lazy_re.compile(r"([^=\s]+)=")


def _identities(sequence: Any, parent: str) -> list[tuple[str, str, int]]:
    """(field, value, line) of each item's identifying field in a list of mappings."""
    out = []
    for item in sequence.value:
        if type(item).__name__ == "ScalarNode" and parent in _KEYED_LISTS:
            found = _KEY_EQUALS.match(str(item.value))
            if found is not None:  # a compose label or variable: `KEY=value`, one per key
                out.append((f"{parent} key", found.group(1), item.start_mark.line + 1))
            continue
        if type(item).__name__ != "MappingNode":
            continue
        for key, value in item.value:
            field = _key_text(key)
            if type(value).__name__ == "ScalarNode" and (
                    field in _ID_ANYWHERE or (field == "name" and parent in _NAMED_LISTS)):
                out.append((field, str(value.value), value.start_mark.line + 1))
    return out


def _identity_collision(old: Any, new: Any, path: str) -> str | None:
    """Two items of one list that a rename makes alike by their identifying field (issue 27 item 7:
    `- job_name: pug` beside `- job_name: wolf`): no parser reports it, every reader refuses it."""
    parent = re.split(r"[.\[\]\"]+", path.rstrip("]\""))[-1] if path else ""
    before = Counter((field, value) for field, value, _ in _identities(old, parent))
    after: dict[tuple[str, str], list[int]] = {}
    for field, value, line in _identities(new, parent):
        after.setdefault((field, value), []).append(line)
    for (field, value), lines in after.items():
        if len(lines) > max(before[(field, value)], 1):
            where = path or "the document"
            listed = ", ".join(str(line) for line in lines)
            return (f"line {lines[-1]}: {where}: after the rename two items would have {field} {value!r} "
                    f"(lines {listed}): a renamed item would collide with an existing one")
    return None


def _identity_lines(docs: list[Any]) -> dict[tuple[str, str, str], list[int]]:
    """(list path, field, value) -> the lines of the items holding it, over whole documents."""
    out: dict[tuple[str, str, str], list[int]] = {}
    seen: set[int] = set()
    pending: list[tuple[Any, str]] = [(doc, "") for doc in docs]
    while pending:
        node, path = pending.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        kind = type(node).__name__
        if kind == "SequenceNode":
            parent = re.split(r"[.\[\]\"]+", path.rstrip("]\""))[-1] if path else ""
            for field, value, line in _identities(node, parent):
                out.setdefault((path, field, value), []).append(line)
            pending += [(item, f"{path}[]") for item in node.value]
        elif kind == "MappingNode":
            pending += [(value, _join(path, _key_text(key))) for key, value in node.value]
    return out


# An object's identity across the documents of one file, which its reader wants unique: a
# compose service's `container_name` (docker refuses a second container of one name), a
# Kubernetes object's API group, kind, namespace and name (`kubectl apply` makes two one, the
# second overwriting the first). Two documents, or two services of one file, that a rename makes
# one identity are no parser's error, and every reader silently keeps one.
_OBJECT_KINDS_WITHOUT_NAMESPACE = frozenset({
    "Namespace", "Node", "PersistentVolume", "ClusterRole", "ClusterRoleBinding", "StorageClass",
    "CustomResourceDefinition", "PriorityClass", "IngressClass", "APIService", "MutatingWebhookConfiguration",
    "ValidatingWebhookConfiguration"})


def _scalar(mapping: Any, key: str) -> str | None:
    """The scalar value of `key` in a mapping node, or None."""
    if type(mapping).__name__ != "MappingNode":
        return None
    for k, v in mapping.value:
        if _key_text(k) == key and type(v).__name__ == "ScalarNode":
            return str(v.value)
    return None


def _child(mapping: Any, key: str) -> Any:
    if type(mapping).__name__ != "MappingNode":
        return None
    return next((v for k, v in mapping.value if _key_text(k) == key), None)


def _objects(docs: list[Any]) -> dict[tuple[str, str], list[int]]:
    """(what, value) -> the lines naming it: each compose service's `container_name`, each
    Kubernetes object's name within its API group, kind and namespace (a `kind: List`'s items
    too), over every document of one file."""
    out: dict[tuple[str, str], list[int]] = {}
    pending = [doc for doc in docs if doc is not None]
    while pending:
        doc = pending.pop(0)
        services = _child(doc, "services")
        if type(services).__name__ == "MappingNode":
            for _, service in services.value:
                for k, v in service.value if type(service).__name__ == "MappingNode" else []:
                    if _key_text(k) == "container_name" and type(v).__name__ == "ScalarNode":
                        out.setdefault(("two compose services have container_name", str(v.value)),
                                       []).append(v.start_mark.line + 1)
        hosts, groups = _inventory(doc)
        for host, line in hosts:
            out.setdefault(("two machines would be one Ansible inventory host", host), []).append(line)
        # A host renamed onto a group's name (t36-sweep, finding 24): Ansible reads the name as
        # both ("Found both group and host with same name"); the group's first line and the host's.
        grouped = dict(reversed(groups))
        for host, line in dict(reversed(hosts)).items():
            if host in grouped:
                out[("an Ansible inventory host would share its name with a group", host)] = sorted(
                    {line, grouped[host]})
        for what, host, line in _host_lists(doc):
            out.setdefault((what, host), []).append(line)
        kind, version = _scalar(doc, "kind"), _scalar(doc, "apiVersion")
        if kind is None or version is None:
            continue
        items = _child(doc, "items")
        if kind.endswith("List") and type(items).__name__ == "SequenceNode":
            pending += list(items.value)
            continue
        metadata = _child(doc, "metadata")
        name = _child(metadata, "name")
        if type(name).__name__ != "ScalarNode":
            continue
        group = version.rpartition("/")[0] if "/" in version else ""
        namespace = "" if kind in _OBJECT_KINDS_WITHOUT_NAMESPACE else (_scalar(metadata, "namespace") or "")
        what = (f"two Kubernetes {kind}{f'.{group}' if group else ''} objects"
                f"{f' in namespace {namespace!r}' if namespace else ' (no namespace given)'} are named")
        out.setdefault((what, str(name.value)), []).append(name.start_mark.line + 1)
    return out


_GROUP_KEYS = frozenset({"hosts", "children", "vars"})


def _inventory_hosts(doc: Any) -> list[tuple[str, int]]:
    """(host, line) of each host entry of a YAML Ansible inventory (`all: {children: {web: {hosts:
    {pug: ...}}}}`): a host is one identity across all its groups (break-it round 16, #8). A
    document is an inventory where each top-level value is a group (a mapping of `hosts`,
    `children`, `vars` alone) and one holds `hosts` or `children`; else nothing."""
    return _inventory(doc)[0]


def _inventory(doc: Any) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """(host, line) of each host entry and (group, line) of each group of a YAML Ansible inventory
    (`_inventory_hosts`); two empty lists for any other document."""
    if type(doc).__name__ != "MappingNode" or not doc.value:
        return [], []
    groups = [value for _, value in doc.value]
    if not all(type(g).__name__ == "MappingNode" and g.value
               and {_key_text(k) for k, _ in g.value} <= _GROUP_KEYS for g in groups):
        return [], []
    out: list[tuple[str, int]] = []
    named = [(_key_text(k), k.start_mark.line + 1) for k, _ in doc.value]
    pending = list(groups)
    seen: set[int] = set()
    while pending:
        group = pending.pop()
        if id(group) in seen or type(group).__name__ != "MappingNode":
            continue
        seen.add(id(group))
        hosts, children = _child(group, "hosts"), _child(group, "children")
        if type(hosts).__name__ == "MappingNode":
            out += [(_key_text(k), k.start_mark.line + 1) for k, _ in hosts.value]
        if type(children).__name__ == "MappingNode":
            named += [(_key_text(k), k.start_mark.line + 1) for k, _ in children.value]
            pending += [v for _, v in children.value]
    return out, named


# Lists a reader writes into a container's /etc/hosts in order, where the first entry of a name
# wins (break-it round 21, finding 11): compose's `extra_hosts` (`"pug:10.0.40.11"`, `pug=...`)
# and a pod's `hostAliases` (`- ip: ..., hostnames: [pug]`). Two entries a rename makes one name
# send the new name to the old machine's address.
_EXTRA_HOST = lazy_re.compile(r"[ \t]*(?P<name>[^\s:=]+)[ \t]*[:=]")


def mappings(doc: Any) -> Iterator[Any]:
    """Every mapping node of a composed document, each once (an alias's target is one node)."""
    pending = [doc]
    seen: set[int] = set()
    while pending:
        node = pending.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        kind = type(node).__name__
        if kind == "SequenceNode":
            pending += list(node.value)
        elif kind == "MappingNode":
            yield node
            pending += [value for _, value in node.value]


def _host_lists(doc: Any) -> list[tuple[str, str, int]]:
    """(what, name, line) of each entry of every `extra_hosts` list and each host name of every
    `hostAliases` list of a document, a list being the scope (two services may each map a name)."""
    out: list[tuple[str, str, int]] = []
    for node in mappings(doc):
        for key, value in node.value:
            name = _key_text(key)
            if type(value).__name__ != "SequenceNode":
                continue
            at = key.start_mark.line + 1
            if name == "extra_hosts":
                what = f"two extra_hosts entries of the list at line {at} (the first one wins) name"
                for item in value.value:
                    scalar = type(item).__name__ == "ScalarNode"
                    found = _EXTRA_HOST.match(str(item.value)) if scalar else None
                    if found is not None:
                        out.append((what, found.group("name").lower(), item.start_mark.line + 1))
            elif name == "hostAliases":
                what = f"two hostAliases entries of the list at line {at} (the first one wins) name"
                for item in value.value:
                    names = _child(item, "hostnames")
                    for host in names.value if type(names).__name__ == "SequenceNode" else []:
                        if type(host).__name__ == "ScalarNode":
                            out.append((what, str(host.value).lower(), host.start_mark.line + 1))
    return out


def kubernetes_objects(text: str) -> dict[tuple[str, str], list[int]]:
    """The Kubernetes identities of a manifest's documents (`_objects`, compose's left out: a
    compose override file names its base's services again); empty where it does not parse."""
    try:
        found = _objects(_compose(text))
    except (YAMLError, RecursionError, ValueError):
        return {}
    return {key: lines for key, lines in found.items() if key[0].startswith("two Kubernetes ")}


def merged_identities(then: dict[tuple[str, str], list[Any]], now: dict[tuple[str, str], list[Any]],
                      ) -> tuple[str, str, list[Any], Any] | None:
    """The first identity whose places now held two different identities then, place by place
    (an edit moves no place: a line, or a file and a line): (what, value, places, the place that
    held it then, else the last). One object declared twice on purpose (two patches of one
    Deployment) and renamed is still one identity; a place that held none then counts as
    another."""
    was = {place: key for key, places in then.items() for place in places}
    for (what, value), places in sorted(now.items(), key=lambda item: min(item[1])):
        if len(places) > 1 and len({was.get(place, place) for place in places}) > 1:
            standing = next((p for p in sorted(places) if was.get(p) == (what, value)), max(places))
            return what, value, sorted(places), standing
    return None


def _object_collision(old_docs: list[Any], new_docs: list[Any]) -> str | None:
    """Two objects of one file that the edit makes one identity (`_objects`), or None."""
    grown = merged_identities(_objects(old_docs), _objects(new_docs))
    if grown is None:
        return None
    what, value, lines, standing = grown
    listed = ", ".join(str(line) for line in lines)
    return (f"line {standing}: after the rename {what} {value!r} (lines {listed}): "
            "a renamed object would collide with an existing one")


def identity_collision(before: str, after: str) -> str | None:
    """What `_identity_collision` finds, over whole documents that may differ in other ways too
    (verify, after the move: the file then and now): a list item's identifying field that more
    items hold now than did then; else None (also where either does not parse)."""
    try:
        old_docs, new_docs = _compose(before), _compose(after)
        then, now = _identity_lines(old_docs), _identity_lines(new_docs)
        grown = merged_identities(_objects(old_docs), _objects(new_docs))
    except (YAMLError, RecursionError, ValueError):
        return None
    if grown is not None:
        what, value, lines, standing = grown
        return f"line {standing}: {what} {value!r} (lines {', '.join(str(line) for line in lines)})"
    for (path, field, value), lines in sorted(now.items(), key=lambda item: min(item[1])):
        if len(lines) > max(len(then.get((path, field, value), [])), 1):
            listed = ", ".join(str(line) for line in sorted(lines))
            return (f"line {max(lines)}: {path.replace('[]', '') or 'the document'}: two items have {field} "
                    f"{value!r} (lines {listed})")
    return None
def _scalar_problem(old: Any, new: Any, where: str) -> str | None:
    if old.tag != new.tag:
        return (f"{where}: {new.value!r} would be read as {new.tag.rsplit(':', 1)[-1]}, "
                f"not {old.tag.rsplit(':', 1)[-1]}; quote it by hand")
    if (old.tag.endswith(":str") and not new.style and new.value != old.value
            and new.value.lower() in _YAML11_NOT_STRINGS):
        return (f"{where}: {new.value!r} would be read as a boolean or null by YAML 1.1 readers "
                "(PyYAML, docker compose); quote it by hand")
    return None


def line_problems(before: str, after: str) -> dict[int, str]:
    """Each line (1-based) whose own scalar the edit would retype, with why: a file refused for
    several such scalars says each line's own reason (adversarial pass 2 B-19), not the first's
    for all. Empty where either text does not parse or the documents differ in number."""
    try:
        old_docs, new_docs = _compose(before), _compose(after)
    except (YAMLError, RecursionError, ValueError):
        return {}
    found: dict[int, str] = {}
    if len(old_docs) == len(new_docs):
        with contextlib.suppress(RecursionError):
            for old, new in zip(old_docs, new_docs, strict=True):
                _scalar_problems(old, new, "", set(), found)
    return found


def _scalar_problems(old: Any, new: Any, path: str, seen: set[tuple[int, int]],
                     found: dict[int, str]) -> None:
    """`_compare`'s walk, going on past each problem and into what still pairs up."""
    if (id(old), id(new)) in seen or old is None or new is None:
        return
    seen.add((id(old), id(new)))
    kind = type(old).__name__
    if kind != type(new).__name__:
        return
    if kind == "ScalarNode":
        problem = _scalar_problem(old, new, path or "the document")
        if problem is not None:
            found.setdefault(new.start_mark.line + 1, problem)
    elif kind == "SequenceNode" and len(old.value) == len(new.value):
        for index, (a, b) in enumerate(zip(old.value, new.value, strict=True)):
            _scalar_problems(a, b, f"{path}[{index}]", seen, found)
    elif kind == "MappingNode" and len(old.value) == len(new.value):
        for (old_key, old_value), (new_key, new_value) in zip(old.value, new.value, strict=True):
            child = _join(path, _key_text(new_key))
            _scalar_problems(old_key, new_key, child, seen, found)
            _scalar_problems(old_value, new_value, child, seen, found)


_MERGE = "tag:yaml.org,2002:merge"
_MERGED_MAX = 10_000  # keys one mapping gathers through its merge keys: past it, not checked


def _merge_collision(old: Any, new: Any, where: str) -> str | None:
    """A mapping with a merge key (`<<: *base`, `<<: [*a, *b]`) holds its own keys and the merged
    mappings' keys: a renamed key that meets another there is a collision no parser reports
    (the own key silently wins, or the first merged one), so the mapping would lose a key."""
    if not any(type(k).__name__ == "ScalarNode" and k.tag == _MERGE for k, _ in new.value):
        return None
    before, after = _effective(old, set()), _effective(new, set())
    if len(before) != len(after):
        return None  # another shape: the walk of the merged mappings says why
    first: dict[str, tuple[str, int]] = {}  # a key as edited -> as it was, its line
    for (was, _), (key, line) in zip(before, after, strict=True):
        if key not in first:
            first[key] = (was, line)
            continue
        other, other_line = first[key]
        if other == was:
            continue  # the same key before the edit too: an override the author wrote
        renamed, at, standing = (was, line, other_line) if was != key else (other, other_line, line)
        return (f"line {at}: {where}: renaming key {renamed!r} to {key!r} would collide with the key "
                f"{key!r} at line {standing}, which the merge key `<<` brings into the same mapping")
    return None


def _effective(node: Any, seen: set[int]) -> list[tuple[str, int]]:
    """(key, line) of every key a mapping holds once merged: its own keys, then each merged
    mapping's, in order; a mapping merged twice is counted once (a merge bomb stays linear)."""
    out: list[tuple[str, int]] = []
    merged: list[Any] = []
    for key, value in node.value:
        if type(key).__name__ == "ScalarNode" and key.tag == _MERGE:
            merged += value.value if type(value).__name__ == "SequenceNode" else [value]
        else:
            out.append((_key_text(key), key.start_mark.line + 1))
    for mapping in merged:
        if type(mapping).__name__ != "MappingNode" or id(mapping) in seen or len(out) > _MERGED_MAX:
            continue
        seen.add(id(mapping))
        out += _effective(mapping, seen)
    return out


# Plain scalars a YAML 1.1 reader takes for booleans or null, where YAML 1.2 reads strings.
_YAML11_NOT_STRINGS = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"})


def _key_text(node: Any) -> str:
    """A mapping key as text: a scalar's value; a complex key ([a, b] or {a: b}) spelled out."""
    if type(node).__name__ == "ScalarNode":
        return str(node.value)
    if type(node).__name__ == "SequenceNode":
        return "[" + ", ".join(_key_text(item) for item in node.value) + "]"
    if type(node).__name__ == "MappingNode":
        return "{" + ", ".join(f"{_key_text(k)}: {_key_text(v)}" for k, v in node.value) + "}"
    return repr(node)


def _kind(node: Any) -> str:
    return {"ScalarNode": "scalar", "SequenceNode": "list", "MappingNode": "mapping"}.get(
        type(node).__name__, "node")


# A new value that starts with a letter and is no YAML keyword stays a plain string
# wherever the old one stood; anything else (1e5, yes, null) could change a type.
_YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def plain_safe(value: str) -> bool:
    if value[:1].isalpha():
        return value.lower() not in _YAML_WORDS
    return value.count(".") == 3 or ":" in value  # an IPv4 or IPv6 address


class Yaml(BaseFormat):
    name = "yaml"
    structured = True
    joins_indent = True  # "ana-\\ + newline + "  ml2" in a double-quoted scalar reads ana-ml2
    keys = True
    checks_edits = True
    needs_edits = True
    comment = Comment("  # ")
    suffixes = (".yaml", ".yml")

    def locate(self, text: str, offsets: Sequence[int]) -> list[Location] | None:
        return locate(text, offsets)

    def retypes(self, new: str) -> bool:
        return not plain_safe(new)

    def edit_problem(self, before: str, after: str) -> str | None:
        return edit_problem(before, after)

    def line_problems(self, before: str, after: str) -> dict[int, str]:
        return line_problems(before, after)

    def means_otherwise(self, before: str, after: str) -> bool:
        return bool(parse_yaml_text(before) != parse_yaml_text(after))

    def tree(self, text: str) -> object | None:
        tree: object | None = parse_yaml_text(text)
        return tree


FORMAT = Yaml()


def inventory_host_lines(text: str) -> list[tuple[str, int]] | None:
    """(host, line) of each host of a YAML Ansible inventory (`_inventory_hosts`, every document);
    None where the text is no YAML mapping (an INI inventory, which YAML reads as a scalar or
    refuses)."""
    try:
        docs = [doc for doc in _compose(text) if doc is not None]
    except (YAMLError, RecursionError, ValueError):
        return None
    if not docs or any(type(doc).__name__ != "MappingNode" for doc in docs):
        return None
    return [found for doc in docs for found in _inventory_hosts(doc)]


_COMPOSE_SECTIONS = {"services": "service", "volumes": "volume", "networks": "network", "configs": "config",
                     "secrets": "secret"}


def compose_names(text: str) -> dict[tuple[str, str], list[int]]:
    """(what, name) -> its lines: each top-level `services:`, `volumes:`, `networks:`, `configs:`
    and `secrets:` key of a compose file (compose merges them by name across the files of one
    project); empty where the text does not parse or holds no `services:`."""
    try:
        docs = [doc for doc in _compose(text) if doc is not None]
    except (YAMLError, RecursionError, ValueError):
        return {}
    out: dict[tuple[str, str], list[int]] = {}
    for doc in docs:
        if type(_child(doc, "services")).__name__ != "MappingNode":
            continue
        for section, what in _COMPOSE_SECTIONS.items():
            found = _child(doc, section)
            for key, _ in found.value if type(found).__name__ == "MappingNode" else []:
                out.setdefault((what, _key_text(key)), []).append(key.start_mark.line + 1)
    return out
