# Files every check shares, changed through side doors of the read-only root: an O_PATH
# descriptor reopened for writing through /proc/self/fd, a hard link of it made into the
# check's /tmp (linkat through /proc/self/fd follows the link), then written; times, modes,
# extended attributes and sizes set on the original; a rename or exchange (renameat2) of a
# root file with one of /tmp. Any of them would be a mark another check (or the host) reads.
import ctypes
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
changed = []
def _exchange(a, b):
    if libc.syscall(316, -100, a.encode(), -100, b.encode(), 2) != 0:  # renameat2 RENAME_EXCHANGE
        raise OSError(ctypes.get_errno(), "renameat2")


targets = [sys.executable, os.__file__, "/etc/passwd", "/etc/ld.so.cache", "/"]
for path in targets:
    try:
        p = os.open(path, os.O_PATH)
    except OSError:
        continue
    for label, fn in (
        ("reopen rw", lambda p=p, path=path: os.close(os.open(f"/proc/self/fd/{p}", os.O_RDWR))),
        ("reopen wronly", lambda p=p, path=path: os.close(os.open(f"/proc/self/fd/{p}", os.O_WRONLY | os.O_APPEND))),
        ("link into /tmp", lambda p=p, path=path: os.link(f"/proc/self/fd/{p}", "/tmp/linked", follow_symlinks=True)),
        ("utime", lambda p=p, path=path: os.utime(path, (1, 1))),
        ("chmod", lambda p=p, path=path: os.chmod(path, 0o777)),
        ("setxattr", lambda p=p, path=path: os.setxattr(path, "user.rlvr", b"1")),
        ("truncate", lambda p=p, path=path: os.truncate(path, 0) if not os.path.isdir(path) else (_ for _ in ()).throw(OSError())),
        ("rename to /tmp", lambda p=p, path=path: os.rename(path, "/tmp/moved")),
        ("exchange with /tmp", lambda p=p, path=path: (open("/tmp/x", "w").close(),
                                         _exchange(path, "/tmp/x"))),
    ):
        try:
            fn()
            changed.append((path, label))
        except OSError:
            pass
    os.close(p)
if os.path.exists("/tmp/linked"):
    try:
        with open("/tmp/linked", "r+b") as fh:
            fh.write(b"#")
        changed.append(("/tmp/linked", "written"))
    except OSError:
        pass


print("changed", changed, flush=True)


def escaped():
    return bool(changed)
