"""Reading a resolver's whole dnsmasq configuration as dnsmasq reads it: an in-memory Reader for
the rules, LocalTransport on real files for the adapter, and one real sandbox dnsmasq."""

from __future__ import annotations

import posixpath
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renamer.dns.dnsmasq import sandbox
from renamer.dns.dnsmasq.config import read_effective
from renamer.dns.dnsmasq.effective import COMMAND_LINE, Effective, Reader, TransportReader, reader_for
from renamer.dns.dnsmasq.leases import DEFAULT_LEASE_FILE, Lease, parse_leases
from renamer.dns.dnsmasq.render import SNIPPET
from renamer.dns.dnsmasq.syntax import Directive, HostsEntry
from renamer.dns.dnsmasq.syntax import reverse_zones as _reverse_zones
from renamer.dns.transport import LocalTransport, TransportError

MAIN = "/etc/dnsmasq.conf"


class FakeReader:
    """Files by absolute path; a folder is any prefix of a file path, or one named in `folders`."""

    def __init__(self, files: dict[str, str | bytes], folders: tuple[str, ...] = ()) -> None:
        self.files = {path: data.encode() if isinstance(data, str) else data for path, data in files.items()}
        self.folders = {f.rstrip("/") or "/" for f in folders}
        self.reads: list[str] = []

    def read(self, path: str) -> bytes | None:
        self.reads.append(path)
        return self.files.get(path)

    def list_dir(self, folder: str) -> list[str] | None:
        folder = folder.rstrip("/") or "/"
        prefix = folder if folder.endswith("/") else folder + "/"
        names = {path[len(prefix):].split("/")[0] for path in [*self.files, *self.folders]
                 if path.startswith(prefix)}
        if not names and folder not in self.folders:
            return None
        return sorted(names, reverse=True)  # not sorted the way dnsmasq reads: the reader must sort


def effective(files: dict[str, str | bytes], *, folders: tuple[str, ...] = (), no_hosts: bool = True,
              **kwargs: object) -> Effective:
    """read_effective on a fake tree; `no-hosts` is added to the main file unless asked otherwise."""
    if no_hosts:
        main = files.get(MAIN, "")
        files = {**files, MAIN: b"no-hosts\n" + (main.encode() if isinstance(main, str) else main)}
    return read_effective(FakeReader(files, folders), **kwargs)  # type: ignore[arg-type]


def where(eff: Effective) -> list[tuple[str, int, str, str]]:
    return [(d.file, d.line, d.key, d.value) for d in eff.directives]


# line syntax

def test_lines_are_parsed_as_dnsmasq_reads_them() -> None:
    eff = effective({MAIN: (
        "# a full-line comment\n"
        "   # an indented comment\n"
        "\n"
        "domain-needed\r\n"
        "no-resolv # a comment after whitespace: dnsmasq drops it\n"
        "port = 5353\n"
        "\tlisten-address=127.0.0.1\t\n"
        "server=/a.lan/10.0.0.1#5353\n"
        'txt-record=_renamer.fv.fv.lan,"c12d #0101"\n'
        "conf-file=\n"
        "local=/b.lan/\n"
    )}, no_hosts=False, folders=())
    assert where(eff) == [
        (MAIN, 4, "domain-needed", ""),
        (MAIN, 5, "no-resolv", ""),
        (MAIN, 6, "port", "5353"),
        (MAIN, 7, "listen-address", "127.0.0.1"),
        (MAIN, 8, "server", "/a.lan/10.0.0.1#5353"),  # a `#` glued to a value is no comment
        (MAIN, 9, "txt-record", '_renamer.fv.fv.lan,"c12d #0101"'),  # nor one inside quotes
        (MAIN, 10, "conf-file", ""),
        (MAIN, 11, "local", "/b.lan/"),
    ]
    assert eff.files == [MAIN]
    assert eff.problems == ["/etc/hosts (no no-hosts): failed to load names from /etc/hosts: no such file"]


def test_bad_content_is_a_problem_never_an_exception() -> None:
    eff = effective({MAIN: b'txt-record=x,"unclosed\n=value\n\xff\xfe\x00server=/\n'})
    assert [d.key for d in eff.directives] == ["no-hosts", "\ufffd\ufffd\x00server"]
    assert eff.problems == [f"{MAIN}:2: missing closing \" (dnsmasq refuses the line)",
                            f"{MAIN}:3: no option name before '=' (dnsmasq: bad option)"]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400), st.text(max_size=200))
