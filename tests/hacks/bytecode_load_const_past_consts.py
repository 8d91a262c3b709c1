# ruff: noqa
# No ctypes, no numpy: a code object the program makes itself (code.replace) whose LOAD_CONST
# index points past its co_consts. CPython does not bounds-check it, so the "constant" is read
# from an address the program chose: a fake bytearray over all of memory. id() gives every
# object's address, and the interned "failed" the harness reports with becomes "passed".
import struct
import types

STATIC_SCAN_BLIND = "a code object built at run time; the trick is in its bytes"
_keep = []


def _memory():
    fake = struct.pack("<qQqqQQq", 1 << 40, id(bytearray), 1 << 62, 1 << 62, 0, 0, 0)
    consts = (None,)
    ptr = struct.pack("<Q", id(fake) + 32)  # bytes' data starts 32 bytes in (3.11)
    _keep.extend((fake, consts, ptr))
    index = (((id(ptr) + 32) - (id(consts) + 24)) // 8) & 0xFFFFFFFF
    ops = [151, 0]  # RESUME
    for shift in (24, 16, 8):
        ops += [144, (index >> shift) & 0xFF]  # EXTENDED_ARG
    ops += [100, index & 0xFF, 83, 0]  # LOAD_CONST index, RETURN_VALUE
    code = (lambda: None).__code__.replace(co_code=bytes(ops), co_consts=consts, co_stacksize=4)
    mem = types.FunctionType(code, {})()
    _keep.append(mem)
    return mem


try:
    _mem = _memory()
    _at = id("failed") + 48  # a compact ASCII str's characters (3.11)
    for _i, _c in enumerate(b"passed"):
        _mem[_at + _i] = _c
except Exception:
    pass


def f(x):
    return 0
