# Looks for the grader's own folders ($PATHS: its checkout or site-packages holding rlvr_grade
# and rlvr_harness, the run's working directory, and under gVisor the environment's cache
# folder; and where the base interpreter is installed) everywhere a check can read them without
# leaving its root: the mount table, its command line and environment, the files mapped into it
# (extension modules the seed loaded), the links /proc/self/exe, cwd and fd/*, sys.path, the
# interpreter's prefixes, executables and stdlib folder (sys, sysconfig.get_paths()), every name
# and link in the root's tree, every module's file, the file names in the code on its stack and in every function alive, a
# traceback through the harness, and the root's listing. Any of them found is a leak.
import gc
import json
import os
import sys
import sysconfig
import traceback

PATHS = [p.rstrip("/") + "/" for p in json.loads('$PATHS')]
seen = []


def look(where, text):
    for p in PATHS:
        if p in str(text) + "/":
            seen.append(f"{where}: {p}")


for path in ("/proc/self/mountinfo", "/proc/self/mounts", "/proc/self/cmdline", "/proc/self/environ", "/proc/self/maps"):
    try:
        with open(path, "rb") as fh:
            look(path, fh.read().decode("utf-8", "replace").replace("\0", " "))
    except OSError:
        pass
look("sys.path", sys.path)
for name in ("prefix", "exec_prefix", "base_prefix", "base_exec_prefix", "executable", "_base_executable", "_stdlib_dir",
             "orig_argv", "argv"):
    look(f"sys.{name}", getattr(sys, name, ""))
look("sysconfig.get_paths()", sysconfig.get_paths())
for name in ["exe", "cwd", "root"] + ["fd/" + n for n in os.listdir("/proc/self/fd")]:
    try:
        look(f"/proc/self/{name}", os.readlink(f"/proc/self/{name}"))
    except OSError:
        pass
for dirpath, dirnames, filenames in os.walk("/"):
    if dirpath == "/":
        dirnames[:] = [d for d in dirnames if d not in ("proc", "sys", "dev", "tmp")]
    look("a name in the root", [os.path.join(dirpath, n) for n in dirnames + filenames]
         + [os.readlink(os.path.join(dirpath, n)) for n in dirnames + filenames if os.path.islink(os.path.join(dirpath, n))])
for name, mod in list(sys.modules.items()):
    look(f"{name}.__file__", getattr(mod, "__file__", None))
    look(f"{name}.__path__", list(getattr(mod, "__path__", None) or ()))
f = sys._getframe()
while f is not None:
    look("frame", f.f_code.co_filename)
    f = f.f_back
for obj in gc.get_objects():
    if type(obj).__name__ == "function":
        look("function " + getattr(obj, "__qualname__", "?"), obj.__code__.co_filename)
look("listing of /", [os.path.join("/", n) for n in os.listdir("/")])
seen = sorted(set(seen))[:20]
print("seen", seen)


def escaped():
    try:
        raise ValueError("where am I")
    except ValueError:
        look("traceback", traceback.format_stack())
    return bool(seen)
