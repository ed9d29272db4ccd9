"""loop_values.py: where a loop binds its variable, and to what (tests/cli/test_composed_loops.py
checks the sweep's use of it on real repos)."""

from __future__ import annotations

import pytest

from renamer.loop_values import binding, list_items, loops, read_by


@pytest.mark.parametrize(("raw", "expected"), [
    pytest.param("[pug, rex]", ("pug", "rex"), id="flow"),
    pytest.param('["pug", "rex",]', ("pug", "rex"), id="quoted-trailing-comma"),
    pytest.param("('pug','rex')", ("pug", "rex"), id="tuple"),
    pytest.param('toset(["pug"])', ("pug",), id="toset"),
    pytest.param("[]", (), id="empty"),
    pytest.param("gpu_hosts", None, id="a-variable"),
    pytest.param("[pug, $X]", None, id="an-item-that-computes"),
    pytest.param("{pug: 1}", None, id="a-mapping"),
])
def test_list_items(raw: str, expected: tuple[str, ...] | None) -> None:
    assert list_items(raw) == expected


# (text, the variable, a byte inside the body, items, source, why-fragment)
BOUND = [
    pytest.param(b"for n in pug rex; do\n  ssh $n.ana.lan\ndone\n", "n", b"$n.ana", ("pug", "rex"), None, None,
                 id="shell"),
    pytest.param(b"x; for n in 'pug'\ndo echo $n.x; done", "n", b"$n.x", ("pug",), None, None, id="shell-quoted"),
    pytest.param(b"for h in $(cat f); do echo $h.x; done", "h", b"$h.x", None, None, "$(cat f)", id="shell-computed"),
    pytest.param(b"{% for h in ['pug'] %}{{ h }}.x{% endfor %}", "h", b"{{ h }}", ("pug",), None, None, id="jinja"),
    pytest.param(b"{%- for h in gpu -%}{{ h }}.x{% endfor %}", "h", b"{{ h }}", None, "gpu", None, id="jinja-variable"),
    pytest.param(b"{% for h in groups['gpu'] %}{{ h }}{% endfor %}", "h", b"{{ h }}", None, None, "groups",
                 id="jinja-unknown"),
    pytest.param(b"- name: a\n  debug: {msg: '{{ item }}.x'}\n  loop: [pug]\n", "item", b"{{ item }}", ("pug",), None,
                 None, id="ansible"),
    pytest.param(b"- name: a\n  debug: {msg: '{{ h }}'}\n  with_items:\n    - pug\n  loop_control: {loop_var: h}\n",
                 "h", b"{{ h }}", ("pug",), None, None, id="ansible-with-items-flow-loop-control"),
    pytest.param(b'x = [for i, n in ["pug"] : "${n}.x"]', "n", b"${n}", ("pug",), None, None, id="terraform-pair"),
    pytest.param(b'r "a" "b" {\n  for_each = toset(var.hosts)\n  n = "${each.key}"\n}\n', "each.key", b"${each",
                 None, "hosts", None, id="terraform-for-each"),
]


@pytest.mark.parametrize(("data", "variable", "inside", "items", "source", "why"), BOUND)
def test_a_loop_binds_its_variable_in_its_body(data: bytes, variable: str, inside: bytes,
                                               items: tuple[str, ...] | None, source: str | None,
                                               why: str | None) -> None:
    found = binding(loops(data), variable, data.index(inside))
    assert found is not None
    assert (found.items, found.source) == (items, source)
    assert (why is None) == (found.why is None) and (why is None or why in str(found.why))


@pytest.mark.parametrize(("data", "variable", "outside"), [
    pytest.param(b"for n in pug; do echo; done\necho $n.x\n", "n", b"$n.x", id="after-done"),
    pytest.param(b"for n in pug; do for m in a; do echo; done; echo $n.x; done\n$n", "n", b"$n",
                 id="nested-do-done-counted"),
    pytest.param(b"{% for h in ['pug'] %}{% endfor %}{{ h }}", "h", b"{{ h }}", id="after-endfor"),
    pytest.param(b"- name: a\n  loop: [pug]\n- name: b\n  debug: {msg: '{{ item }}'}\n", "item", b"{{ item }}",
                 id="the-next-task"),
    pytest.param(b"echo for n in pug; do x; done", "m", b"x;", id="another-variable"),
])
def test_outside_its_body_a_loop_binds_nothing(data: bytes, variable: str, outside: bytes) -> None:
    assert binding(loops(data), variable, data.rindex(outside)) is None


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param(b"${each.key}", "each.key", id="terraform-each"),
    pytest.param(b"{{ item }}", "item", id="jinja"),
    pytest.param(b"$n", "n", id="bare"),
    pytest.param(b"${X:-pug}", "X", id="a-default"),
])
def test_read_by(text: bytes, expected: str) -> None:
    assert read_by(text, 0, len(text)) == expected


