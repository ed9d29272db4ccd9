"""The native first pass (sweep/native_gate.py) against the pure-Python one, the reference.

Per primitive, on random bytes holding every spelling the matcher knows (cases, separators,
escapes, IDNA, ranges, globs, regex fragments, split lines, CRLF, BOMs, NULs): where a Python test
is an `in` test, the native question answers the same; where it is a regex or a decoder, the
native question holds wherever the Python test does. Then the whole first pass: a chunk scanned
with the native answers is the chunk the Python tests give, file for file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from renamer import declared_patterns, patterns
from renamer.decoded import might_decode, might_hold_break, might_join_default, might_join_quotes, might_split
from renamer.escapes import might_escape
from renamer.near_miss import fold_and_bare
from renamer.project import LoadedProject, load_project
from renamer.sweep import native_gate, parallel
from renamer.sweep.anchors import anchor_literals
from renamer.sweep.native_gate import (
    ANY_CASE,
    BREAK,
    CONTEXT,
    ESCAPE,
    FOLD,
    GROUPS,
    LOOSE,
    META,
    NEEDLE,
    PRESENT,
    SLUG,
    START,
    NativeGate,
)
from renamer.sweep.scan import ScanOptions
from renamer.unicode_names import might_fold
from tests.testing.repos import CONFIG, write_files

# Every old value of both configs below in the spellings the rules know, and the bytes around them.
PIECES = ["ana-ml2", "ANA_ML2", "Ana.Ml2", "ana\\-ml2", "a[n]a-ml2", "ana\\\\-ml2", "ana-ml2-bmc", "ana-ml20",
          "ana-\\\nml2", "ana-\\\r\n  ml2", "10.250.50.54", "10\\.250\\.50\\.54", "10\\\\.250", "10[.]250",
          "10-250-50-54", "54.50.250.10.in-addr.arpa", "$ORIGIN 250.10.in-addr.arpa.", "$origin ",
          "IN-ADDR.ARPA", "ana-ml1-3", "ana-ml{1..3}", "10.250.50.50-60", "ana-ml*", "ana-ml?", "10.250.50.*",
          "ana-ml\\d", "10\\.250\\.50\\.\\d+", "[0-9]{1,3}", "\\w+", ".*", "fv-ml1", "10.251.50.54",
          "::ffff:0afa:3236", "::FFFF:0AFA:3236", "2001:db8:50::54", "2001:DB8:50:0:0:0:0:54",
          "xn--bcher-kva", "bücher", "B\u00fcCHER", "\xff\xfe", "\xfe\xff", "\x00", "\r\n", "\\", "[", "]",
          " ", "-", "_", ".", "\n", "x", "ana", "ml2", "10.", "ANA", "web01", "web{01..03}", "#fv-ml1",
          "10.250.7.7", "10.250.0.0/15"]
# Spellings only a decoder reads (decoded.py, escapes.py, unicode_names.py), and their pieces, so
# that random bytes also put an escape or a quote inside a name.
DECODED = ["ana\\u002dml2", "ana%2Dml2", "ana%2dml2", "ana&#45;ml2", "ana&#x2D;ml2", "ana\\x2Dml2", "ana\\055ml2",
           "ana\\u{2d}ml2", "ana\\U0000002dml2", "ana\\N{HYPHEN-MINUS}ml2", "an\\a-ml2", "\\ana-ml2",
           "10%2E250%2E50%2E54", "10\\.250\\.50\\.5\\4", "1\\060.250.50.54", 'ana-"ml2"', "'ana-'ml2",
           'an""a-ml2', '"ana-"\'ml2\'', "${W:-ana}-ml2", "${X:-ana-ml2}.ana.lan", "${W-ana-}ml2", "b\\u00fccher",
           "b%C3%BCcher", "b&#252;cher", "b\\xfccher", "BÜCHER", "bu\u0308cher", "B\u00fcCHER.ana.lan",
           "xn--bcher-kva", "we\\x62\\x301", "web&#48;1", "%2D", "%2E", "\\x2d", "\\u002e", "&#45;", "&#x2e;",
           "\\055", "\\56", '"', "'", "}", "${W:-", "${W-", "\\", "%", "&#", "ü", "\u0308",
           # escapes of characters NFD or NFKC fold into a needle's (unicode_names.py, round 3 #18)
           "bu%CC%88cher", "bu\\u0308cher", "bu&#776;cher", "\uff41na-ml2", "%EF%BD%81na-ml2", "ana-ml2\u3002ana",
           "\\uff41na-ml2", "&#xff41;na-ml2", "ana\\045ml2", "\\045",
           # a zone's relative owner spelled with escapes, under an old FQDN's domain (break-it round 4 #3)
           "\\097na-ml2", "AN\\065\\045ML2", "ana\\-ml2 IN A", "$ORIGIN ana.lan.\n", " IN ", "\\097"]
contents = st.lists(st.sampled_from(PIECES + DECODED) | st.text(max_size=3), max_size=24).map(
    lambda parts: "".join(parts).encode("utf-8", "surrogateescape"))

WIDE = """\
version: 1
renames:
  hosts: {ana-ml2: fv-ml1, xn--bcher-kva: fv-books, web01: web11}
  addresses: {10.250.50.54: 10.251.50.54, 2001:db8:50::54: 2001:db8:51::54}
  networks: {10.250.0.0/16: 10.252.0.0/16}
