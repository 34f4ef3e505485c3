#!/usr/bin/python3
"""Runs a command under the kernel-side confinement a systemd unit asks for, where systemd is not the service
manager (a container, CI): the unit's SystemCallFilter= (with SystemCallErrorNumber=), SystemCallArchitectures=native,
RestrictAddressFamilies=, RestrictNamespaces=yes, LockPersonality=yes, MemoryDenyWriteExecute=yes and
NoNewPrivileges=yes, read from the unit file and applied with seccomp and prctl the way systemd applies them.

    scripts/service-sandbox.py UNIT -- COMMAND [ARGUMENTS...]

The system call groups (@system-service, ...) are expanded by `systemd-analyze syscall-filter`, so the sets are
systemd's own. MemoryDenyWriteExecute uses the kernel's PR_SET_MDWE (Linux 6.3+), which refuses every mapping that
is, or becomes, both writable and executable, as systemd's seccomp rules do. The file-system settings
(ProtectSystem=, PrivateTmp=, ...), users and capabilities are not applied: they need the service manager (the
daemon's tests run it as an unprivileged user without capabilities separately).

Needs python3-seccomp (Debian). Exits 2 on a usage error; otherwise it becomes COMMAND (exec), so the exit status
is COMMAND's, and a system call the filter kills shows as SIGSYS.
"""
import ctypes
import errno
import os
import socket
import subprocess
import sys

import seccomp

PR_SET_NO_NEW_PRIVS = 38
PR_SET_MDWE = 65
PR_MDWE_REFUSE_EXEC_GAIN = 1
# The CLONE_NEW* flags RestrictNamespaces=yes refuses in clone() and unshare().
CLONE_NEW_FLAGS = (0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
                   | 0x00000080)
PER_LINUX = 0x0000
PERSONALITY_QUERY = 0xFFFFFFFF


def directives(unit_path):
    """The [Service] settings of the unit: name -> list of values, in order (a setting may repeat)."""
    found = {}
    section = None
    with open(unit_path, encoding="utf-8") as unit:
        for raw in unit:
            line = raw.strip()
            if not line or line.startswith(("#", ";")):
                continue
            if line.startswith("["):
                section = line
                continue
            if section == "[Service]" and "=" in line:
                name, value = line.split("=", 1)
                found.setdefault(name.strip(), []).append(value.strip())
    return found


def expand(entry, seen=None):
    """The system calls a SystemCallFilter= word names: a group (@name), expanded recursively, or one call."""
    if not entry.startswith("@"):
        return {entry}
    seen = seen if seen is not None else set()
    if entry in seen:
        return set()
    seen.add(entry)
    listing = subprocess.run(["systemd-analyze", "syscall-filter", entry], check=True, capture_output=True,
                             text=True).stdout
    calls = set()
    for line in listing.splitlines()[1:]:
        word = line.strip()
        if word and not word.startswith("#"):
            calls |= expand(word, seen)
    return calls


def allowed_calls(settings):
    """systemd's rule: the first SystemCallFilter= without ~ makes an allow list; each ~ list is taken out of it."""
    allowed = set()
    for value in settings.get("SystemCallFilter", []):
        deny = value.startswith("~")
        words = value.lstrip("~").split()
        calls = set().union(*(expand(word) for word in words)) if words else set()
        if deny:
            allowed -= calls
        else:
            allowed |= calls
    return allowed


def resolvable(name):
    """Whether the call exists on this architecture (libseccomp gives negative pseudo numbers to the others')."""
    try:
        return seccomp.resolve_syscall(seccomp.Arch.NATIVE, name) >= 0
    except (ValueError, RuntimeError):
        return False


def main(arguments):
    if len(arguments) < 3 or arguments[1] != "--":
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    settings = directives(arguments[0])
    command = arguments[2:]
    refusal = seccomp.ERRNO(errno.EPERM)
    if settings.get("SystemCallErrorNumber"):
        refusal = seccomp.ERRNO(getattr(errno, settings["SystemCallErrorNumber"][-1]))
    calls = allowed_calls(settings)
    if not calls:
        print("the unit has no SystemCallFilter= allow list", file=sys.stderr)
        return 2
    # The allow list: every other call fails with SystemCallErrorNumber= (systemd kills without one).
    allow = seccomp.SyscallFilter(defaction=refusal if settings.get("SystemCallErrorNumber") else seccomp.KILL_PROCESS)
    if settings.get("SystemCallArchitectures", [""])[-1] == "native":
        # libseccomp filters the native architecture only; a call made through another ABI (x32, i386) is killed.
        allow.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.KILL_PROCESS)
    restricted = {"socket", "socketpair", "clone", "unshare", "setns", "personality", "clone3"}
    for name in sorted(calls - restricted):
        if resolvable(name):
            allow.add_rule(seccomp.ALLOW, name)

    families = settings.get("RestrictAddressFamilies", [])
    permitted = [getattr(socket, word) for value in families for word in value.split()]
    for call in ("socket", "socketpair"):
        if call not in calls:
            continue
        if permitted:
            for family in permitted:
                allow.add_rule(seccomp.ALLOW, call, seccomp.Arg(0, seccomp.EQ, family))
            # Other families: EAFNOSUPPORT, as systemd answers them (the filter's default would be EPERM or kill).
            for family in range(0, 64):
                if family not in permitted:
                    allow.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), call, seccomp.Arg(0, seccomp.EQ, family))
        else:
            allow.add_rule(seccomp.ALLOW, call)

    namespaces = settings.get("RestrictNamespaces", ["no"])[-1] == "yes"
    for call in ("clone", "unshare"):
        if call in calls:
            if namespaces:
                # clone's flags are its first argument on x86-64, as unshare's.
                allow.add_rule(seccomp.ALLOW, call, seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_NEW_FLAGS, 0))
            else:
                allow.add_rule(seccomp.ALLOW, call)
    if "setns" in calls and not namespaces:
        allow.add_rule(seccomp.ALLOW, "setns")
    if "clone3" in calls and resolvable("clone3"):
        # Its flags are in memory, out of seccomp's reach: systemd answers ENOSYS so that libc falls back to clone.
        allow.add_rule(seccomp.ERRNO(errno.ENOSYS) if namespaces else seccomp.ALLOW, "clone3")
    if "personality" in calls:
        if settings.get("LockPersonality", ["no"])[-1] == "yes":
            for persona in (PER_LINUX, PERSONALITY_QUERY):
                allow.add_rule(seccomp.ALLOW, "personality", seccomp.Arg(0, seccomp.EQ, persona))
        else:
            allow.add_rule(seccomp.ALLOW, "personality")

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if settings.get("MemoryDenyWriteExecute", ["no"])[-1] == "yes":
        if libc.prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_MDWE) (needs Linux 6.3)")
    allow.load()
    os.execvp(command[0], command)
    return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
