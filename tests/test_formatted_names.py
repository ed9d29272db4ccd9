"""formatted_names.py: which formats make (or may make) an old host name, with the number they are given."""

from __future__ import annotations

import pytest

from renamer import formatted_names

OLDS = ["pve01", "pve01.ana.lan", "k8s-0"]


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param(b'format("pve%02d", 1)', [("pve01", "1", True)], id="terraform-literal"),
    pytest.param(b'format("pve%02s", (count.index % 3) + 1)', [("pve01", "", False)], id="terraform-arithmetic"),
    pytest.param(b'"pve${format("%02d", 1)}"', [("pve01", "1", True)], id="terraform-inner-format"),
    pytest.param(b"'pve%02d' | format(1)", [("pve01", "1", True)], id="jinja"),
    pytest.param(b"with_sequence: start=1 end=3 format=pve%02d", [("pve01", "1..3", True)], id="with-sequence"),
    pytest.param(b"with_sequence: count=2 format=pve%02d", [("pve01", "1..2", True)], id="with-sequence-count"),
    pytest.param(b"seq -f 'pve%02g' 1 3", [("pve01", "1..3", True)], id="seq"),
    pytest.param(b"seq -w -f 'pve%02g' 1 2 5", [("pve01", "1..5", True)], id="seq-increment"),
    pytest.param(b"printf 'pve%02d' 1", [("pve01", "1", True)], id="printf"),
    pytest.param(b'"pve{:02d}".format(1)', [("pve01", "1", True)], id="str-format"),
    pytest.param(b'f"pve{n:02d}.ana.lan"', [("pve01.ana.lan", "", False)], id="fstring-fqdn-first"),
    pytest.param(b"'k8s-%d' % i", [("k8s-0", "", False)], id="dash-stem"),
])
def test_makes(text: bytes, expected: list[tuple[str, str, bool]]) -> None:
    assert [(f.old, f.number, f.exact) for f in formatted_names.find(text, OLDS)] == expected


@pytest.mark.parametrize("text", [
    pytest.param(b'format("pve%02d", 2)', id="another-number"),
    pytest.param(b"seq -f 'pve%02g' 2 3", id="a-sequence-past-it"),
    pytest.param(b"seq -f 'pve%02g' 0 2 4", id="a-sequence-stepping-over-it"),
    pytest.param(b"with_sequence: start=0 end=4 stride=2 format=pve%02d", id="a-stride-stepping-over-it"),
    pytest.param(b"'pve%d' % 1", id="unpadded"),
    pytest.param(b'"pve{}".format(n)', id="a-placeholder-never-pads"),
    pytest.param(b'"{pve}" "node.pve%02d" "%02d"', id="no-stem-of-its-own"),
    pytest.param(b"'k8s-%02d' % i", id="padded-past-a-one-digit-name"),
])
def test_cannot_make(text: bytes) -> None:
    assert list(formatted_names.find(text, OLDS)) == []


def test_stems_and_the_prefilter() -> None:
    assert formatted_names.stems(["pve01", "pve01.ana.lan", "web", "10.0.40.11"]) == {"pve": ["pve01.ana.lan", "pve01"]}
    needles = formatted_names.literals(["pve01"])
    assert needles == (b"pve",)
    assert formatted_names.might_hold(b'x = format("pve%02d", 1)', needles)
    assert not formatted_names.might_hold(b"pve01 pve-x", needles)


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param(b'map (i: "pve${lib.fixedWidthNumber 2 i}") [ 1 2 3 ]', [("pve01", True)], id="nix-map"),
    pytest.param(b'"pve${lib.strings.fixedWidthNumber 2 n}"', [("pve01", False)], id="nix-unbound"),
    pytest.param(b'"pve" + str(i).zfill(2)', [("pve01", False)], id="zfill"),
    pytest.param(b'"pve" + str(1).zfill(2)', [("pve01", True)], id="zfill-literal"),
    pytest.param(b'"pve" + i.to_s.rjust(2, "0") + ".ana.lan"', [("pve01.ana.lan", False)], id="ruby-with-a-tail"),
    pytest.param(b"'pve' ~ '%02d' | format(i)", [("pve01", False)], id="jinja-tilde"),
    pytest.param(b'"pve{0:D2}" -f 1', [("pve01", True)], id="powershell-literal"),
    pytest.param(b"range(1, 4) | map('regex_replace', '^', 'pve0')", [("pve01", True)], id="regex-replace"),
    pytest.param(b"seq -w 9 11 | sed 's/^/pve/'", [], id="seq-w-past-it"),
    pytest.param(b"for i in $(seq 1 2); do echo web${i}-mgmt; done", [("web1-mgmt", True)], id="middle-seq"),
    pytest.param(b'for (( i = 2; i <= 3; i++ )); do printf "pve%02d" "$i"; done', [], id="c-style-past-it"),
    pytest.param(b'for (let i = 1; i < 4; i++) { f(`x`, sprintf("pve%02d", i)) }', [("pve01", True)],
                 id="javascript-loop"),
])
def test_round_19_spellings(text: bytes, expected: list[tuple[str, bool]]) -> None:
    assert [(f.old, f.exact) for f in formatted_names.find(text, [*OLDS, "web1-mgmt"])] == expected
