# Fills /tmp with many 1 MiB files (each under the file-size cap) until the size-capped tmpfs
# refuses.
written = 0
try:
    for i in range(1024):
        with open(f"/tmp/fill-{i}", "wb") as fh:
            fh.write(b"\0" * (1 << 20))
        written += 1 << 20
except OSError as exc:
    print("stopped:", exc)


def escaped():
    return written >= 1024 << 20
