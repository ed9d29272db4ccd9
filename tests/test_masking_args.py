"""Secrets taken as plain arguments (issue 27 item 14, break-it pass): every command of the grammar
tables has a sample here, and a property over them all checks that no generated secret is shown and
that a changed line never claims a mask it does not hold."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renamer.masking import MASK, mask_line
from renamer.masking_args import GRAMMARS
from renamer.masking_flags import SHORT_FLAGS

# command -> lines that hold a secret {s} the way that command takes it (at least one each)
SAMPLES: dict[str, tuple[str, ...]] = {
    "htpasswd": ("htpasswd -b /etc/nginx/.htpasswd admin {s}", "htpasswd -bc f user {s}",
                 "htpasswd -nb user {s}", "htpasswd -b -C 10 f user '{s}'", "sudo htpasswd -B -b f u {s}"),
    "vault login": ("vault login {s}", "vault login -method=userpass username=u password={s}",
                    "vault login -method userpass username=u password={s}", "vault login -no-print {s}"),
    "mc alias set": ("mc alias set minio http://ana-ml2:9000 AKIA {s}", "mc alias set --api S3v4 m http://h {s} x",),
    "mc config host add": ("mc config host add m http://h {s} {s}",),
    "nmcli": ("nmcli con modify wlan wifi-sec.psk {s}", "nmcli c add type wifi 802-11-wireless-security.psk '{s}'",
              "nmcli dev wifi connect net password {s}", "nmcli -f all con mod x 802-1x.password {s}"),
    "rabbitmqctl add_user": ("rabbitmqctl add_user app {s}", "rabbitmqctl -n rabbit@h add_user app {s}"),
    "rabbitmqctl change_password": ("rabbitmqctl change_password app {s}",),
    "rabbitmqctl authenticate_user": ("rabbitmqctl authenticate_user app {s}",),
    "wpa_passphrase": ("wpa_passphrase homenet {s} > /etc/wpa.conf",),
    "aws configure set": ("aws configure set aws_secret_access_key {s}",
                          "aws configure set --profile p aws_session_token {s}"),
    "npm config set": ("npm config set _authToken {s}",),
    "yarn config set": ("yarn config set npmAuthToken {s}",),
    "git config": ("git config --global credential.password {s}",),
    "sqlplus": ("sqlplus -s scott/{s}@orcl", "sqlplus system/{s}"),
    "expdp": ("expdp system/{s}@db schemas=app",),
    "impdp": ("impdp system/{s} directory=d",),
    "rman target": ("rman target sys/{s}@db",),
    # round 3 finding 16: a password after a share, Windows flags, PowerShell
    "net use": (r"net use \\ana-ml2\share {s} /user:bob", r"net use X: \\ana-ml2\share {s} /user:bob",
                r"net use \\ana-ml2\share /user:dom\bob {s}", r"NET USE Z: \\h\s {s} /USER:d\b /persistent:no",
                r"C:\Windows\System32\net.exe use \\h\s '{s}'", r"net use \\\\h\\s {s} /savecred"),
    "net user": ("net user bob {s} /add", "NET USER bob {s}"),
    "smbclient": ("smbclient //ana-ml2/share {s} -U bob", "smbclient -U bob //h/s {s}",
                  "smbclient -W DOM -U bob -p 445 //h/s '{s}'", r"smbclient \\\\h\\s {s} -U bob",
                  "smbclient --user=bob //h/s {s} -c 'ls'"),
    "schtasks": ("schtasks /create /s h /u bob /p {s} /tn x", "SCHTASKS /Create /RU bob /RP {s} /TN x"),
    "convertto-securestring": ("$pw = ConvertTo-SecureString '{s}' -AsPlainText -Force",
                               'ConvertTo-SecureString -String "{s}" -AsPlainText -Force'),
    "psexec": (r"psexec \\ana-ml2 -u bob -p {s} cmd",), "PsExec": (r"PsExec.exe \\h -u bob -p {s} cmd",),
    "psexec64": ("psexec64 -p {s} cmd",), "PsExec64": ("PsExec64 -p {s} cmd",),
    "paexec": ("paexec -p {s} cmd", r"PAEXEC.EXE \\h -u bob -p {s} cmd", r"PSEXEC.EXE \\h -p {s} cmd"),
    # round 4 finding 10: the diff showed these
    "rdesktop": ("rdesktop -u bob -p {s} ana-ml2", "RDESKTOP -u bob -p {s} ana-ml2"), "ncftp": ("ncftp -u bob -p {s} ana-ml2",),
    "ncftpget": ("ncftpget -u bob -p {s} ana-ml2 . /f",), "ncftpput": ("ncftpput -u bob -p{s} ana-ml2 /d f",),
    "ncftpls": ("ncftpls -u bob -p {s} ftp://ana-ml2/",),
    # short flags (masking_flags.SHORT_FLAGS), one per tool family
    "redis-cli": ("redis-cli -h ana-ml2 -a {s} ping",), "valkey-cli": ("valkey-cli -a {s}",),
    "keydb-cli": ("keydb-cli -a {s}",), "sshpass": ("sshpass -p {s} ssh h", "sshpass -p{s} scp f h:"),
    "mysql": ("mysql -h h -p{s} app", "mysql -uroot -p{s}"), "mariadb": ("mariadb -p{s}",),
    "mysqldump": ("mysqldump -p{s} app",), "mysqladmin": ("mysqladmin -p{s} status",),
    "mysqlimport": ("mysqlimport -p{s} db f",), "mysqlshow": ("mysqlshow -p{s}",),
    "mysqlcheck": ("mysqlcheck -p{s} db",), "mariadb-dump": ("mariadb-dump -p{s} db",),
    "mariadb-admin": ("mariadb-admin -p{s} ping",), "ipmitool": ("ipmitool -H h -U admin -P {s} power status",),
    "ldapsearch": ("ldapsearch -H ldap://h -D cn=admin -w {s}",), "ldapmodify": ("ldapmodify -w {s} -f x",),
    "ldapadd": ("ldapadd -w {s}",), "ldapdelete": ("ldapdelete -w {s} cn=x",), "ldapwhoami": ("ldapwhoami -w {s}",),
    "ldappasswd": ("ldappasswd -w {s} -s {s} cn=x",), "mongo": ("mongo -u u -p {s}",),
    "mongosh": ("mongosh -p {s}",), "mongodump": ("mongodump -p {s}",), "mongorestore": ("mongorestore -p {s}",),
    "mongoexport": ("mongoexport -p {s}",), "mongoimport": ("mongoimport -p {s}",),
    "rabbitmqadmin": ("rabbitmqadmin -u u -p {s} list queues",), "docker login": ("docker login -u me -p {s} h",),
    "podman login": ("podman login -p {s} h",), "nerdctl login": ("nerdctl login -p {s} h",),
    "buildah login": ("buildah login -p {s} h",), "skopeo login": ("skopeo login -p {s} h",),
    "smbmap": ("smbmap -u u -p {s} -H h",), "crackmapexec": ("crackmapexec smb h -u u -p {s}",),
    "netexec": ("netexec smb h -u u -H {s}",), "zip": ("zip -P {s} out.zip f",), "unzip": ("unzip -P {s} a.zip",),
    "7z": ("7z x -p{s} a.7z",), "sqlcmd": ("sqlcmd -S h -U sa -P {s}",), "bcp": ("bcp t out f -P {s}",),
    "snmpwalk": ("snmpwalk -v2c -c {s} h",), "snmpget": ("snmpget -v3 -A {s} -X {s} h",),
    "snmpset": ("snmpset -c {s} h",), "snmpbulkwalk": ("snmpbulkwalk -c {s} h",), "snmptrap": ("snmptrap -c {s} h",),
    "mosquitto_pub": ("mosquitto_pub -h h -u u -P {s} -t t",), "mosquitto_sub": ("mosquitto_sub -P {s} -t t",),
    "mosquitto_rr": ("mosquitto_rr -P {s}",), "racadm": ("racadm -r h -u root -p {s} getsysinfo",),
    "ssh-keygen": ("ssh-keygen -t ed25519 -N '{s}' -f key", "ssh-keygen -p -P {s} -N {s} -f key"),
    "useradd": ("useradd -m -p '{s}' app",), "usermod": ("usermod -p {s} app",),
    "az login": ("az login -u me -p {s}",), "influx": ("influx -username u -password {s}", "influx auth list -t {s}"),
}
# the shapes no table names a command for: long and single-dash flags, user:password, openssl
OTHER = ("deploy --verbose --password {s} h", "keytool -list -storepass {s} -keystore k", "curl -u user:{s} h",
         "curl -uuser:{s} h", "curl --user=u:{s} h", "smbclient //h/s -U 'DOM\\user%{s}'", "lftp -u user,{s} ftp://h",
         "openssl rsa -passin pass:{s} -in k", "psql postgresql://app:{s}@h/db", "wget --password={s} http://h",
         "ldapsearch -x -w {s}", "docker login --password {s} h",
         # round 3 finding 16's other shapes, checked
         "mount -t cifs //h/s /mnt -o password={s},user=bob", "mount -t cifs -o username=bob,pass={s} //h/s /m",
         "mount.cifs //h/s /mnt -o user=bob,password={s},vers=3.0", "smbclient //h/s -U bob%{s}",
         "sshpass -p {s} ssh root@h", "mysql -h h -p{s} app", "cd /x && PGPASSWORD={s} psql -h h",
         "env PGPASSWORD='{s}' pg_dump -h h", "curl -u bob:{s} http://h/", "curl -s --user 'bob:{s}' http://h/",
         "tool --password={s} --host h", "cmdkey /add:h /user:bob /pass:{s}", "xfreerdp /v:h /u:bob /p:{s}",
         "xfreerdp3 /v:h /u:bob /pth:{s}", "winrs -r:h -u:bob -p:{s} ipconfig", "rpcclient -U bob%{s} h")
WHOLE_LINES = ("h:5432:db:app:{s}", "*:*:*:app:{s}")  # .pgpass: a line of its own


def test_every_command_of_the_tables_has_a_sample() -> None:
    assert set(SAMPLES) == set(GRAMMARS) | set(SHORT_FLAGS)


SECRET = st.text(st.sampled_from(string.ascii_letters + string.digits + "+/=_!^~.%"), min_size=4,
                 max_size=16).map(lambda tail: f"Zq{tail}")
LINES = [line for lines in SAMPLES.values() for line in lines] + list(OTHER) + list(WHOLE_LINES)


@settings(max_examples=600, deadline=None)
@given(shape=st.sampled_from(LINES), secret=SECRET, prefix=st.sampled_from(["", "  ", "- ", "RUN ", "x=$("]))
def test_no_generated_argument_secret_is_shown(shape: str, secret: str, prefix: str) -> None:
    line = ("" if shape in WHOLE_LINES else prefix) + shape.format(s=secret)
    shown = mask_line(line)
    assert secret not in shown
    assert MASK in shown  # a changed line holds the mask it claims; and this one had a secret


@pytest.mark.parametrize("line", (
    pytest.param("htpasswd -c /etc/nginx/.htpasswd admin", id="htpasswd-prompts"),
    pytest.param("htpasswd -i f user < pw.txt", id="htpasswd-stdin"),
    pytest.param("vault login -method=oidc", id="vault-oidc"),
    pytest.param("vault login -", id="vault-stdin"),
    pytest.param("mc alias list", id="mc-list"),
    pytest.param("nmcli con up wlan", id="nmcli-up"),
    pytest.param("nmcli con mod x wifi-sec.key-mgmt wpa-psk", id="nmcli-key-mgmt"),
    pytest.param("rabbitmqctl list_users", id="rabbitmqctl-list"),
    pytest.param("git config user.name bob", id="git-config-plain"),
    pytest.param("aws configure set region eu-west-1", id="aws-region"),
    pytest.param("sqlplus /nolog", id="sqlplus-nolog"),
    pytest.param("docker run -p 80:80 img", id="docker-run-port"),
    pytest.param("influx -host ana-ml2 -port 8086", id="influx-host"),
    pytest.param("openssl enc -pass env:VAR", id="openssl-env"),
    pytest.param("find / -name password", id="find-name"),
    pytest.param("mysql --password -h h", id="mysql-prompts"),
    pytest.param(r"net use X: \\ana-ml2\share * /user:bob", id="net-use-prompts"),
    pytest.param(r"net use X: \\ana-ml2\share /user:bob /persistent:yes", id="net-use-no-password"),
    pytest.param(r"net use X: \\ana-ml2\share /p:yes", id="net-use-persistent"),
    pytest.param("net use X: /delete", id="net-use-delete"),
    pytest.param("net user bob /delete", id="net-user-delete"),
    pytest.param("smbclient //ana-ml2/share -N -c 'ls'", id="smbclient-no-password"),
    pytest.param("smbclient //ana-ml2/share < cmds.txt", id="smbclient-redirect"),
    pytest.param("smbclient -L //ana-ml2 -N", id="smbclient-list"),
    pytest.param("xfreerdp /v:ana-ml2 /u:bob", id="freerdp-prompts"),
    pytest.param("schtasks /query /s ana-ml2", id="schtasks-query"),
    pytest.param("the network is internet-facing: use it", id="net-in-words"),
    pytest.param("the net user count grew by 5 this week", id="net-user-in-prose"),
    pytest.param(r"we net use \\h\s shares less now", id="net-use-in-prose"),
))
def test_a_line_without_a_secret_is_left_as_it_is(line: str) -> None:
    assert mask_line(line) == line
