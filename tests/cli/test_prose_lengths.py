"""A resized network's old length in the prose beside it (t31-33, finding 22), end to end.

onedr0p/cluster-template's `cluster.sample.toml` shape: "/16 gives ~64K pod IPs" over `# OPTIONAL.
Default: "10.42.0.0/16"` kept `/16` while the default became `10.244.0.0/15`, verify OK. A bare old
length in the comment paragraph that spells the network is a `mask` residual now, before the
sweep and after it (beside the new network); the file still parses (tomllib).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import yaml

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _masks(run: Run, root: Path) -> list[tuple[str, int]]:
    done = run(root, "verify", "--format", "json")
    return sorted((str(f["path"]), int(f["line"])) for f in json.loads(done.stdout)["findings"]
                  if f["reason"] == "mask")


TOML = """\
# CIDR Cilium hands out to pods. /16 gives ~64K pod IPs, which is well beyond
# what a homelab needs. Must NOT overlap with node_cidr.
# OPTIONAL. Default: "10.42.0.0/16"

# pod_cidr = "10.42.0.0/16"

# A /16 here names nothing moved.
# node_cidr = "192.168.1.0/24"
pod_cidr = "10.42.0.0/16"
"""


@pytest.mark.parametrize(("networks", "new"), [
    pytest.param("10.42.0.0/16: 10.244.0.0/15", "10.244.0.0/15", id="grow-16-15"),
    pytest.param("10.42.0.0/16: 10.42.0.0/17", "10.42.0.0/17", id="shrink-16-17"),
])
def test_a_bare_old_length_in_the_prose_is_a_residual_before_and_after(repo: Repo, run: Run, networks: str,
                                                                       new: str) -> None:
    root = repo({"cluster.sample.toml": TOML}, config=_config(networks), allowlist=ALLOW)
    # (line 7's paragraph sits right above `pod_cidr = "10.42.0.0/16"`: read with it since t32-33 09)
    assert _masks(run, root) == [("cluster.sample.toml", 1), ("cluster.sample.toml", 7)]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    text = (root / "cluster.sample.toml").read_text()
    assert f'Default: "{new}"' in text and text.startswith("# CIDR Cilium hands out to pods. /16 gives")
    assert tomllib.loads(text)["pod_cidr"] == new
    assert _masks(run, root) == [("cluster.sample.toml", 1), ("cluster.sample.toml", 7)]
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize(("networks", "files", "line"), [
    pytest.param("10.0.48.0/24: 10.0.48.0/22",
                 {"main.tf": "// the lab's /24, one VLAN\n// 10.0.48.0/24\nlocals {\n  x = 1\n}\n"},
                 ("main.tf", 1), id="hcl-24-22"),
    pytest.param('"2001:db8:a:10::/64": "2001:db8:a:10::/60"',
                 {"net.yaml": "# a /64 per site: 2001:db8:a:10::/64\nsite: a\n"}, ("net.yaml", 1), id="yaml-v6-64-60"),
])
def test_variants_in_other_comment_styles(repo: Repo, run: Run, networks: str, files: dict[str, str],
                                          line: tuple[str, int]) -> None:
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    assert _masks(run, root) == [line]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert _masks(run, root) == [line]


def test_a_length_outside_the_paragraph_or_not_the_old_one_is_nothing(repo: Repo, run: Run) -> None:
    text = "# pods: 10.42.0.0/16, a /17 each half\n\n# /16 is common\nx = 1 # /16\n"
    root = repo({"c.conf": text}, config=_config("10.42.0.0/16: 10.244.0.0/15"), allowlist=ALLOW)
    assert _masks(run, root) == []
    assert run(root, "sweep", "--commit").exit_code == 0
    assert run(root, "verify", "--strict").exit_code == 0


# t32-33 09: the prose beside the network outside a comment-only paragraph naming it.
PROSE = {
    "cluster.yaml": ('# CIDR Cilium hands out to pods. /16 gives ~64K pod IPs\ncluster_pod_cidr: "10.42.0.0/16"\n\n'
                     'cluster_svc_cidr: "10.42.0.0/16"  # a /16: ~64K service IPs\n\n'
                     '# IPv6 pods: a /56 leaves 256 /64s\ncluster_pod_cidr_v6: "fd00:42::/56"\n'),
    "r1.cfg": "! pods: 10.42.0.0/16\n! a /16 gives ~64K pod IPs\nip route 10.42.0.0 255.255.0.0 Null0\n",
    "net.nix": ('{\n  /* pods: 10.42.0.0/16\n     a /16 gives ~64K pod IPs */\n'
                '  services.k3s.extraFlags = "--cluster-cidr 10.42.0.0/16";\n}\n'),
    "README.md": "Pods get addresses from 10.42.0.0/16. A /16 gives ~64K pod IPs.\n",
}
PROSE_LINES = [("README.md", 1), ("cluster.yaml", 1), ("cluster.yaml", 4), ("cluster.yaml", 6), ("net.nix", 3),
               ("r1.cfg", 2)]


@pytest.mark.parametrize("networks", [
    pytest.param('10.42.0.0/16: 10.244.0.0/15, "fd00:42::/56": "fd00:42::/52"', id="grow-16-15-v6-56-52"),
    pytest.param('10.42.0.0/16: 10.42.0.0/17, "fd00:42::/56": "fd00:42::/60"', id="shrink-16-17-v6-56-60"),
])
def test_prose_above_a_code_line_trailing_cisco_c_blocks_and_markdown(repo: Repo, run: Run, networks: str) -> None:
    """Before: every `/16` (`/56`) stayed beside the new network, sweep 0, verify OK. Now each is a
    `mask` residual before the sweep and after it; the YAML still loads to the new networks."""
    root = repo(PROSE, config=_config(networks), allowlist=ALLOW)
    assert _masks(run, root) == PROSE_LINES
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert _masks(run, root) == PROSE_LINES
    loaded = yaml.safe_load((root / "cluster.yaml").read_text())
    assert loaded["cluster_pod_cidr"] == networks.split(": ")[1].split(",")[0]
    assert run(root, "verify", "--strict").exit_code == 1
