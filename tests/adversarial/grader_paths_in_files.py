# Reads the bytes of every file in the check's root (not /proc, /dev, /tmp) and looks for the
# grader's own folders ($PATHS: its checkout or site-packages, the run's working directory, the
# environments' folder, its home) in them: names that no file the check is shown was made to
# carry, but that a build writes into what it makes — the folder a module was compiled in, in
# every code object of its bytecode (an environment built in the environments' folder, the
# harness's modules compiled where pip or an import put them), the folder an extension was
# compiled in, in its debug information. Any of them found is a leak.
import json
import os

PATHS = [p.rstrip("/").encode() for p in json.loads('$PATHS')]
TOPS = None if '$TOPS'.startswith('$') else json.loads('$TOPS')  # default: every top folder
SKIP = ("/proc", "/dev", "/tmp", "/sys")
ENDS = b"/\0\"' \n:;,)"
seen = []
files = 0


def scan(path):
    global files
    try:
        fh = open(path, "rb")
    except OSError:
        return
    files += 1
    tail = b""
    with fh:
        while True:
            block = fh.read(1 << 22)
            if not block:
                return
            data = tail + block
            for p in PATHS:
                start = 0
                while True:
                    i = data.find(p, start)
                    if i < 0:
                        break
                    after = data[i + len(p):i + len(p) + 1]
                    if not after or after in ENDS or after[0] >= 0x80 or after[0] < 0x20:
                        seen.append(f"{path}: {p.decode()}")
                        break
                    start = i + 1
            tail = data[-4096:]


for top in TOPS or ["/" + n for n in sorted(os.listdir("/"))]:
    if top in SKIP or os.path.islink(top):
        continue
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for name in filenames:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path) and os.path.isfile(path):
                scan(path)
seen = sorted(set(seen))
print("files", files)
print("seen", seen[:20])


def escaped():
    return bool(seen)
