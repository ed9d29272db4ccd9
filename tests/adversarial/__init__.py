"""A runner for the 95-case table of shared/reports/adversarial-pass-1.md ("## All cases").

Every case of the report is one small function (see cases.py and the
cases_<area>.py modules) that builds its own scratch git repo, with real git,
real files, real dnsmasq resolvers on loopback and a real sshd where the case is
about DNS, runs renamer through its CLI and gives a verdict:

* ok: renamer does what the table's "expected" column asks (for a bug row:
  the fixed behaviour);
* decided: a doubtful row; the detail says what renamer does now and whether
  the docs say so;
* bug: renamer still does something else (the detail says what), crashed, or
  the case itself raised.

Where the report's setup is too slow or needs root, a case says how it departs,
in its docstring and its detail: case 59 uses a 20 MB line (not 100 MB), case 61
20k matches, the SIGKILL cases (68-70, 84) kill a process held at a chosen
point (hold.py) a few times, and without root the chattr/chown cases inject the
fault the way tests/cli/test_adversarial.py does.

Modules: harness.py (registry, verdicts, the scratch repo, running the CLI),
faults.py and hold.py (faults and kill points), dnslab.py (resolvers, sshd),
cases.py (CASES, all 95), cases_<area>.py (the cases), __main__.py (the table),
test_table.py (the same as a pytest module).

Run it from the repository root:

    .venv/bin/python -m tests.adversarial                 # the whole table, as Markdown
    .venv/bin/python -m tests.adversarial --only 17,59    # some cases
    .venv/bin/pytest tests/adversarial -q -p no:cacheprovider

The command exits 1 when any row is a bug; the pytest module fails on a bug row.
"""