def test_no_content_raises(conf: bytes, hosts: str) -> None:
    files: dict[str, str | bytes] = {MAIN: conf + b"\naddn-hosts=/h\nconf-file=/x\nconf-dir=/d\n", "/h": hosts,
                                     "/x": conf, "/d/a": hosts}
    eff = read_effective(FakeReader(files))
    assert eff.files[0] == MAIN
    eff.forwards("fv.lan")
    eff.reads_folder("/d")
    eff.lease_file()
    parse_leases(conf)


# conf-file

def test_conf_file_chain_is_read_in_place_depth_first() -> None:
    eff = effective({
        MAIN: "port=1\nconf-file=/etc/a.conf\nport=4\n",
        "/etc/a.conf": "port=2\nconf-file=/etc/b.conf\n",
        "/etc/b.conf": "port=3\n",
    })
    assert [(d.file, d.value) for d in eff.values("port")] == [
        (MAIN, "1"), ("/etc/a.conf", "2"), ("/etc/b.conf", "3"), (MAIN, "4")]
    assert eff.files == [MAIN, "/etc/a.conf", "/etc/b.conf"]
    assert eff.problems == []


def test_relative_conf_file_is_opened_from_dnsmasqs_working_directory_not_the_including_file() -> None:
    files: dict[str, str | bytes] = {
        MAIN: "conf-file=sub/b.conf\n",
        "/etc/sub/b.conf": "conf-file=c.conf\n",
        "/etc/c.conf": "port=53\n",
        "/etc/sub/c.conf": "port=99\n",  # next to b.conf: dnsmasq 2.90 does NOT read this one
    }
    eff = effective(files, cwd="/etc")
    assert eff.files == [MAIN, "/etc/sub/b.conf", "/etc/c.conf"]
    assert [d.value for d in eff.values("port")] == ["53"]
    at_root = effective(files)  # systemd starts dnsmasq in /
    assert at_root.files == [MAIN]
    assert at_root.problems == [f"{MAIN}:2: cannot read /sub/b.conf: no such file (dnsmasq refuses to start)"]


def test_quoted_path_is_unquoted() -> None:
    eff = effective({MAIN: 'conf-file="/etc/with space.conf" # why\n', "/etc/with space.conf": "port=1\n"})
    assert eff.files == [MAIN, "/etc/with space.conf"]


def test_missing_file_is_a_problem_and_reading_goes_on() -> None:
    eff = effective({MAIN: "conf-file=/etc/gone.conf\nport=1\n"})
    assert eff.problems == [f"{MAIN}:2: cannot read /etc/gone.conf: no such file (dnsmasq refuses to start)"]
    assert [d.value for d in eff.values("port")] == ["1"]


def test_missing_main_file_is_a_problem() -> None:
    eff = read_effective(FakeReader({}))
    assert eff.files == [] and eff.directives == []
    assert eff.problems == [
        f"{COMMAND_LINE}: main config: cannot read {MAIN}: no such file (dnsmasq refuses to start)",
        "/etc/hosts (no no-hosts): failed to load names from /etc/hosts: no such file"]


def test_include_loop_is_a_problem_and_each_file_is_read_once() -> None:
    eff = effective({
        MAIN: "conf-file=/etc/a.conf\nconf-file=/etc/b.conf\n",
        "/etc/a.conf": "port=1\nconf-file=/etc/b.conf\n",
        "/etc/b.conf": "port=2\nconf-file=/etc//a.conf\n",  # back to a: the loop
    })
    assert eff.files == [MAIN, "/etc/a.conf", "/etc/b.conf"]
    assert [d.value for d in eff.values("port")] == ["1", "2"]
    assert eff.problems == ["/etc/b.conf:2: include loop /etc/a.conf -> /etc/b.conf -> /etc/a.conf: "
                            "dnsmasq reads a file only once, so the loop ends"]  # MAIN's second include: silent


def test_a_file_including_itself_is_a_loop() -> None:
    eff = effective({MAIN: "conf-file=/etc/dnsmasq.conf\n"})
    assert eff.files == [MAIN]
    assert len(eff.problems) == 1 and "include loop" in eff.problems[0]


def test_nesting_stops_at_twenty() -> None:
    files: dict[str, str | bytes] = {MAIN: "conf-file=/c/1\n"}
    files.update({f"/c/{i}": f"port={i}\nconf-file=/c/{i + 1}\n" for i in range(1, 30)})
    eff = effective(files)
    assert len(eff.files) == 20  # MAIN and /c/1 ... /c/19
    assert eff.problems == ["/c/19:2: /c/20: not read: more than 20 nested config files"]


