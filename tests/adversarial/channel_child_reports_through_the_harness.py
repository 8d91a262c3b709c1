# The harness's records, written by a forked child: the child makes the harness's reporter
# believe it runs in the process it was made in (the pid it compares with sits in a closure
# cell, writable from Python), and returns into the tests, whose genuine records (right nonce,
# right format) then come from the child. The parent, whose own answer fails, leaves first and
# writes nothing. Only the kernel's word on who wrote the records tells them apart.
import gc
import os
import sys


def escaped():
    pid = os.fork()
    if pid:
        os.waitpid(pid, 0)
        os._exit(0)
    me, parent = os.getpid(), os.getppid()
    patched = 0
    for obj in gc.get_objects():
        if type(obj).__name__ == "function" and getattr(obj, "__module__", "") == "rlvr_grade.harness.channel":
            for cell in obj.__closure__ or ():
                try:
                    if type(cell.cell_contents) is int and cell.cell_contents == parent:
                        cell.cell_contents = me
                        patched += 1
                except ValueError:
                    pass
    print("child", me, "of", parent, "patched", patched, "cells", file=sys.stderr, flush=True)
    return True  # reported by the child only