@pytest.mark.parametrize(("data", "variable", "items", "source"), [
    pytest.param(b'H=(pug rex); for h in "${H[@]}"; do ssh $h.ana.lan; done', "h", None, "H", id="bash-array"),
    pytest.param(b"printf '%s\\n' pug rex | while read -r h; do ssh $h.ana.lan; done", "h", ("pug", "rex"), None,
                 id="while-read"),
    pytest.param(b'- debug:\n    msg: "{{ item.name }}.ana.lan"\n  loop: [{name: pug, port: 22}, {name: "rex"}]\n',
                 "item.name", ("pug", "rex"), None, id="list-of-mappings"),
])
def test_round_7_loops_give_their_values(data: bytes, variable: str, items: tuple[str, ...] | None,
                                         source: str | None) -> None:
    found = binding(loops(data), variable, data.index(b".ana.lan"))
    assert found is not None and (found.items, found.source) == (items, source)


def test_a_loop_over_the_inventory_walks_its_hosts() -> None:
    data = b'- debug:\n    msg: "{{ item }}.ana.lan"\n  loop: "{{ groups[\'web\'] }}"\n'
    found = binding(loops(data), "item", data.index(b".ana.lan"))
    assert found is not None and found.hosts and found.items is None


@pytest.mark.parametrize(("data", "variable", "items", "source"), [
    pytest.param(b'for h in {pug,rex}; do ssh "$h.ana.lan"; done', "h", ("pug", "rex"), None, id="bash-brace"),
    pytest.param(b'for h in web{1,2}.x db; do ssh "$h.ana.lan"; done', "h", ("web1.x", "web2.x", "db"), None,
                 id="bash-brace-with-prefix-and-suffix"),
    pytest.param(b"parallel ssh {}.ana.lan uptime ::: pug rex", "{}", ("pug", "rex"), None, id="parallel"),
    pytest.param(b"parallel ssh {1}.ana.lan {2} ::: pug rex ::: a b", "{1}", ("pug", "rex"), None,
                 id="parallel-numbered"),
    pytest.param(b"HOSTS := pug rex\nall:\n\t$(foreach h,$(HOSTS),ssh $(h).ana.lan;)\n", "h", ("pug", "rex"), None,
                 id="make-foreach-over-the-makefile-s-variable"),
    pytest.param(b"all:\n\t$(foreach h,$(HOSTS),ssh $(h).ana.lan;)\n", "h", None, "HOSTS", id="make-foreach-elsewhere"),
    pytest.param(b'{{- range $h := list "pug" "rex" }}\n{{ $h }}.ana.lan\n{{- end }}', "h", ("pug", "rex"), None,
                 id="helm-range-list"),
    pytest.param(b"{{- range $h := .Values.net.hosts }}\n{{ $h }}.ana.lan\n{{- end }}", "h", None, "hosts",
                 id="helm-range-values"),
    pytest.param(b'{% for h in "pug rex".split() %}{{ h }}.ana.lan{% endfor %}', "h", ("pug", "rex"), None,
                 id="jinja-split"),
    pytest.param(b'- debug: msg="{{ item.key }}.ana.lan"\n  with_dict: {pug: 1, rex: 2}\n', "item.key",
                 ("pug", "rex"), None, id="ansible-with-dict"),
    pytest.param(b'- debug: msg="{{ item.1 }}.ana.lan"\n  with_nested: [[a], [pug, rex]]\n', "item.1",
                 ("pug", "rex"), None, id="ansible-with-nested"),
])
def test_round_8_loops_give_their_values(data: bytes, variable: str, items: tuple[str, ...] | None,
                                         source: str | None) -> None:
    found = binding(loops(data), variable, data.index(b".ana.lan"))
    assert found is not None and (found.items, found.source) == (items, source)


def test_a_part_of_each_value_of_a_loop_not_read_cannot_be_told() -> None:
    data = b'- debug: msg="{{ item.key }}.ana.lan"\n  loop: "{{ nodes | dict2items }}"\n'
    found = binding(loops(data), "item.key", data.index(b".ana.lan"))
    assert found is not None and found.items is None and found.source is None and found.why


@pytest.mark.parametrize(("text", "expected"), [(b"{}", "{}"), (b"{2}", "{2}"), (b"{{ $h }}", "h"),
                                                (b"{{ item.0 }}", "item.0"), (b"$(h)", "h")])
def test_read_by_round_8(text: bytes, expected: str) -> None:
    assert read_by(text, 0, len(text)) == expected
