"""Composed names through a function's parameter (break-it round 16, finding 9).

With `pug.ana.lan -> wolf.fv.lan`, a Jinja macro `{% macro fqdn(h) %}{{ h }}.ana.lan{% endmacro %}`
called `fqdn('pug')`, Helm's `define "fqdn"` `{{ . }}.ana.lan` with `include "fqdn" "pug"`, a
Python `def fqdn(h): return f"{h}.ana.lan"` with `fqdn("pug")` and a shell function
`fqdn() { echo "$1.ana.lan"; }` with `fqdn pug` had the call's word rewritten alone (making
wolf.ana.lan), verify OK with near-misses "`h` is defined nowhere". Now the parameter's values are
the calls' arguments: a moving host makes the body's name and the call's word a `composed-name`
residual (the domain never follows: other callers may pass hosts that stay); python3, sh and
jinja2 still render the old, existing name after the sweep.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

SAME_DOMAIN = CONFIG.replace("pug.ana.lan: wolf.fv.lan", "pug.ana.lan: wolf.ana.lan")

# name: (path, text, the lines held)
CASES = {
    "jinja-macro": ("t/upstream.conf.j2", "{% macro fqdn(h) %}{{ h }}.ana.lan{% endmacro %}\n"
                                          "server {{ fqdn('pug') }}:443\n", [1, 2]),
    "jinja-keyword": ("t/kw.j2", "{% macro fqdn(port, h) -%}\n{{ h }}.ana.lan:{{ port }}\n{%- endmacro %}\n"
                                 "{{ fqdn(443, h='pug') }}\n", [2, 4]),
    "jinja-default": ("t/default.j2", "{% macro fqdn(h='pug') %}{{ h }}.ana.lan{% endmacro %}\n"
                                      "{{ fqdn() }}\n", [1]),
    "helm-define": ("chart/templates/cm.yaml", '{{- define "fqdn" -}}{{ . }}.ana.lan{{- end -}}\n'
                                               'url: https://{{ include "fqdn" "pug" }}/\n', [1, 2]),
    "helm-dict": ("chart/templates/d.yaml", '{{- define "fqdn" -}}\n{{- if .host }}{{ .host }}.ana.lan{{ end }}\n'
                                            '{{- end -}}\nurl: {{ include "fqdn" (dict "host" "pug") }}\n', [2, 4]),
    "python": ("names.py", 'def fqdn(h):\n    return f"{h}.ana.lan"\n\n\nprint(fqdn("pug"))\n', [2, 5]),
    "python-two-parameters": ("url.py", 'def url(scheme: str, h: str = "x") -> str:\n'
                                        '    return f"{scheme}://{h}.ana.lan/"\n\n\nprint(url("https", h="pug"))\n',
                              [2, 5]),
    "shell": ("run.sh", '#!/bin/sh\nfqdn() { echo "$1.ana.lan"; }\necho "$(fqdn pug)"\n', [2, 3]),
    "shell-keyword-braced": ("kw.sh", '#!/bin/bash\nfunction fqdn {\n  echo "${1}.ana.lan"\n}\nfqdn pug\n', [3, 5]),
}


def _residuals(root: Path, run: Callable[..., Result]) -> set[tuple[str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return {(str(f["path"]), int(f["line"])) for f in found if f.get("reason") == "composed-name"}


def _rendered(root: Path, path: str) -> str:
    """What the file makes, by the tool that reads it (the Helm cases by their text)."""
    if path.endswith(".py"):
        return subprocess.run(["python3", str(root / path)], capture_output=True, text=True, check=True).stdout
    if path.endswith(".sh"):
        return subprocess.run(["bash", str(root / path)], capture_output=True, text=True, check=True).stdout
    if path.endswith(".j2"):
        return jinja2.Template((root / path).read_text()).render()
    return (root / path).read_text()


@pytest.mark.parametrize("case", sorted(CASES))
def test_round16_a_host_passed_to_a_function_composing_a_domain_is_held(
        case: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    path, text, lines = CASES[case]
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    assert _residuals(root, run) == {(path, line) for line in lines}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / path).read_text() == text
    if not path.startswith("chart/"):
        assert "pug.ana.lan" in _rendered(root, path)  # still the name that exists
    assert run(root, "verify").exit_code == 1


@pytest.mark.parametrize("case", sorted(CASES))
def test_round16_where_the_domain_stays_the_call_follows(case: str, repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    path, text, _ = CASES[case]
    root = repo({path: text}, config=SAME_DOMAIN, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "pug" not in (root / path).read_text()
    if not path.startswith("chart/"):
        assert "wolf.ana.lan" in _rendered(root, path)
    assert run(root, "verify").exit_code == 0


def test_round16_a_call_an_earlier_sweep_rewrote_alone_fails_verify(repo: Callable[..., Path],
                                                                    run: Callable[..., Result]) -> None:
    files = {path: text.replace("pug", "wolf") for path, text, _ in CASES.values()}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    held = {path for path, _ in _residuals(root, run)}
    assert held == set(files)
    assert run(root, "verify").exit_code == 1


def test_round16_a_host_that_stays_or_an_untold_argument_is_no_residual(repo: Callable[..., Path],
                                                                         run: Callable[..., Result]) -> None:
    files = {"a.py": 'def fqdn(h):\n    return f"{h}.ana.lan"\n\n\nprint(fqdn("rex"))\n',
             "b.sh": '#!/bin/sh\nfqdn() { echo "$1.ana.lan"; }\nfqdn "$HOST"\nssh pug true\n'}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert _residuals(root, run) == set()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "ssh wolf true" in (root / "b.sh").read_text()


HELPERS = ('{{- define "fqdn" -}}{{ . }}.ana.lan{{- end -}}\n'
           '{{- define "url" -}}https://{{ .host }}.ana.lan/{{- end -}}\n')
CHART = {"chart/Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n", "chart/templates/_helpers.tpl": HELPERS}
CALLS = ('a: {{ include "fqdn" "pug" }}\nb: {{ include "url" (dict "host" "pug") }}\n'
         'c: {{ include "fqdn" "rex" }}\nd: {{ template "fqdn" "pug" }}\ne: ssh pug\n')


def test_round16_a_host_passed_to_a_define_in_another_template_is_held(repo: Callable[..., Path],
                                                                         run: Callable[..., Result]) -> None:
    """The chart's usual shape: the define in `_helpers.tpl`, the include in each template."""
    root = repo({**CHART, "chart/templates/cm.yaml": CALLS}, config=CONFIG, allowlist=ALLOW)
    assert _residuals(root, run) == {("chart/templates/cm.yaml", line) for line in (1, 2, 4)}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "chart/templates/cm.yaml").read_text() == CALLS.replace("ssh pug", "ssh wolf")


