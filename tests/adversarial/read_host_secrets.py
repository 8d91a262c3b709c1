# Looks for the grader's secrets: files in its home / cwd / input folder, its environment
# (through /proc/<grader pid>/environ and every /proc entry it can read), its input file.
import json
import os

found = []
for path in json.loads('$PATHS'):
    try:
        with open(path, "rb") as fh:
            if b"$SECRET" in fh.read():
                found.append(path)
    except Exception as exc:  # OSError from the sandbox's masks; GuardRefused from the harness guard
        print("no", path, type(exc).__name__)
for pid in [p for p in os.listdir("/proc") if p.isdigit()] + ["$GRADER_PID"]:
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            if b"$SECRET" in fh.read():
                found.append(f"/proc/{pid}/environ")
    except Exception:  # OSError from the sandbox; the harness guard refuses /proc/<pid> reads first
        pass
if "$SECRET" in repr(dict(os.environ)):
    found.append("os.environ")
print("found", found)


def escaped():
    return bool(found)
