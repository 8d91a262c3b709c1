# Runs while another check (which wrote a marker into its /tmp, /dev/shm and workdir and is
# still sleeping) is alive: looks for its files and processes.
import glob
import os
import time

MARKER = ("$MARKER_HEAD" + "$MARKER_TAIL").encode()  # split: its own source must not match
found = []
for _ in range(20):
    for pattern in ("/tmp/**", "/dev/shm/**", "/tmp/w/**"):
        for path in glob.glob(pattern, recursive=True):
            try:
                if os.path.isfile(path) and MARKER in open(path, "rb").read():
                    found.append(path)
            except OSError:
                pass
    for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
        try:
            if MARKER in open(f"/proc/{pid}/cmdline", "rb").read():
                found.append(f"/proc/{pid}")
        except OSError:
            pass
    if found:
        break
    time.sleep(0.05)


def escaped():
    return bool(found)
