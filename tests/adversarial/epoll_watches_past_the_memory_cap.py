# Kernel memory through epoll: every watch (an epitem, ~130 bytes, plus its wait-queue entry)
# is the kernel's, and one process may hold ~1000 epoll instances each watching the same
# ~500 pipes; eight processes make millions. The check's memory cap must count them.
import os
import select
import time

children = []
for _ in range(20):
    pid = os.fork()
    if pid == 0:
        pipes = []
        for _ in range(500):
            r, w = os.pipe()
            os.close(w)
            pipes.append(r)
        polls = []
        try:
            for _ in range(515):
                ep = select.epoll()
                for p in pipes:
                    ep.register(p, select.EPOLLIN)
                polls.append(ep)
        except OSError as exc:
            print("child stopped", len(polls), exc, flush=True)
        print("child holds", len(polls) * len(pipes), "watches", flush=True)
        time.sleep(3)
        os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
print("wrote everything", flush=True)


def escaped():
    return False
