"""An old FQDN in another case where a resolver reads it (break-it round 21, finding 09): a URL's
host, a `host:port`, ssh's `HostName`. DNS ignores case, so each is the old name, live: a residual
`dns-case` (verify fails), never rewritten; the same spelling in prose stays a near-miss. Real git
repos; ssh's own reading of the config (`ssh -G`) shows the name it would resolve."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = "version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.fv.lan}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"


@pytest.mark.parametrize("rel, text, column", [
    pytest.param("app.env", "API_URL=https://ANA-ML2.ANA.LAN/api\n", 17, id="url-host"),
    pytest.param("app.env", "DB=postgres://u@Ana-Ml2.ana.lan:5432/db\n", 17, id="url-with-userinfo"),
    pytest.param("nginx.conf", "server {\n  location / { proxy_pass http://ANA-ML2.ana.lan:8080; }\n}\n", 34,
                 id="nginx-proxy-pass"),
    pytest.param("prometheus.yml", 'scrape_configs:\n  - job_name: node\n    static_configs:\n'
                 '      - targets: ["ANA-ML2.ana.lan:9100"]\n', 20, id="host-port"),
    pytest.param("ssh_config", "Host db\n  HostName ANA-ML2.ANA.LAN\n", 12, id="ssh-hostname"),
])
def test_an_old_fqdn_in_another_case_where_it_is_resolved_is_a_residual(
        rel: str, text: str, column: int, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({rel: text}, config=CONFIG, allowlist=ALLOW)
    run(root, "sweep", "--commit")  # nothing it rewrites here
    assert (root / rel).read_text() == text
    verify = run(root, "verify", "--format", "json")
    assert verify.exit_code == 1
    found = [(f["path"], f["column"], f["reason"]) for f in json.loads(verify.stdout)["findings"]]
    assert found == [(rel, column, "dns-case")]
    if rel == "ssh_config":  # what ssh itself would resolve: the old name
        done = subprocess.run(["ssh", "-G", "-F", str(root / rel), "db"], capture_output=True, text=True,
                              check=True, stdin=subprocess.DEVNULL)
        assert "hostname ana-ml2.ana.lan" in done.stdout.lower()


@pytest.mark.parametrize("text", [
    pytest.param("The old box was ANA-ML2.ANA.LAN, long ago.\n", id="prose"),
    pytest.param("ANA_ML2_HOST=x\nurl=https://x.ANA-ML2.ana.lan/\n", id="identifier-and-longer-name"),
    pytest.param("url=https://ANA-ML2.ANA.LANX/\n", id="another-name"),
])
def test_noop_the_case_spelling_where_no_resolver_reads_it(text: str, repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    root = repo({"notes.txt": text}, config=CONFIG, allowlist=ALLOW)
    verify = run(root, "verify", "--format", "json")
    assert verify.exit_code == 0, verify.stdout
    assert json.loads(verify.stdout)["findings"] == []


def test_the_exact_spelling_in_a_url_is_still_rewritten(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"app.env": "API_URL=https://ana-ml2.ana.lan/api\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "app.env").read_text() == "API_URL=https://fv-ml1.fv.lan/api\n"


@pytest.mark.parametrize("native", ["0", "1"])
def test_the_sweep_lists_every_dns_case_spelling_verify_lists(native: str, repo: Callable[..., Path],
                                                             run: Callable[..., Result],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 21, finding 09's rest: the sweep listed a `dns-case` spelling only in a file where it
    also read an exact old value (its first pass has no loose pass to let the others in), so
    `sweep --commit` exited 0 over five live references verify then failed on. Now the dry run,
    the writing sweep and verify list the same ones, whichever first pass runs."""
    monkeypatch.setenv("RENAMER_NATIVE", native)
    files = {"app.env": "API_URL=https://ANA-ML2.ANA.LAN/api\n",
             "nginx.conf": "location / { proxy_pass http://ANA-ML2.ana.lan:8080; }\n",
             "ssh_config": "Host db\n  HostName ANA-ML2.ANA.LAN\n",
             "both.yaml": "url: http://ana-ml2.ana.lan/\nalt: http://Ana-Ml2.ana.lan/\n",
             "other.yaml": "url: http://ana-ml2.ana.lan/\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    expected = [("app.env", 1), ("both.yaml", 2), ("nginx.conf", 1), ("ssh_config", 2)]
    dry = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert dry["summary"]["left"] == len(expected), dry["summary"]

    def listed(out: str) -> list[tuple[str, int]]:
        return sorted((line.strip().split(":")[0], int(line.strip().split(":")[1])) for line in out.splitlines()
                      if "(dns-case" in line and not line.startswith(" " * 4))
    assert listed(run(root, "sweep", "--dry-run", "--color", "never").stdout) == expected
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout  # residuals left for a decision, as verify says
    assert listed(swept.stdout + swept.stderr) == expected
    verify = json.loads(run(root, "verify", "--format", "json").stdout)
    assert sorted((f["path"], f["line"]) for f in verify["findings"] if f["reason"] == "dns-case") == expected
    assert (root / "other.yaml").read_text() == "url: http://fv-ml1.fv.lan/\n"
