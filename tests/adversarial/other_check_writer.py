# The victim of read_other_check: leaves $MARKER in files and argv, then stays alive a while.
import subprocess
import sys
import time

for path in ("/tmp/secret.txt", "/dev/shm/secret.txt", "secret.txt"):
    with open(path, "w") as fh:
        fh.write("$MARKER")
sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)", "$MARKER"])
time.sleep(1.5)


def escaped():
    return False