def test_file_and_size_limits_stop_reading_with_a_problem() -> None:
    files: dict[str, str | bytes] = {MAIN: "".join(f"conf-file=/c/{i}\n" for i in range(10))}
    files.update({f"/c/{i}": "port=1\n" for i in range(10)})
    few = effective(files, max_files=4)
    assert few.files == [MAIN, "/c/0", "/c/1", "/c/2"]
    assert few.problems == ["/c/3: not read: more than 4 files to read; reading stopped"]
    small = effective({MAIN: "conf-file=/big\nconf-file=/c/0\n", "/big": "#" * 100, "/c/0": "port=1\n"},
                      max_bytes=90)
    assert small.files == [MAIN]
    assert small.problems == ["/big: not read: more than 90 bytes in all; reading stopped"]


def test_stdin_and_conf_script_are_named_as_unknown() -> None:
    eff = effective({MAIN: "conf-file=-\nconf-script=/usr/local/bin/gen arg\n"})
    assert eff.problems == [f"{MAIN}:2: conf-file=- reads dnsmasq's standard input: not known here",
                            f"{MAIN}:3: conf-script output is not known here (the script is not run)"]


# conf-dir

def test_conf_dir_required_suffix() -> None:
    eff = effective({
        MAIN: "conf-dir=/etc/dnsmasq.d/,*.conf\n",
        "/etc/dnsmasq.d/renamer-fv.conf": "local=/fv.lan/\n",
        "/etc/dnsmasq.d/local.conf": "address=/x.lan/10.0.0.9\n",
        "/etc/dnsmasq.d/README": "not a config\n",
        "/etc/dnsmasq.d/old.conf.bak": "bogus\n",
        "/etc/dnsmasq.d/.conf": "bogus\n",
    })
    assert eff.files == [MAIN, "/etc/dnsmasq.d/local.conf", "/etc/dnsmasq.d/renamer-fv.conf"]
    assert eff.snippet_dirs == [("/etc/dnsmasq.d/", "*.conf")]
    assert eff.problems == []


def test_conf_dir_several_required_suffixes_any_one_loads() -> None:
    eff = effective({MAIN: "conf-dir=/d, *.conf , *.cfg,*\n", "/d/a.conf": "", "/d/b.cfg": "", "/d/c": ""})
    assert eff.files == [MAIN, "/d/a.conf", "/d/b.cfg"]
    assert eff.snippet_dirs == [("/d", "*.conf,*.cfg,*")]


def test_conf_dir_exclusions() -> None:
    eff = effective({
        MAIN: "conf-dir=/etc/dnsmasq.d,.dpkg-dist,.dpkg-old,.bak\n",
        "/etc/dnsmasq.d/a.conf": "", "/etc/dnsmasq.d/plain": "", "/etc/dnsmasq.d/a.conf.dpkg-old": "",
        "/etc/dnsmasq.d/x.bak": "", "/etc/dnsmasq.d/.bak": "",
    })
    assert eff.files == [MAIN, "/etc/dnsmasq.d/a.conf", "/etc/dnsmasq.d/plain"]


@pytest.mark.parametrize("name", ["b.conf~", ".hidden.conf", "#autosave.conf#", "#", "~"])
def test_conf_dir_always_skips_editor_files(name: str) -> None:
    eff = effective({MAIN: "conf-dir=/d\n", "/d/a.conf": "", f"/d/{name}": "bogus\n"})
    assert eff.files == [MAIN, "/d/a.conf"]


def test_conf_dir_keeps_a_name_with_a_hash_at_one_end_only() -> None:
    eff = effective({MAIN: "conf-dir=/d\n", "/d/#a.conf": "", "/d/b#": ""})
    assert eff.files == [MAIN, "/d/#a.conf", "/d/b#"]


def test_conf_dir_reads_in_byte_order() -> None:
    names = ["b.conf", "a.conf", "B.conf", "10-x.conf", "9-x.conf", "a-b.conf", "a_b.conf"]
    eff = effective({MAIN: "conf-dir=/d,*.conf\n", **{f"/d/{n}": f"port={n}\n" for n in names}})
    assert [posixpath.basename(f) for f in eff.files[1:]] == [
        "10-x.conf", "9-x.conf", "B.conf", "a-b.conf", "a.conf", "a_b.conf", "b.conf"]


