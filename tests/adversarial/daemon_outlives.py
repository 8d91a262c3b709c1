# Double fork + setsid: a daemon that means to outlive its check (argv carries $MARKER).
import os
import time

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", "$MARKER"])
    os._exit(0)
time.sleep(0.2)


def escaped():
    return False
