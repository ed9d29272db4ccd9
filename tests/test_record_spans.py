"""record_spans: records inside a current file by its structure (issue 27, t35-sweep 10, 13-15)."""

from __future__ import annotations

import datetime as dt
import json

from renamer import record_spans
from renamer.record_spans import Span

CUTOVER = dt.date(2026, 1, 1)


def _notebook(indent: int | None) -> list[str]:
    book = {"cells": [
        {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": ["!ping -c1 web01\n"],
         "outputs": [{"output_type": "stream", "name": "stdout",
                      "text": ["PING web01 (10.0.0.70) ] } [ \" \\\n", "64 bytes from web01\n"]}]},
        {"cell_type": "markdown", "metadata": {}, "source": ["web01 is the web server\n"]},
        {"cell_type": "code", "execution_count": 2, "metadata": {}, "source": ["host web01"], "outputs": []},
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(book, indent=indent).split("\n")


def test_a_notebook_s_outputs_are_records_its_source_is_not() -> None:
    lines = _notebook(1)
    found = record_spans.spans("nb/check.ipynb", lines, CUTOVER)
    kept = {index for span in found for index in range(span.start, span.end)}
    assert {span.reason for span in found} == {"notebook-output"}
    for index, line in enumerate(lines):
        if "PING web01" in line or "64 bytes" in line:
            assert index in kept, line
        if '"source"' in line or "web01 is the web server" in line or "host web01" in line:
            assert index not in kept, line
    assert all("whole line" not in span.note for span in found)


def test_a_notebook_on_one_line_is_kept_whole_and_says_so() -> None:
    lines = _notebook(None)
    assert len(lines) == 1
    (span,) = record_spans.spans("check.ipynb", lines, CUTOVER)
    assert (span.start, span.end) == (0, 1)
    assert "whole line is kept" in span.note


def test_a_spec_s_changelog_to_the_next_section_or_the_end() -> None:
    lines = ["Name: app", "Source0: http://web01/app.tgz", "%files", "/opt/app", "%changelog",
             "* Sat Mar 01 2025 ops <root@web01> - 1.0", "- first build on web01", ""]
    assert record_spans.spans("app.spec", lines, CUTOVER) == [
        Span(4, 8, "spec-changelog", record_spans.spec_changelog(lines)[0].note)]
    moved = [*lines[:4], *lines[4:7], "%package devel", "Summary: web01"]
    assert [(s.start, s.end) for s in record_spans.spans("x.spec", moved, CUTOVER)] == [(4, 7)]
    assert record_spans.spans("x.spec", lines[:4], CUTOVER) == []


def test_dated_rows_before_the_cutover_are_records_after_it_current() -> None:
    csv = ["date,host,ip,action", "2025-03-01,web01,10.0.0.70,kernel", "2025-04-12,web01,10.0.0.70,disk",
           "2026-02-01,web01,10.0.0.70,planned"]
    assert [(s.start, s.end) for s in record_spans.spans("ledger/m.csv", csv, CUTOVER)] == [(1, 2), (2, 3)]
    log = ["2025-03-01 10:00:00,123 p=1 u=root | ok: [web01] => {", '    "ansible_host": "10.0.0.70"',
           "}", "2025-03-01 10:00:01,000 p=1 u=root | PLAY RECAP web01"]
    kept = {i for s in record_spans.spans("run.txt", log, CUTOVER) for i in range(s.start, s.end)}
    assert kept == {0, 1, 2, 3}  # continuation lines belong to their row
    for spelled in ("[2025/03/01 10:00] web01", '"2025-03-01","web01"', "2025-03-01T10:00:00Z web01"):
        assert record_spans.spans("x", [spelled, spelled], CUTOVER), spelled


def test_a_date_here_and_there_is_no_file_of_dated_rows() -> None:
    config = ["web01 10.0.0.70", "# 2025-03-01 moved", "2025-03-01 web01", "db01 10.0.0.71", "x"]
    assert record_spans.spans("hosts", config, CUTOVER) == []
    assert record_spans.spans("one", ["2025-03-01 web01"], CUTOVER) == []
    assert record_spans.spans("bad", ["2025-13-45 web01", "2025-14-01 web01"], CUTOVER) == []
    assert record_spans.spans("x", ["2025-03-01 a", "b"], None) == []


def test_saved_tool_output_by_its_first_line() -> None:
    firsts = {
        '<?xml version="1.0"?>': "nmap scan (XML)",
        "<nmaprun scanner=\"nmap\">": "nmap scan (XML)",
        "# Nmap 7.94 scan initiated Sat Mar  1 10:00:00 2025 as: nmap -sV 10.0.0.0/24": "nmap scan",
        "Starting Nmap 7.80 ( https://nmap.org ) at 2025-03-01 10:00 UTC": "nmap scan",
        "Terraform will perform the following actions:": "terraform/tofu plan",
        "Terraform used the selected providers to generate the following execution plan.": "terraform",
        "OpenTofu will perform the following actions:": "tofu plan",
        "PLAY [web] *********************************************": "ansible-playbook",
        "From ops@example.org Sat Mar  1 10:00:00 2025": "mbox",
    }
    for first, what in firsts.items():
        lines = ["", first, '<nmaprun scanner="nmap">' if first.startswith("<?xml") else "web01 10.0.0.70"]
        found = record_spans.spans("saved.txt", lines, CUTOVER)
        assert [(s.start, s.end, s.reason) for s in found] == [(0, 3, "tool-output")], first
        assert what in found[0].note, (first, found[0].note)
    for live in ('<?xml version="1.0"?>\n<config>', "Terraform is great\nweb01", "PLAY [web]\nweb01",
                 "From: ops\nweb01", "# Nmap notes\nweb01"):
        assert record_spans.spans("x.txt", live.split("\n"), CUTOVER) == [], live
