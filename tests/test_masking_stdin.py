"""Secrets sent on stdin (renamer/masking_stdin.py, break-it round 7, finding 14): the pure grammar,
in pairs (masked, left alone); every output is checked through the CLI in
tests/cli/test_secrets_in_every_output.py."""

from __future__ import annotations

import pytest

from renamer.masking import mask_line


@pytest.mark.parametrize(("line", "expected"), (
    pytest.param("echo 'pug:hunter2o' | chpasswd", "echo 'pug:****' | chpasswd", id="chpasswd"),
    pytest.param("echo hunter2k | sudo -S ssh pug", "echo **** | sudo -S ssh pug", id="sudo-S"),
    pytest.param("echo hunter2k | sudo -kS ssh pug", "echo **** | sudo -kS ssh pug", id="sudo-kS"),
    pytest.param("printf 'admin:%s\\n' hunter2p | ssh pug chpasswd",
                 "printf 'admin:%s\\n' **** | ssh pug chpasswd", id="printf-into-a-remote-chpasswd"),
    pytest.param('echo -e "root:aa1\\nbob:bb2" | /usr/sbin/chpasswd', 'echo -e "root:****\\nbob:****" | /usr/sbin/chpasswd',
                 id="chpasswd-two-records"),
    pytest.param("printf 'bob:hunter\\n' | chpasswd", "printf 'bob:****\\n' | chpasswd", id="printf-format-only"),
    pytest.param("echo s3cr | docker login -u me --password-stdin reg:5000",
                 "echo **** | docker login -u me --password-stdin reg:5000", id="password-stdin"),
    pytest.param("echo pw1 | passwd --stdin bob", "echo **** | passwd --stdin bob", id="passwd-stdin"),
    pytest.param("echo pw2 | htpasswd -i /etc/h bob", "echo **** | htpasswd -i /etc/h bob", id="htpasswd-i"),
    pytest.param("echo pw3 | kinit admin@LAB", "echo **** | kinit admin@LAB", id="kinit"),
    pytest.param("echo pw4 | smbpasswd -s -a bob", "echo **** | smbpasswd -s -a bob", id="smbpasswd-s"),
    pytest.param("echo pw5 | mysql -h db -u root -p", "echo **** | mysql -h db -u root -p", id="mysql-prompt"),
    pytest.param("echo pw6 | openssl rsa -in k.pem -passin stdin", "echo **** | openssl rsa -in k.pem -passin stdin",
                 id="openssl-passin-stdin"),
    pytest.param("chpasswd <<< 'bob:pw7'", "chpasswd <<< 'bob:****'", id="here-string"),
    pytest.param("x && sudo -S ls <<< pw8", "x && sudo -S ls <<< ****", id="here-string-sudo"),
))
def test_a_value_sent_on_stdin_to_a_password_reader_is_masked(line: str, expected: str) -> None:
    assert mask_line(line) == expected


@pytest.mark.parametrize("line", (
    pytest.param('echo "$PW" | sudo -S true', id="a-variable-is-no-secret-of-the-file"),
    pytest.param("echo ${PASS} | chpasswd", id="a-braced-variable"),
    pytest.param("echo hello | grep pug", id="no-password-reader"),
    pytest.param("echo x | sudo ls", id="sudo-without-S"),
    pytest.param("echo pug:fine | tee f", id="tee"),
    pytest.param("echo hi || chpasswd", id="an-or-list-is-no-pipe"),
    pytest.param("grep stdin notes.txt", id="a-hint-word-alone"),
))
def test_other_pipes_are_left_alone(line: str) -> None:
    assert mask_line(line) == line
