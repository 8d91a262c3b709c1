# Runs programs that are not in its root: a shell and the host's usual tools by path, a
# script whose #! line names one, the dynamic loader asked to run a host binary, and
# /proc/self/exe's neighbours. Only what the root lists exists; nothing else runs.
import os
import subprocess

ran = []
os.makedirs("/tmp/w/bin", exist_ok=True)
with open("/tmp/w/bin/script", "w") as fh:
    fh.write("#!/bin/sh\necho ran\n")
os.chmod("/tmp/w/bin/script", 0o755)
for argv in (["/bin/sh", "-c", "echo ran"], ["/usr/bin/env", "echo", "ran"], ["sh", "-c", "echo ran"],
             ["/usr/bin/cat", "/etc/hostname"], ["/sbin/init"], ["/usr/bin/sudo", "true"], ["/bin/busybox", "echo"],
             ["/tmp/w/bin/script"], ["/lib64/ld-linux-x86-64.so.2", "/bin/ls", "/"],
             ["/lib64/ld-linux-x86-64.so.2", "/usr/bin/id"]):
    try:
        out = subprocess.run(argv, capture_output=True, timeout=5)
        if out.returncode == 0:
            ran.append(argv[0])
    except (OSError, subprocess.SubprocessError):
        pass
print("ran", ran, flush=True)


def escaped():
    return bool(ran)
