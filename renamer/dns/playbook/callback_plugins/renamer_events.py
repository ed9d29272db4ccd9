# Written by renamer: do not edit, renamer rewrites this folder.
"""Append one JSON object per line to the file named by $RENAMER_EVENTS.

Events (keys always present unless noted):
  {"event": "batch", "batch": n, "play": name}                  a serial batch starts
                                                  (not the play named "Preflight ...")
  {"event": "ok"|"changed"|"failed"|"skipped"|"unreachable"|"rescued",
   "host": inventory name, "task": task name, "msg": short text,
   "batch": n, "ts": unix time}
      "rescued": the task failed inside a block that has a rescue section
      (the rescue runs next); "failed" is a failure that is not rescued
      (also reported with "ignored": true when ignore_errors applied).
  {"event": "stats", "host": ..., "ok": n, "changed": n, "failed": n,
   "unreachable": n, "rescued": n, "skipped": n, "ignored": n}   at the end
"""

from __future__ import annotations

import json
import os
import time

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = """
    name: renamer_events
    type: notification
    short_description: JSON-lines event log for renamer
    description:
      - Appends one JSON object per task result to the file named by the
        RENAMER_EVENTS environment variable; does nothing when it is unset.
    requirements:
      - enabled in ansible.cfg (callbacks_enabled = renamer_events)
"""

MSG_MAX = 400  # characters kept from msg / stderr


def _tail(text, limit=MSG_MAX):
    text = str(text).strip()
    return text if len(text) <= limit else "..." + text[-limit:]


def _message(res):
    """Short human text for one result dict (a loop: its first failed item)."""
    items = res.get("results")
    if isinstance(items, list):
        failed = [r for r in items if isinstance(r, dict) and r.get("failed")]
        if failed:
            res = failed[0]
    for key in ("stderr", "msg", "skip_reason", "stdout"):
        value = res.get(key)
        if value:
            return _tail(value if isinstance(value, str) else json.dumps(value, default=str))
    return ""


def _in_rescued_block(task):
    """True if `task` sits in the `block:` part of a block that has `rescue:`.

    Walks the parent chain (Block / TaskInclude); at each Block with a rescue
    section, checks whether the child we came from is one of its block tasks.
    """
    child, parent = task, getattr(task, "_parent", None)
    while parent is not None:
        rescue = getattr(parent, "rescue", None)
        body = getattr(parent, "block", None)
        if rescue and isinstance(body, list):
            uuid = getattr(child, "_uuid", None)
            if any(getattr(t, "_uuid", None) == uuid for t in body):
                return True
        child, parent = parent, getattr(parent, "_parent", None)
    return False


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "notification"
    CALLBACK_NAME = "renamer_events"
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._path = os.environ.get("RENAMER_EVENTS") or None
        self._batch = 0
        self._host_batch = {}

    def _write(self, event):
        if not self._path:
            return
        # Opened per event: cheap at this volume, and every line is complete
        # on disk as soon as it is written (renamer may tail the file).
        with open(self._path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(event, default=str, sort_keys=False) + "\n")

    def _result_event(self, kind, result, **extra):
        host = result._host.get_name()
        self._host_batch.setdefault(host, self._batch)
        res = getattr(result, "result", None)  # ansible-core >= 2.19
        if res is None:
            res = result._result
        event = {
            "event": kind,
            "host": host,
            "task": result._task.get_name(),
            "msg": _message(res),
            "batch": self._host_batch[host],
            "ts": round(time.time(), 3),
        }
        event.update(extra)
        self._write(event)

    # -- play / batch -------------------------------------------------------
    def v2_playbook_on_play_start(self, play):
        # Ansible sends play_start once per serial batch. The preflight play is none (a hand
        # run's checks before the first batch; under renamer's own run it has no host).
        if play.get_name().startswith("Preflight"):
            return
        self._batch += 1
        self._write({"event": "batch", "batch": self._batch, "play": play.get_name(),
                     "ts": round(time.time(), 3)})

    # -- task results -------------------------------------------------------
    def v2_runner_on_ok(self, result):
        self._result_event("changed" if result.is_changed() else "ok", result)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        if ignore_errors:
            self._result_event("failed", result, ignored=True)
        elif _in_rescued_block(result._task):
            self._result_event("rescued", result)
        else:
            self._result_event("failed", result)

    def v2_runner_on_skipped(self, result):
        self._result_event("skipped", result)

    def v2_runner_on_unreachable(self, result):
        self._result_event("unreachable", result)

    # -- end ----------------------------------------------------------------
    def v2_playbook_on_stats(self, stats):
        for host in sorted(stats.processed):
            s = stats.summarize(host)
            self._write({
                "event": "stats", "host": host, "batch": self._host_batch.get(host),
                "ok": s["ok"], "changed": s["changed"], "failed": s["failures"],
                "unreachable": s["unreachable"], "rescued": s["rescued"],
                "skipped": s["skipped"], "ignored": s["ignored"],
            })
