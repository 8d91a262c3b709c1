"""Run argv[1:] as uid 65534 on a machine where no user namespace can be created.

Needs root. The child enters a user namespace that maps every host id to itself (so it is
still, on the host, whatever uid it becomes), sets that namespace's max_user_namespaces to 0
(a per-namespace limit: nothing below can create one), drops to uid 65534 and execs argv[1:].
That is the situation "not root and user namespaces disabled" without touching the host's
sysctls, which other programs on the machine share."""

import os
import sys

sys.path.insert(0, os.environ["RLVR_SRC"])
from rlvr_grade.sandbox import linux  # noqa: E402

ready_r, ready_w = os.pipe()
go_r, go_w = os.pipe()
pid = os.fork()
if pid == 0:
    linux.unshare(linux.CLONE_NEWUSER)
    os.write(ready_w, b"1")
    os.read(go_r, 1)
    with open("/proc/sys/user/max_user_namespaces", "w") as fh:
        fh.write("0")
    os.setgroups([])
    os.setresgid(65534, 65534, 65534)
    os.setresuid(65534, 65534, 65534)
    os.execv(sys.argv[1], sys.argv[1:])
os.read(ready_r, 1)
for name in ("uid_map", "gid_map"):
    with open(f"/proc/{pid}/{name}", "w") as fh:
        fh.write("0 0 4294967295")
os.write(go_w, b"1")
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
