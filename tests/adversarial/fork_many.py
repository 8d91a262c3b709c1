# A bounded fork bomb: tries to hold 300 processes at once. With the process cap it cannot.
import os
import time

children = []
for _ in range(300):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    children.append(pid)
print("forked", len(children))


def escaped():
    return len(children) >= 300
