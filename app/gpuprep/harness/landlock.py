"""Landlock, where the kernel offers it: the sandbox may write only to its own folder and caches.

Standard library only (ctypes syscalls). Landlock also keeps a sandboxed process from
tracing or reading the memory of processes outside its domain (the judge), and, from ABI 6,
from signalling them. Where the kernel lacks it, nothing is restricted here: the judge's
manifest check and the fresh working folder still stop a submission from changing later runs.
"""

from __future__ import annotations

import ctypes
import os
import platform

_SYSCALLS = {  # x86_64 and aarch64 share the numbers of these recent calls
    "create_ruleset": 444,
    "add_rule": 445,
    "restrict_self": 446,
}
_PR_SET_NO_NEW_PRIVS = 38
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
#: Write-side filesystem rights (ABI 1-3); reading and executing stay free.
_WRITE_RIGHTS_V1 = (
    (1 << 1)  # WRITE_FILE
    | (1 << 4)  # REMOVE_DIR
    | (1 << 5)  # REMOVE_FILE
    | (1 << 6)  # MAKE_CHAR
    | (1 << 7)  # MAKE_DIR
    | (1 << 8)  # MAKE_REG
    | (1 << 9)  # MAKE_SOCK
    | (1 << 10)  # MAKE_FIFO
    | (1 << 11)  # MAKE_BLOCK
    | (1 << 12)  # MAKE_SYM
)
_REFER = 1 << 13  # ABI 2
_TRUNCATE = 1 << 14  # ABI 3
_IOCTL_DEV = 1 << 15  # ABI 5: left unhandled, the GPU is driven by ioctls
_SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0  # ABI 6
_SCOPE_SIGNAL = 1 << 1  # ABI 6


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def abi_version() -> int:
    """The kernel's Landlock ABI, 0 where there is none."""
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "aarch64"):
        return 0
    libc = ctypes.CDLL(None, use_errno=True)
    version = libc.syscall(_SYSCALLS["create_ruleset"], None, 0, _CREATE_RULESET_VERSION)
    return max(int(version), 0)


def restrict_writes(writable: list[str]) -> int:
    """Allow writes only beneath `writable`; returns the ABI used (0: not restricted)."""
    abi = abi_version()
    if abi < 1:
        return 0
    libc = ctypes.CDLL(None, use_errno=True)
    rights = _WRITE_RIGHTS_V1 | (_REFER if abi >= 2 else 0) | (_TRUNCATE if abi >= 3 else 0)
    scoped = _SCOPE_SIGNAL | _SCOPE_ABSTRACT_UNIX_SOCKET
    attr = _RulesetAttr(rights, 0, scoped if abi >= 6 else 0)
    size = ctypes.sizeof(_RulesetAttr) if abi >= 6 else 8
    ruleset = libc.syscall(_SYSCALLS["create_ruleset"], ctypes.byref(attr), size, 0)
    if ruleset < 0:
        return 0
    try:
        for path in writable:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                rule = _PathBeneathAttr(rights, fd)
                libc.syscall(
                    _SYSCALLS["add_rule"], ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0
                )
            finally:
                os.close(fd)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return 0
        if libc.syscall(_SYSCALLS["restrict_self"], ruleset, 0) != 0:
            return 0
    finally:
        os.close(ruleset)
    return abi
