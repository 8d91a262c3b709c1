# The other end of netcount_sender: reads every file of /proc/self/net (and /proc/net, where it
# is) every 20 ms for $LOOK_S seconds, and names each figure that fell by 700 or more from a
# value it had: the sender's ~900 sockets going (counters that only grow, the host's packets,
# are not a message). Its own network namespace's figures move only with its own sockets,
# which it does not open.
import os
import re
import time

files = []
for top in ("/proc/self/net", "/proc/net"):
    for dirpath, _dirs, names in os.walk(top):
        files += [os.path.join(dirpath, n) for n in names]
hi, fell = {}, set()
deadline = time.monotonic() + float("$LOOK_S")
while time.monotonic() < deadline:
    for path in files:
        try:
            with open(path) as fh:
                text = fh.read(1 << 16)
        except OSError:
            continue
        for i, line in enumerate(text.splitlines()[:64]):
            for j, num in enumerate(re.findall(r"-?\d+", line)):
                key, v = (path, i, j), int(num)
                hi[key] = max(hi.get(key, v), v)
                if hi[key] - v >= 700:
                    fell.add(f"{path}:{i}")
    time.sleep(0.02)
seen = sorted(fell)
print("files", len(files), "seen", seen)


def escaped():
    return bool(seen)