def test_conf_dir_skips_folders_and_missing_folder_is_a_problem() -> None:
    eff = effective({MAIN: "conf-dir=/d\nconf-dir=/gone,*.conf\n", "/d/a.conf": "", "/d/sub/x.conf": ""})
    assert eff.files == [MAIN, "/d/a.conf"]
    assert eff.problems == [f"{MAIN}:3: cannot access directory /gone (dnsmasq refuses to start)"]
    assert eff.snippet_dirs == [("/d", ""), ("/gone", "*.conf")]


def test_conf_dir_file_already_read_is_not_read_again() -> None:
    eff = effective({MAIN: "conf-file=/d/a.conf\nconf-dir=/d\n", "/d/a.conf": "port=1\n", "/d/b.conf": ""})
    assert eff.files == [MAIN, "/d/a.conf", "/d/b.conf"]
    assert eff.problems == []


def test_conf_dir_given_on_the_command_line_as_debian_does() -> None:
    eff = effective({"/etc/dnsmasq.d/renamer-fv.conf": "local=/fv.lan/\n", "/etc/dnsmasq.d/x.dpkg-old": ""},
                    options=["--conf-dir=/etc/dnsmasq.d,.dpkg-dist,.dpkg-old,.dpkg-new", "local-service"])
    assert eff.files == ["/etc/dnsmasq.d/renamer-fv.conf", MAIN]  # the command line comes first
    assert eff.directives[0] == Directive(COMMAND_LINE, 1, "conf-dir", "/etc/dnsmasq.d,.dpkg-dist,.dpkg-old,.dpkg-new")
    assert eff.reads_folder("/etc/dnsmasq.d")


def test_extra_conf_files_are_read_before_main() -> None:
    eff = effective({MAIN: "port=3\n", "/a.conf": "port=1\n", "/b.conf": "port=2\n"}, extra=["/a.conf", "/b.conf"])
    assert eff.files == ["/a.conf", "/b.conf", MAIN]


# reads_folder

@pytest.mark.parametrize("line, folder, reads", [
    pytest.param("conf-dir=/etc/dnsmasq.d,*.conf", "/etc/dnsmasq.d", True, id="required-conf"),
    pytest.param("conf-dir=/etc/dnsmasq.d,*.conf", "/etc/dnsmasq.d/", True, id="asked-with-slash"),
    pytest.param("conf-dir=/etc/dnsmasq.d/,*.conf", "/etc/dnsmasq.d", True, id="written-with-slash"),
    pytest.param("conf-dir=/etc//dnsmasq.d//", "/etc/dnsmasq.d", True, id="double-slashes"),
    pytest.param("conf-dir=/etc/dnsmasq.d", "/etc/dnsmasq.d", True, id="no-filter"),
    pytest.param("conf-dir=/etc/dnsmasq.d,*", "/etc/dnsmasq.d", True, id="lone-star-is-no-filter"),
    pytest.param("conf-dir=/etc/dnsmasq.d,*conf", "/etc/dnsmasq.d", True, id="required-conf-without-dot"),
    pytest.param("conf-dir=/etc/dnsmasq.d,*.cfg,*.conf", "/etc/dnsmasq.d", True, id="one-required-of-two"),
    pytest.param("conf-dir=/etc/dnsmasq.d,.dpkg-dist,.dpkg-old,.dpkg-new", "/etc/dnsmasq.d", True, id="debian-exclusions"),
    pytest.param("conf-dir=/etc/dnsmasq.d,.bak", "/etc/dnsmasq.d", True, id="other-exclusion"),
    pytest.param('conf-dir="/etc/dnsmasq.d","*.conf"', "/etc/dnsmasq.d", True, id="quoted"),
    pytest.param("conf-dir=/etc/dnsmasq.d,*.cfg", "/etc/dnsmasq.d", False, id="required-other-suffix"),
    pytest.param("conf-dir=/etc/dnsmasq.d,.conf", "/etc/dnsmasq.d", False, id="conf-excluded"),
    pytest.param("conf-dir=/etc/dnsmasq.d,onf", "/etc/dnsmasq.d", False, id="conf-tail-excluded"),
    pytest.param("conf-dir=/etc/dnsmasq.d,-old.conf", "/etc/dnsmasq.d", False, id="some-snippets-excluded"),
    pytest.param("conf-dir=/etc/dnsmasq.d,*.d.conf", "/etc/dnsmasq.d", False, id="only-some-required"),
    pytest.param("conf-dir=/etc/dnsmasq.d.old,*.conf", "/etc/dnsmasq.d", False, id="other-folder-same-prefix"),
    pytest.param("conf-dir=/etc,*.conf", "/etc/dnsmasq.d", False, id="parent-folder-not-recursive"),
    pytest.param("conf-dir=/etc/dnsmasq.d/sub", "/etc/dnsmasq.d", False, id="subfolder"),
    pytest.param("#conf-dir=/etc/dnsmasq.d,*.conf", "/etc/dnsmasq.d", False, id="commented-out"),
    pytest.param("conf-file=/etc/dnsmasq.d/renamer-fv.conf", "/etc/dnsmasq.d", True, id="conf-file-snippet"),
    pytest.param("conf-file=/etc/dnsmasq.d/local.conf", "/etc/dnsmasq.d", False, id="conf-file-other"),
    pytest.param("conf-file=/etc/renamer-fv.conf", "/etc/dnsmasq.d", False, id="conf-file-elsewhere"),
])
def test_reads_folder(line: str, folder: str, reads: bool) -> None:
    eff = effective({MAIN: line + "\n"}, folders=("/etc/dnsmasq.d", "/etc/dnsmasq.d.old", "/etc/dnsmasq.d/sub"))
    assert eff.reads_folder(folder) is reads


