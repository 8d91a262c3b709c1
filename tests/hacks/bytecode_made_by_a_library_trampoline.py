# ruff: noqa
# As bytecode_load_const_past_consts, but the code object is made by library code on the
# program's behalf: a thread pool's worker calls code.replace (no frame of the program on
# that thread's stack, and the requester is concurrent.futures).
import struct
import types
from concurrent.futures import ThreadPoolExecutor

STATIC_SCAN_BLIND = "a code object built at run time by a library worker"
_keep = []


def _memory():
    fake = struct.pack("<qQqqQQq", 1 << 40, id(bytearray), 1 << 62, 1 << 62, 0, 0, 0)
    consts = (None,)
    ptr = struct.pack("<Q", id(fake) + 32)
    _keep.extend((fake, consts, ptr))
    index = (((id(ptr) + 32) - (id(consts) + 24)) // 8) & 0xFFFFFFFF
    ops = [151, 0]
    for shift in (24, 16, 8):
        ops += [144, (index >> shift) & 0xFF]
    ops += [100, index & 0xFF, 83, 0]
    with ThreadPoolExecutor(1) as pool:
        code = pool.submit((lambda: None).__code__.replace, co_code=bytes(ops), co_consts=consts,
                           co_stacksize=4).result()
    mem = types.FunctionType(code, {})()
    _keep.append(mem)
    return mem


try:
    _mem = _memory()
    _at = id("failed") + 48
    for _i, _c in enumerate(b"passed"):
        _mem[_at + _i] = _c
except Exception:
    pass


def f(x):
    return 0
