# Holds 400 MiB in pipe buffers: each pipe is filled, its write end closed (the data stays as
# long as the read end is open), so one descriptor holds 64 KiB of kernel memory; seven
# processes hold a thousand each. Kernel memory, not the check's pages: unless pipe buffers
# are charged to the check's memory (or the per-user pipe quota stops it), it keeps three
# times its memory cap from the host.
import os
import time

GOAL_MIB = 400


def fill(goal):
    held, queued, chunk = [], 0, b"x" * 65536
    try:
        while queued < goal:
            r, w = os.pipe()
            os.set_blocking(w, False)
            try:
                while True:
                    queued += os.write(w, chunk)
            except BlockingIOError:
                pass
            os.close(w)
            held.append(r)
    except OSError as exc:
        print("stopped:", exc)
    return held, queued


r, w = os.pipe()
kids = []
for _ in range(6):
    pid = os.fork()
    if pid == 0:
        held, q = fill((GOAL_MIB // 7) << 20)
        os.write(w, b"%d\n" % (q >> 20))
        time.sleep(3)
        os._exit(0)
    kids.append(pid)
os.close(w)
held, q = fill((GOAL_MIB // 7) << 20)
total = q >> 20
with os.fdopen(r) as fh:
    total += sum(int(line) for line in fh)
print("queued MiB", total)


def escaped():
    return total >= 300