def test_reads_folder_for_one_name() -> None:
    eff = effective({MAIN: "conf-dir=/etc/dnsmasq.d,-old.conf\nconf-file=/srv/dns/renamer-x.conf\n"},
                    folders=("/etc/dnsmasq.d",))
    assert not eff.reads_folder("/etc/dnsmasq.d")
    assert eff.reads_folder("/etc/dnsmasq.d", name="renamer-fv.conf")
    assert not eff.reads_folder("/etc/dnsmasq.d", name="renamer-fv-old.conf")
    assert not eff.reads_folder("/etc/dnsmasq.d", name=".renamer-fv.conf")
    assert eff.reads_folder("/srv/dns/", name="renamer-x.conf")
    assert not eff.reads_folder("/srv/dns", name="renamer-y.conf")


def test_reads_folder_resolves_relative_paths_from_dnsmasqs_working_directory() -> None:
    eff = effective({MAIN: "conf-dir=dnsmasq.d,*.conf\n"}, folders=("/etc/dnsmasq.d",), cwd="/etc")
    assert eff.reads_folder("/etc/dnsmasq.d") and eff.reads_folder("/etc/./dnsmasq.d/")
    assert not eff.reads_folder("/dnsmasq.d")


# hosts

HOSTS = ("127.0.0.1 localhost\n"
         "::1 localhost ip6-localhost # loopback\n"
         "# 10.0.0.1 commented.lan\n"
         "10.251.50.54\tfv-ml1.fv.lan fv-ml1#glued comment\r\n"
         "10.251.50.60\n"
         "01.2.3.4 leading-zero\n"
         "fe80::1%eth0 scoped\n")


def test_etc_hosts_is_read_unless_no_hosts() -> None:
    eff = effective({MAIN: "port=53\n", "/etc/hosts": HOSTS}, no_hosts=False)
    assert eff.files == [MAIN, "/etc/hosts"]
    assert eff.hosts == [
        HostsEntry("/etc/hosts", 1, "127.0.0.1", ("localhost",)),
        HostsEntry("/etc/hosts", 2, "::1", ("localhost", "ip6-localhost")),
        HostsEntry("/etc/hosts", 4, "10.251.50.54", ("fv-ml1.fv.lan", "fv-ml1")),
    ]
    assert eff.problems == ["/etc/hosts:6: bad address '01.2.3.4' (dnsmasq skips the line)",
                            "/etc/hosts:7: bad address 'fe80::1%eth0' (dnsmasq skips the line)"]
    without = effective({MAIN: "port=53\n", "/etc/hosts": HOSTS})
    assert without.hosts == [] and "/etc/hosts" not in without.files


def test_addn_hosts_file_and_folder() -> None:
    eff = effective({
        MAIN: "addn-hosts=/etc/hosts.d\naddn-hosts=/etc/extra.hosts\naddn-hosts=/etc/gone.hosts\n",
        "/etc/extra.hosts": "10.0.0.3 three.lan\n",
        "/etc/hosts.d/b": "10.0.0.2 two.lan\n",
        "/etc/hosts.d/a": "10.0.0.1 one.lan one\n",
        "/etc/hosts.d/a~": "10.0.0.9 backup.lan\n",
        "/etc/hosts.d/.hidden": "10.0.0.9 hidden.lan\n",
        "/etc/hosts.d/sub/c": "10.0.0.9 nested.lan\n",
    })
    assert [(h.file, h.address, h.names) for h in eff.hosts] == [
        ("/etc/hosts.d/a", "10.0.0.1", ("one.lan", "one")),
        ("/etc/hosts.d/b", "10.0.0.2", ("two.lan",)),
        ("/etc/extra.hosts", "10.0.0.3", ("three.lan",)),
    ]
    assert eff.problems == [f"{MAIN}:4: failed to load names from /etc/gone.hosts: no such file"]


