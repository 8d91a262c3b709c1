# System calls through the other doors of x86_64: the i386 ABI (int 0x80) and x32 numbers
# (bit 30), which a filter written for the native numbers alone would let through unchecked.
# Each is made in a child from machine code; the filter kills a child that tries (SIGSYS), and
# the parent sees what became of it.
import ctypes
import mmap
import os
import platform

survived = []
if platform.machine() == "x86_64":
    codes = {
        # mov eax, 20 (i386 getpid); int 0x80; ret
        "int 0x80 getpid": b"\xb8\x14\x00\x00\x00\xcd\x80\xc3",
        # mov eax, 0x40000000 + 39 (x32 getpid); syscall; ret
        "x32 getpid": b"\xb8\x27\x00\x00\x40\x0f\x05\xc3",
        # mov eax, 0x40000000 + 101 (x32 ptrace); syscall; ret
        "x32 ptrace": b"\xb8\x65\x00\x00\x40\x0f\x05\xc3",
    }
    for name, code in codes.items():
        pid = os.fork()
        if pid == 0:
            buf = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
            buf.write(code)
            addr = ctypes.addressof(ctypes.c_char.from_buffer(buf))
            ret = ctypes.CFUNCTYPE(ctypes.c_long)(addr)()
            os._exit(0 if ret >= 0 else 3)
        _, status = os.waitpid(pid, 0)
        print(name, "status", status, "signal", os.WTERMSIG(status) if os.WIFSIGNALED(status) else None, flush=True)
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
            survived.append(name)
print("survived", survived, flush=True)


def escaped():
    return bool(survived)
