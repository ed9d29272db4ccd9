"""YAML: where a reference sits (key path and role), and whether an edit keeps the structure."""

from __future__ import annotations

import pytest

from renamer.formats.yaml_rt import (
    COMMENT,
    KEY,
    OTHER,
    VALUE,
    edit_problem,
    identity_collision,
    line_problems,
    locate,
)

LITELLM = """\
model_list:
  - model_name: a
  - model_name: b
  - model_name: c
  - model_name: d
    litellm_params:
      api_base: http://ana-ml2:8016/v1
"""


@pytest.mark.parametrize(("text", "needle", "expected"), (
    pytest.param("host: ana-ml2\n", "ana-ml2", ("host", VALUE), id="top-level-value"),
    pytest.param("a:\n  b:\n    c: ana-ml2\n", "ana-ml2", ("a.b.c", VALUE), id="nested-mappings"),
    pytest.param(LITELLM, "ana-ml2", ("model_list[3].litellm_params.api_base", VALUE), id="litellm-api-base"),
    pytest.param(LITELLM, "model_name: d", ("model_list[3].model_name", KEY), id="key-in-sequence-item"),
    pytest.param("- ana-ml2\n- x\n", "ana-ml2", ("[0]", VALUE), id="top-level-sequence"),
    pytest.param("- x\n- [y, ana-ml2]\n", "ana-ml2", ("[1][1]", VALUE), id="nested-flow-sequence"),
    pytest.param("h: {a: x, b: ana-ml2}\n", "ana-ml2", ("h.b", VALUE), id="flow-mapping"),
    pytest.param("ana-ml2: {port: 1}\n", "ana-ml2", ("ana-ml2", KEY), id="key"),
    pytest.param("hosts:\n  ana-ml2: 1\n", "ana-ml2", ("hosts.ana-ml2", KEY), id="nested-key"),
    pytest.param('"odd.key": ana-ml2\n', "ana-ml2", ('["odd.key"]', VALUE), id="quoted-key-with-dot"),
    pytest.param("'x y': {z: ana-ml2}\n", "ana-ml2", ('["x y"].z', VALUE), id="quoted-key-with-space"),
    pytest.param("a:\n  d.e: ana-ml2\n", "ana-ml2", ('a["d.e"]', VALUE), id="dotted-plain-key"),
    pytest.param('"": ana-ml2\n', "ana-ml2", ('[""]', VALUE), id="empty-key"),
    pytest.param('k: "ana-ml2"\n', '"ana-ml2"', ("k", VALUE), id="opening-quote"),
    pytest.param("run: |\n  ssh ana-ml2\n", "ana-ml2", ("run", VALUE), id="literal-block"),
    pytest.param("a: foo\n  ana-ml2\nb: 1\n", "ana-ml2", ("a", VALUE), id="multi-line-plain"),
    pytest.param("url: http://h/#ana-ml2\n", "ana-ml2", ("url", VALUE), id="hash-inside-plain-scalar"),
    pytest.param("base: &b {h: ana-ml2}\nother: *b\n", "ana-ml2", ("base.h", VALUE), id="anchor"),
    pytest.param("a: 1\n---\nb: [ana-ml2]\n", "ana-ml2", ("b[0]", VALUE), id="second-document"),
    pytest.param("name: \u00e4\u00f6\u65e5\nhost: ana-ml2\n", "ana-ml2", ("host", VALUE), id="character-offsets"),
    pytest.param("note: \U0001f600\nhost: ana-ml2\n", "ana-ml2", ("host", VALUE), id="astral-character"),
    pytest.param("a: 1\r\nhost: ana-ml2\r\n", "ana-ml2", ("host", VALUE), id="crlf"),
    pytest.param("a: 1  # on ana-ml2\n", "ana-ml2", (None, COMMENT), id="trailing-comment"),
    pytest.param("# ana-ml2\na: 1\n", "ana-ml2", (None, COMMENT), id="comment-line"),
    pytest.param("l: [x, y] # ana-ml2\n", "ana-ml2", (None, COMMENT), id="comment-after-flow"),
    pytest.param("ana-ml2\n", "ana-ml2", (None, VALUE), id="root-scalar"),
    pytest.param("base: &b {h: x}\nother: *b\n", "*b", (None, OTHER), id="alias-is-other"),
    pytest.param("a: 1\n---\nb: 2\n", "---", (None, OTHER), id="document-marker"),
    pytest.param("a: *missing\n", "a", ("a", KEY), id="undefined-alias-parses-as-events"),
))
def test_locate_finds(text: str, needle: str, expected: tuple[str | None, str]) -> None:
    assert locate(text, [text.index(needle)]) == [expected]


