"""function_imports.py: the files a file imports or sources, what their functions compose, and the words calls pass."""

from __future__ import annotations

import pytest

from renamer import function_imports


@pytest.mark.parametrize(("data", "rel", "first"), [
    (b'{% from "macros.j2" import fqdn %}', "tpl/a.j2", "tpl/macros.j2"),
    (b"{% import 'macros.j2' as m %}", "templates/sub/a.j2", "templates/sub/macros.j2"),
    (b"from lib.names import fqdn\n", "deploy.py", "lib/names.py"),
    (b"from .names import fqdn\n", "pkg/deploy.py", "pkg/names.py"),
    (b"import names\n", "py/deploy.py", "py/names.py"),
    (b'. "$(dirname "$0")/lib.sh"\n', "sh/deploy.sh", "sh/lib.sh"),
    (b'source "${BASH_SOURCE%/*}/../lib/common.sh"\n', "bin/deploy.sh", "lib/common.sh"),
])
def test_sources(data: bytes, rel: str, first: str) -> None:
    assert function_imports.sources(data, rel)[0] == first


def test_a_sourced_path_from_a_variable_is_not_guessed() -> None:
    assert function_imports.sources(b". $LIB\nsource $DIR/x.sh\n", "a.sh") == []


@pytest.mark.parametrize(("text", "name", "param", "index", "suffix", "domain"), [
    (b"{% macro fqdn(h) %}{{ h }}.ana.lan{% endmacro %}", "fqdn", "h", 0, ".ana.lan", None),
    (b'def fqdn(x, h):\n    return f"{h}.ana.lan"\n', "fqdn", "h", 1, ".ana.lan", None),
    (b'def fqdn(h, domain="ana.lan"):\n    return f"{h}.{domain}"\n', "fqdn", "h", 0, ".ana.lan", ("domain", 1)),
    (b'def fqdn(h, d="ana.lan"):\n    return h + "." + d\n', "fqdn", "h", 0, ".ana.lan", ("d", 1)),
    (b'fqdn() { echo "$1.ana.lan"; }\n', "fqdn", "1", 0, ".ana.lan", None),
    (b"mk = lambda h: h + '.ana.lan'\n", "mk", "h", 0, ".ana.lan", None),
])
def test_bodies(text: bytes, name: str, param: str, index: int, suffix: str, domain: tuple[str, int] | None) -> None:
    [body] = function_imports.bodies(text, ("ana.lan",))
    assert (body.name, body.param, body.index, body.suffix, body.domain) == (name, param, index, suffix, domain)


def test_call_words_positional_keyword_and_the_domain_passed() -> None:
    [body] = function_imports.bodies(b'def fqdn(h, domain="ana.lan"):\n    return f"{h}.{domain}"\n', ("ana.lan",))
    data = b"fqdn('pug')\nnames.fqdn(h='pug')\nfqdn('pug', 'fv.lan')\nfqdn('pug', domain=d)\nfqdn(x)\n"
    words = [(w, d) for w, _, _, d in function_imports.call_words(data, body)]
    assert words == [("pug", None), ("pug", None), ("pug", "fv.lan"), ("pug", "?")]
