"""The Ansible engine's outcome of a resolver, read from the playbook's events (pure: no playbook
run; the runs themselves are in test_ansible_engine.py, test_ansible_rollback.py and
powerdns/test_removed_site_powerdns.py)."""

from __future__ import annotations

from renamer.dns.ansible_engine import outcomes
from renamer.dns.load import load_inventory
from renamer.shipped import shipped


def test_a_failed_rollback_names_what_failed_first_then_the_rollback() -> None:
    """As the built-in engine: the step the rescue answered, then the rollback's own failure (before:
    the rollback's alone, the cause of the rollback lost)."""
    resolver = load_inventory(shipped("dns")).resolvers[0]
    host = resolver.name
    events = [{"host": host, "task": "Apply | back up and mark the host half-done", "event": "changed", "msg": ""},
              {"host": host, "task": "Apply | stop if a PATCH failed", "event": "rescued",
               "msg": "250.10.in-addr.arpa.: http://pdns/zones/250.10.in-addr.arpa.: HTTP 500: full"},
              {"host": host, "task": "Restore | stop if the zones could not be read or patched", "event": "failed",
               "msg": "ana.lan.: http://pdns/zones/ana.lan.: HTTP 500: full"}]
    [outcome] = outcomes([resolver], events, {host: "/backups/x"}, 2)
    assert outcome.status == "rollback FAILED"
    assert outcome.error == ("Apply | stop if a PATCH failed: 250.10.in-addr.arpa.: http://pdns/zones/"
                             "250.10.in-addr.arpa.: HTTP 500: full; ana.lan.: http://pdns/zones/ana.lan.: HTTP 500: full")
    assert outcome.steps == ["backup /backups/x"]  # never "restored"

    alone = outcomes([resolver], [events[0], events[2]], {host: "/backups/x"}, 2)[0]  # no cause in the events
    assert alone.status == "rollback FAILED" and alone.error == "ana.lan.: http://pdns/zones/ana.lan.: HTTP 500: full"