def test_locate_many_offsets_in_order() -> None:
    text = 'a:\n  b: ana-ml2  # ana-ml2\n"odd.key": 10.250.50.54\nana-ml2: 1\n'
    offsets = [text.index("ana-ml2"), text.index("# ana") + 2, text.index("10.250"), text.index("ana-ml2: 1")]
    assert locate(text, offsets) == [("a.b", VALUE), (None, COMMENT), ('["odd.key"]', VALUE),
                                     ("ana-ml2", KEY)]


@pytest.mark.parametrize(("text", "offsets"), (
    pytest.param("", [], id="empty-text-no-offsets"),
    pytest.param("a: 1\n", [], id="no-offsets"),
))
def test_locate_nothing_asked(text: str, offsets: list[int]) -> None:
    assert locate(text, offsets) == []


@pytest.mark.parametrize("text", (
    pytest.param("a: [unclosed\n", id="unclosed-flow"),
    pytest.param("a: 1\n b: 2\n", id="bad-indent"),
    pytest.param("key: 'open\n", id="unclosed-quote"),
))
def test_locate_leaves_alone_unparseable(text: str) -> None:
    assert locate(text, [len(text) - 1]) is None


def test_locate_reads_only_as_far_as_the_last_offset() -> None:
    text = "a: ana-ml2\nb: [unclosed\n"
    assert locate(text, [3]) == [("a", "value")]  # the error lies past what is asked
    assert locate(text, [3, len(text) - 2]) is None


