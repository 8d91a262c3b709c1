# The next check of keyring_sender's slot: looks for its keys in the keyrings the kernel keeps
# per uid (user, user-session, persistent). Any found: a message crossed between checks.
import ctypes

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
KEYCTL, KEYCTL_GET_PERSISTENT, KEYCTL_SEARCH = 250, 22, 10
rings = {"user": -4, "user_session": -5}
persistent = libc.syscall(KEYCTL, KEYCTL_GET_PERSISTENT, ctypes.c_long(-1), ctypes.c_long(-2))
if persistent > 0:
    rings["persistent"] = persistent
seen = [name for name, ring in rings.items()
        if libc.syscall(KEYCTL, KEYCTL_SEARCH, ctypes.c_long(ring), b"user", f"rlvr-$MARK-{name}".encode(), 0) > 0]
print("seen", seen)


def escaped():
    return bool(seen)
