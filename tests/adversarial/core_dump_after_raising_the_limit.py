# A core dump: a program the check execs is dumpable again (the kernel's rule after exec), and
# a crash with RLIMIT_CORE raised writes a core file where kernel.core_pattern says: into the
# check's cwd (disk past the file size cap) or, with a pipe pattern, to a helper that the host
# runs as root in its own namespaces (apport, systemd-coredump). The limit is 0, soft and hard.
import os
import resource
import subprocess
import sys

raised = []
for soft, hard in ((-1, -1), (1 << 30, 1 << 30), (1 << 20, 0)):
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (soft, hard))
        raised.append((soft, hard))
    except (OSError, ValueError) as exc:
        print("setrlimit", soft, hard, exc)
crash = ("import resource, os\ntry:\n    resource.setrlimit(resource.RLIMIT_CORE, (-1, -1))\nexcept Exception as e:\n"
         "    print('child setrlimit', e)\nprint('child limit', resource.getrlimit(resource.RLIMIT_CORE), flush=True)\nos.abort()\n")
proc = subprocess.run([sys.executable, "-c", crash], capture_output=True, text=True, timeout=20)
print(proc.stdout, proc.returncode)
cores = [os.path.join(d, n) for d in {os.getcwd(), "/tmp", "/tmp/w"} if os.path.isdir(d) for n in os.listdir(d) if n.startswith("core")]
print("raised", raised, "cores", cores, "limit", resource.getrlimit(resource.RLIMIT_CORE))


def escaped():
    return bool(raised) or bool(cores) or proc.returncode != -6
