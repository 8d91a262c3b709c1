# Writes everywhere but its workdir and /tmp: the host must stay untouched.
import os

written = []
for path in $PATHS:
    try:
        with open(path, "w") as fh:
            fh.write("owned")
        written.append(path)
    except OSError as exc:
        print("no", path, exc)


def escaped():
    return bool(written)
