# Double fork + setsid: a daemon that means to outlive its check (argv carries $MARKER).
import os
import sys
import time

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", "$MARKER"])
    os._exit(0)
time.sleep(0.2)


def escaped():
    return False
