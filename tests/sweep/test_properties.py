"""Properties of the matcher and the rewriters on random text with planted names and decoys."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from renamer.match import Matcher
from renamer.near_miss import LoosePass
from renamer.sweep.model import Edit, apply_edits

HOSTS = [("ana-ml2", "fv-ml1"), ("ana-ml2.ana.lan", "fv-ml1.fv.lan")]
ADDRESSES = [("10.250.50.54", "10.251.50.54")]
PIECES = ["ana-ml2", "ana-ml2.ana.lan", "10.250.50.54", "54.50.250.10.in-addr.arpa", "ANA_ML2", "ana_ml2",
          "ana-ml2-bmc", "ana-ml20", "xana-ml2", "10.250.50.540", "110.250.50.54", "10.250.50.54.1",
          "fv-ml1", "10.251.50.54", " ", "-", ".", "_", ":", "/", "@", "\n", "\r\n", "x", "0", "9", "é",
          "#", '"', "'", "http://", "ana", "ml2", "10.250", "50.54"]
texts = st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=40).map("".join)
options = st.fixed_dictionaries({"derived_names": st.booleans(), "variants": st.booleans()})


def matcher(opts: dict[str, bool]) -> Matcher:
    return Matcher(HOSTS, ADDRESSES, **opts)


@given(texts, options)
def test_idempotent(text: str, opts: dict[str, bool]) -> None:
    m = matcher(opts)
    once = m.replace(text.encode())
    assert m.replace(once) == once


@given(texts, options)
def test_no_byte_outside_a_match_changes(text: str, opts: dict[str, bool]) -> None:
    data = text.encode()
    found = matcher(opts).find(data)
    out = matcher(opts).replace(data)
    rewritten = [m for m in found if m.refused is None and m.kept is None]  # not a range, an account
    position, cursor = 0, 0
    for match in rewritten:
        gap = data[position:match.start]
        assert out[cursor:cursor + len(gap)] == gap
        cursor += len(gap) + len(match.new)
        position = match.end
    assert out[cursor:] == data[position:]
    edits = [Edit(m.start, m.end, m.new.encode()) for m in rewritten]
    assert apply_edits(data, edits) == out


@given(texts)
def test_there_and_back_restores_where_the_new_name_was_absent(text: str) -> None:
    data = text.encode()
    forward = Matcher([("ana-ml2", "fv-ml1")], [("10.250.50.54", "10.251.50.54")])
    back = Matcher([("fv-ml1", "ana-ml2")], [("10.251.50.54", "10.250.50.54")])
    assume(not back.find(data))  # B absent: nothing for B -> A to take back but what A -> B made
    assert back.replace(forward.replace(data)) == data


@given(texts, options)
def test_every_exact_match_is_a_loose_match(text: str, opts: dict[str, bool]) -> None:
    data = text.encode()
    loose = LoosePass([old for old, _ in HOSTS], [old for old, _ in ADDRESSES])
    hits = [(s, e) for s, e, _, _ in loose.find(data)]
    for match in matcher(opts).find(data):
        assert any(s < match.end and match.start < e for s, e in hits), (match, hits)


# Structure: YAML, JSON and Python documents whose strings hold planted names.
strings = st.lists(st.sampled_from(["ana-ml2", "10.250.50.54", " ", "x", "/", ":", "ana-ml20", "-"]),
                   max_size=6).map("".join)
keys = st.sampled_from(["host", "url", "ana-ml2", "name", "10.250.50.54", "k"])
documents = st.recursive(
    strings | st.integers(-5, 5) | st.booleans() | st.none(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=12)


def _renamed(value: object) -> object:
    if isinstance(value, str):
        return Matcher(HOSTS, ADDRESSES).replace(value.encode()).decode()
    if isinstance(value, list):
        return [_renamed(v) for v in value]
    if isinstance(value, dict):
        return {_renamed(k): _renamed(v) for k, v in value.items()}
    return value


def _sweep(tmp_path_factory, name: str, text: str) -> str:  # type: ignore[no-untyped-def]
    from renamer.project import load_project
    from renamer.sweep.scan import FileScanner, ScanOptions
    from tests.testing.repos import CONFIG, write_files

    root = tmp_path_factory.mktemp("prop")
    write_files(root, {"renamer.yaml": CONFIG.replace("allow.yaml", "a.yaml"),
                       "a.yaml": "version: 1\ncurrent: ['**']\n", name: text})
    result = FileScanner(load_project(root, None, root), ScanOptions()).scan(name)
    assert result is not None
    return apply_edits(text.encode(), result.edits).decode()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents)
def test_json_structure_unchanged_but_for_strings(tmp_path_factory, document: object) -> None:  # type: ignore[no-untyped-def]
    text = json.dumps(document, indent=1)
    expected = document if _collides(document) else _renamed(document)  # a collision is refused
    assert json.loads(_sweep(tmp_path_factory, "d.json", text)) == expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents)
@example(["ana-ml2", 0])  # found by this property: `root: [ana-ml2, 0]` read as the shorthand set `web01, 02`
def test_yaml_structure_unchanged_but_for_strings(tmp_path_factory, document: object) -> None:  # type: ignore[no-untyped-def]
    import io

    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    buffer = io.StringIO()
    YAML(typ="safe", pure=True).dump({"root": document}, buffer)
    try:  # ruamel's dumper can emit YAML no parser reads ({host: :x}); such input proves nothing
        original = YAML(typ="safe", pure=True).load(buffer.getvalue())
    except YAMLError:
        assume(False)
    swept = _sweep(tmp_path_factory, "d.yaml", buffer.getvalue())
    loaded = YAML(typ="safe", pure=True).load(swept)
    renamed = _renamed(original)
    if _collides(original):
        assert loaded == original  # refused: a renamed key would collide
    else:
        assert loaded == renamed


def _collides(value: object) -> bool:
    if isinstance(value, dict):
        return len({_renamed(k) for k in value}) < len(value) or any(_collides(v) for v in value.values())
    if isinstance(value, list):
        return any(_collides(v) for v in value)
    return False


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents)
@example(["ana-ml2", 0])  # found by this property: a quoted member then a bare number read as `web01, 02`
def test_python_structure_unchanged_but_for_strings(tmp_path_factory, document: object) -> None:  # type: ignore[no-untyped-def]
    import ast

    source = f"VALUE = {document!r}  # on ana-ml2\n"
    swept = _sweep(tmp_path_factory, "d.py", source)
    tree = ast.parse(swept)
    value = ast.literal_eval(tree.body[0].value)  # type: ignore[attr-defined]
    if _collides(document):
        return  # a dict literal whose renamed keys merge: Python allows it, the values still match
    assert value == _renamed(document)
    assert swept.endswith("# on fv-ml1\n")


ACCOUNT_PIECES = ["ana-ml2", "/home/", "chown ", "chown root:", "User=", "user: ", "username=", "~", "-u ",
                  "su ", "<key>UserName</key>", "\n  <string>", "\n", " ", "@", "x", "ansible_user: "]


@example("<key>UserName</key>\n  <string>ana-ml2")  # the marker on the line before
@example("x\nchown root:ana-ml2 /srv\n")
@given(st.lists(st.sampled_from(ACCOUNT_PIECES), max_size=30).map("".join))
def test_account_starts_near_the_matches_are_the_whole_files_there(text: str) -> None:
    from renamer.accounts import account_starts

    data = text.encode()
    near = [m.start for m in Matcher(HOSTS, ADDRESSES).find(data)]
    whole = account_starts(data)
    assert {p for p in near if p in whole} == {p for p in near if p in account_starts(data, near)}
