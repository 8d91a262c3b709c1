# Imports the grader's own package, whose code set the check up and whose modules the worker
# holds in memory: by name at module level, again from the tests' step (after the harness has
# restored sys.modules), through importlib and a spec search, and (unless $WALK is "0": under
# gVisor the runner's own code is in the root, off sys.path) by walking the root for a folder
# holding it. Any of them working is a leak (issue 18: a check imports its environment's
# packages and the harness, nothing of the grader's).
import importlib
import importlib.util
import os
import sys

got = []


def attempt(when):
    for how, load in (("import", lambda: __import__("rlvr_grade")),
                      ("import_module", lambda: importlib.import_module("rlvr_grade.sandbox.zygote")),
                      ("find_spec", lambda: importlib.util.find_spec("rlvr_grade") or (_ for _ in ()).throw(ImportError()))):
        try:
            load()
        except ImportError:
            continue
        got.append(f"{when}: {how}")
    if any(n == "rlvr_grade" or n.startswith("rlvr_grade.") for n in list(sys.modules)):
        got.append(f"{when}: in sys.modules")


attempt("module level")
for top in ("/",) if "$WALK" != "0" else ():
    for dirpath, dirnames, _files in os.walk(top):
        if dirpath.startswith(("/proc", "/dev")):
            dirnames[:] = []
            continue
        if "rlvr_grade" in dirnames:
            got.append(f"folder {os.path.join(dirpath, 'rlvr_grade')}")
            dirnames.remove("rlvr_grade")
print("got", got)


def escaped():
    attempt("test step")
    return bool(got)
