# Page tables: one byte touched in each 2 MiB of a vast sparse mapping costs a 4 KiB page-table
# page and one data page; with the data pages given back (MADV_DONTNEED) only the tables stay.
# Kernel memory the check made, which its memory cap must count.
import mmap

maps = []
held_gib = 0
try:
    for _ in range(16):
        m = mmap.mmap(-1, 64 << 30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | getattr(mmap, "MAP_NORESERVE", 0x4000))
        for off in range(0, 64 << 30, 2 << 20):
            m[off] = 1
        m.madvise(mmap.MADV_DONTNEED)
        maps.append(m)
        held_gib += 64
        print("mapped", held_gib, "GiB sparse", flush=True)
except (OSError, MemoryError) as exc:
    print("stopped", held_gib, exc, flush=True)
print("wrote everything" if held_gib >= 16 * 64 else "held", held_gib, flush=True)


def escaped():
    return held_gib >= 16 * 64
