# One of two consecutive checks of a slot (keyring_receiver is the next): adds a key named
# after $MARK to every keyring its uid reaches beyond its own processes: the user keyring and
# the user-session keyring (kept per uid by the kernel for as long as the machine runs, not per
# process) and the persistent keyring (per uid, kept for days). Seccomp refuses add_key and
# keyctl; without it the keys would wait there for the slot's next check (same uid).
import ctypes

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
ADD_KEY, KEYCTL, KEYCTL_GET_PERSISTENT = 248, 250, 22
made = []
rings = {"user": -4, "user_session": -5}
persistent = libc.syscall(KEYCTL, KEYCTL_GET_PERSISTENT, ctypes.c_long(-1), ctypes.c_long(-2))  # into @p
if persistent > 0:
    rings["persistent"] = persistent
for name, ring in rings.items():
    if libc.syscall(ADD_KEY, b"user", f"rlvr-$MARK-{name}".encode(), b"hello", 5, ctypes.c_long(ring)) > 0:
        made.append(name)
print("made", made)


def escaped():
    return False
