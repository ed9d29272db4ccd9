"""loop_values.py: where a loop binds its variable, and to what (tests/cli/test_composed_loops.py
checks the sweep's use of it on real repos)."""

from __future__ import annotations

import pytest

from renamer.composed_names import find
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


# Break-it round 9, finding 8: (text, the loop's values or the list variable it walks). The name each
# spelling makes is found by composed_names.find, and the variable it reads is bound by a loop.
ROUND_9 = [
    pytest.param(b"HOSTS := pug rex\nFQDNS := $(addsuffix .ana.lan,$(HOSTS))\n", ("pug", "rex"), None,
                 id="make-addsuffix"),
    pytest.param(b"F := $(addsuffix -int.ana.lan,pug rex)\n", ("pug", "rex"), None, id="make-addsuffix-literal"),
    pytest.param(b"F := $(addsuffix .ana.lan,$(addprefix web-,pug rex))\n", ("web-pug", "web-rex"), None,
                 id="make-addsuffix-over-addprefix"),
    pytest.param(b"F := $(addsuffix .ana.lan,$(HOSTS))\n", None, "HOSTS", id="make-addsuffix-elsewhere"),
    pytest.param(b"H = pug rex\nF := $(patsubst %,root@%.ana.lan,$(H))\n", ("pug", "rex"), None, id="make-patsubst"),
    pytest.param(b"H = pug-a rex-a db\nF := $(patsubst %-a,%.ana.lan,$(H))\n", ("pug", "rex"), None,
                 id="make-patsubst-stem"),
    pytest.param(b"H := pug rex\nF := $(H:%=%.ana.lan)\n", ("pug", "rex"), None, id="make-substitution"),
    pytest.param(b"H := pug rex\nF := $(H:=.ana.lan)\n", ("pug", "rex"), None, id="make-substitution-suffix"),
    pytest.param(b'{{- range tuple "pug" "rex" }}\n{{ . }}.ana.lan\n{{- end }}', ("pug", "rex"), None,
                 id="helm-range-tuple-dot"),
    pytest.param(b'{{- range (list "pug" "rex") }}\n{{- . }}.ana.lan\n{{- end }}', ("pug", "rex"), None,
                 id="helm-range-list-parenthesised"),
    pytest.param(b'{{- range $h := splitList " " "pug rex" }}\n{{ $h }}.ana.lan\n{{- end }}', ("pug", "rex"), None,
                 id="helm-splitlist"),
    pytest.param(b'{{- range $i, $h := tuple "pug" "rex" }}\n{{ printf "%s.ana.lan" $h }}\n{{- end }}',
                 ("pug", "rex"), None, id="helm-printf-index"),
    pytest.param(b"{{- range .Values.hosts }}\n{{ . }}.ana.lan\n{{- end }}", None, "hosts", id="helm-dot-values"),
    pytest.param(b'x = formatlist("%s.ana.lan", ["pug", "rex"])\n', ("pug", "rex"), None, id="terraform-formatlist"),
    pytest.param(b'x = formatlist("%s.ana.lan", var.hosts)\n', None, "hosts", id="terraform-formatlist-variable"),
    pytest.param(b'x = [for h in ["pug", "rex"] : format("%s.ana.lan", h)]\n', ("pug", "rex"), None,
                 id="terraform-format-in-a-for"),
    pytest.param(b"printf 'ssh://%s.ana.lan\\n' pug rex\n", ("pug", "rex"), None, id="shell-printf"),
    pytest.param(b"printf '%s.ana.lan\\n' $HOSTS\n", None, "HOSTS", id="shell-printf-variable"),
    pytest.param(b'for h in ["pug", "rex"]:\n    print(f"{h}.ana.lan")\n', ("pug", "rex"), None, id="python-for"),
    pytest.param(b'for h in HOSTS:\n\n    x = 1\n    print("%s.ana.lan" % h)\n', None, "HOSTS",
                 id="python-for-percent-variable"),
    pytest.param(b'print([h + ".ana.lan" for h in ("pug", "rex")])\n', ("pug", "rex"), None,
                 id="python-comprehension-concat"),
    pytest.param(b'n = {h: f"{h}.ana.lan" for h in "pug rex".split() if h}\n', ("pug", "rex"), None,
                 id="python-dict-comprehension"),
    pytest.param(b'while read -r h; do ssh "$h.ana.lan"; done <<< "pug\nrex"\n', ("pug", "rex"), None,
                 id="bash-here-string"),
    pytest.param(b"while read -r h; do ssh $h.ana.lan; done <<< $'pug\\nrex'\n", ("pug", "rex"), None,
                 id="bash-here-string-ansi-c"),
    pytest.param(b"while IFS= read -r h\ndo\n  ssh $h.ana.lan\ndone <<-'EOF'\n\tpug\n\trex\n\tEOF\n", ("pug", "rex"), None,
                 id="here-document"),
    pytest.param(b"{% for h in ['pug', 'rex'] %}{{ hostvars[h].inventory_hostname }}.ana.lan{% endfor %}",
                 ("pug", "rex"), None, id="ansible-hostvars-in-a-loop"),
    pytest.param(b'for h in pug rex; do printf "%s.ana.lan\\n" "$h"; done\n', ("pug", "rex"), None,
                 id="shell-printf-in-a-for"),
    pytest.param(b"X := $(foreach h,pug rex,$(addsuffix .ana.lan,$(h)))\n", ("pug", "rex"), None,
                 id="make-addsuffix-in-a-foreach"),
    pytest.param(b'for h in ("pug", "rex"):\n    print("{}.ana.lan".format(h))\n', ("pug", "rex"), None,
                 id="python-format-method"),
    pytest.param(b"msg: \"{{ ['pug', 'rex'] | map('regex_replace', '$', '.ana.lan') | list }}\"", ("pug", "rex"), None,
                 id="jinja-map-regex-replace"),
    pytest.param(b"{{ nodes | sort | map('regex_replace', '^(.+)$', '\\1.ana.lan') }}", None, "nodes",
                 id="jinja-map-regex-replace-group"),
    pytest.param(b"{{ nodes | product(['.ana.lan']) | map('join') | list }}", None, "nodes", id="jinja-product-join"),
]


