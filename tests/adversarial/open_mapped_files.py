# Reaches files through the links of its own memory map: /proc/self/map_files/<range> opens
# the file a mapping came from (the host's file behind an overlay), and every path
# /proc/self/maps names is tried by name; /proc/self/exe and the loader's file too.
import os

opened, names = [], set()
for entry in (os.listdir("/proc/self/map_files") if os.path.isdir("/proc/self/map_files") else []):
    try:
        fd = os.open(f"/proc/self/map_files/{entry}", os.O_RDONLY)
        opened.append(("map_files", os.readlink(f"/proc/self/fd/{fd}")))
        os.close(fd)
    except OSError:
        pass
with open("/proc/self/maps") as fh:
    for line in fh:
        parts = line.split(maxsplit=5)
        if len(parts) == 6 and parts[5].startswith("/"):
            names.add(parts[5].strip().removesuffix(" (deleted)"))
reachable = []
for name in sorted(names):
    for parent in (name, os.path.dirname(name), os.path.dirname(os.path.dirname(name))):
        try:
            listing = os.listdir(parent) if os.path.isdir(parent) else None
        except OSError:
            continue
        if listing is not None and {"home", "srv", "var", "opt", "boot"} & set(listing):
            reachable.append(parent)
print("opened", opened, "host tops", reachable, flush=True)


def escaped():
    return bool(opened) or bool(reachable)
