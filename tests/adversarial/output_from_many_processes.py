# The output cap against many writers: sixteen processes (some in sessions of their own, some
# through descriptors duplicated to other numbers or reopened by name) write small pieces to
# stdout and stderr at once, far past the cap in total. The cap counts what the pipes carry,
# whoever wrote it: the check is stopped, not truncated and left running.
import os
import time

kids = []
for i in range(16):
    pid = os.fork()
    if pid == 0:
        if i % 2:
            os.setsid()
        fd = os.dup(1 + i % 2) if i % 3 else os.open(f"/proc/self/fd/{1 + i % 2}", os.O_WRONLY)
        piece = b"y" * 512
        for _ in range(4096):  # 2 MiB each, 32 MiB in all
            os.write(fd, piece)
        os._exit(0)
    kids.append(pid)
for pid in kids:
    os.waitpid(pid, 0)
time.sleep(0.5)
print("wrote everything", flush=True)


def escaped():
    return True