@pytest.mark.parametrize(("data", "items", "source"), ROUND_9)
def test_round_9_list_to_name_spellings_give_their_values(data: bytes, items: tuple[str, ...] | None,
                                                          source: str | None) -> None:
    [name] = find(data, ("ana.lan",))
    read = name.template.reads or read_by(data, name.template.start, name.template.end)
    found = binding(loops(data), read, name.start)
    assert found is not None and (found.items, found.source) == (items, source), found


@pytest.mark.parametrize("data", [
    pytest.param(b'for h in ["pug"]:\n    pass\nprint(f"{h}.ana.lan")\n', id="python-after-its-body"),
    pytest.param(b'x = [h for h in ("pug",)]\ny = h + ".ana.lan"\n', id="python-after-its-brackets"),
    pytest.param(b'{{- range tuple "pug" }}{{ end }}\n{{ . }}.ana.lan\n', id="helm-after-its-end"),
    pytest.param(b"F := $(addsuffix .x,pug)\nG := $(H).ana.lan\n", id="make-another-call"),
])
def test_round_9_loops_bind_nothing_outside_their_body(data: bytes) -> None:
    for name in find(data, ("ana.lan",)):
        read = name.template.reads or read_by(data, name.template.start, name.template.end)
        assert binding(loops(data), read, name.start) is None


@pytest.mark.parametrize("data", [
    pytest.param(b'print("%s.ana.lan")\n', id="a-verb-with-no-argument"),
    pytest.param(b'x = format("%s.%s.ana.lan", a, b)\n', id="two-verbs"),
    pytest.param(b'print("{h}.ana.lan")\n', id="no-f-string"),
    pytest.param(b"echo $(H:%=%.x)\n", id="make-substitution-other-domain"),
    pytest.param(b"{{ nodes | map('regex_replace', 'a', '.ana.lan') }}", id="jinja-regex-replace-another-pattern"),
])
def test_round_9_no_name_where_no_variable_is_read(data: bytes) -> None:
    assert find(data, ("ana.lan",)) == []


@pytest.mark.parametrize(("data", "why"), [
    pytest.param(b"while read -r h; do ssh $h.ana.lan; done < hosts.txt\n", "hosts.txt", id="a-file"),
    pytest.param(b'while read -r h; do ssh $h.ana.lan; done <<< "$HOSTS"\n', "lines", id="a-variable-s-line"),
    pytest.param(b"while read -r h; do ssh $h.ana.lan; done <<< $(cat hosts)\n", "$(cat hosts)", id="a-command"),
])
def test_a_read_loop_over_what_cannot_be_told_binds_no_values(data: bytes, why: str) -> None:
    found = binding(loops(data), "h", data.index(b".ana.lan"))
    assert found is not None and found.items is None and why in str(found.why), found


def test_a_format_method_with_two_placeholders_reads_no_one_argument() -> None:
    data = b'x = "{}.ana.lan {}".format(a, b)\n'
    [name] = find(data, ("ana.lan",))
    assert name.template.reads is None and binding(loops(data), "{}", name.start) is None


def test_a_jinja_map_over_the_inventory_walks_its_hosts() -> None:
    data = b"{{ groups['web'] | map('regex_replace', '$', '.ana.lan') | list }}"
    [name] = find(data, ("ana.lan",))
    found = binding(loops(data), "%", name.start)
    assert found is not None and found.hosts


def test_a_jinja_walk_over_the_inventory_walks_its_hosts() -> None:
    data = b'{% for h in groups["web"] | sort %}\nserver {{ h }}.ana.lan:80;\n{% endfor %}\n'
    found = binding(loops(data), "h", data.index(b".ana.lan"))
    assert found is not None and found.hosts and found.items is None


# Break-it round 17, #9: a mapping's keys through keys(), and a dynamic block's iterator.
@pytest.mark.parametrize(("data", "variable", "inside"), [
    pytest.param(b'x = [for k in keys(var.hosts) : "${k}.lan"]\n', "k", b"${k}", id="keys"),
    pytest.param(b'x = [for k in toset(keys(local.hosts)) : "${k}.lan"]\n', "k", b"${k}", id="toset-keys"),
    pytest.param(b'resource "a" "b" {\n  dynamic "rule" {\n    for_each = var.hosts\n'
                 b'    content { n = "${rule.key}" }\n  }\n}\n', "rule.key", b"${rule.key}", id="dynamic"),
    pytest.param(b'resource "a" "b" {\n  dynamic "rule" {\n    for_each = var.hosts\n    iterator = h\n'
                 b'    content { n = "${h.key}" }\n  }\n}\n', "h.key", b"${h.key}", id="iterator"),
])
def test_a_loop_over_a_mapping_s_keys_walks_its_keys(data: bytes, variable: str, inside: bytes) -> None:
    found = binding(loops(data), variable, data.index(inside))
    assert found is not None and found.source in ("hosts",) and found.keys


def test_a_dynamic_block_s_iterator_is_not_each() -> None:
    data = b'resource "a" "b" {\n  dynamic "rule" {\n    for_each = var.hosts\n    content { n = "${each.key}" }\n  }\n}\n'
    assert binding(loops(data), "each.key", data.index(b"${each.key}")) is None