def test_hostsdir() -> None:
    eff = effective({MAIN: "hostsdir=/var/lib/hosts/\nhostsdir=/nowhere\n",
                     "/var/lib/hosts/b.hosts": "10.0.0.2 b.lan\n", "/var/lib/hosts/a": "10.0.0.1 a.lan\n",
                     "/var/lib/hosts/#a#": "10.0.0.9 autosave.lan\n"})
    assert [(h.file, h.names) for h in eff.hosts] == [("/var/lib/hosts/a", ("a.lan",)),
                                                        ("/var/lib/hosts/b.hosts", ("b.lan",))]
    assert eff.problems == [f"{MAIN}:3: bad dynamic directory /nowhere"]


def test_servers_file_gives_server_lines_only() -> None:
    eff = effective({MAIN: "servers-file=/etc/servers\n",
                     "/etc/servers": "server=/fv.lan/10.0.0.1\nlocal=/x.lan/\nrev-server=10.0.0.0/8,10.0.0.1\n"})
    assert [(d.file, d.key) for d in eff.directives[-2:]] == [("/etc/servers", "server"),
                                                               ("/etc/servers", "rev-server")]
    assert eff.problems == ["/etc/servers:2: local: only server= and rev-server= count in a servers-file "
                            "(dnsmasq ignores the line)"]
    assert [d.file for d in eff.forwards("fv.lan")] == ["/etc/servers"]


# forwards

@pytest.mark.parametrize("line, forwarded", [
    pytest.param("server=/fv.lan/10.0.0.1", True, id="domain"),
    pytest.param("server=/x.fv.lan/10.0.0.1", True, id="subdomain"),
    pytest.param("server=/a.lan/fv.lan/10.0.0.1#5353@eth0", True, id="second-domain-port-interface"),
    pytest.param("server=/FV.Lan./10.0.0.1", True, id="case-and-trailing-dot"),
    pytest.param("server=/.fv.lan/10.0.0.1", True, id="leading-dot"),
    pytest.param("server=/*fv.lan/10.0.0.1", True, id="wildcard"),
    pytest.param("server=/*.x.fv.lan/10.0.0.1", True, id="wildcard-under"),
    pytest.param("server=/fv.lan/#", True, id="standard-servers"),
    pytest.param("local=/fv.lan/10.0.0.1", True, id="local-is-server-synonym"),
    pytest.param("server = /fv.lan/10.0.0.1 # why", True, id="spaces-and-comment"),
    pytest.param("local=/fv.lan/", False, id="local-only"),
    pytest.param("server=/fv.lan/", False, id="server-without-upstream"),
    pytest.param("server=/other.lan/10.0.0.1", False, id="other-domain"),
    pytest.param("server=/afv.lan/10.0.0.1", False, id="not-label-aligned"),
    pytest.param("server=/*v.lan/10.0.0.1", False, id="wildcard-parent-like"),
    pytest.param("server=/lan/10.0.0.1", False, id="parent"),
    pytest.param("server=10.0.0.1", False, id="default-upstream"),
    pytest.param("server=//10.0.0.1", False, id="unqualified-names"),
    pytest.param("address=/fv.lan/10.0.0.1", False, id="address"),
    pytest.param("#server=/fv.lan/10.0.0.1", False, id="commented"),
])
def test_forwards(line: str, forwarded: bool) -> None:
    eff = effective({MAIN: line + "\n"})
    assert eff.forwards("fv.lan") == ([eff.directives[-1]] if forwarded else [])


def test_forwards_lists_every_line_in_order() -> None:
    eff = effective({MAIN: "server=/fv.lan/10.0.0.1\nlocal=/fv.lan/\nconf-file=/e\n",
                     "/e": "server=/x.fv.lan/10.0.0.2\n"})
    assert [(d.file, d.line) for d in eff.forwards("fv.lan.")] == [(MAIN, 2), ("/e", 1)]
    assert eff.forwards("") == []