options: {variants: true, derived_names: true}
allowlist: allow.yaml
"""
PRESENT_VALUES = (b"fv-ml1", b"10.251.50.54")
SLUGS = (b"#ana-ml2", b"ana-ml2-notes")


def _project(root: Path, config: str) -> LoadedProject:
    write_files(root, {"renamer.yaml": config, "allow.yaml": "version: 1\ncurrent: ['**']\n"})
    return load_project(root, None, root)


# Only an FQDN renamed: its first label (`ana-ml2`) is no needle, only a zone's relative owner.
FQDN = "version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.ana.lan}\nallowlist: allow.yaml\n"


@pytest.fixture(scope="module", params=["plain", "wide", "fqdn"])
def project(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> LoadedProject:
    config = {"plain": CONFIG, "wide": WIDE, "fqdn": FQDN}[request.param]
    return _project(tmp_path_factory.mktemp(request.param), config)


_COMPILED: dict[tuple[int, bool, tuple[bytes, ...]], NativeGate] = {}


def _gate(project: LoadedProject, loose: bool, slugs: tuple[bytes, ...] = SLUGS) -> NativeGate:
    """The database for a project, compiled once (as a scan compiles it once for all its files)."""
    key = (id(project), loose, slugs)
    if key not in _COMPILED:
        _COMPILED[key] = NativeGate(project.matcher, project.loose if loose else None, PRESENT_VALUES, slugs)
    return _COMPILED[key]


def _found(chunk: parallel.Chunk) -> tuple[object, ...]:
    """All a chunk found (its work counts aside: the native pass counts its own step)."""
    return chunk.scanned, chunk.kept, chunk.holding, chunk.linking, chunk.excluded


SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(data=contents)
def test_each_in_test_is_answered_exactly(project: LoadedProject, data: bytes) -> None:
    gate = _gate(project, loose=True)
    found = gate.questions_holding(data)
    assert (BREAK in found) == might_hold_break(data)
    assert (NEEDLE in found) == any(n in data for n in project.matcher.needles)
    assert (PRESENT in found) == any(v in data for v in PRESENT_VALUES)
    assert (SLUG in found) == any(s in data for s in SLUGS)
    # The loose needles over the folded copy without escapes, which the pattern spells on raw bytes.
    assert (LOOSE in found) == any(n in fold_and_bare(data) for n in project.loose.needles)



@SETTINGS
@given(data=contents)
def test_each_regex_test_holds_only_where_its_native_question_does(project: LoadedProject, data: bytes) -> None:
    gate = _gate(project, loose=True)
    found = gate.questions_holding(data)
    matcher = project.matcher
    if matcher.might_hold_context(data):
        assert CONTEXT in found or {START, META} <= found
    if might_split(matcher, data):
        assert BREAK in found
    if project.loose.might_match(data):
        assert LOOSE in found
    if patterns._META.search(data):
        assert META in found
    if matcher.might_match_any_case(data):
        assert ANY_CASE in found


@SETTINGS
@given(texts=st.lists(contents, min_size=1, max_size=4), loose=st.booleans())
def test_a_chunk_scanned_natively_is_the_chunk_python_scans(project: LoadedProject, texts: list[bytes],
                                                            loose: bool) -> None:
    names = [f"f{i}.{ext}" for i, ext in zip(range(len(texts)), ("txt", "md", "zone", "yaml"), strict=False)]
    for name, data in zip(names, texts, strict=True):
        (Path(project.root) / name).write_bytes(data)
    options = ScanOptions(loose=loose, present=PRESENT_VALUES)
    native = _gate(project, loose, anchor_literals(project))
    assert _found(parallel.scan_chunk(project, options, names, native)) == \
        _found(parallel.scan_chunk(project, options, names))


@SETTINGS
@given(data=contents)
# Escapes that spell only ASCII (`\\.`) and a fullwidth letter the fold reads: might_escape holds
# through might_fold of the decoded bytes, which FOLD answers (CI, stop 42).
@example(data=b"10\\.250\\.50\\.\\d+\xef\xbd\x81na-ml2")
def test_each_decoder_test_holds_only_where_its_native_question_does(project: LoadedProject, data: bytes) -> None:
    """The decoder tests (decoded.might_decode) are asked only where no needle stands: there, each
    holds only where ESCAPE, FOLD or the scan of the copy without joiners (JOINED) does."""
    gate = _gate(project, loose=True)
    matcher = project.matcher
    if any(n in data for n in matcher.needles):
        return  # a hit already: the decoder tests are not asked
    found = gate.questions_holding(data)
    joined = gate.holds_joined(data)
    if might_join_quotes(matcher, data) or might_join_default(matcher, data):
        assert joined
    # (A zone's relative owner spelled with escapes is a context too: Matcher.might_hold_zone_label.)
    if might_escape(matcher, data):
        # The decoded bytes hold a character outside ASCII only where the raw bytes do (FOLD) or
        # an escape spells one (ESCAPE's NON_ASCII_ESCAPE): might_escape asks might_fold of them.
        assert joined or {ESCAPE, CONTEXT, FOLD} & found
    if might_fold(matcher, data):
        assert FOLD in found
    if might_decode(matcher, data):
        assert joined or {ESCAPE, FOLD, CONTEXT} & found


@pytest.mark.parametrize("spelled", DECODED[:30])
def test_each_decoded_spelling_is_let_through(project: LoadedProject, spelled: str) -> None:
    """The decoded-spelling fixture, one spelling a file: what Python's decoders find, the native
    pass lets through, and the chunk is the one the Python pass gives."""
    data = f"host: {spelled}\n".encode("utf-8", "surrogateescape")
    gate = _gate(project, loose=False)
    if might_decode(project.matcher, data):
        answer = gate.answer(data, "f.txt", False, [])
        assert answer is not None and answer.hit
    (Path(project.root) / "spelled.sh").write_bytes(data)
    options = ScanOptions(present=PRESENT_VALUES)
    assert _found(parallel.scan_chunk(project, options, ["spelled.sh"], gate)) == \
        _found(parallel.scan_chunk(project, options, ["spelled.sh"]))


def test_the_meta_pattern_follows_the_pattern_probe_s() -> None:
    """META_SOURCE holds wherever patterns._META does: a change there must be made here too (the
    property above would find the difference only by chance)."""
    assert patterns._META.pattern == (rb"\\[dDwWsS]|\[[^\]\s]{1,40}\]|\{[0-9]{1,3}(?:,[0-9]{0,3})?\}"
                                      rb"|\.[*+?]|\*|\?")
    native = re.compile(native_gate.META_SOURCE)
    for sample in (b"\\d", b"\\S", b"[0-9]", b"[^.]", b"{2}", b"{1,3}", b".*", b".+", b".?", b"*", b"?"):
        assert patterns._META.search(sample) and native.search(sample), sample
    assert not native.search(b"[ x] {x} a+b [] web01 10.0.0.1")  # none of these is regex syntax
    group = re.compile(patterns._GROUP.pattern)  # alternations, read without a _META match
    for sample in (b"(11|12)", b"(?:pug|rex)", b"(?<h>pug|rex)", b"(?P<h>a|b|)"):
        assert group.search(sample) and native.search(sample), sample
    assert not native.search(b"(a) | (b) (x y|z)")


@pytest.mark.parametrize("data", [
    pytest.param(b"", id="empty"),
    pytest.param(b"\x00" * 70000, id="nul-over-one-read"),
    pytest.param(b"\xef\xbb\xbfhost: ANA_ML2\r\n", id="utf8-bom-crlf-variant"),
    pytest.param(b"ana-\\\n  ml2\n", id="split-by-a-line-break"),
    pytest.param(b"match: 10\\.250\\.50\\.\\d+\n", id="regex"),
    pytest.param(b"ANA-ML2 IN A 10.250.50.54\n", id="zone-any-case"),
])
def test_edge_bytes_give_the_python_answer(project: LoadedProject, tmp_path: Path, data: bytes) -> None:
    (Path(project.root) / "edge.zone").write_bytes(data)
    options = ScanOptions(loose=True, present=PRESENT_VALUES)
    native = _gate(project, loose=True)
    assert _found(parallel.scan_chunk(project, options, ["edge.zone"], native)) == \
        _found(parallel.scan_chunk(project, options, ["edge.zone"]))


def _noted(gate: NativeGate, project: LoadedProject, data: bytes) -> None:
    """What answer() tells the matcher of `data`: the context groups whose literals it holds."""
    found = gate.questions_holding(data)
    held = [name for number, (name, _) in enumerate(project.matcher.context_groups()) if GROUPS + number in found]
    project.matcher.note_held(data, held)


_READERS = ("number addresses", "access sets", "wildcard names")


@SETTINGS
@given(data=contents)
@example(data=b"http://184169014/ 0x0AFA3236")
@example(data=b"allow 10.250.50.0/24; grafana.10-250-50-54.nip.io")
def test_a_group_ruled_out_holds_none_of_its_readers_literals(project: LoadedProject, data: bytes) -> None:
    """Issue 30: sweep/scan.py skips a reader's own literal test (250 `in` tests a file under 50
    renamed addresses) where the native pass ruled its group out (Matcher.rules_out): sound only
    where that test would have said no."""
    matcher = project.matcher
    _noted(_gate(project, loose=True), project, data)
    tests = {"number addresses": matcher.numbers.holds_literal, "access sets": matcher.access.holds_literal,
             "wildcard names": matcher.wildcards.holds_literal}
    for group in _READERS:
        if matcher.rules_out(group, data):
            assert not tests[group](data), group


def test_rules_out_answers_only_for_the_bytes_the_native_pass_saw(tmp_path: Path) -> None:
    project = _project(tmp_path, CONFIG)  # 10.250.50.54 renamed: 184169014 is its single number
    matcher = project.matcher
    gate = NativeGate(matcher, project.loose, PRESENT_VALUES, SLUGS)
    plain, number = b"host: 10.250.50.54\n", b"url: http://184169014/\n"
    _noted(gate, project, plain)
    assert matcher.rules_out("number addresses", plain)  # no single-number spelling there
    assert not matcher.rules_out("number addresses", bytes(bytearray(plain)))  # other bytes: not answered
    _noted(gate, project, number)
    assert not matcher.rules_out("number addresses", number) and matcher.numbers.holds_literal(number)


# What the three prefilters of declared patterns, dialects and prefix tests ask, in other cases too,
# and a pattern around an old value's start beside them.
WORDS = ["server_name ~", "location ~*", "if ($host ~", "=~", "hdr_reg(host)", "-m reg", "RewriteCond",
         "WHERE h LIKE '", "like \"", "SIMILAR TO '", "}}", "{{", "${", "MATCH(", "string.find(", "grep -i '",
         "re.search(", "startswith(", "StartsWith(", "(?i)", " -i ", "[!", "[[:digit:]]", "With", "PREFIX",
         "Includes(", "contains(", "indexOf(", "STRSTR(", "strpos(", "InStr(", "' in ", '" not in ', "~", "REG",
         "ike ", "imilar to", "%.", "~*", "'", '"', "(", ")"]
with_words = st.lists(st.sampled_from(PIECES + WORDS) | st.text(max_size=3), max_size=24).map(
    lambda parts: "".join(parts).encode("utf-8", "surrogateescape"))


@SETTINGS
@given(data=with_words)
@example(data=b"server_name ~^ana-ml\\d$;")
@example(data=b"if h.STARTSWITH('ana-ml'):")
def test_the_pattern_probe_told_no_pattern_word_stands_answers_as_it_did(project: LoadedProject,
                                                                         data: bytes) -> None:
    """Issue 30: where the native pass rules the "pattern words" group out (none of
    declared_patterns.WORDS in any case), find_patterns skips its prefilters for declared patterns,
    dialects and prefix tests (14 `in` tests and a lower-cased copy of each file): sound only where
    they would have said no, so the probe's answer is the one it gives unaided."""
    matcher = project.matcher
    _noted(_gate(project, loose=True), project, data)
    ruled_out = matcher.rules_out("pattern words", data)
    if ruled_out:
        assert not declared_patterns.might_hold(data)
    olds, starts, news = matcher._pattern_olds, matcher._pattern_starts, matcher._pattern_news
    assert patterns.find_patterns(data, olds, starts, news, declared=not ruled_out) == \
        patterns.find_patterns(data, olds, starts, news)
