"""A host name made by a format with a number (break-it round 17, finding 1): `format("pve%02s",
(count.index % 3) + 1)` places VMs on pve01, yet no byte spells pve01, so the sweep renamed the
literals elsewhere and said verify OK. Now each format that makes an old name (its literal number,
a literal sequence spanning it) or may make it (its number cannot be told) is a `composed-name`
residual, nothing written there; one that cannot make it says nothing. Terraform evaluates the
format to the old name, so the test checks what the tool reads, not only what renamer says."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.terraform import needs_terraform

CONFIG = """\
version: 1
renames:
  hosts: {pve01: pve04, pve01.ana.lan: pve04.fv.lan, k8s-0: k8s-3, web1-mgmt: web4-mgmt}
allowlist: allow.yaml
"""
ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _composed(root: Path, run: Callable[..., Result]) -> list[tuple[str, int, str]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return sorted((f["path"], f["line"], f["old"]) for f in found if f["reason"] == "composed-name")


MAKES = [
    pytest.param("main.tf", 'locals {\n  n = format("pve%02s", (count.index % 3) + 1)\n}\n', 2, "pve01",
                 id="terraform-count-arithmetic"),
    pytest.param("main.tf", 'output "x" { value = [for i in range(3) : format("pve%02d", i + 1)] }\n', 1,
                 "pve01", id="terraform-for-range"),
    pytest.param("main.tf", 'output "x" { value = "pve${format("%02d", 1)}" }\n', 1, "pve01",
                 id="terraform-inner-format"),
    pytest.param("main.tf", 'output "x" { value = format("https://pve%02d.ana.lan:8006", 1) }\n', 1,
                 "pve01.ana.lan", id="terraform-fqdn-in-a-url"),
    pytest.param("site.yml", "- debug: {msg: \"{{ 'pve%02d' | format(1) }}\"}\n", 1, "pve01",
                 id="jinja-format-filter"),
    pytest.param("site.yml", "- debug: {msg: '{{ item }}'}\n  with_sequence: start=1 end=3 format=pve%02d\n", 2,
                 "pve01", id="ansible-with-sequence"),
    pytest.param("site.yml", "- debug: {msg: '{{ item }}'}\n  loop: \"{{ query('sequence', 'start=0 end=2 "
                 "format=k8s-%d') }}\"\n", 2, "k8s-0", id="ansible-sequence-lookup-another-stem"),
    pytest.param("run.sh", "for i in $(seq -f 'pve%02g' 3); do ssh \"$i\" true; done\n", 1, "pve01",
                 id="seq-one-bound"),
    pytest.param("run.sh", "ssh \"$(printf 'pve%02d' 1)\" true\n", 1, "pve01", id="printf-literal"),
    pytest.param("run.sh", "ssh \"$(printf 'k8s-%d' \"$N\")\" true\n", 1, "k8s-0", id="printf-variable"),
    pytest.param("nodes.py", "names = [f\"pve{i:02d}\" for i in range(1, 4)]\n", 1, "pve01", id="python-fstring"),
    pytest.param("chrony.j2", "{% for i in range(1, 4) %}server pve{{ '%02d' % i }}.ana.lan\n{% endfor %}\n", 1,
                 "pve01.ana.lan", id="jinja-stem-before-the-template"),
    pytest.param("up.sh", "for i in 1 2; do ssh pve$(printf '%02d' \"$i\") true; done\nssh pve$(printf %02d 1)\n",
                 2, "pve01", id="shell-stem-before-a-printf-substitution"),
    pytest.param("nodes.py", "first = \"pve{:02d}\".format(1)\nurl = 'pve%02d.ana.lan' % n\n", 1, "pve01",
                 id="python-str-format-and-percent"),
    # break-it round 19, finding 1: more spellings of a number padded after a stem
    pytest.param("hosts.nix", "{ lib, ... }: {\n  padded = map (i: \"pve${lib.fixedWidthNumber 2 i}\") [ 1 2 3 ];\n}\n",
                 2, "pve01", id="nix-fixed-width-number"),
    pytest.param("nodes.py", "zfill = [\"pve\" + str(i).zfill(2) for i in range(1, 4)]\n", 1, "pve01",
                 id="python-zfill"),
    pytest.param("nodes.py", "rj = [\"pve\" + str(i).rjust(2, \"0\") for i in range(1, 4)]\n", 1, "pve01",
                 id="python-rjust"),
    pytest.param("nodes.js", "const n = \"pve\" + String(i).padStart(2, \"0\");\n", 1, "pve01",
                 id="javascript-pad-start"),
    pytest.param("nodes.rb", "n = \"pve\" + i.to_s.rjust(2, \"0\")\n", 1, "pve01", id="ruby-rjust"),
    pytest.param("site.yml", "- debug: {msg: \"{{ item }}\"}\n  loop: \"{{ range(1, 4) | map('string') | "
                 "map('regex_replace', '^', 'pve0') | list }}\"\n", 2, "pve01", id="ansible-regex-replace-prefix"),
    pytest.param("nodes.ps1", "1..3 | ForEach-Object { \"pve{0:D2}\" -f $_ }\n", 1, "pve01",
                 id="powershell-format-operator"),
    pytest.param("Nodes.cs", "var n = $\"pve{i:D2}\";\n", 1, "pve01", id="csharp-interpolated-d2"),
    pytest.param("run.sh", "seq -w 1 10 | sed 's/^/pve/'\n", 1, "pve01", id="seq-w-piped-to-sed"),
    pytest.param("Makefile", "NODES := $(addprefix pve0,$(IDS))\n", 1, "pve01", id="make-addprefix"),
    pytest.param("nodes.yaml", "{{- range $i := until 3 }}\n- node: pve{{ printf \"%02d\" (add1 $i) }}\n{{- end }}\n",
                 2, "pve01", id="helm-stem-before-a-printf-template"),
]


@pytest.mark.parametrize(("path", "text", "line", "old"), MAKES)
def test_a_format_that_makes_an_old_name_is_a_residual(path: str, text: str, line: int, old: str,
                                                       repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({path: text, "hosts.ini": "[pve]\npve01\npve02\n"}, config=CONFIG, allowlist=ALLOW)
    assert (path, line, old) in _composed(root, run)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout
    assert (root / path).read_text() == text  # nothing of the format is written
    assert (root / "hosts.ini").read_text() == "[pve]\npve04\npve02\n"
    assert run(root, "verify").exit_code == 1


@pytest.mark.parametrize(("path", "text"), [
    pytest.param("main.tf", 'output "x" { value = format("pve%02d", 2) }\n', id="another-literal-number"),
    pytest.param("run.sh", "for i in $(seq -f 'pve%02g' 2 3); do ssh \"$i\" true; done\n", id="seq-past-it"),
    pytest.param("site.yml", "- debug: {msg: '{{ item }}'}\n  with_sequence: start=2 end=3 format=pve%02d\n",
                 id="sequence-past-it"),
    pytest.param("nodes.py", "a = 'pve%d' % n\nb = \"pve{}\".format(n)\n", id="unpadded-never-makes-01"),
    pytest.param("nodes.py", "a = 'xpve%02d' % n\nb = '%02d' % n\n", id="another-stem"),
    pytest.param("t.j2", "pve{{ '%02d' | format(2) }} xpve{{ '%02d' % i }}\n", id="a-template-after-another-stem"),
    # break-it round 19, finding 12: a number its loop bounds away from the old one
    pytest.param("main.tf", 'resource "null_resource" "vm" {\n  count    = 2\n  triggers = { node = format("pve%02d", '
                 'count.index + 2) }\n}\n', id="terraform-count-index-past-it"),
    pytest.param("main.tf", 'output "x" { value = [for i in range(2, 4) : format("pve%02d", i)] }\n',
                 id="terraform-for-range-past-it"),
    pytest.param("nodes.py", "later = [f\"pve{i:02d}\" for i in range(2, 4)]\nz = [\"pve\" + str(i).zfill(2) "
                 "for i in range(2, 4)]\n", id="python-comprehension-past-it"),
    pytest.param("run.sh", "for i in 2 3; do ssh \"$(printf 'pve%02d' \"$i\")\" true; done\n",
                 id="shell-loop-past-it"),
    pytest.param("site.yml", "- hosts: localhost\n  tasks:\n    - debug: {msg: \"{{ 'pve%02d' | format(item) }}\"}\n"
                 "      loop: [2, 3]\n", id="ansible-loop-past-it"),
    pytest.param("nodes.ps1", "2..3 | ForEach-Object { \"pve{0:D2}\" -f $_ }\n", id="powershell-range-past-it"),
    pytest.param("hosts.nix", "{ lib, ... }: {\n  p = map (i: \"pve${lib.fixedWidthNumber 2 i}\") [ 2 3 ];\n}\n",
                 id="nix-map-past-it"),
    pytest.param("run.sh", "seq -w 1 3 | sed 's/^/pve/'\nfor i in 2 3; do ipmitool -H \"web${i}-mgmt\" true; done\n",
                 id="seq-w-unpadded-and-a-middle-loop-past-it"),
    pytest.param("run.go", "for i := 2; i <= 3; i++ { fmt.Println(fmt.Sprintf(\"pve%02d\", i)) }\n",
                 id="go-loop-past-it"),
])
def test_a_format_that_cannot_make_an_old_name_says_nothing(path: str, text: str, repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    assert _composed(root, run) == []
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_kept_format_line_passes(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    text = 'output "x" { value = format("pve%02d", count.index + 1) }  # renamer: keep\n'
    root = repo({"main.tf": text}, config=CONFIG, allowlist=ALLOW)
    assert _composed(root, run) == []


@needs_terraform
def test_terraform_makes_the_old_name_the_residual_names(repo: Callable[..., Path],
                                                        run: Callable[..., Result]) -> None:
    tf = ('locals {\n  first = format("pve%02d", 1)\n'
          '  all = [for i in range(3) : format("pve%02s", (i % 3) + 1)]\n  pinned = "pve01"\n}\n')
    root = repo({"main.tf": tf}, config=CONFIG, allowlist=ALLOW)
    assert [line for _, line, _ in _composed(root, run)] == [2, 3]
    assert run(root, "sweep", "--commit").exit_code == 1
    done = subprocess.run(["terraform", "console"], input="jsonencode([local.first, local.all, local.pinned])\n",
                          cwd=root, capture_output=True, text=True, check=True, timeout=120,
                          env={**os.environ, "TF_IN_AUTOMATION": "1", "CHECKPOINT_DISABLE": "1"})
    # What the residuals say: the formats still make pve01, where the literal moved to pve04.
    assert '[\\"pve01\\",[\\"pve01\\",\\"pve02\\",\\"pve03\\"],\\"pve04\\"]' in done.stdout, done.stdout


def test_a_variable_between_a_stem_and_a_literal_after_it_is_a_residual(repo: Callable[..., Path],
                                                                        run: Callable[..., Result]) -> None:
    """Break-it round 19, finding 1: `web${i}-mgmt` makes web1-mgmt in `for i in $(seq 1 2)` (the
    literal after the number is what `format("web%d-mgmt", i)` was caught by), and `web$N-mgmt` may."""
    text = ('for i in $(seq 1 2); do ipmitool -H "web${i}-mgmt" power status; done\n'
            'ipmitool -H "web$N-mgmt" power status\nssh "web1-mgmt" true\n')
    root = repo({"run.sh": text}, config=CONFIG, allowlist=ALLOW)
    assert [(line, old) for _, line, old in _composed(root, run)] == [(1, "web1-mgmt"), (2, "web1-mgmt")]
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    first = next(f for f in found if f["line"] == 1 and f["reason"] == "composed-name")
    assert "1, 2 (for i in $(seq 1 2); do)" in first["note"], first
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "run.sh").read_text() == text.replace('ssh "web1-mgmt"', 'ssh "web4-mgmt"')
    done = subprocess.run(["bash", "-c", 'for i in $(seq 1 2); do echo "web${i}-mgmt"; done'],
                          capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["web1-mgmt", "web2-mgmt"]  # what the residual says the loop makes


def test_python_makes_the_old_name_where_the_residuals_say(repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    """Break-it round 19, findings 1 and 12: python3 prints pve01 for the lines named, and never
    for the lines bounded past it."""
    text = ('made = ["pve" + str(i).zfill(2) for i in range(1, 4)]\n'
            'later = [f"pve{i:02d}" for i in range(2, 4)]\n'
            'rj = ["pve" + str(i).rjust(2, "0") for i in range(1, 4)]\n'
            'print(made, later, rj)\n')
    root = repo({"nodes.py": text}, config=CONFIG, allowlist=ALLOW)
    assert [line for _, line, _ in _composed(root, run)] == [1, 3]
    done = subprocess.run(["python3", str(root / "nodes.py")], capture_output=True, text=True, check=True)
    assert done.stdout.count("'pve01'") == 2, done.stdout