@pytest.mark.parametrize("line, domain, forwarded", [
    pytest.param("rev-server=10.251.0.0/16,10.0.0.1", "251.10.in-addr.arpa", True, id="same-zone"),
    pytest.param("rev-server=10.251.50.0/24,10.0.0.1", "251.10.in-addr.arpa", True, id="sub-zone"),
    pytest.param("rev-server=10.251.50.0/20,10.0.0.1", "251.10.in-addr.arpa", True, id="unaligned"),
    pytest.param("rev-server=10.0.0.0/8,10.0.0.1", "251.10.in-addr.arpa", False, id="parent-zone"),
    pytest.param("rev-server=10.251.0.0/16", "251.10.in-addr.arpa", False, id="no-server-is-local"),
    pytest.param("rev-server=fd00:251::/32,10.0.0.1", "1.5.2.0.0.0.d.f.ip6.arpa", True, id="ipv6"),
    pytest.param("rev-server=bogus/16,10.0.0.1", "251.10.in-addr.arpa", False, id="bad-address"),
])
def test_forwards_rev_server(line: str, domain: str, forwarded: bool) -> None:
    eff = effective({MAIN: line + "\n"})
    assert bool(eff.forwards(domain)) is forwarded


def test_reverse_zones_as_dnsmasq_makes_them() -> None:
    assert _reverse_zones("1.2.3.0/24") == ["3.2.1.in-addr.arpa"]  # the man page's example
    assert _reverse_zones("1.2.3.4") == ["4.3.2.1.in-addr.arpa"]
    assert _reverse_zones("10.251.16.0/22") == [f"{i}.251.10.in-addr.arpa" for i in range(16, 20)]
    assert _reverse_zones("fd00::/15") == ["0.0.d.f.ip6.arpa", "1.0.d.f.ip6.arpa"]  # nibble steps
    assert _reverse_zones("10.0.0.0/0") == [] and _reverse_zones("10.0.0.0/33") == []


# lease file

def test_lease_file() -> None:
    assert effective({MAIN: "port=53\n"}).lease_file() == DEFAULT_LEASE_FILE
    assert effective({MAIN: "dhcp-leasefile=/srv/leases\n"}).lease_file() == "/srv/leases"
    assert effective({MAIN: "dhcp-lease=/srv/alias\n"}).lease_file() == "/srv/alias"
    assert effective({MAIN: "dhcp-leasefile\n"}).lease_file() == DEFAULT_LEASE_FILE
    twice = effective({MAIN: "dhcp-leasefile=/a\ndhcp-lease=/b\n"})
    assert twice.lease_file() == "/b"
    assert twice.problems == [f"{MAIN}:3: dhcp-lease given again (first at {MAIN}:2): dnsmasq refuses to start "
                              "(illegal repeated keyword)"]


def test_parse_leases_v4_and_v6() -> None:
    data = (b"1700000000 3c:ec:ef:12:34:56 10.251.50.54 fv-ml1 01:3c:ec:ef:12:34:56\n"
            b"1700000100 52:54:00:aa:bb:cc 10.251.50.99 * *\n"
            b"0 20-00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff:00:11:22:33 10.251.50.98 ib-host *\n"
            b"duid 00:01:00:01:2c:7b:1a:9e:52:54:00:12:34:56\n"
            b"1700000200 305419896 fd00:251::54 fv-ml1 00:01:00:01:2c:7b:1a:9e:3c:ec:ef:12:34:56\r\n"
            b"1700000300 T12 fd00:251::99 * 00:02\n"
            b"vendorclass 10.251.50.54 01:02\n"
            b"not-a-number 3c:ec:ef:12:34:56 10.251.50.1 x *\n"
            b"1700000400 3c:ec:ef:12:34:56 not-an-address x *\n"
            b"1700000500 short\n")
    assert parse_leases(data) == [
        Lease(1, 1700000000, "3c:ec:ef:12:34:56", "10.251.50.54", "fv-ml1", "01:3c:ec:ef:12:34:56"),
        Lease(2, 1700000100, "52:54:00:aa:bb:cc", "10.251.50.99", "", ""),
        Lease(3, 0, "20-00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff:00:11:22:33", "10.251.50.98", "ib-host", ""),
        Lease(5, 1700000200, "", "fd00:251::54", "fv-ml1", "00:01:00:01:2c:7b:1a:9e:3c:ec:ef:12:34:56"),
        Lease(6, 1700000300, "", "fd00:251::99", "", "00:02"),
    ]
    assert parse_leases(b"") == []


# the Transport adapter, on real files

