# Writes 2 GiB on the result channel from the tests' own process, inside the test: output on a
# descriptor that is neither stdout nor stderr. Its test passes once the flood is written; a
# grader without a cap on the channel reads the gigabytes for seconds (the records after its
# buffer are lost, so it cannot pass, but it runs on); with one it is stopped at once, an OLE.
# (Flooding after the harness's last record, by patching os._exit, passed on main before the
# harness put back what the tests reach by name: the cap holds either way.)
import os
import stat


def _is_socket(fd):
    try:
        return stat.S_ISSOCK(os.fstat(fd).st_mode)
    except OSError:
        return False


chan = [fd for fd in range(3, 1024) if _is_socket(fd)]
block = b"y" * (1 << 20) + b"\n"
print("channel candidates", chan)


def escaped():
    sent = 0
    try:
        while sent < (2 << 30):
            for fd in chan:
                sent += os.write(fd, block)
    except OSError:
        pass
    return sent >= (2 << 30)
