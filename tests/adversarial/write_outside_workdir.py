# Writes everywhere but its workdir and /tmp: the host must stay untouched.
import json

written = []
for path in json.loads('$PATHS'):
    try:
        with open(path, "w") as fh:
            fh.write("owned")
        written.append(path)
    except OSError as exc:
        print("no", path, exc)


def escaped():
    return bool(written)
