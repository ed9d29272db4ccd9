"""A value written as a regex inside a string inside JSON (a Grafana dashboard's PromQL, a JSON
string in HCL): its dots and dashes escaped twice, four backslashes each. The exact value is
rewritten in the same escape style, and a pattern is a residual (break-it rounds 17 #6, 18 #11)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result

CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan, pug-ipmi: wolf-ipmi}
  addresses: {10.0.40.11: 10.0.50.21}
allowlist: allow.yaml
"""
ALLOW = 'version: 1\ncurrent: ["**"]\n'
Q = "\\\\\\\\"  # four backslashes, as the file holds them


def test_exact_values_escaped_twice_are_rewritten_in_their_style(repo: Callable[..., Path],
                                                                 run: Callable[..., Result]) -> None:
    text = ('{"expr": "up{instance=~\\"10' + Q + '.0' + Q + '.40' + Q + '.11:9100\\"}", '
            '"b": "host=~\\"pug' + Q + '.ana' + Q + '.lan\\"", "c": "pug' + Q + '-ipmi"}\n')
    root = repo({"grafana/dash.json": text}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    done = (root / "grafana/dash.json").read_text()
    assert done == (text.replace("10" + Q + ".0" + Q + ".40" + Q + ".11", "10" + Q + ".0" + Q + ".50" + Q + ".21")
                    .replace("pug" + Q + ".ana" + Q + ".lan", "wolf" + Q + ".fv" + Q + ".lan")
                    .replace("pug" + Q + "-ipmi", "wolf" + Q + "-ipmi")), done
    assert run(root, "verify").exit_code == 0


def test_a_pattern_escaped_twice_is_a_residual(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    text = '{"expr": "up{instance=~\\"10' + Q + '.0' + Q + '.40' + Q + '.(11|12):9100\\"}"}\n'
    root = repo({"grafana/dash.json": text}, config=CONFIG, allowlist=ALLOW)
    verify = run(root, "verify")
    assert verify.exit_code == 1 and "residual (pattern): 10.0.40.11" in verify.stdout, verify.stdout
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "grafana/dash.json").read_text() == text
