# One of two consecutive checks of a slot (keyring_quota_receiver is the next): fills most of
# its uid's key quota (kernel.keys.maxkeys, counted per uid machine-wide, not per user
# namespace), so the next check, same uid, would find the quota taken if the keys outlived it.
import ctypes

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
ADD_KEY = 248
made = 0
for i in range(150):
    if libc.syscall(ADD_KEY, b"user", f"rlvr-$MARK-{i}".encode(), b"x" * 10, 10, ctypes.c_long(-4)) < 0:  # @u
        break
    made += 1
print("made", made)


def escaped():
    return False