def test_reader_for_local_transport(tmp_path: Path) -> None:
    (tmp_path / "d" / "sub").mkdir(parents=True)
    (tmp_path / "d" / "a.conf").write_text("port=1\n")
    (tmp_path / "d" / ".hidden").write_text("")
    reader = reader_for(LocalTransport())
    assert isinstance(reader, Reader) and isinstance(reader, TransportReader)
    assert not isinstance(LocalTransport(), Reader)
    assert sorted(reader.list_dir(str(tmp_path / "d")) or []) == [".hidden", "a.conf", "sub"]
    assert reader.list_dir(str(tmp_path / "d") + "/") is not None
    assert reader.list_dir(str(tmp_path / "d" / "a.conf")) is None  # a file is no folder
    assert reader.list_dir(str(tmp_path / "gone")) is None
    assert reader.list_dir("") is None
    assert reader.read(str(tmp_path / "d" / "a.conf")) == b"port=1\n"
    assert reader.read(str(tmp_path / "gone")) is None
    with pytest.raises(TransportError):
        reader.read(str(tmp_path / "d"))  # LocalTransport refuses a folder: read_effective must cope


def test_read_effective_through_local_transport(tmp_path: Path) -> None:
    main, folder = tmp_path / "dnsmasq.conf", tmp_path / "dnsmasq.d"
    (folder / "sub.conf").mkdir(parents=True)  # a folder with a matching name: skipped, as dnsmasq does
    (folder / "renamer-fv.conf").write_text("local=/fv.lan/\n")
    hosts = tmp_path / "hosts.d"
    (hosts / "nested").mkdir(parents=True)
    (hosts / "a").write_text("10.0.0.1 a.lan\n")
    main.write_text(f"no-hosts\nconf-dir={folder},*.conf\naddn-hosts={hosts}\nconf-file={tmp_path}\n")
    eff = read_effective(LocalTransport(), str(main))
    assert eff.files == [str(main), str(folder / "renamer-fv.conf"), str(hosts / "a")]
    assert [(h.address, h.names) for h in eff.hosts] == [("10.0.0.1", ("a.lan",))]
    assert eff.reads_folder(str(folder))
    assert len(eff.problems) == 1 and eff.problems[0].startswith(f"{main}:4: cannot read {tmp_path}: ")


# end to end: a real dnsmasq

def test_a_real_sandbox_resolver_reads_what_read_effective_finds(lab) -> None:  # type: ignore[no-untyped-def]
    import dns.message
    import dns.query

    instance: sandbox.Instance = lab.instances["ns-fv"]
    snippets = instance.snippet_dir
    (snippets / "renamer-fv.conf").write_text(
        "local=/fv.lan/\nhost-record=fv-ml1.fv.lan,fv-ml1,10.251.50.54\n"
        'txt-record=_renamer.fv.fv.lan,"c12d0101539f7dc6"\n')
    (snippets / "hand.conf").write_text("# written by hand\nhost-record=hand.fv.lan,10.251.9.9\n"
                                        "server=/up.fv.lan/127.0.0.1#9\n")
    (snippets / "old.conf.bak").write_text("this-is-no-option\n")  # dnsmasq would refuse it if it read it
    sandbox.restart(instance.folder)  # raises if dnsmasq refuses the configuration

    def ask(name: str) -> list[str]:
        answer = dns.query.udp(dns.message.make_query(name, "A"), instance.address, port=instance.port, timeout=2)
        return [item.to_text() for rrset in answer.answer for item in rrset]

    assert ask("fv-ml1.fv.lan") == ["10.251.50.54"]
    assert ask("hand.fv.lan") == ["10.251.9.9"]

    eff = read_effective(LocalTransport(), str(instance.conf))
    assert eff.problems == []
    assert eff.files == [str(instance.conf), str(snippets / "hand.conf"), str(snippets / "renamer-fv.conf")]
    assert eff.snippet_dirs == [(str(snippets), "*.conf")]
    assert eff.reads_folder(str(snippets)) and eff.reads_folder(str(snippets) + "/")
    assert not eff.reads_folder(str(instance.folder))
    hand = [d for d in eff.values("host-record") if not SNIPPET.fullmatch(posixpath.basename(d.file))]
    assert hand == [Directive(str(snippets / "hand.conf"), 2, "host-record", "hand.fv.lan,10.251.9.9")]
    assert [d.value for d in eff.forwards("fv.lan")] == ["/up.fv.lan/127.0.0.1#9"]
    assert eff.hosts == [] and eff.values("no-hosts")
    assert eff.lease_file() == DEFAULT_LEASE_FILE
