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