@pytest.mark.parametrize(("before", "after", "expected"), (
    pytest.param("ip: 10.250.50.54\n", "ip: 1e5\n", "ip: '1e5' would be read as float, not str; quote it by hand",
                 id="address-to-float"),
    pytest.param("h: ana-ml2\n", "h: 123\n", "h: '123' would be read as int, not str; quote it by hand",
                 id="string-to-int"),
    pytest.param("h: ana-ml2\n", "h: 0x1F\n", "h: '0x1F' would be read as int, not str; quote it by hand",
                 id="string-to-hex"),
    pytest.param("h: ana-ml2\n", "h: true\n", "h: 'true' would be read as bool, not str; quote it by hand",
                 id="string-to-bool"),
    pytest.param("h: ana-ml2\n", "h: null\n", "h: 'null' would be read as null, not str; quote it by hand",
                 id="string-to-null"),
    pytest.param("h: ana-ml2\n", "h: ~\n", "h: '~' would be read as null, not str; quote it by hand",
                 id="string-to-tilde"),
    pytest.param("a: !!str 1\n", "a: 1\n", "a: '1' would be read as int, not str; quote it by hand",
                 id="explicit-tag-lost"),
    pytest.param("a: [x]\n", "a: [1]\n", "a[0]: '1' would be read as int, not str; quote it by hand",
                 id="in-a-sequence"),
    pytest.param("a: {b: {c: d}}\n", "a: {b: {c: 5}}\n", "a.b.c: '5' would be read as int, not str; quote it by hand",
                 id="nested-path"),
    pytest.param("a: x\n---\nb: y\n", "a: x\n---\nb: 1\n", "b: '1' would be read as int, not str; quote it by hand",
                 id="second-document"),
    pytest.param("h: ana-ml2\n", "h: [a]\n", "h: the edit would change a scalar into a list", id="scalar-to-list"),
    pytest.param("h: ana-ml2\n", "h: {a: 1}\n", "h: the edit would change a scalar into a mapping",
                 id="scalar-to-mapping"),
    pytest.param("l: [a, b]\n", "l: [a, b, c]\n", "l: the edit would change the list's length", id="list-length"),
    pytest.param("- a\n- b\n", "- a\n", "the document: the edit would change the list's length",
                 id="root-list-length"),
    pytest.param("hosts:\n  ana-ml2: 1\n  fv-ml1: 2\n", "hosts:\n  fv-ml1: 1\n  fv-ml1: 2\n",
                 "line 3: hosts.fv-ml1: renaming key 'ana-ml2' to 'fv-ml1' would collide with an existing key",
                 id="key-collides-with-later"),
    pytest.param("hosts:\n  fv-ml1: 1\n  ana-ml2: 2\n", "hosts:\n  fv-ml1: 1\n  fv-ml1: 2\n",
                 "line 2: hosts.fv-ml1: renaming key 'ana-ml2' to 'fv-ml1' would collide with an existing key",
                 id="key-collides-with-earlier"),
    pytest.param("a: 1\nb: 2\n", "a: 1\na: 2\n", "line 1: a: renaming key 'b' to 'a' would collide with an existing key",
                 id="top-level-collision"),
    pytest.param("a: 1\n", "a: [1\n", "the edit would make the YAML invalid: while parsing a flow sequence",
                 id="made-invalid"),
    pytest.param("a: 1\n", "a: 1\n---\nb: 2\n", "the edit would change the number of YAML documents",
                 id="document-count"),
    pytest.param("", "a: 1\n", "the edit would change the number of YAML documents", id="from-empty"),
    pytest.param("h: ana-ml2\n", "h: yes\n",
                 "h: 'yes' would be read as a boolean or null by YAML 1.1 readers (PyYAML, docker compose); "
                 "quote it by hand", id="string-to-yes"),
    pytest.param("a: x\nb: y\n", "a: x\n", "the document: the edit would change the mapping's length",
                 id="mapping-length"),
    pytest.param("? [complex, ana-ml2]\n: v\nfv-ml1: 1\n", "? [complex, fv-ml1]\n: v\nfv-ml1: 1\n", None,
                 id="complex-key"),
    pytest.param("? [a, ana-ml2]\n: v\n? [a, fv-ml1]\n: w\n", "? [a, fv-ml1]\n: v\n? [a, fv-ml1]\n: w\n",
                 "line 3: [\"[a, fv-ml1]\"]: renaming key '[a, ana-ml2]' to '[a, fv-ml1]' would collide "
                 "with an existing key",
                 id="complex-key-collision"),
    # Duplicate keys the file held already are no collision the edit makes.
    pytest.param("a: 1\na: ana-ml2\n", "a: 1\na: fv-ml1\n", None, id="duplicate-before"),
    # Anchors and aliases name each other: a rename of one alone unbinds them.
    pytest.param("b: &ana-ml2 {p: 1}\nc: *ana-ml2\n", "b: &fv-ml1 {p: 1}\nc: *ana-ml2\n",
                 "line 2: the alias *ana-ml2 would name no anchor: the anchor &ana-ml2 (line 1) and its alias "
                 "would no longer be spelled alike; rename both, or keep both", id="anchor-renamed-alias-kept"),
    pytest.param("b: &ana-ml2 {p: 1}\nc: *ana-ml2\n", "b: &ana-ml2 {p: 1}\nc: *fv-ml1\n",
                 "line 2: the alias *fv-ml1 would name no anchor: the anchor &ana-ml2 (line 1) and its alias "
                 "would no longer be spelled alike; rename both, or keep both", id="alias-renamed-anchor-kept"),
    pytest.param("a: &fv-ml1 1\nb: &ana-ml2 2\nc: *ana-ml2\nd: *fv-ml1\n",
                 "a: &fv-ml1 1\nb: &fv-ml1 2\nc: *fv-ml1\nd: *fv-ml1\n",
                 "line 4: the alias *fv-ml1 would name the anchor at line 2, not the one at line 1",
                 id="anchor-renamed-onto-another"),
    pytest.param("b: &ana-ml2 {p: 1}\nc: *ana-ml2\n", "b: &fv-ml1 {p: 1}\nc: *fv-ml1\n", None,
                 id="anchor-and-alias-renamed"),
    pytest.param("{% if x %}\nana-ml2: 1\nfv-ml1: 2\n{% endif %}\n", "{% if x %}\nfv-ml1: 1\nfv-ml1: 2\n{% endif %}\n",
                 "line 3: after the rename the key 'fv-ml1' would stand twice (lines 2, 3): a renamed key would "
                 "collide with an existing one", id="jinja-keys-by-line"),
))
def test_edit_problem_finds(before: str, after: str, expected: str | None) -> None:
    assert edit_problem(before, after) == expected


