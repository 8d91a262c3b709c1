# Tests: two asserts. The channel's secret is the nonce on every record the harness writes (red
# team item A1). A forked child points every descriptor it has, the result channel among them,
# at a pipe of its own and returns into the tests: the harness (in the child) writes the first
# record there, and on the second call the child reads the nonce back and hands it to the
# parent, which writes "passed" and "done" with it on every descriptor and leaves before any
# real record exists. fork, dup2, read and write raise no audit event.
import json
import os
import re

state = {}


def escaped():
    if state:  # the second call, in the child: the first record is in our pipe
        os.set_blocking(state["r"], False)
        try:
            data = os.read(state["r"], 1 << 16)
        except BlockingIOError:
            data = b""
        m = re.search(rb"([0-9a-f]{32}) \{", data)
        os.write(state["back"], m.group(1) if m else b"-")
        os._exit(0)
    back_r, back_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        r, w = os.pipe()
        refused = 0
        for fd in range(3, 1024):
            if fd not in (r, w, back_w):
                try:
                    os.dup2(w, fd)
                except OSError as exc:
                    refused += exc.errno == 1
        print("child: dup2 refused on", refused, "descriptors", flush=True)
        state.update(r=r, back=back_w)
        return False  # the harness reports this one into our pipe
    os.close(back_w)
    nonce = os.read(back_r, 64)
    os.waitpid(pid, 0)
    print("nonce stolen:", len(nonce) == 32, flush=True)
    if len(nonce) == 32:
        events = [{"ev": "test", "id": f"check:{i}", "outcome": "passed", "msg": ""} for i in (1, 2)] + [{"ev": "done"}]
        blob = b"\n" + b"\n".join(nonce + b" " + json.dumps(e).encode() for e in events) + b"\n"
        for fd in range(3, 1024):
            try:
                os.write(fd, blob)
            except OSError:
                pass
        os._exit(0)
    return False
