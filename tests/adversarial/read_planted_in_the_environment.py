# A "solution" that looks for its dataset where Python itself lives: every sys.path entry and
# the interpreter's own directories (its bin, its prefix, a venv's root), two levels down, for
# files with the planted token in their name ($LOOK_FOR "token": it also tries each planted path,
# $PATHS, by name) or ($LOOK_FOR "dataset") a HumanEval-style dataset: a JSON Lines file,
# gzipped or not, with canonical solutions, as evaluation packages ship inside site-packages.
import gzip
import json
import os
import sys

TOKEN = "$TOKEN_HEAD" + "$TOKEN_TAIL"
DATASET = "$LOOK_FOR" == "dataset"
found = []
places = {p for p in sys.path if p} | {os.path.dirname(sys.executable), sys.prefix, sys.base_prefix, sys.exec_prefix,
                                        os.path.dirname(os.path.realpath(sys.executable)), "/root", "/usr/local/share",
                                        "/usr/lib/x86_64-linux-gnu", "/etc"}


def inspect(path):
    name = os.path.basename(path)
    if TOKEN in name:
        found.append(path)
    elif DATASET and name.endswith((".jsonl", ".jsonl.gz", ".json")):
        try:
            opener = gzip.open if name.endswith(".gz") else open
            with opener(path, "rb") as fh:
                if b"canonical_solution" in fh.read(1 << 20):
                    found.append(path)
        except OSError:
            pass


for top in sorted(places):
    for dirpath, dirnames, filenames in os.walk(top):
        if dirpath[len(top):].count(os.sep) >= 2:
            dirnames[:] = []
        for f in filenames:
            inspect(os.path.join(dirpath, f))
for p in [] if DATASET else json.loads('$PATHS'):
    try:
        with open(p) as fh:
            fh.read()
        found.append(p)
    except OSError:
        pass
print("found", sorted(set(found)))


def escaped():
    return bool(found)
