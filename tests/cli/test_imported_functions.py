"""A function defined in one file and called from another, a lambda, keyword and default
arguments (break-it round 17, finding 8): round 16's function parameters read a function and its
calls in one file, so `{% from "macros.j2" import fqdn %}` + `fqdn("pug")`, `from names import
fqdn` + `fqdn(h="pug")`, a shell function in a sourced lib.sh, `mk = lambda h: h + ".ana.lan"`
and `def fqdn(h, domain="ana.lan")` all ran to wolf.ana.lan after the sweep, verify OK. Now the
call's word is a `composed-name` residual naming the function, left as it is; python3, bash and
jinja2 run the swept files to the old name, not to one that does not exist."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest

from tests.conftest import Result
from tests.testing.findings import places

CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}
allowlist: allow.yaml
"""
ALLOW = 'version: 1\ncurrent: ["**"]\n'
MACRO = "{% macro fqdn(h) %}{{ h }}.ana.lan{% endmacro %}\n"
DEF = 'def fqdn(h, domain="ana.lan"):\n    return f"{h}.{domain}"\n'
SH = 'fqdn() { echo "$1.ana.lan"; }\n'


def _composed(root: Path, run: Callable[..., Result]) -> list[tuple[str, int]]:
    return places(root, run, "composed-name")


def _python(root: Path, script: str) -> str:
    where = root / Path(script).parent  # python puts the script's folder first on its path, as it runs
    done = subprocess.run([sys.executable, Path(script).name], cwd=where, capture_output=True, text=True,
                          check=True, env={"PATH": os.environ["PATH"], "PYTHONPATH": str(root)})
    return done.stdout


def _render(root: Path, folder: str, name: str) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(root / folder)))
    return env.get_template(name).render()


CALLS = [
    pytest.param({"tpl/macros.j2": MACRO, "tpl/chrony.j2": '{% from "macros.j2" import fqdn %}\nserver {{ fqdn("pug") }}\n'},
                 "tpl/chrony.j2", 2, ("jinja", "tpl", "chrony.j2"), id="jinja-from-import"),
    pytest.param({"templates/macros.j2": MACRO,
                  "templates/sub/a.j2": "{% import 'macros.j2' as m %}\nserver {{ m.fqdn(h='pug') }}\n"},
                 "templates/sub/a.j2", 2, ("jinja", "templates", "sub/a.j2"), id="jinja-import-as-one-folder-deeper"),
    pytest.param({"py/names.py": DEF, "py/deploy.py": "from names import fqdn\nprint(fqdn('pug'))\n"},
                 "py/deploy.py", 2, ("python", "py/deploy.py"), id="python-default-domain-positional"),
    pytest.param({"lib/__init__.py": "", "lib/names.py": DEF, "deploy.py": "from lib.names import fqdn\nprint(fqdn(h='pug'))\n"},
                 "deploy.py", 2, ("python", "deploy.py"), id="python-package-keyword"),
    pytest.param({"names.py": "def fqdn(h):\n    return h + '.ana.lan'\n", "deploy.py": "import names\nprint(names.fqdn('pug'))\n"},
                 "deploy.py", 2, ("python", "deploy.py"), id="python-module-attribute"),
    pytest.param({"deploy.py": "mk = lambda h: h + '.ana.lan'\nprint(mk('pug'))\n"}, "deploy.py", 2,
                 ("python", "deploy.py"), id="python-lambda"),
    pytest.param({"n.py": DEF + "print(fqdn('pug'))\nprint(fqdn(domain='ana.lan', h='pug'))\n"}, "n.py", 4,
                 ("python", "n.py"), id="python-default-domain-in-its-own-file"),
    pytest.param({"sh/lib.sh": SH, "sh/deploy.sh": '#!/bin/bash\n. "$(dirname "$0")/lib.sh"\nfqdn pug\n'},
                 "sh/deploy.sh", 3, ("bash", "sh/deploy.sh"), id="shell-sourced-beside-it"),
    pytest.param({"lib/common.sh": SH, "bin/deploy.sh": '#!/bin/bash\nsource "${BASH_SOURCE%/*}/../lib/common.sh"\nfqdn pug\n'},
                 "bin/deploy.sh", 3, ("bash", "bin/deploy.sh"), id="shell-sourced-from-another-folder"),
]


@pytest.mark.parametrize(("files", "path", "line", "tool"), CALLS)
def test_a_call_of_a_function_composing_its_argument_elsewhere_is_a_residual(
        files: dict[str, str], path: str, line: int, tool: tuple[str, ...], repo: Callable[..., Path],
        run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert (path, line) in _composed(root, run)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / path).read_text() == files[path]  # the word held with the body
    if tool[0] == "jinja":
        made = _render(root, tool[1], tool[2])
    elif tool[0] == "python":
        made = _python(root, tool[1])
    else:
        made = subprocess.run(["bash", tool[1]], cwd=root, capture_output=True, text=True, check=True).stdout
    assert "pug.ana.lan" in made and "wolf.ana.lan" not in made, made
    assert run(root, "verify").exit_code == 1


@pytest.mark.parametrize("files", [
    pytest.param({"py/names.py": DEF, "py/deploy.py": "from names import fqdn\nprint(fqdn('pug', 'fv.lan'))\n"},
                 id="the-call-passes-the-new-domain"),
    pytest.param({"tpl/macros.j2": MACRO, "tpl/a.j2": '{% from "macros.j2" import fqdn %}{{ fqdn("rex") }}\n'},
                 id="a-host-that-stays"),
    pytest.param({"tpl/macros.j2": "{% macro fqdn(h) %}{{ h }}.other.lan{% endmacro %}\n",
                  "tpl/a.j2": '{% from "macros.j2" import fqdn %}{{ fqdn("pug") }}\n'}, id="a-domain-nothing-moves"),
])
def test_calls_that_make_the_right_name_after_the_sweep_pass(files: dict[str, str], repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert _composed(root, run) == []
    assert run(root, "sweep", "--commit").exit_code == 0
    if "py/deploy.py" in files:
        assert _python(root, "py/deploy.py") == "wolf.fv.lan\n"
