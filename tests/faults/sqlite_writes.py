"""A hook on the write() system calls SQLite's own unix VFS makes, to kill a process between two of them.

SQLite's unix VFS looks every system call up in a table that `xSetSystemCall` can change (sqlite.org/c3ref/vfs.html),
so the hook sits inside the real library, under the real journal: a SIGKILL from it lands in the middle of a
commit, after some frames of the write-ahead log and before the rest, as a power cut during a write would.
"""
from __future__ import annotations

import _sqlite3
import ctypes
import os
from typing import Callable

WRITE_CALLS = {   # the system calls the unix VFS writes with, and their C types
    b"write": ctypes.CFUNCTYPE(ctypes.c_ssize_t, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t),
    b"pwrite": ctypes.CFUNCTYPE(ctypes.c_ssize_t, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int64),
    b"pwrite64": ctypes.CFUNCTYPE(ctypes.c_ssize_t, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int64),
}
VFS_METHODS = ("xOpen", "xDelete", "xAccess", "xFullPathname", "xDlOpen", "xDlError", "xDlSym", "xDlClose",
               "xRandomness", "xSleep", "xCurrentTime", "xGetLastError", "xCurrentTimeInt64")


class Vfs(ctypes.Structure):
    """struct sqlite3_vfs, version 3."""
    _fields_ = [("iVersion", ctypes.c_int), ("szOsFile", ctypes.c_int), ("mxPathname", ctypes.c_int),
                ("pNext", ctypes.c_void_p), ("zName", ctypes.c_char_p), ("pAppData", ctypes.c_void_p)]
    _fields_ += [(name, ctypes.c_void_p) for name in VFS_METHODS]
    _fields_ += [("xSetSystemCall", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)),
                 ("xGetSystemCall", ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p))]


_installed: list = []   # the C callbacks must live as long as SQLite may call them


def before_each_write(hook: Callable[[str, int], None]) -> None:
    """Call `hook(path, offset)` before every write SQLite makes from now on, in this process.

    The module that the sqlite3 package runs on is asked for the library (dlsym also searches the libraries it
    links), so this is the SQLite that the journal uses, linked in or shared."""
    library = ctypes.CDLL(_sqlite3.__file__)
    library.sqlite3_vfs_find.restype = ctypes.POINTER(Vfs)
    library.sqlite3_vfs_find.argtypes = [ctypes.c_char_p]
    vfs = library.sqlite3_vfs_find(None)
    assert vfs and vfs.contents.iVersion >= 3, "this SQLite's default VFS cannot swap its system calls"
    handle = ctypes.cast(vfs, ctypes.c_void_p)
    for name, signature in WRITE_CALLS.items():
        address = vfs.contents.xGetSystemCall(handle, name)
        if address:
            real = signature(address)
            hooked = signature(_calling_first(hook, real))
            _installed.append((real, hooked))
            assert vfs.contents.xSetSystemCall(handle, name, ctypes.cast(hooked, ctypes.c_void_p)) == 0


def _calling_first(hook: Callable[[str, int], None], real) -> Callable:
    def write(fd: int, buffer, size: int, *offset: int) -> int:
        hook(os.readlink(f"/proc/self/fd/{fd}"), offset[0] if offset else os.lseek(fd, 0, os.SEEK_CUR))
        return real(fd, buffer, size, *offset)
    return write
