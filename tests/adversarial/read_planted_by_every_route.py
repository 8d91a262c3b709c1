# Answer files planted where a training box keeps things (/root, the pip cache, the host's
# /tmp, the checkout, /home, /mnt, /srv, /opt, /var/lib, /var/cache, the environment's cache
# folder beside its venv), tried by every route a path takes: by name, through /proc/self/root,
# /proc/1/root, /proc/self/cwd/.., /dev/fd/N/.., openat from every descriptor the check holds,
# a symlink made in /tmp, and a walk of the whole root for the token in names.
import json
import os

TOKEN = "$TOKEN_HEAD" + "$TOKEN_TAIL"  # split: its own source must not match
found = []


def tried(label, path, dir_fd=None):
    try:
        fd = os.open(path, os.O_RDONLY, dir_fd=dir_fd)
    except OSError:
        return
    os.close(fd)
    found.append((label, path))


fds = [int(n) for n in os.listdir("/proc/self/fd")]
for path in json.loads('$PATHS'):
    rel = path.lstrip("/")
    tried("name", path)
    for prefix in ("/proc/self/root/", "/proc/1/root/", "/proc/self/cwd/../../../../", "/proc/thread-self/root/"):
        tried(prefix, prefix + rel)
    for fd in fds:
        tried(f"openat fd {fd}", "../../../../../../" + rel, fd)
        tried(f"/dev/fd/{fd}", f"/dev/fd/{fd}/../../../../../../{rel}")
    link = f"/tmp/link-{len(found)}-{abs(hash(path))}"
    try:
        os.symlink(path, link)
        tried("symlink", link)
    except OSError:
        pass
for top, dirs, files in os.walk("/"):
    if top == "/proc":
        dirs[:] = []
        continue
    for name in dirs + files:
        if TOKEN in name:
            found.append(("walk", os.path.join(top, name)))
print("found", found, flush=True)


def escaped():
    return bool(found)
