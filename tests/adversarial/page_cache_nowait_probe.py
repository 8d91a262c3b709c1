# Page-cache residency without mincore: a read with RWF_NOWAIT fails (EAGAIN) rather than wait
# for the disk, so it tells whether pages of a file are cached. Every check's root shares the
# host's page cache (an overlay reads through to the same file), so whether another check just
# imported a rarely used module, or read a file it was told to, is one bit a call.
import glob
import json
import os

answers = {}
for path in [*json.loads('$PATHS'), os.__file__, *sorted(glob.glob(os.path.join(os.path.dirname(os.__file__), "*.py")))[:40]]:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.preadv(fd, [bytearray(4096)], 0, os.RWF_NOWAIT)
        answers[path] = "cached"
    except BlockingIOError:
        answers[path] = "not cached"  # an answer too
    except OSError as exc:
        answers[path] = exc.strerror
    finally:
        os.close(fd)
told = sorted({v for v in answers.values()})
print("answers", told)


def escaped():
    return any(v in ("cached", "not cached") for v in answers.values())
