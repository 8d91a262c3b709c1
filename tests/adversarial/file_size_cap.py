# One file larger than RLIMIT_FSIZE (the check's file-size cap), in the workdir.
written = 0
try:
    with open("big.bin", "wb") as fh:
        for _ in range(64):
            fh.write(b"\0" * (1 << 20))
            fh.flush()
            written += 1 << 20
except OSError as exc:
    print("stopped:", exc)


def escaped():
    return written >= 64 << 20
