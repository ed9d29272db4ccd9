"""Keys by line: the collision check for files no parser reads (templates, INI-like .conf)."""

from __future__ import annotations

import pytest

from renamer.formats.keylines import collision


def _renamed(text: str) -> str:
    return text.replace("ana-ml2", "fv-ml1")


@pytest.mark.parametrize("before, line", [
    pytest.param("{% if x %}\nana-ml2: {ip: 1}\nfv-ml1: {ip: 2}\n{% endif %}\n", 3, id="yaml-in-if"),
    pytest.param("{% for h in hs %}\n{{ h }}:\n  ana-ml2: 1\n  fv-ml1: 2\n{% endfor %}\n", 4, id="for-body"),
    pytest.param("fv-ml1:\n  ip: 2\nana-ml2:\n  ip: 1\n", 1, id="existing-first"),
    pytest.param("[program:ana-ml2]\ncommand=x\n[program:fv-ml1]\ncommand=y\n", 3, id="ini-section"),
    pytest.param("[all]\nana-ml2 ansible_host=10.0.0.1\n", None, id="noop-inventory-line"),
    pytest.param("[hosts]\nana-ml2=1\nfv-ml1=2\n", 3, id="ini-key"),
    pytest.param('"ana-ml2": 1\n"fv-ml1": 2\n', 2, id="quoted-keys"),
    pytest.param("services:\n  ana-ml2:\n    image: x\n  fv-ml1:\n    image: y\n", 4, id="nested"),
    pytest.param("{% if x %}\nana-ml2: 1\n{% else %}\nfv-ml1: 2\n{% endif %}\n", None, id="noop-if-else"),
    pytest.param("{% if x %}\nana-ml2: 1\n{% elif y %}\nfv-ml1: 2\n{% endif %}\n", None, id="noop-elif"),
    pytest.param("a:\n  ana-ml2: 1\nb:\n  fv-ml1: 2\n", None, id="noop-other-parents"),
    pytest.param("- ana-ml2: 1\n- fv-ml1: 2\n", None, id="noop-list-items"),
    pytest.param("[a]\nana-ml2=1\n[b]\nfv-ml1=2\n", None, id="noop-other-sections"),
    pytest.param("ssh ana-ml2 uptime\nping fv-ml1\n", None, id="noop-not-keys"),
    pytest.param("# ana-ml2: old\nfv-ml1: 1\n", None, id="noop-comment"),
    pytest.param("fv-ml1: 1\nfv-ml1: 2\nana-ml2: 3\n", 1, id="third-of-a-kind"),
    pytest.param("fv-ml1: 1\nfv-ml1: 2\n", None, id="noop-duplicate-before"),
    # a Helm (Go) template's actions (issue 32, item 4): `with`/`range` bodies render beside their
    # siblings, `if`/`else if`/`else` branches are alternatives
    pytest.param("data:\n  ana-ml2: {{ .a }}\n  {{- with .b }}\n  fv-ml1: {{ . }}\n  {{- end }}\n", 4,
                 id="helm-with-body"),
    pytest.param("data:\n  {{- range .hs }}\n  ana-ml2: 1\n  fv-ml1: 2\n  {{- end }}\n", 4, id="helm-range-body"),
    pytest.param("data:\n  {{- if .a }}\n  ana-ml2: 1\n  {{- else }}\n  fv-ml1: 2\n  {{- end }}\n", None,
                 id="noop-helm-if-else"),
    pytest.param("data:\n  {{ if .a }}\n  ana-ml2: 1\n  {{ else if .b }}\n  fv-ml1: 2\n  {{ end }}\n", None,
                 id="noop-helm-else-if"),
    pytest.param("data:\n  {{- if .a }}\n  ana-ml2: 1\n  {{- end }}\n  fv-ml1: 2\n", 5, id="helm-after-the-if"),
])
def test_collision(before: str, line: int | None) -> None:
    found = collision(before, _renamed(before))
    if line is None:
        assert found is None
    else:
        assert found is not None and found.startswith(f"line {line}: ")
        assert "would collide with an existing one" in found
