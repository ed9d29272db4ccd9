"""folded_lines.py's pure logic: which files fold, unfolding with each fold's place, folds put back
in a new value, LDIF base64 values re-encoded and refolded at their width or left refused."""

from __future__ import annotations

import base64

from renamer import folded_lines
from renamer.occurrences import Match


def _find(data: bytes) -> list[Match]:
    out = []
    for old, new, kind in ((b"web01.lab.example", "webapp01.prod.example", "host"),
                           (b"10.0.0.70", "10.0.1.190", "address")):
        at = data.find(old)
        while at != -1:
            out.append(Match(at, at + len(old), old.decode(), new, kind))
            at = data.find(old, at + 1)
    return out


NEEDLES = (b"web01.lab.example", b"10.0.0.70")


def test_which_files_fold() -> None:
    assert folded_lines.fold_of("a.ldif", b"dn: x\ncn: a\n b\n") is not None
    assert folded_lines.fold_of("export.txt", b"# c\nversion: 1\n\ndn: x\n y\n") is not None  # by its first line
    assert folded_lines.fold_of("x.ics", b"BEGIN:VCALENDAR\n\tX\n") is not None
    assert folded_lines.fold_of("card", b"begin:vcard\nURL:a\n b\n") is not None
    assert folded_lines.fold_of("a.yaml", b"a:\n  b: c\n") is None  # a YAML indent is no fold
    assert folded_lines.fold_of("a.ldif", b"dn: x\ncn: a\n") is None  # no fold at all
    assert folded_lines.fold_of("a.eml", b"Subject: a\n b\n") is None  # MIME keeps the blank


def test_unfold_and_refold() -> None:
    joined, folds = folded_lines.unfold(b"a: 10.0.0.7\r\n 0\nb", folded_lines._LDIF_FOLD)
    assert joined == b"a: 10.0.0.70\nb" and folds == [(11, 11, b"\r\n ")]
    assert folded_lines.refolded("webapp01", [(3, b"\n ")]) == "web\n app01"
    assert folded_lines.refolded("ab", [(5, b"\n ")]) == "ab\n "  # clamped to the end
    assert folded_lines.refolded("abc", [(1, b"\n "), (1, b"\n ")]) == "a\n bc"  # folds that meet join


def test_folded_matches_keep_other_matches_and_refused_spans() -> None:
    data = b"dn: x\nipHostNumber: 10.0.0.7\n 0\nlabeledURI: web01.lab.example\n"
    out = folded_lines.folded_matches(_find, "a.ldif", data, _find(data))
    assert [(data[m.start:m.end], m.new) for m in out] == [(b"10.0.0.7\n 0", "10.0.1.1\n 90"),
                                                           (b"web01.lab.example", "webapp01.prod.example")]
    assert folded_lines.might_hold("a.ldif", data, NEEDLES)
    assert not folded_lines.might_hold("a.ldif", b"dn: x\ncn: 10.0.0.7\n 1\n", NEEDLES)


def test_ldif_base64_is_reencoded_at_its_width() -> None:
    value = "http://web01.lab.example/" + "a" * 80
    encoded = base64.b64encode(value.encode()).decode()
    line = "description:: " + encoded
    folded = "\n ".join([line[:76]] + [line[76 + i:76 + i + 75] for i in range(0, len(line) - 76, 75)])
    data = f"dn: x\n{folded}\n".encode()
    out = folded_lines.ldif_base64_matches(_find, NEEDLES, "a.ldif", data, [])
    assert len(out) == 1 and out[0].refused is None
    new = data[:out[0].start].decode() + out[0].new + data[out[0].end:].decode()
    lines = new.splitlines()
    assert all(len(x) == 76 for x in lines[1:-1])  # folded at 76 again
    joined = "".join(x[1:] if x.startswith(" ") else x for x in lines[1:])
    assert base64.b64decode(joined.split(":: ")[1]).decode() == value.replace("web01.lab.example",
                                                                              "webapp01.prod.example")


def test_ldif_base64_of_bytes_is_refused_and_other_values_quiet() -> None:
    photo = base64.b64encode(b"\xff\xd8web01.lab.example\xff")
    data = b"dn: x\njpegPhoto:: " + photo + b"\ncn:: " + base64.b64encode(b"web010.lab") + b"\n"
    out = folded_lines.ldif_base64_matches(_find, NEEDLES, "a.ldif", data, [])
    assert [(m.refused, m.old) for m in out] == [("encoded", "web01.lab.example")]
    assert folded_lines.ldif_base64_matches(_find, NEEDLES, "a.yaml", b"a:: " + photo + b"\n", []) == []
