# ruff: noqa
# marshal.loads of a bytearray that a thread rewrites while the guard's hook reads the copy it
# was given: the hook saw data, the parse read a code object (bytecode of its own, unchecked).
# Sealed, marshal.loads parses a copy of the buffer: what the hook checked is what it parses.
STATIC_SCAN_BLIND = "marshal.loads of data the text shows; the code arrives later, through a thread's rewrite of the buffer"

import marshal
import sys
import threading

CODE = marshal.dumps((lambda: 0).__code__)
DATA = next(d for d in (marshal.dumps(("x" * k,)) for k in range(len(CODE))) if len(d) == len(CODE))
BUF = bytearray(DATA)
STOP = []


def _pause():
    pass  # a function's start is where the interpreter hands the lock to another thread


def _flip():
    while not STOP:
        BUF[:] = CODE
        _pause()
        BUF[:] = DATA
        _pause()


def _got_code():
    sys.setswitchinterval(1e-6)
    t = threading.Thread(target=_flip, daemon=True)
    t.start()
    try:
        for _ in range(20000):
            try:
                v = marshal.loads(BUF)
            except Exception:
                continue
            if type(v) is type(CODE_OBJ):
                return True
        return False
    finally:
        STOP.append(1)
        t.join()


CODE_OBJ = (lambda: 0).__code__
WON = _got_code()


def f(x):
    return x + 1 if WON else x
