"""sweep/held_vars.py: the paths a line builds from the file's literal assignments (break-it round
19, finding 9), and the variable a word is the value of."""

from __future__ import annotations

import time

import pytest

from renamer.sweep.held_vars import compositions, held_by_variable, variable_of

SCALARS = {"BASE": "hosts", "HOST": "pug", "node": "pug", "dir": "hosts"}
LISTS = {"parts": ["hosts", "pug", "app.conf"]}


@pytest.mark.parametrize(("line", "path"), [
    (b'open(os.path.join(BASE, HOST, "app.conf"))', "hosts/pug/app.conf"),
    (b"open(os.sep.join(parts))", "hosts/pug/app.conf"),
    (b"os.path.join(*parts)", "hosts/pug/app.conf"),
    (b'cat "$dir/${HOST}/app.conf"', "hosts/pug/app.conf"),
    (b"cat $(BASE)/$(HOST)/app.conf", "hosts/pug/app.conf"),
    (b"x: \"{{ playbook_dir ~ '/../hosts/' ~ node ~ '/app.conf' }}\"", "{}/hosts/pug/app.conf"),
    (b'p = f"{BASE}/{HOST}/app.conf"', "hosts/pug/app.conf"),
    (b"src: 'hosts/{{ node }}/app.conf'", "hosts/pug/app.conf"),
    (b"os.path.join(os.getcwd(), 'hosts', HOST)", "{}/hosts/pug"),
])
def test_a_line_s_composition_with_the_values_put_in(line: bytes, path: str) -> None:
    assert path in compositions(line, SCALARS, LISTS)


def test_a_line_building_no_path_makes_none() -> None:
    assert compositions(b'subprocess.run(["ssh", HOST, "true"])', SCALARS, LISTS) == []
    assert compositions(b"print(HOST + 1)", SCALARS, LISTS) == []  # one component: no path


def test_the_variable_a_word_is_the_value_of() -> None:
    data = b'HOST = "pug"\nparts = ["hosts", "pug"]\nif HOST == "pug": pass\nexport NODE=pug\n'
    assert variable_of(data, 8, 11) == "HOST"
    assert variable_of(data, 31, 34) == "parts"
    assert variable_of(data, 48, 51) is None  # a comparison, no assignment
    assert variable_of(data, data.rindex(b"pug"), data.rindex(b"pug") + 3) == "NODE"
    loops = b'for h in rex pug; do echo; done\nfor n in ["pug"]:\n{% for x in [\'pug\'] %}\n'
    assert [variable_of(loops, m, m + 3) for m in (13, 43, 64)] == ["h", "n", "x"]


def test_held_by_variable_names_the_line_that_joins_it() -> None:
    data = b'BASE = "hosts"\nHOST = "pug"\np = os.path.join(BASE, HOST)\n'
    at = data.index(b"pug")
    held = held_by_variable("x.py", data, at, at + 3, "pug", lambda rel, p: p if p == "hosts/pug" else None)
    assert held == ("hosts/pug", "HOST", 3)
    assert held_by_variable("x.py", data, at, at + 3, "pug", lambda rel, p: None) is None


def test_hostile_lines_stay_linear() -> None:
    for line in (b"x" * 4000, b"'a' ~ " * 600, b"${A}/" * 800, b"a." * 2000, b"[" * 4000, b"$a/" * 1300):
        started = time.perf_counter()
        compositions(line, {"a": "hosts"}, {})
        assert time.perf_counter() - started < 0.5, line[:20]


def test_a_file_setting_one_variable_many_times_is_read_once() -> None:
    """20,000 lines `HOST = "pug"` and one join: each word's answer comes from one reading."""
    data = b'BASE = "hosts"\n' + b'HOST = "pug"\n' * 20_000 + b"p = os.path.join(BASE, HOST)\n"

    def resolve(rel: str, path: str) -> str | None:
        return path if path == "hosts/pug" else None

    started, at, held = time.perf_counter(), 0, 0
    for _ in range(20_000):
        at = data.index(b"pug", at + 1)
        held += held_by_variable("x.py", data, at, at + 3, "pug", resolve) is not None
    assert held == 20_000
    assert time.perf_counter() - started < 5
