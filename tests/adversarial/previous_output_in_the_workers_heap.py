# A check is a fork of its slot's worker: the worker's whole address space comes with it,
# including memory it freed but never cleared: the frames it read a previous check's output
# into and the JSON it encoded that check's report in. Reads its own writable mappings (raw
# memory, the sandbox's layers only: the in-process guard is off in these tests) for the
# marker an earlier check of the slot printed: $LEFT_TAIL preceded by $LEFT_HEAD (the two
# never adjacent in this source, so the search cannot find its own text).
import ctypes

HEAD, TAIL = "$LEFT_HEAD".encode(), "$LEFT_TAIL".encode()
hits = 0
with open("/proc/self/maps") as fh:
    regions = [line.split() for line in fh]
for parts in regions:
    if not parts[1].startswith("rw") or (len(parts) > 5 and parts[5].startswith("[v")):
        continue
    lo, hi = (int(x, 16) for x in parts[0].split("-"))
    try:
        data = ctypes.string_at(lo, hi - lo)
    except Exception:  # noqa: BLE001 - a region that went away
        continue
    at = data.find(TAIL)
    while at >= 0:
        hits += data[max(0, at - len(HEAD)):at] == HEAD
        at = data.find(TAIL, at + 1)
print("marker copies in memory:", hits)


def escaped():
    return hits > 0
