"""sweep/included.py's reading of a written path against a file in a preset's folder."""

from __future__ import annotations

import pytest

from renamer.sweep.included import names


@pytest.mark.parametrize(("word", "referrer", "how"), [
    ("conf.d/backup/*.conf", "nginx/nginx.conf", "exact"),  # from the referrer's folder
    ("./conf.d/backup/upstreams.conf;", "nginx/nginx.conf", "exact"),
    ("nginx/conf.d/backup/upstreams.conf", "ci/deploy.sh", "exact"),  # from the root
    ("../nginx/conf.d/backup/upstreams.conf", "ci/deploy.sh", "exact"),
    ("conf.d/backup/{upstreams,extra}.conf", "nginx/nginx.conf", None),  # glob(3) reads no braces
    ("/etc/nginx/conf.d/backup/*.conf", "nginx/nginx.conf", "tail"),  # the machine's path
    ("{{ playbook_dir }}/backup/upstreams.conf", "nginx/site.yml", "tail"),
    ("${CONF}/backup/upstreams.conf", "nginx/run.sh", "tail"),
    ("upstreams.conf", "nginx/conf.d/x.conf", None),  # not through the preset's folder
    ("backup/upstreams.conf", "other/nginx.conf", "tail"),  # read from elsewhere on the machine?
    ("conf.d/backup/other.conf", "nginx/nginx.conf", None),
])
def test_a_written_path_names_the_file_exactly_or_by_its_end(word: str, referrer: str, how: str | None) -> None:
    parts = ["nginx", "conf.d", "backup", "upstreams.conf"]
    assert names(word, parts, 2, "backup", referrer) == how


def test_where_a_line_s_code_ends() -> None:
    """Break-it round 19, #11: a comment line names nothing; a trailing ` #` outside quotes ends
    the code; a `#` in a quoted string or a URL is no comment. Linear in the line's length."""
    import time

    from renamer.sweep.included import code_end

    assert code_end(b"  # include conf.d/backup/*.conf;") == 0
    assert code_end(b";conf-file=backup/extra.conf") == 0
    assert code_end(b"// import archive/old.caddy") == 0
    assert code_end(b"echo start  # . archive/env.sh") == 12
    assert code_end(b'msg: "a #b" # c') == 12
    assert code_end(b"url: http://x/#frag backup/x") == len(b"url: http://x/#frag backup/x")
    hostile = b'"' + b" #" * 50_000
    started = time.perf_counter()
    assert code_end(hostile) == len(hostile)
    assert time.perf_counter() - started < 0.5
