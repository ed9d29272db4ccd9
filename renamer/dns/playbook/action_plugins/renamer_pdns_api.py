# Written by renamer: do not edit, renamer rewrites this folder.
"""One call to a PowerDNS HTTP API, made on the control node inside Ansible's own process.

The playbook's PowerDNS steps (tasks/powerdns*.yml, tasks/restore_powerdns.yml) talk to the
API from the control node. ansible.builtin.uri would do that too, but each call of a module is a
new Python process on the host (the module, its module_utils, a JSON round trip): about a third
of a second of CPU per call, and the steps loop over every zone of a resolver several times (the
lock is read three times). An action plugin runs where the playbook runs, with no process
of its own: the same calls, about ten times cheaper for a resolver of many zones.

Arguments (the subset of ansible.builtin.uri's the playbook uses, with its meaning):
  url          the full URL
  method       GET (default), POST, PUT, PATCH, DELETE
  headers      a mapping; the API key travels here and never in the result
  body         a mapping or list, sent as JSON (body_format: json is the only format)
  status_code  the statuses that are a success (default [200])
  timeout      seconds (default 30)

The result has uri's keys that the playbook reads: status (-1 when the API was not reached),
json (the body, where it is JSON), msg, url, changed (a successful call that is not a GET) and
failed (a status not in status_code). The tasks that carry the key are no_log all the same.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from ansible.plugins.action import ActionBase

DOCUMENTATION = """
    name: renamer_pdns_api
    short_description: one PowerDNS HTTP API call from the control node (renamer)
    description:
      - Sends one request to a PowerDNS HTTP API in the controller's process and returns
        status, json, msg and url as ansible.builtin.uri does.
"""

_ARGS = frozenset(("url", "method", "headers", "body", "body_format", "status_code", "timeout"))


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _VALID_ARGS = _ARGS

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)  # refuses an argument not in _VALID_ARGS
        args = self._task.args
        if args.get("body_format", "json") != "json":
            return {**result, "failed": True, "msg": "renamer_pdns_api: body_format must be json"}
        url = str(args["url"])
        method = str(args.get("method") or "GET").upper()
        wanted = args.get("status_code", [200])
        wanted = [int(code) for code in (wanted if isinstance(wanted, list) else [wanted])]
        headers = {str(k): str(v) for k, v in (args.get("headers") or {}).items()}
        data = None
        if args.get("body") is not None:
            data = json.dumps(args["body"]).encode()
            headers.setdefault("Content-Type", "application/json")
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        status, text, msg = -1, "", ""
        try:
            with urllib.request.urlopen(request, timeout=float(args.get("timeout", 30))) as response:
                status, text = response.status, response.read().decode("utf-8", "replace")
                msg = f"OK ({len(text)} bytes)"
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode("utf-8", "replace")
            msg = f"HTTP Error {error.code}: {error.reason}"
        except (urllib.error.URLError, OSError, ValueError) as error:
            reason = getattr(error, "reason", error)
            msg = f"Request failed: {reason}"
        result.update({"status": status, "url": url, "msg": msg,
                       "changed": method != "GET" and status in wanted, "failed": status not in wanted})
        if status not in wanted:
            result["msg"] = f"Status code was {status} and not {wanted}: {msg}"
        try:
            result["json"] = json.loads(text) if text else None
        except ValueError:
            result["content"] = text[:2000]
        if result.get("json") is None:
            result.pop("json", None)
        return result
