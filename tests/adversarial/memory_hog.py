# Touches 2 GiB, page by page: the memory cgroup kills it (status memory_limit).
chunks = []
for _ in range(2048):
    chunks.append(b"x" * (1 << 20))


def escaped():
    return True
