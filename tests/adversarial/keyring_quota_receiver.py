# The other end of keyring_quota_sender: how many keys its uid may still add (into its own
# session keyring). Far fewer than the quota's 200 means the previous check's keys still count.
import ctypes

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
ADD_KEY = 248
room = 0
for i in range(400):
    if libc.syscall(ADD_KEY, b"user", f"probe-{i}".encode(), b"x" * 10, 10, ctypes.c_long(-3)) < 0:  # @s
        break
    room += 1
print("room", room, "seen", [] if room > 120 or room == 0 else ["quota taken"])


def escaped():
    return 0 < room <= 120
