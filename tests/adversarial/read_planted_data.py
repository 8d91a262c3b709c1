# A "solution" that walks the whole disk for the dataset its case came from: answer files
# planted where training boxes keep data (/srv, /opt, /mnt, /var, /home, /run, the grader's
# working directory, a data folder). Their names carry the token; it also tries them by path.
import json
import os

TOKEN = "$TOKEN_HEAD" + "$TOKEN_TAIL"  # split: its own source must not match
found = []
for path in json.loads('$PATHS'):
    try:
        with open(path, "rb"):
            found.append(path)
    except OSError:
        pass
for top, dirs, files in os.walk("/"):
    if top == "/proc":
        dirs[:] = []
        continue
    for name in dirs + files:
        if TOKEN in name:
            found.append(os.path.join(top, name))
print("found", found)


def escaped():
    return bool(found)