@pytest.mark.parametrize(("before", "after"), (
    pytest.param("host: ana-ml2\n", "host: fv-ml1\n", id="host-rename"),
    pytest.param("ip: 10.250.50.54\n", "ip: 10.251.50.54\n", id="address-rename"),
    pytest.param("h: 10.250.50.54\n", "h: 2001:db8::1\n", id="ipv6-in-block"),
    pytest.param('h: "ana"\n', 'h: "123"\n', id="quoted-number"),
    pytest.param("l: [a, b]\n", 'l: [a, "b"]\n', id="quoting-kept-str"),
    pytest.param("ana-ml2: {port: 1}\n", "fv-ml1: {port: 1}\n", id="key-rename"),
    pytest.param("a: fv-ml1\nb: ana-ml2\n", "a: fv-ml1\nb: fv-ml1\n", id="new-value-present"),
    pytest.param("base: &b {h: ana-ml2}\nother: *b\n", "base: &b {h: fv-ml1}\nother: *b\n", id="anchor-alias"),
    pytest.param("a: ana\n", "a: ana # c\n", id="comment-added"),
    pytest.param("port: 8016\n", "port: 8017\n", id="int-stays-int"),
    pytest.param("x: 1:2\n", "x: 1:3\n", id="sexagesimal-stays-str"),
    pytest.param("a: x\n---\nb: y\n", "a: x\n---\nb: z\n", id="two-documents"),
    pytest.param("a: [unclosed\n", "a: [fixed]\n", id="unreadable-before"),
    pytest.param("a: *missing\n", "a: 1\n", id="undefined-alias-before"),
    pytest.param("", "", id="empty"),
))
def test_edit_problem_leaves_alone(before: str, after: str) -> None:
    assert edit_problem(before, after) is None


@pytest.mark.parametrize(("text", "field"), [
    ("scrape_configs:\n  - job_name: pug\n    static_configs: [{targets: ['pug:9100']}]\n"
     "  - job_name: wolf\n    static_configs: [{targets: ['x:9100']}]\n", "job_name"),
    ("spec:\n  containers:\n  - name: pug\n    image: a\n  - name: wolf\n    image: b\n", "name"),
    ("receivers:\n  - name: pug\n  - name: wolf\n", "name"),
    ("contexts:\n- name: pug\n  context: {cluster: a}\n- name: wolf\n  context: {cluster: b}\n", "name"),
    ('services:\n  app:\n    labels:\n      - "traefik.http.routers.pug.rule=Host(`a`)"\n'
     '      - "traefik.http.routers.wolf.rule=Host(`b`)"\n', "labels key 'traefik.http.routers.wolf.rule"),
])
def test_a_list_items_identifying_field_renamed_onto_another_collides(text: str, field: str) -> None:
    problem = edit_problem(text, text.replace("pug", "wolf"))
    expected = field if "'" in field else f"{field} 'wolf'"
    assert problem is not None and f"two items would have {expected}" in problem


