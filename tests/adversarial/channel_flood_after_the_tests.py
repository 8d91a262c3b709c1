# Passes its tests, then, on the way out (os._exit, which the worker's check child ends with),
# writes 2 GiB on the result channel from the tests' own process: past every record the
# harness wrote, so only a cap on the channel that stops the check, as the stdout cap does,
# keeps it from passing while the worker reads gigabytes.
import os
import stat


def _is_socket(fd):
    try:
        return stat.S_ISSOCK(os.fstat(fd).st_mode)
    except OSError:
        return False


chan = [fd for fd in range(3, 1024) if _is_socket(fd)]
real_exit = os._exit
block = b"y" * (1 << 20) + b"\n"


def flood_then_exit(code):
    sent = 0
    try:
        while sent < (2 << 30):
            for fd in chan:
                sent += os.write(fd, block)
    except OSError:
        pass
    real_exit(code)


os._exit = flood_then_exit
print("channel candidates", chan)


def escaped():
    return True
