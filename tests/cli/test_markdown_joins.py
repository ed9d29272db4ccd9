"""Markdown: a network's head in a code span, and values split by inline markup, are said (f28, finding 22).

From techno-tim/k3s-ansible's molecule/ipv6/README.md: `` `fdad:bad:ba55` `` ("share a single `/48`
prefix"), `` `fdad:bad:ba55:`**`0`**`::/64` ``, `` `fdad:bad:ba55:`**`4200`**`::/56` `` and the IPv4
twins `` `10.0.48` ``, `` `10.0.48.`**`1`** `` were neither rewritten nor said, while the whole
addresses of the same list were rewritten: the page named the old network and the new one side by
side, verify OK. Now a head that is all of a code span is a `prefix` residual and a value the page
spells across markup is refused `split`; whole values (in a code span, in emphasis) are rewritten as
ever, and nothing outside Markdown is joined.
"""

from __future__ import annotations

import json

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'


README = """All IPv6 addresses used in this scenario share a single `/48` prefix: `fdad:bad:ba55`.

- `fdad:bad:ba55:`**`0`**`::/64` is the subnet which contains the cluster components.
  - The VIP for the Kubernetes API server: `fdad:bad:ba55::333`
- `fdad:bad:ba55:`**`4200`**`::/56` is used internally by the cluster for pods.
- IPv4: `10.0.48`, gateway `10.0.48.`**`1`**, VIP `10.0.48.222`
"""


def _findings(run: Run, root: object) -> list[tuple[int, str, str]]:
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    return sorted((f["line"], f["reason"], f["old"]) for f in data["findings"])


def test_the_finding_22_page(repo: Repo, run: Run) -> None:
    root = repo({"README.md": README}, config=_config('"fdad:bad:ba55::/48": "2001:db8:77::/48", '
                                                      "10.0.48.0/24: 10.0.49.0/24"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr  # written, the rest left for a decision
    text = (root / "README.md").read_text()
    assert "`2001:db8:77::333`" in text and "VIP `10.0.49.222`" in text  # whole values follow
    assert "`fdad:bad:ba55:`**`0`**`::/64`" in text  # split values are the author's to rewrite
    assert _findings(run, root) == [
        (1, "prefix", "fdad:bad:ba55"),
        (3, "split", "fdad:bad:ba55:0::"),
        (5, "split", "fdad:bad:ba55:4200::"),
        (6, "prefix", "10.0.48"),
        (6, "split", "10.0.48.1"),
    ]
    shown = run(root, "verify").stdout
    assert ("README.md:6:29: residual (split): 10.0.48.1 -> 10.0.49.1: `10.0.48.1` spelled across Markdown "
            "markup") in shown, shown


# Other lengths and other markup: (networks, page line, what verify finds on it)
VARIANTS = [
    ("10.0.48.0/24: 10.2.0.0/22", "gateway 10.0.48.**1**\n", [(1, "split", "10.0.48.1")]),
    ("10.0.48.0/23: 10.0.60.0/24", "host ~~10.0.48~~.7 and `10.0.48.`*`9`*\n",
     [(1, "split", "10.0.48.7"), (1, "split", "10.0.48.9")]),
    ("10.0.48.0/29: 10.0.64.0/28", "router `10.0.48.`__`1`__\n", [(1, "split", "10.0.48.1")]),
    ("10.0.48.0/22: 10.0.52.0/22", "the lab is `10.0.49`, router `10.0.49.`**`1`**\n",
     [(1, "prefix", "10.0.49"), (1, "split", "10.0.49.1")]),
    ('"2001:db8:a::/48": "2001:db8:b::/56"', "pods `2001:db8:a:`**`42`**`::/64`, head `2001:db8:a`\n",
     [(1, "prefix", "2001:db8:a"), (1, "split", "2001:db8:a:42::")]),
    ('"2001:db8:a::/64": "2001:db8:b::/60"', "node `2001:db8:a::`**`5`**\n", [(1, "split", "2001:db8:a::5")]),
]


@pytest.mark.parametrize(("networks", "line", "found"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_values_split_by_markup_and_heads_in_code_spans_are_said(repo: Repo, run: Run, networks: str, line: str,
                                                                 found: list[tuple[int, str, str]]) -> None:
    root = repo({"docs/net.md": line}, config=_config(networks), allowlist=ALLOW)
    checked = run(root, "verify")
    assert checked.exit_code == 1, checked.stdout
    assert _findings(run, root) == found
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1
    assert (root / "docs/net.md").read_text() == line  # nothing of a split value rewritten


def test_whole_values_follow_and_other_files_are_not_joined(repo: Repo, run: Run) -> None:
    files = {"a.md": "gw **10.0.48.1**, vip `10.0.48.222`, `10.0.48.7`**bold**\n",
             "b.txt": "gw 10.0.48.**1**\n",  # not Markdown: no markup to join
             "c.md": "a *`10.0.5.`**`1`** elsewhere\n",  # another network
             "d.md": "grown in place: `10.0.50.`**`1`**\n"}  # 10.0.50.1 is no old address of the move below
    root = repo(files, config=_config("10.0.48.0/24: 10.0.49.0/24"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "a.md").read_text() == "gw **10.0.49.1**, vip `10.0.49.222`, `10.0.49.7`**bold**\n"
    assert all((root / rel).read_text() == files[rel] for rel in ("b.txt", "c.md", "d.md"))
    assert run(root, "verify").exit_code == 0


def test_a_grow_in_place_keeps_a_split_address(repo: Repo, run: Run) -> None:
    """10.0.48.1 stays 10.0.48.1 under 10.0.48.0/24 -> 10.0.48.0/22: the page is right as it is."""
    page = "gateway `10.0.48.`**`1`**, also 10.0.48.**2**\n"
    root = repo({"net.md": page}, config=_config("10.0.48.0/24: 10.0.48.0/22"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "net.md").read_text() == page
    assert run(root, "verify").exit_code == 0


def test_a_head_all_of_a_code_span_is_said_in_any_dress(repo: Repo, run: Run) -> None:
    files = {"a.md": "the lab: **`10.0.48`**\n", "b.rst": "the lab is ``10.0.48.``\n", "c.md": "see `10.0.480`\n"}
    root = repo(files, config=_config("10.0.48.0/24: 10.2.0.0/22"), allowlist=ALLOW)
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    assert sorted((f["path"], f["reason"], f["old"]) for f in data["findings"]) == [
        ("a.md", "prefix", "10.0.48"), ("b.rst", "prefix", "10.0.48.")]