def test_a_free_label_in_a_list_may_repeat() -> None:
    """An Ansible task's `name` is a label, not an identity: two alike is no conflict."""
    text = "- name: restart pug\n  service: {name: x}\n- name: restart wolf\n  service: {name: y}\n"
    assert edit_problem(text, text.replace("pug", "wolf")) is None
    plain = "upstreams:\n  - pug\n  - wolf\n"  # a list of plain values: a warned collision, no refusal
    assert edit_problem(plain, plain.replace("pug", "wolf")) is None
    values = "services:\n  app:\n    environment:\n      - PUG_HOST=pug\n      - WOLF=wolf\n"  # values only
    assert edit_problem(values, values.replace("=pug", "=wolf")) is None
def test_line_problems_name_each_retyped_scalar_on_its_own_line() -> None:
    before = "a: x1\nb: [x2, y]\nc: {d: x3}\ne: 'x1'\n---\nf: x4\n"
    after = "a: 1e3\nb: [no, y]\nc: {d: 0o10}\ne: '1e3'\n---\nf: ~\n"
    assert line_problems(before, after) == {
        1: "a: '1e3' would be read as float, not str; quote it by hand",
        2: "b[0]: 'no' would be read as a boolean or null by YAML 1.1 readers (PyYAML, docker compose); "
           "quote it by hand",
        3: "c.d: '0o10' would be read as int, not str; quote it by hand",
        6: "f: '~' would be read as null, not str; quote it by hand",
    }
    assert line_problems("a: [1\n", "a: [2\n") == {}


SERVICE = "apiVersion: {v}\nkind: {k}\nmetadata: {{name: {n}, namespace: {ns}}}\n"
OBJECTS = {
    "kubernetes, one namespace": (SERVICE.format(v="v1", k="Service", n="pug", ns="web") + "---\n"
                                  + SERVICE.format(v="v1", k="Service", n="wolf", ns="web"), True),
    "kubernetes, a List's items": ("apiVersion: v1\nkind: List\nitems:\n"
                                   "- {apiVersion: v1, kind: Secret, metadata: {name: pug}}\n"
                                   "- {apiVersion: v1, kind: Secret, metadata: {name: wolf}}\n", True),
    "kubernetes, cluster-scoped": (SERVICE.format(v="v1", k="Namespace", n="pug", ns="a") + "---\n"
                                   + SERVICE.format(v="v1", k="Namespace", n="wolf", ns="b"), True),
    "compose container_name": ("services:\n  a: {container_name: pug}\n  b: {container_name: wolf}\n", True),
    "kubernetes, two namespaces": (SERVICE.format(v="v1", k="Service", n="pug", ns="web") + "---\n"
                                   + SERVICE.format(v="v1", k="Service", n="wolf", ns="db"), False),
    "kubernetes, two kinds": (SERVICE.format(v="v1", k="ConfigMap", n="pug", ns="web") + "---\n"
                              + SERVICE.format(v="v1", k="Service", n="wolf", ns="web"), False),
    "kubernetes, two API groups": (SERVICE.format(v="a.example/v1", k="Service", n="pug", ns="web") + "---\n"
                                   + SERVICE.format(v="v1", k="Service", n="wolf", ns="web"), False),
    "compose hostname": ("services:\n  a: {hostname: pug}\n  b: {hostname: wolf}\n", False),
    "one object declared twice": (SERVICE.format(v="v1", k="Service", n="pug", ns="web") + "---\n"
                                  + SERVICE.format(v="v1", k="Service", n="pug", ns="web"), False),
}


@pytest.mark.parametrize("name", sorted(OBJECTS))
def test_two_objects_of_one_identity_in_one_file_collide(name: str) -> None:
    text, collides = OBJECTS[name]
    problem = edit_problem(text, text.replace("pug", "wolf"))
    assert (problem is not None and "a renamed object would collide with an existing one" in problem) is collides
    written = identity_collision(text, text.replace("pug", "wolf"))
    assert (written is not None and "'wolf'" in written) is collides