def test_round16_a_define_in_another_template_where_the_domain_stays_follows(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**CHART, "chart/templates/cm.yaml": CALLS}, config=SAME_DOMAIN, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "chart/templates/cm.yaml").read_text() == CALLS.replace("pug", "wolf")
    # and a define composing nothing, in a chart without the helper: the plain rules
    other = repo({"c2/Chart.yaml": CHART["chart/Chart.yaml"], "c2/templates/_h.tpl": '{{ define "x" }}{{ . }}{{ end }}\n',
                  "c2/templates/a.yaml": 'a: {{ include "x" "pug" }}\n'}, config=CONFIG, allowlist=ALLOW)
    assert run(other, "sweep", "--commit").exit_code == 0
    assert (other / "c2/templates/a.yaml").read_text() == 'a: {{ include "x" "wolf" }}\n'


def test_round19_a_define_in_a_templates_folder_without_chart_yaml_is_held(repo: Callable[..., Path],
                                                                          run: Callable[..., Result]) -> None:
    """Break-it round 19, finding 3: a chart whose Chart.yaml is written at deploy time (or a copy
    of a library chart's templates): `include "fqdn" "pug"` had `pug` rewritten alone, and the
    define's near-miss said it was "included from no line of this file"."""
    root = repo({"helm/templates/_helpers.tpl": HELPERS, "helm/templates/cm.yaml": CALLS}, config=CONFIG,
                allowlist=ALLOW)
    assert _residuals(root, run) == {("helm/templates/cm.yaml", line) for line in (1, 2, 4)}
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert not any("included from no line" in f.get("note", "") for f in found), found
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "helm/templates/cm.yaml").read_text() == CALLS.replace("ssh pug", "ssh wolf")
