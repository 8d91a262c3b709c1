# A state channel through access times: reading a file every check's root shares (here one the
# test planted beside the harness's modules, last accessed long ago) moves its access time if
# the root reaches the host's inode with atime updates on. A receiver in another check (or the
# next check of the slot) reads it with stat(); the host sees its files' atime move.
import os
import sys

here = os.path.dirname(sys.modules["rlvr_harness"].__file__)
moved, read, planted = [], 0, False
for path in [os.path.join(here, "$NAME"), os.__file__, os.path.join(here, "__init__.py")]:
    try:
        before = os.stat(path).st_atime_ns
        with open(path, "rb") as fh:
            read += len(fh.read())
        after = os.stat(path).st_atime_ns
    except OSError as exc:
        print(path, exc.strerror)
        continue
    print(path, before, after)
    planted = planted or path.endswith("$NAME")
    if after != before:
        moved.append(path)
print("read", read, "planted read:", planted, "moved", moved)


def escaped():
    return bool(moved)
