"""The format conformance suite: every registered format, through the CLI on a real git repo.

A new format is done when it has a sample here and passes: the sweep keeps every byte it does
not rewrite (CRLF, a BOM, Latin-1, no final newline, the file's mode), a second sweep changes
nothing, the result still parses by the format's own check, and a file without an old value is
left alone. Each format's own rules are in its test module (pairs of input and expected output).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from renamer.formats import CONTENT, FORMATS, format_of
from tests.conftest import Result
from tests.testing.repos import git

ALLOW = "version: 1\ncurrent: ['**']\n"


@dataclass(frozen=True)
class Sample:
    path: str
    before: str
    after: str
    broken: str | None = None  # a result the format's check must refuse (formats that parse)


SAMPLES = {
    "yaml": Sample("stacks/app.yaml", "# café\nhost: ana-ml2\nip: 10.250.50.54\nlist: [ana-ml2, x]\n",
                   "# café\nhost: fv-ml1\nip: 10.251.50.54\nlist: [fv-ml1, x]\n", "host: [fv-ml1\n"),
    "json": Sample("stacks/app.json", '{"note": "café", "host": "ana-ml2", "ip": "10.250.50.54"}\n',
                   '{"note": "café", "host": "fv-ml1", "ip": "10.251.50.54"}\n', '{"host": "fv-ml1"\n'),
    "toml": Sample("stacks/app.toml", '# café\n[upstream]\nhost = "ana-ml2"\nips = ["10.250.50.54"]\n',
                   '# café\n[upstream]\nhost = "fv-ml1"\nips = ["10.251.50.54"]\n', '[upstream\nhost = "fv-ml1"\n'),
    "python": Sample("scripts/tool.py", '# café\nHOST = "ana-ml2"  # on ana-ml2\n',
                     '# café\nHOST = "fv-ml1"  # on fv-ml1\n',
                     '# café\nHOSTS = {"fv-ml1": 1, "fv-ml1": 2}\n'),  # a dict key twice (formats/python_cst.py)
    "markdown": Sample("runbook.md", "# café\n\n## ana-ml2\n\nSee [the box](#ana-ml2) at 10.250.50.54.\n",
                       "# café\n\n## fv-ml1\n\nSee [the box](#fv-ml1) at 10.251.50.54.\n"),
    "zone": Sample("zones/db.lab", "; café\n$ORIGIN lab.\n@ IN SOA ns. admin. 7 3600 600 86400 60\n"
                                  "ana-ml2 IN A 10.250.50.54\n",
                   "; café\n$ORIGIN lab.\n@ IN SOA ns. admin. 8 3600 600 86400 60\nfv-ml1 IN A 10.251.50.54\n",
                   "[fv-ml1]\n[fv-ml1]\n"),
    "ini": Sample("stacks/app.ini", "; café\n[upstream]\nhost = ana-ml2\nip = 10.250.50.54\n",
                  "; café\n[upstream]\nhost = fv-ml1\nip = 10.251.50.54\n", "[upstream]\nhost = fv-ml1\nhost = x\n"),
    "hcl": Sample("infra/main.tf", '# café\nlocals {\n  host = "ana-ml2"\n  ip   = "10.250.50.54"\n}\n',
                  '# café\nlocals {\n  host = "fv-ml1"\n  ip   = "10.251.50.54"\n}\n',
                  '# café\nlocals {\n  fv-ml1 = "a"\n  fv-ml1 = "b"\n}\n'),
    "prose": Sample("notes.txt", "café: the gateway runs on ana-ml2 (10.250.50.54).\n",
                    "café: the gateway runs on fv-ml1 (10.251.50.54).\n"),
    "env": Sample("stacks/app.env", "# café\nLLM_HOST=ana-ml2\nLLM_IP=10.250.50.54\n",
                  "# café\nLLM_HOST=fv-ml1\nLLM_IP=10.251.50.54\n", "# café\nLLM_HOST=fv-ml1\nLLM_HOST=10.251.50.54\n"),
    "text": Sample("scripts/hosts.list", "# café\n10.250.50.54 ana-ml2\n", "# café\n10.251.50.54 fv-ml1\n",
                   "# café\n[fv-ml1]\n[fv-ml1]\n"),
    "dns": Sample("etc/hosts", "# café\n10.250.50.54 ANA-ML2 ana-ml2\n", "# café\n10.251.50.54 FV-ML1 fv-ml1\n",
                  "# café\n[fv-ml1]\n[fv-ml1]\n"),
}


def _crlf(text: str) -> bytes:
    return text.replace("\n", "\r\n").encode()


VARIANTS: dict[str, Callable[[str], bytes]] = {
    "utf-8": lambda text: text.encode(),
    "crlf": _crlf,
    "bom": lambda text: b"\xef\xbb\xbf" + text.encode(),
    "latin-1": lambda text: text.encode("latin-1"),
    "no-final-newline": lambda text: text.rstrip("\n").encode(),
}


def test_every_registered_format_has_a_sample() -> None:
    assert {fmt.name for fmt in (*FORMATS, *CONTENT)} == SAMPLES.keys()


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_is_claimed_by_its_format(name: str) -> None:
    sample = SAMPLES[name]
    assert format_of(sample.path, sample.before.encode()).name == name


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_result_parses(name: str) -> None:
    sample = SAMPLES[name]
    fmt = format_of(sample.path, sample.before.encode())
    assert fmt.edit_problem(sample.before, sample.after) is None
    if fmt.checks_edits:
        assert sample.broken is not None, "a format that parses needs a broken sample"
        assert fmt.edit_problem(sample.before, sample.broken) is not None


def _sweep(root: Path, run: Callable[..., Result]) -> Result:
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    return done


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_bytes_mode_and_idempotence(name: str, variant: str, repo: Callable[..., Path],
                                    run: Callable[..., Result]) -> None:
    sample, encode = SAMPLES[name], VARIANTS[variant]
    root = repo({sample.path: encode(sample.before)}, allowlist=ALLOW, commit=False)
    (root / sample.path).chmod(0o755)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    _sweep(root, run)
    assert (root / sample.path).read_bytes() == encode(sample.after)
    assert os.stat(root / sample.path).st_mode & 0o777 == 0o755
    head = git(root, "rev-parse", "HEAD")
    _sweep(root, run)  # again: nothing left to change
    assert (root / sample.path).read_bytes() == encode(sample.after)
    assert git(root, "rev-parse", "HEAD") == head
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_no_op_without_old_values(name: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    sample = SAMPLES[name]
    root = repo({sample.path: sample.after}, allowlist=ALLOW)
    head = git(root, "rev-parse", "HEAD")
    _sweep(root, run)
    assert (root / sample.path).read_bytes() == sample.after.encode()
    assert git(root, "rev-parse", "HEAD") == head
