"""record_spans: records inside a current file by its structure (issue 27, t35-sweep 10, 13-15)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

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
        assert record_spans.spans("ops/x.log", [spelled, spelled], CUTOVER), spelled


@pytest.mark.parametrize("path, lines", [
    ("dhcp-reservations.csv", ["2024-01-15,web01,10.0.0.5,52:54:00:12:34:56", "2024-03-02,db01,10.0.0.6,52:54:00:12:34:57"]),
    ("inventory.csv", ["added,hostname,ip,mac", "2024-01-15,web01,10.0.0.5,aa", "2024-03-02,db01,10.0.0.6,bb"]),
    ("certs.txt", ["2026-11-30 web01.lab.example renew-by", "2025-03-01 db01.lab.example renew-by"]),
    ("backup-schedule.tsv", ["2025-01-01\tweb01\tdaily\t/srv", "2025-01-01\tdb01\thourly\t/var/lib/pg"]),
    ("hosts/leases.csv", ["since;host;ip", "2023-06-01;web01;10.0.0.5", "2024-02-02;db01;10.0.0.6"]),
    ("expiry.md", ["| 2025-05-01 | web01 | cert |", "| 2025-06-01 | db01 | cert |"]),
])
def test_a_live_table_whose_first_column_is_a_date_is_no_record(path: str, lines: list[str]) -> None:
    """t37-break, finding 01: a date alone is no record; a reservation's `added` date, a renewal
    date, a schedule's start are current state, rewritten with the machine."""
    assert record_spans.spans(path, lines, CUTOVER) == []


@pytest.mark.parametrize("path, lines", [
    ("ledger/m.csv", ["2025-03-01,web01,10.0.0.70", "2025-04-12,web01,10.0.0.70"]),  # the path says so
    ("ops/reboots.csv", ["2025-03-01,web01", "2025-04-12,db01"]),
    ("m.csv", ["date,host,action", "2025-03-01,web01,kernel", "2025-04-12,web01,disk"]),  # a header says what happened
    ("m.tsv", ["when\thost\tevent", "2025-03-01\tweb01\treboot", "2025-04-12\tweb01\tdisk"]),
    ("notes.txt", ["2025-03-01 10:00 web01 rebooted", "2025-04-12 11:30 web01 disk"]),  # times of day
])
def test_a_file_of_dated_rows_that_says_it_is_a_log_keeps_them(path: str, lines: list[str]) -> None:
    found = record_spans.spans(path, lines, CUTOVER)
    assert found and {s.reason for s in found} == {"dated-row"}, found


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
