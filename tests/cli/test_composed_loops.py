"""A composed name inside a loop reads the loop's values (break-it round 5, finding 7): `for n in
pug rex; do ssh root@$n.ana.lan` became `for n in wolf rex` with `$n.ana.lan` left, wolf.ana.lan, a
name that does not exist, and verify passed (a near-miss only). Where every value of the loop
follows one domain move, the literal domain follows; where they are mixed, a `composed-name`
residual naming the loop's line; where they cannot be told, a near-miss as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest
from ruamel.yaml import YAML

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG
from tests.testing.terraform import in_moved_tf, needs_terraform, tagged

GROUP_VARS = "group_vars/all.yml"

# (files, the file holding the loop, what it must become), every value of the loop moving.
FOLLOWS = [
    pytest.param({}, "up.sh", "#!/bin/sh\nfor n in pug; do\n  ssh root@$n.ana.lan uptime\ndone\n",
                 "#!/bin/sh\nfor n in wolf; do\n  ssh root@$n.fv.lan uptime\ndone\n", id="shell"),
    pytest.param({}, "up.sh", "for n in 'pug' \"pug\"\r\ndo\r\n  curl https://${n}.ana.lan/\r\ndone\r\n",
                 "for n in 'wolf' \"wolf\"\r\ndo\r\n  curl https://${n}.fv.lan/\r\ndone\r\n", id="shell-quoted-crlf"),
    pytest.param({"hosts.env": 'GPU_HOSTS="pug"\n'}, "up.sh", "for n in $GPU_HOSTS; do ssh $n.ana.lan; done\n",
                 "for n in $GPU_HOSTS; do ssh $n.fv.lan; done\n", id="shell-over-a-variable"),
    pytest.param({}, "t.j2", "{% for h in ['pug'] %}{{ h }}.ana.lan\n{% endfor %}\n",
                 "{% for h in ['wolf'] %}{{ h }}.fv.lan\n{% endfor %}\n", id="jinja-list"),
    pytest.param({}, "play.yml", "- name: up\n  command: ssh root@{{ item }}.ana.lan uptime\n  loop: [pug]\n",
                 "- name: up\n  command: ssh root@{{ item }}.fv.lan uptime\n  loop: [wolf]\n", id="ansible-loop"),
    pytest.param({}, "play.yml", "- name: up\n  command: ssh root@{{ host }}.ana.lan uptime\n  with_items:\n"
                 "    - pug\n  loop_control:\n    loop_var: host\n",
                 "- name: up\n  command: ssh root@{{ host }}.fv.lan uptime\n  with_items:\n"
                 "    - wolf\n  loop_control:\n    loop_var: host\n", id="ansible-with-items-loop-var"),
    pytest.param({GROUP_VARS: "gpu_hosts:\n  - pug\n"}, "play.yml",
                 '- name: up\n  command: "ssh {{ item }}.ana.lan"\n  loop: "{{ gpu_hosts }}"\n',
                 '- name: up\n  command: "ssh {{ item }}.fv.lan"\n  loop: "{{ gpu_hosts }}"\n',
                 id="ansible-loop-over-group-vars"),
    pytest.param({GROUP_VARS: "gpu_hosts: [pug]\n"}, "t.j2", "{% for h in gpu_hosts %}\n{{ h }}.ana.lan\n{% endfor %}\n",
                 "{% for h in gpu_hosts %}\n{{ h }}.fv.lan\n{% endfor %}\n", id="jinja-over-group-vars"),
    pytest.param({}, "main.tf", 'locals {\n  names = [for n in ["pug"] : "${n}.ana.lan"]\n}\n',
                 'locals {\n  names = [for n in ["wolf"] : "${n}.fv.lan"]\n}\n', id="terraform-for"),
    pytest.param({}, "main.tf", 'resource "terraform_data" "x" {\n  for_each = toset(["pug"])\n'
                 '  input    = "${each.key}.ana.lan"\n}\n',
                 'resource "terraform_data" "x" {\n  for_each = toset(["wolf"])\n'
                 '  input    = "${each.key}.fv.lan"\n}\n\nmoved {\n  from = terraform_data.x["pug"]\n'
                 '  to   = terraform_data.x["wolf"]\n}\n', id="terraform-for-each"),
    pytest.param({"vars.tf": 'variable "hosts" {\n  default = [\n    "pug",\n  ]\n}\n'}, "main.tf",
                 'resource "terraform_data" "x" {\n  for_each = toset(var.hosts)\n  input    = "${each.value}.ana.lan"\n}\n',
                 'resource "terraform_data" "x" {\n  for_each = toset(var.hosts)\n  input    = "${each.value}.fv.lan"\n}\n'
                 '\nmoved {\n  from = terraform_data.x["pug"]\n  to   = terraform_data.x["wolf"]\n}\n',
                 id="terraform-for-each-over-a-variable"),
    # Break-it round 7, finding 11: a bash array, a here-list read by `while read`, a list of mappings.
    pytest.param({}, "up.sh", 'HOSTS=(pug "pug"); for h in "${HOSTS[@]}"; do ssh "$h.ana.lan"; done\n',
                 'HOSTS=(wolf "wolf"); for h in "${HOSTS[@]}"; do ssh "$h.fv.lan"; done\n', id="bash-array"),
    pytest.param({"hosts.sh": "HOSTS=(pug)\n"}, "up.sh", 'for h in ${HOSTS[*]}; do ssh "$h.ana.lan"; done\n',
                 'for h in ${HOSTS[*]}; do ssh "$h.fv.lan"; done\n', id="bash-array-elsewhere"),
    pytest.param({}, "up.sh", "printf '%s\\n' pug | while read -r h; do curl \"http://$h.ana.lan/\"; done\n",
                 "printf '%s\\n' wolf | while read -r h; do curl \"http://$h.fv.lan/\"; done\n", id="while-read"),
    pytest.param({}, "play.yml", '- debug:\n    msg: "{{ item.name }}.ana.lan"\n  loop: [{name: pug, port: 22}]\n',
                 '- debug:\n    msg: "{{ item.name }}.fv.lan"\n  loop: [{name: wolf, port: 22}]\n',
                 id="list-of-mappings"),
    # Break-it round 8, finding 5: the other spellings of a loop.
    pytest.param({}, "up.sh", 'for h in {pug,pug}; do ssh "$h.ana.lan"; done\n',
                 'for h in {wolf,wolf}; do ssh "$h.fv.lan"; done\n', id="bash-brace"),
    pytest.param({}, "up.sh", "parallel ssh {}.ana.lan uptime ::: pug\n", "parallel ssh {}.fv.lan uptime ::: wolf\n",
                 id="gnu-parallel"),
    pytest.param({}, "Makefile", "HOSTS := pug\nall:\n\t$(foreach h,$(HOSTS),ssh $(h).ana.lan uptime;)\n",
                 "HOSTS := wolf\nall:\n\t$(foreach h,$(HOSTS),ssh $(h).fv.lan uptime;)\n", id="make-foreach"),
    pytest.param({}, "chart/templates/cm.yaml", 'data:\n{{- range $h := list "pug" }}\n  x: "{{ $h }}.ana.lan"\n{{- end }}\n',
                 'data:\n{{- range $h := list "wolf" }}\n  x: "{{ $h }}.fv.lan"\n{{- end }}\n', id="helm-range-list"),
    pytest.param({}, "t.j2", '{% for h in "pug".split() %}{{ h }}.ana.lan{% endfor %}\n',
                 '{% for h in "wolf".split() %}{{ h }}.fv.lan{% endfor %}\n', id="jinja-split"),
    pytest.param({}, "play.yml", '- debug: msg="{{ item.key }}.ana.lan"\n  with_dict: {pug: 1}\n',
                 '- debug: msg="{{ item.key }}.fv.lan"\n  with_dict: {wolf: 1}\n', id="ansible-with-dict"),
    pytest.param({}, "play.yml", '- debug: msg="{{ item.0 }}.ana.lan"\n  with_nested: [[pug], [a, b]]\n',
                 '- debug: msg="{{ item.0 }}.fv.lan"\n  with_nested: [[wolf], [a, b]]\n', id="ansible-with-nested"),
    # Break-it round 9, finding 8: the list-to-name functions and the loops of Python.
    pytest.param({}, "Makefile", "HOSTS := pug\nFQDNS := $(addsuffix .ana.lan,$(HOSTS))\n",
                 "HOSTS := wolf\nFQDNS := $(addsuffix .fv.lan,$(HOSTS))\n", id="make-addsuffix"),
    pytest.param({}, "Makefile", "HOSTS := pug\nall:\n\techo $(HOSTS:%=root@%.ana.lan) $(patsubst %,%.ana.lan,$(HOSTS))\n",
                 "HOSTS := wolf\nall:\n\techo $(HOSTS:%=root@%.fv.lan) $(patsubst %,%.fv.lan,$(HOSTS))\n",
                 id="make-substitution-patsubst"),
    pytest.param({}, "chart/templates/cm.yaml", 'data:\n{{- range tuple "pug" }}\n  {{ . }}: "{{ . }}.ana.lan"\n{{- end }}\n',
                 'data:\n{{- range tuple "wolf" }}\n  {{ . }}: "{{ . }}.fv.lan"\n{{- end }}\n', id="helm-range-tuple-dot"),
    pytest.param({}, "main.tf", 'locals {\n  fm = formatlist("%s.ana.lan", ["pug"])\n}\n',
                 'locals {\n  fm = formatlist("%s.fv.lan", ["wolf"])\n}\n', id="terraform-formatlist"),
    pytest.param({}, "x.py", 'for h in ["pug"]:\n    print(f"{h}.ana.lan")\n',
                 'for h in ["wolf"]:\n    print(f"{h}.fv.lan")\n', id="python-for"),
    pytest.param({}, "x.py", 'print([h + ".ana.lan" for h in ("pug",)])\n',
                 'print([h + ".fv.lan" for h in ("wolf",)])\n', id="python-comprehension"),
    pytest.param({}, "up.sh", "printf 'ssh://%s.ana.lan\\n' pug pug\n", "printf 'ssh://%s.fv.lan\\n' wolf wolf\n",
                 id="shell-printf"),
    pytest.param({}, "up.sh", "while read -r h; do ssh $h.ana.lan; done <<< 'pug'\n",
                 "while read -r h; do ssh $h.fv.lan; done <<< 'wolf'\n", id="bash-here-string"),
    pytest.param({GROUP_VARS: "nodes: [pug]\n"}, "play.yml",
                 "- debug:\n    msg: \"{{ nodes | map('regex_replace', '$', '.ana.lan') | list }}\"\n",
                 "- debug:\n    msg: \"{{ nodes | map('regex_replace', '$', '.fv.lan') | list }}\"\n", id="ansible-map"),
]


def _findings(root: Path, run: Callable[..., Result], path: str) -> list[dict[str, object]]:
    found: list[dict[str, object]] = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return [f for f in found if f["path"] == path]


@pytest.mark.parametrize(("defs", "path", "content", "expected"), FOLLOWS)
def test_the_literal_domain_follows_where_every_value_of_the_loop_moves(
        defs: dict[str, str], path: str, content: str, expected: str,
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**defs, path: content}, config=CONFIG, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    after = in_moved_tf({path: tagged(expected)})  # a `moved` block: its tag, in the module's moved.tf
    for rel, text in after.items():
        assert (root / rel).read_bytes().decode() == text, rel
    done = run(root, "verify", "--strict")
    assert done.exit_code == 0, done.stdout
    assert run(root, "sweep", "--commit").exit_code == 0  # a second sweep changes nothing
    for rel, text in after.items():
        assert (root / rel).read_bytes().decode() == text, rel


# (files, the file holding the loop, its loop's line): pug moves, rex stays. A loop over a list
# variable holds the list's words too, wherever the list is defined (break-it round 7, finding 10e).
MIXED = [
    pytest.param({}, "up.sh", "#!/bin/sh\nfor n in pug rex; do\n  ssh root@$n.ana.lan uptime\ndone\n", 2, id="shell"),
    pytest.param({}, "up.sh", 'HOSTS="pug rex"\nfor n in ${HOSTS}; do ssh $n.ana.lan; done\n', 2,
                 id="shell-over-a-variable"),
    pytest.param({}, "t.j2", "{% for h in ['pug','rex'] %}{{ h }}.ana.lan{% endfor %}\n", 1, id="jinja-list"),
    pytest.param({}, "play.yml", "- name: up\n  command: \"{{ item }}.ana.lan\"\n  loop: \"{{ ['pug', 'rex'] }}\"\n",
                 3, id="ansible-loop-expression"),
    pytest.param({}, "play.yml", "- hosts: all\n  tasks:\n    - name: up\n      command: ssh {{ item }}.ana.lan\n"
                 "      loop: [pug, rex]\n    - name: other\n      command: ssh {{ item }}.ana.lan\n"
                 "      loop: [db01]\n", 5, id="ansible-loop"),
    pytest.param({}, "play.yml", "- name: up\n  command: \"{{ item }}.ana.lan\"\n  with_items:\n    - pug\n    - rex\n",
                 3, id="ansible-with-items"),
    pytest.param({GROUP_VARS: "gpu_hosts: [pug, rex]\n"}, "play.yml",
                 '- name: up\n  command: "ssh {{ item }}.ana.lan"\n  loop: "{{ gpu_hosts }}"\n', 3,
                 id="ansible-loop-over-group-vars"),
    pytest.param({}, "main.tf", 'locals {\n  names = [for n in ["pug", "rex"] : "${n}.ana.lan"]\n}\n', 2,
                 id="terraform-for"),
    pytest.param({}, "main.tf", 'resource "terraform_data" "x" {\n  for_each = toset(["pug", "rex"])\n'
                 '  input    = "${each.key}.ana.lan"\n}\n', 2, id="terraform-for-each"),
    pytest.param({}, "up.sh", 'HOSTS=(pug rex); for h in "${HOSTS[@]}"; do ssh "$h.ana.lan"; done\n', 1,
                 id="bash-array"),
    pytest.param({}, "up.sh", "printf '%s\\n' pug rex | while read -r h; do\n  curl \"http://$h.ana.lan/\"\ndone\n", 1,
                 id="while-read"),
    pytest.param({}, "play.yml", '- debug:\n    msg: "{{ item.name }}.ana.lan"\n  loop: [{name: pug}, {name: "rex"}]\n',
                 3, id="list-of-mappings"),
    # Break-it round 8, finding 5: each became `wolf rex`, sweep --commit 0, verify 0.
    pytest.param({}, "up.sh", '#!/bin/bash\nfor h in {pug,rex}; do ssh "$h.ana.lan" uptime; done\n', 2, id="bash-brace"),
    pytest.param({}, "up.sh", "parallel ssh {}.ana.lan uptime ::: pug rex\n", 1, id="gnu-parallel"),
    pytest.param({}, "up.sh", "parallel -j4 'ssh {1}.ana.lan {2}' ::: rex pug ::: uptime\n", 1,
                 id="gnu-parallel-numbered"),
    pytest.param({}, "Makefile", "HOSTS := pug rex\nall:\n\t$(foreach h,$(HOSTS),ssh $(h).ana.lan uptime;)\n", 3,
                 id="make-foreach"),
    pytest.param({}, "Makefile", "all:\n\techo $(foreach h,rex pug,$(h).ana.lan)\n", 2, id="make-foreach-literal"),
    pytest.param({}, "chart/templates/cm.yaml",
                 'data:\n{{- range $h := list "pug" "rex" }}\n  {{ $h }}: "{{ $h }}.ana.lan"\n{{- end }}\n', 2,
                 id="helm-range-list"),
    pytest.param({}, "t.j2", '{% for h in "pug rex".split() %}\nserver {{ h }}.ana.lan;\n{% endfor %}\n', 1,
                 id="jinja-split"),
    pytest.param({}, "t.j2", "{% for h in 'rex,pug'.split(',') %}{{ h }}.ana.lan{% endfor %}\n", 1,
                 id="jinja-split-comma"),
    pytest.param({}, "play.yml", '- debug: msg="{{ item.key }}.ana.lan"\n  with_dict: {pug: 1, rex: 2}\n', 2,
                 id="ansible-with-dict"),
    pytest.param({}, "play.yml", '- debug: msg="{{ item.0 }}.ana.lan"\n  with_nested: [[pug, rex], [a]]\n', 2,
                 id="ansible-with-nested"),
    # Break-it round 9, finding 8: each list became `wolf rex` (wolf.ana.lan), sweep 0, verify 0.
    pytest.param({}, "Makefile", "HOSTS := pug rex\nFQDNS := $(addsuffix .ana.lan,$(HOSTS))\nall:\n"
                 "\tfor h in $(FQDNS); do ssh $$h; done\n", 2, id="make-addsuffix"),
    pytest.param({}, "Makefile", "F := $(addprefix root@,$(addsuffix .ana.lan,rex pug))\n", 1,
                 id="make-addsuffix-literal-addprefix"),
    pytest.param({}, "Makefile", "HOSTS = pug rex\nall:\n\techo $(patsubst %,root@%.ana.lan,$(HOSTS))\n", 3,
                 id="make-patsubst"),
    pytest.param({}, "Makefile", "HOSTS := rex pug\nall:\n\techo $(HOSTS:%=%.ana.lan)\n", 3, id="make-substitution"),
    pytest.param({}, "Makefile", "HOSTS := rex pug\nF := $(HOSTS:=.ana.lan)\n", 2, id="make-substitution-suffix"),
    pytest.param({}, "chart/templates/cm.yaml",
                 'data:\n{{- range tuple "pug" "rex" }}\n  {{ . }}: "{{ . }}.ana.lan"\n{{- end }}\n', 2,
                 id="helm-range-tuple-dot"),
    pytest.param({}, "chart/templates/cm.yaml",
                 '{{- range $h := splitList " " "pug rex" }}\n  x: "{{ $h }}.ana.lan"\n{{- end }}\n', 1,
                 id="helm-splitlist"),
    pytest.param({}, "chart/templates/cm.yaml", '{{- range splitList "," "rex,pug" }}\n  - {{ . }}.ana.lan\n{{- end }}\n',
                 1, id="helm-splitlist-dot"),
    pytest.param({}, "chart/templates/cm.yaml",
                 '{{- range $i, $h := list "pug" "rex" }}\n  h{{ $i }}: {{ printf "%s.ana.lan" $h | quote }}\n'
                 '{{- end }}\n', 1, id="helm-printf-index"),
    pytest.param({}, "main.tf", 'locals {\n  fm = formatlist("%s.ana.lan", ["pug", "rex"])\n}\n', 2,
                 id="terraform-formatlist"),
    pytest.param({}, "main.tf", 'locals {\n  fx = [for h in ["rex", "pug"] : format("%s.ana.lan", h)]\n}\n', 2,
                 id="terraform-format-in-a-for"),
    pytest.param({}, "x.py", 'for h in ["pug", "rex"]:\n    print(f"{h}.ana.lan")\n', 1, id="python-for"),
    pytest.param({}, "x.py", 'import os\n\nfor h in ("rex", "pug"):\n    os.system("ssh %s.ana.lan" % h)\n', 3,
                 id="python-for-percent"),
    pytest.param({}, "x.py", 'print([h + ".ana.lan" for h in ("pug", "rex")])\n', 1, id="python-comprehension"),
    pytest.param({}, "x.py", 'NAMES = {h: f"ssh://{h}.ana.lan" for h in "pug rex".split() if h}\n', 1,
                 id="python-dict-comprehension-split"),
    pytest.param({}, "up.sh", "printf '%s.ana.lan\\n' pug rex | xargs -n1 echo\n", 1, id="shell-printf"),
    pytest.param({}, "up.sh", '#!/bin/bash\nwhile read -r h; do ssh "$h.ana.lan" true; done <<< "pug\nrex"\n', 2,
                 id="bash-here-string"),
    pytest.param({}, "up.sh", "while read h\ndo\n  ssh $h.ana.lan true\ndone <<'EOF'\nrex\npug\nEOF\n", 1,
                 id="shell-here-document"),
    pytest.param({}, "up.sh", 'for h in pug rex; do printf "%s.ana.lan\\n" "$h"; done\n', 1, id="shell-printf-in-a-for"),
    pytest.param({}, "y.py", 'for h in ("pug", "rex"):\n    print("{}.ana.lan".format(h))\n', 1,
                 id="python-format-method"),
    pytest.param({}, "play.yml", "- debug:\n    msg: \"{{ ['pug', 'rex'] | map('regex_replace', '$', '.ana.lan') | list }}\"\n",
                 2, id="ansible-map-regex-replace"),
    pytest.param({}, "play.yml", "- debug:\n    msg: \"{{ ['rex', 'pug'] | map('regex_replace', '^(.*)$', '\\\\1.ana.lan') }}\"\n",
                 2, id="ansible-map-regex-replace-group"),
    pytest.param({}, "play.yml", "- debug:\n    msg: \"{{ ['pug', 'rex'] | product(['.ana.lan']) | map('join') | list }}\"\n",
                 2, id="ansible-product-join"),
]


@pytest.mark.parametrize(("defs", "path", "content", "line"), MIXED)
def test_a_loop_of_moving_and_staying_hosts_is_a_residual_naming_the_loop(
        defs: dict[str, str], path: str, content: str, line: int, repo: Callable[..., Path],
        run: Callable[..., Result]) -> None:
    root = repo({**defs, path: content}, config=CONFIG, allowlist=ALLOW)
    found = [f for f in _findings(root, run, path)
             if f["reason"] == "composed-name" and str(f["old"]).endswith(".ana.lan")]
    assert len(found) == 1, found
    note = str(found[0]["note"])
    assert f"the loop at {path}:{line}" in note and "split the loop" in note, note
    assert "rex.ana.lan keeps .ana.lan" in note, note
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    # Left as it is, the loop's own words too, and the list it walks: rewriting pug alone would
    # break the name another way.
    assert (root / path).read_bytes().decode() == content
    assert {p: (root / p).read_text() for p in defs} == defs
    checked = run(root, "verify")
    assert checked.exit_code == 1, checked.stdout
    assert "composed-name" in checked.stdout and "split the loop" in checked.stdout
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    reasons = {(r["old"], r["reason"]) for r in audit["references"] if r["path"] == path}
    assert {reason for _, reason in reasons} == {"composed-name"}, reasons
    if "pug" in content and not defs:  # the loop's own word is the same residual
        assert ("pug", "composed-name") in reasons, reasons


# (files, the file defining the list and its line): a mixed loop walks a list defined elsewhere or
# beside it; the list's pug would make wolf.ana.lan as surely as the loop's own word (round 7, 10e).
HELD_LISTS = [
    pytest.param({"play.yml": '- hosts: all\n  vars:\n    nodes: [pug, rex]\n  tasks:\n    - debug:\n'
                  '        msg: "{{ item }}.ana.lan"\n      loop: "{{ nodes }}"\n'}, "play.yml", 3, id="play-vars"),
    pytest.param({GROUP_VARS: "nodes:\n  - rex\n  - pug  # the gpu box\n",
                  "play.yml": '- debug:\n    msg: "{{ item }}.ana.lan"\n  with_items: "{{ nodes }}"\n'},
                 GROUP_VARS, 3, id="group-vars-block-list"),
    pytest.param({"run.sh": 'LIST="pug rex"\nfor h in $LIST; do ssh $h.ana.lan; done\n'}, "run.sh", 1,
                 id="shell-same-file"),
    pytest.param({"hosts.env": "export LIST='rex pug'\n", "run.sh": ". ./hosts.env\nfor h in $LIST\ndo\n"
                  "  ssh $h.ana.lan\ndone\n"}, "hosts.env", 1, id="shell-list-in-another-file"),
    pytest.param({"t.j2": "{% set nodes = ['pug','rex'] %}{% for h in nodes %}{{ h }}.ana.lan{% endfor %}\n"},
                 "t.j2", 1, id="jinja-set"),
    pytest.param({GROUP_VARS: "nodes: [pug, rex]\n", "t.j2": "{% for h in nodes -%}\n{{ h }}.ana.lan\n{% endfor %}\n"},
                 GROUP_VARS, 1, id="jinja-over-group-vars"),
    pytest.param({"vars.tf": 'variable "hosts" {\n  default = ["rex", "pug"]\n}\n',
                  "main.tf": 'resource "terraform_data" "x" {\n  for_each = toset(var.hosts)\n'
                  '  input    = "${each.key}.ana.lan"\n}\n'}, "vars.tf", 2, id="terraform-variable"),
    # Break-it round 8, finding 5: Helm's values, a Makefile's included list.
    pytest.param({"chart/Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n", "chart/values.yaml": "hosts: [rex, pug]\n",
                  "chart/templates/cm.yaml": 'data:\n{{- range $h := .Values.hosts }}\n  {{ $h }}: "{{ $h }}.ana.lan"\n'
                  '{{- end }}\n'}, "chart/values.yaml", 1, id="helm-range-over-values"),
    pytest.param({"mk/hosts.mk": "HOSTS := rex pug\n",
                  "mk/Makefile": "include hosts.mk\nall:\n\t$(foreach h,$(HOSTS),ssh $(h).ana.lan uptime;)\n"},
                 "mk/hosts.mk", 1, id="make-include"),
    # Break-it round 9, finding 8: the list of a list-to-name function, defined elsewhere.
    pytest.param({"mk/hosts.mk": "HOSTS := rex pug\n",
                  "mk/Makefile": "include hosts.mk\nFQDNS := $(addsuffix .ana.lan,$(HOSTS))\n"}, "mk/hosts.mk", 1,
                 id="make-addsuffix-include"),
    pytest.param({"vars.tf": 'variable "hosts" {\n  default = ["rex", "pug"]\n}\n',
                  "main.tf": 'locals {\n  fm = formatlist("%s.ana.lan", var.hosts)\n}\n'}, "vars.tf", 2,
                 id="terraform-formatlist-variable"),
    pytest.param({"chart/Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n", "chart/values.yaml": "hosts: [rex, pug]\n",
                  "chart/templates/cm.yaml": 'data:\n{{- range .Values.hosts }}\n  {{ . }}: "{{ . }}.ana.lan"\n'
                  '{{- end }}\n'}, "chart/values.yaml", 1, id="helm-dot-range-over-values"),
    pytest.param({"terraform.tfvars": 'nodes = ["rex", "pug"]\n',
                  "main.tf": 'variable "nodes" {\n  type = list(string)\n}\nlocals {\n  a = [for h in var.nodes : "${h}.ana.lan"]\n}\n'},
                 "terraform.tfvars", 1, id="terraform-for-over-a-tfvars-list"),
    pytest.param({"y.py": 'HOSTS = ["pug", "rex"]\nfor h in HOSTS:\n    print(f"{h}.ana.lan")\n'}, "y.py", 1,
                 id="python-list-same-file"),
    pytest.param({GROUP_VARS: "nodes:\n  - pug\n  - rex\n",
                  "play.yml": "- debug:\n    msg: \"{{ nodes | map('regex_replace', '$', '.ana.lan') | list }}\"\n"},
                 GROUP_VARS, 2, id="ansible-map-over-group-vars"),
    pytest.param({GROUP_VARS: "nodes: [rex, pug]\n",
                  "play.yml": "- debug:\n    msg: \"{{ nodes | product(['.ana.lan']) | map('join') | list }}\"\n"},
                 GROUP_VARS, 1, id="ansible-product-over-group-vars"),
]


# Break-it round 8, finding 5: where a loop is not read (a lookup, a pipe into xargs, a command's
# output), an old name in a list beside the use that would read it wrong is never an OK, and the
# list is left as it is.
NOT_READ = [
    pytest.param({"play.yml": "- hosts: localhost\n  vars:\n    nodes: {pug: 1, rex: 2}\n  tasks:\n"
                  '    - debug: msg="{{ item.key }}.ana.lan"\n      loop: "{{ nodes | dict2items }}"\n'},
                 "play.yml", [3], id="ansible-dict2items"),
    pytest.param({"play.yml": "- hosts: localhost\n  vars:\n    nodes:\n      - rex\n      - pug\n  tasks:\n"
                  '    - debug: msg="{{ item }}.ana.lan"\n      loop: "{{ nodes | shuffle }}"\n'},
                 "play.yml", [5], id="ansible-filtered-block-list"),
    pytest.param({"x.sh": "echo pug rex | xargs -n1 -I{} ssh {}.ana.lan uptime\n"}, "x.sh", [1], id="xargs"),
    pytest.param({"x.sh": 'for h in $(echo pug rex); do ssh "$h.ana.lan"; done\n'}, "x.sh", [1],
                 id="shell-command-output"),
    pytest.param({"x.sh": 'hosts="pug rex"\nfor h in $(echo $hosts | tr " " "\\n"); do ssh "$h.ana.lan"; done\n'},
                 "x.sh", [1], id="shell-quoted-list-through-a-command"),
]


@pytest.mark.parametrize(("files", "listed", "lines"), NOT_READ)
def test_an_old_name_listed_beside_a_use_that_cannot_be_read_is_held(
        files: dict[str, str], listed: str, lines: list[int], repo: Callable[..., Path],
        run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    checked = run(root, "verify")
    assert checked.exit_code == 1, checked.stdout
    held = [f for f in _findings(root, run, listed) if f["old"] == "pug"]
    assert [(f["line"], f["reason"]) for f in held] == [(n, "composed-name") for n in lines], held
    assert "which may read it" in str(held[0]["note"]), held
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert {p: (root / p).read_text() for p in files} == files  # nothing of the list written
    assert run(root, "verify").exit_code == 1


@pytest.mark.parametrize(("files", "listed", "line"), HELD_LISTS)
def test_the_list_a_mixed_loop_walks_is_held_wherever_it_is_defined(
        files: dict[str, str], listed: str, line: int, repo: Callable[..., Path],
        run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    preview = run(root, "sweep", "--dry-run")
    assert preview.exit_code == 0 and "wolf" not in preview.stdout.split("Residual")[0], preview.stdout
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert {p: (root / p).read_text() for p in files} == files  # nothing of the pair written
    held = [f for f in _findings(root, run, listed) if f["old"] == "pug" and f["line"] == line]
    assert [f["reason"] for f in held] == ["composed-name"], _findings(root, run, listed)
    assert "walks" in str(held[0]["note"]) and ".ana.lan" in str(held[0]["note"]), held
    checked = run(root, "verify")
    assert checked.exit_code == 1 and f"{listed}:{line}" in checked.stdout, checked.stdout


INVENTORY_LOOPS = [
    *[pytest.param("play.yml", f'- hosts: web\n  tasks:\n    - debug:\n        msg: "{{{{ item }}}}.ana.lan"\n'
                   f'      loop: "{{{{ {walks} }}}}"\n', id=f"play-{walks}")
      for walks in ["groups['web']", 'groups["web"] | sort', "groups.web", "ansible_play_hosts"]],
    # Break-it round 9, finding 8: the same walk in a template was only a near-miss (verify 0).
    *[pytest.param("templates/up.conf.j2", f"{{% for h in {walks} %}}\nserver {{{{ h }}}}.ana.lan:80;\n{{% endfor %}}\n",
                   id=f"template-{walks}")
      for walks in ['groups["web"]', "groups.web | sort", "ansible_play_hosts_all"]],
    pytest.param("templates/up.conf.j2", "{% for h in groups.web %}\nserver {{ hostvars[h].inventory_hostname }}.ana.lan;\n"
                 "{% endfor %}\n", id="template-hostvars"),
    # Break-it round 16, #10: the inventory_hostnames lookup, with_inventory_hostnames, a subset filter.
    *[pytest.param("play.yml", f'- hosts: localhost\n  tasks:\n    - debug:\n        msg: "https://{{{{ item }}}}.ana.lan/"\n'
                   f'      loop: "{{{{ {walks} }}}}"\n', id=f"play-{walks}")
      for walks in ["query('inventory_hostnames', 'web')", "q('inventory_hostnames', 'web:!db')",
                    "lookup('inventory_hostnames', 'web', wantlist=True)", "groups['web'] | difference(['db1'])",
                    "groups.web | reject('equalto', 'db1') | list"]],
    pytest.param("play.yml", '- hosts: localhost\n  tasks:\n    - debug:\n        msg: "https://{{ item }}.ana.lan/"\n'
                 "      with_inventory_hostnames: web\n", id="play-with_inventory_hostnames"),
    pytest.param("play.yml", '- hosts: localhost\n  tasks:\n    - debug:\n        msg: "https://{{ h }}.ana.lan/"\n'
                 "      with_inventory_hostnames:\n        - web\n      loop_control: {loop_var: h}\n",
                 id="play-with_inventory_hostnames-block-loop-var"),
]


@pytest.mark.parametrize("inventory", ["inventory.ini", "inventory.yml"])
@pytest.mark.parametrize(("path", "content"), INVENTORY_LOOPS)
def test_a_loop_over_the_inventorys_hosts_is_a_residual_where_a_host_moves(
        inventory: str, path: str, content: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    hosts = "[web]\npug\nrex\n" if inventory.endswith(".ini") else "all:\n  children:\n    web:\n      hosts:\n        pug:\n        rex:\n"
    root = repo({inventory: hosts, path: content}, config=CONFIG, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / path).read_text() == content
    [found] = [f for f in _findings(root, run, path) if f["reason"] == "composed-name"]
    assert "the inventory's hosts" in str(found["note"]) and "wolf.ana.lan" in str(found["note"]), found
    assert run(root, "verify").exit_code == 1


def test_the_inventory_a_template_walks_would_render_a_name_that_does_not_exist(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Why the template's walk is a residual: ansible-inventory reads the swept group, and the
    template over it renders wolf.ana.lan (break-it round 9, finding 8)."""
    template = '{% for h in groups["web"] %}server {{ h }}.ana.lan:80;\n{% endfor %}'
    root = repo({"hosts.ini": "[web]\npug\nrex\n", "up.conf.j2": template}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert run(root, "verify").exit_code == 1
    env = {**os.environ, "ANSIBLE_HOME": str(tmp_path / "ansible-home"), "ANSIBLE_LOCAL_TEMP": str(tmp_path / "t"),
           "ANSIBLE_CONFIG": str(tmp_path / "none.cfg")}
    listed = subprocess.run([str(Path(sys.executable).parent / "ansible-inventory"), "-i", "hosts.ini", "--list"],
                            cwd=root, env=env, capture_output=True, text=True, check=True, timeout=300)
    groups = {"web": json.loads(listed.stdout)["web"]["hosts"]}
    rendered = jinja2.Environment().from_string((root / "up.conf.j2").read_text()).render(groups=groups)
    assert rendered == "server wolf.ana.lan:80;\nserver rex.ana.lan:80;\n"  # the residual's reason, spelled out


TF_MAP = 'hosts = {\n  pug = "10.0.0.5"\n  rex = "10.0.0.9"\n}\n'
TF_MAP_READERS = [
    pytest.param('variable "hosts" { type = map(string) }\noutput "fqdns" { value = [for k, v in var.hosts : "${k}.ana.lan"] }\n',
                 id="for-k-v"),
    pytest.param('variable "hosts" { type = map(string) }\nresource "terraform_data" "h" {\n  for_each = var.hosts\n'
                 '  input    = "${each.key}.ana.lan"\n}\n', id="for-each-map"),
    pytest.param('variable "hosts" { type = map(string) }\noutput "o" { value = {for name, ip in var.hosts : name => '
                 '"${name}.ana.lan"} }\n', id="for-object"),
]


@pytest.mark.parametrize("reader", TF_MAP_READERS)
def test_a_terraform_loop_over_a_tfvars_maps_keys_reads_them(reader: str, repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    """Break-it round 16, #10: `for k, v in var.hosts` and `each.key` over a tfvars map were near-misses
    ("no list of words") while the key pug was renamed and rex stayed: Terraform made wolf.ana.lan."""
    files = {"tf/terraform.tfvars": TF_MAP, "tf/main.tf": reader}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / "tf/main.tf").read_text() == reader
    assert (root / "tf/terraform.tfvars").read_text() == TF_MAP.replace("10.0.0.5", "10.1.0.5")  # the key held
    found = _findings(root, run, "tf/main.tf")
    [name] = [f for f in found if f["reason"] == "composed-name"]
    assert "from `hosts` at tf/terraform.tfvars:2" in str(name["note"]), name
    assert "rex.ana.lan keeps .ana.lan" in str(name["note"]), name
    assert [f["line"] for f in _findings(root, run, "tf/terraform.tfvars") if f["reason"] == "composed-name"] == [2]


@pytest.mark.parametrize("tfvars", [
    pytest.param('hosts = {\n  pug = "10.0.0.5"\n}\n', id="block"),
    pytest.param('hosts = { "pug" = "10.0.0.5" }\n', id="inline"),
])
def test_a_terraform_map_whose_keys_all_move_takes_the_domain_along(tfvars: str, repo: Callable[..., Path],
                                                                   run: Callable[..., Result]) -> None:
    main = 'variable "hosts" { type = map(string) }\noutput "fqdns" { value = [for k, v in var.hosts : "${k}.ana.lan"] }\n'
    root = repo({"terraform.tfvars": tfvars, "main.tf": main}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "main.tf").read_text() == main.replace(".ana.lan", ".fv.lan")
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_swept_bash_array_and_while_read_run_to_the_new_names(repo: Callable[..., Path],
                                                               run: Callable[..., Result]) -> None:
    script = ('HOSTS=(pug); for h in "${HOSTS[@]}"; do echo "$h.ana.lan"; done\n'
              "printf '%s\\n' pug | while read -r h; do echo \"$h.ana.lan\"; done\n")
    root = repo({"names.sh": script}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    done = subprocess.run(["bash", "names.sh"], cwd=root, capture_output=True, text=True, check=True,
                          env={"PATH": os.environ["PATH"]})
    assert done.stdout == "wolf.fv.lan\nwolf.fv.lan\n"


def test_a_held_shell_list_still_runs_to_names_that_exist(repo: Callable[..., Path],
                                                        run: Callable[..., Result]) -> None:
    files = {"hosts.env": 'LIST="pug rex"\n', "run.sh": '. ./hosts.env\nfor h in $LIST; do echo "$h.ana.lan"; done\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    done = subprocess.run(["sh", "run.sh"], cwd=root, capture_output=True, text=True, check=True,
                          env={"PATH": os.environ["PATH"]})
    assert done.stdout == "pug.ana.lan\nrex.ana.lan\n"  # never wolf.ana.lan


def test_a_list_every_word_of_which_follows_is_rewritten_with_its_loop(repo: Callable[..., Path],
                                                                      run: Callable[..., Result]) -> None:
    files = {"hosts.env": 'LIST="pug"\n', "run.sh": '. ./hosts.env\nfor h in $LIST; do echo "$h.ana.lan"; done\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout
    done = subprocess.run(["sh", "run.sh"], cwd=root, capture_output=True, text=True, check=True,
                          env={"PATH": os.environ["PATH"]})
    assert done.stdout == "wolf.fv.lan\n"


def test_a_swept_shell_loop_runs_to_the_new_names(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    script = "for n in pug; do\n  echo \"$n.ana.lan\"\ndone\nfor n in rex; do echo $n.ana.lan; done\n"
    root = repo({"names.sh": script}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    done = subprocess.run(["sh", "names.sh"], cwd=root, capture_output=True, text=True, check=True,
                          env={"PATH": os.environ["PATH"]})
    assert done.stdout == "wolf.fv.lan\nrex.ana.lan\n"


def test_a_swept_jinja_loop_over_group_vars_renders_the_new_names(repo: Callable[..., Path],
                                                                  run: Callable[..., Result]) -> None:
    files = {GROUP_VARS: "gpu_hosts:\n  - pug  # the gpu box\n",
             "t.j2": "{% for h in gpu_hosts %}{{ h }}.ana.lan {% endfor %}"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    variables = YAML(typ="safe").load((root / GROUP_VARS).read_text())
    template = (root / "t.j2").read_text()
    rendered = jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(template).render(**variables)
    assert rendered == "wolf.fv.lan "


def test_ansible_runs_the_swept_loop_to_the_new_names(tmp_path: Path, repo: Callable[..., Path],
                                                     run: Callable[..., Result]) -> None:
    out = tmp_path / "names"
    play = ("- hosts: localhost\n  connection: local\n  gather_facts: false\n  tasks:\n"
            "    - name: the names a loop reaches\n"
            "      ansible.builtin.lineinfile: {path: '{{ out }}', line: '{{ item }}.ana.lan', create: true}\n"
            "      loop:\n        - pug\n")
    root = repo({"play.yml": play}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    (tmp_path / "ansible.cfg").write_text("[defaults]\n")  # none of the machine's settings
    env = {**os.environ, "ANSIBLE_NOCOLOR": "1", "ANSIBLE_LOCAL_TEMP": str(tmp_path / "ansible"),
           "ANSIBLE_HOME": str(tmp_path / "ansible-home"), "ANSIBLE_CONFIG": str(tmp_path / "ansible.cfg"),
           "ANSIBLE_LOCALHOST_WARNING": "0", "ANSIBLE_INVENTORY_UNPARSED_WARNING": "0"}
    played = subprocess.run(
        [str(Path(sys.executable).parent / "ansible-playbook"), "play.yml", "-e", f"out={out}",
         "-e", f"ansible_python_interpreter={sys.executable}"],
        cwd=root, env=env, capture_output=True, text=True, check=False, timeout=300)
    assert played.returncode == 0, played.stdout + played.stderr
    assert out.read_text() == "wolf.fv.lan\n"


@needs_terraform
def test_terraform_evaluates_the_swept_for_expression_to_the_new_names(repo: Callable[..., Path],
                                                                       run: Callable[..., Result]) -> None:
    tf = 'locals {\n  names = [for n in ["pug"] : "${n}.ana.lan"]\n  kept = [for n in ["rex"] : "${n}.ana.lan"]\n}\n'
    root = repo({"main.tf": tf}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    done = subprocess.run(["terraform", "console"], input="jsonencode([local.names, local.kept])\n", cwd=root,
                          capture_output=True, text=True, check=True, timeout=120,
                          env={**os.environ, "TF_IN_AUTOMATION": "1", "CHECKPOINT_DISABLE": "1"})
    assert '[[\\"wolf.fv.lan\\"],[\\"rex.ana.lan\\"]]' in done.stdout, done.stdout


@pytest.mark.parametrize("content", [
    pytest.param("for h in $(cat hosts); do ssh $h.ana.lan; done\n", id="shell-computed"),
    pytest.param("for h in \"$@\"; do ssh $h.ana.lan; done\n", id="shell-arguments"),
    pytest.param("{% for h in lookup('file', 'hosts').split() %}{{ h }}.ana.lan{% endfor %}\n", id="jinja-lookup"),
    pytest.param("for h in open('hosts').read().split():\n    print(f'{h}.ana.lan')\n", id="python-computed"),
])
def test_a_loop_whose_values_cannot_be_told_is_a_near_miss(content: str, repo: Callable[..., Path],
                                                           run: Callable[..., Result]) -> None:
    root = repo({"f.j2": content}, config=CONFIG, allowlist=ALLOW)
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout
    assert "near-miss" in checked.stdout and "the loop at f.j2:1" in checked.stdout, checked.stdout
    assert run(root, "verify", "--strict").exit_code == 1
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "f.j2").read_text() == content


@pytest.mark.parametrize(("files", "path"), [
    pytest.param({"up.sh": "for n in db01 rex; do ssh $n.ana.lan; done\n"}, "up.sh", id="no-value-moves"),
    pytest.param({"up.sh": "for n in pug; do echo x; done\nssh $n.ana.lan\n", "a.env": "n=db01\n"}, "up.sh",
                 id="outside-the-body-a-definition-decides"),
    pytest.param({"up.sh": "for n in pug rex; do  # renamer: keep\n  ssh $n.ana.lan\ndone\n"}, "up.sh",
                 id="a-kept-loop-keeps-its-domain"),
])
def test_loops_no_move_breaks_are_left_alone(files: dict[str, str], path: str, repo: Callable[..., Path],
                                            run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert all(f["reason"] != "composed-name" for f in _findings(root, run, path))
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / path).read_text() == files[path].replace("for n in pug; do echo", "for n in wolf; do echo")
    done = run(root, "verify", "--strict")
    assert done.exit_code == 0, done.stdout


@needs_terraform
def test_swept_list_to_name_functions_run_to_names_that_exist(repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    """make -n, terraform console, python3 and bash run what the sweep wrote: every word moving, the
    names follow (wolf.fv.lan); a mixed list held, the names stay the old ones, never wolf.ana.lan
    (break-it round 9, finding 8)."""
    files = {
        "Makefile": "HOSTS := pug\nMIXED := pug rex\nall:\n\techo $(addsuffix .ana.lan,$(HOSTS)) $(HOSTS:%=%.ana.lan) "
                    "$(patsubst %,%.ana.lan,$(HOSTS)) $(addsuffix .ana.lan,$(MIXED))\n",
        "main.tf": 'locals {\n  fm = formatlist("%s.ana.lan", ["pug"])\n  fx = [for h in ["pug"] : format("%s.ana.lan", h)]\n'
                   '  mixed = formatlist("%s.ana.lan", ["pug", "rex"])\n}\n',
        "x.py": 'for h in ["pug"]:\n    print(f"{h}.ana.lan")\nprint([h + ".ana.lan" for h in ("pug",)])\n'
                'print(["%s.ana.lan" % h for h in ("pug", "rex")])\n',
        "run.sh": "while read -r h; do echo $h.ana.lan; done <<< 'pug'\nwhile read h\ndo\n  echo $h.ana.lan\n"
                  "done <<EOF\npug\nrex\nEOF\nprintf '%s.ana.lan\\n' pug\n",
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1  # the mixed lists are held
    env = {"PATH": os.environ["PATH"]}
    made = subprocess.run(["make", "-n"], cwd=root, capture_output=True, text=True, check=True, env=env)
    assert made.stdout == "echo wolf.fv.lan wolf.fv.lan wolf.fv.lan pug.ana.lan rex.ana.lan\n"
    done = subprocess.run(["terraform", "console"], input="jsonencode([local.fm, local.fx, local.mixed])\n", cwd=root,
                          capture_output=True, text=True, check=True, timeout=120,
                          env={**os.environ, "TF_IN_AUTOMATION": "1", "CHECKPOINT_DISABLE": "1"})
    assert '[[\\"wolf.fv.lan\\"],[\\"wolf.fv.lan\\"],[\\"pug.ana.lan\\",\\"rex.ana.lan\\"]]' in done.stdout, done.stdout
    printed = subprocess.run([sys.executable, "x.py"], cwd=root, capture_output=True, text=True, check=True, env=env)
    assert printed.stdout == "wolf.fv.lan\n['wolf.fv.lan']\n['pug.ana.lan', 'rex.ana.lan']\n"
    ran = subprocess.run(["bash", "run.sh"], cwd=root, capture_output=True, text=True, check=True, env=env)
    assert ran.stdout == "wolf.fv.lan\npug.ana.lan\nrex.ana.lan\nwolf.fv.lan\n"


def test_ansible_filters_render_the_swept_names(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Ansible's own regex_replace and product filters, over the swept group_vars: every word moving,
    wolf.fv.lan; a mixed list held, pug.ana.lan and rex.ana.lan, never wolf.ana.lan (break-it
    round 9, finding 8)."""
    from ansible.plugins.filter.core import FilterModule as Core
    from ansible.plugins.filter.mathstuff import FilterModule as Maths

    files = {GROUP_VARS: "gpu: [pug]\nweb:\n  - pug\n  - rex\n",
             "t.j2": "{{ gpu | map('regex_replace', '$', '.ana.lan') | list }} "
                     "{{ gpu | product(['.ana.lan']) | map('join') | list }} "
                     "{{ web | map('regex_replace', '^(.*)$', '\\\\1.ana.lan') | list }}"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1  # the mixed list is held
    environment = jinja2.Environment(undefined=jinja2.StrictUndefined)
    environment.filters.update({**Core().filters(), **Maths().filters()})
    variables = YAML(typ="safe").load((root / GROUP_VARS).read_text())
    rendered = environment.from_string((root / "t.j2").read_text()).render(**variables)
    assert rendered == "['wolf.fv.lan'] ['wolf.fv.lan'] ['pug.ana.lan', 'rex.ana.lan']"
