# The kernel interfaces beyond syscalls_refused and host_wide_calls that reach past a check's
# own processes or hand it kernel objects nobody listed: file handles (open_by_handle_at opens
# any inode of a mounted filesystem, past the root), namespaces and root changes, terminal
# input injection (TIOCSTI), memory policy and other processes' pages, timers and signals as
# descriptors, the kernel log, host clocks and names, I/O and CPU priorities, kernel modules.
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
calls = {  # name: (x86_64 number, arguments)
    "open_by_handle_at": (304, -100, 0, 0), "name_to_handle_at": (303, -100, 0, 0, 0, 0),
    "setns": (308, 0, 0), "unshare(CLONE_NEWCGROUP)": (272, 0x02000000), "chroot": (161, 0),
    "pivot_root": (155, 0, 0), "mount": (165, 0, 0, 0, 0, 0), "umount2": (166, 0, 0),
    "open_tree": (428, -100, 0, 0), "fsopen": (430, 0, 0), "move_mount": (429, 0, 0, 0, 0, 0),
    "clone3": (435, 0, 0), "ioctl(TIOCSTI)": (16, 0, 0x5412, 0), "ioctl(TIOCSTI, 2)": (16, 2, 0x5412, 0),
    "ioctl(TIOCLINUX)": (16, 1, 0x541C, 0), "ioctl(FIFREEZE)": (16, 0, 0xC0045877, 0),
    "memfd_create": (319, 0, 0), "memfd_secret": (447, 0), "timerfd_create": (283, 1, 0),
    "signalfd4": (289, -1, 0, 8, 0), "inotify_init1": (294, 0), "fanotify_init": (300, 0, 0),
    "process_madvise": (440, 0, 0, 0, 0, 0), "pidfd_getfd": (438, 0, 0, 0), "mbind": (237, 0, 0, 0, 0, 0, 0),
    "set_mempolicy": (238, 0, 0, 0), "migrate_pages": (256, 0, 0, 0, 0), "move_pages": (279, 0, 0, 0, 0, 0, 0),
    "membarrier": (324, 0, 0), "syslog": (103, 3, 0, 0), "ioprio_set": (251, 1, 0, 1 << 13),
    "sched_setattr": (314, 0, 0, 0), "sched_setscheduler": (144, 0, 1, 0), "mlock": (149, 0, 4096),
    "mlockall": (151, 1), "add_key": (248, 0, 0, 0, 0, 0), "request_key": (249, 0, 0, 0, 0),
    "sethostname": (170, 0, 0), "setdomainname": (171, 0, 0), "settimeofday": (164, 0, 0),
    "clock_settime": (227, 0, 0), "adjtimex": (159, 0), "clock_adjtime": (305, 0, 0), "swapoff": (168, 0),
    "acct": (163, 0), "vhangup": (153,), "kexec_load": (246, 0, 0, 0, 0), "init_module": (175, 0, 0, 0),
    "delete_module": (176, 0, 0), "quotactl": (179, 0, 0, 0, 0), "lookup_dcookie": (212, 0, 0, 0),
    "landlock_create_ruleset": (444, 0, 0, 0), "remap_file_pages": (216, 0, 0, 0, 0, 0),
    "mq_open": (240, 0, 0, 0, 0), "msgget": (68, 0, 0), "shmget": (29, 0, 4096, 0o1000), "semget": (64, 0, 1, 0o1000),
    "timer_create": (222, 0, 0, 0), "rt_sigqueueinfo": (129, 1, 10, 0), "rt_tgsigqueueinfo": (297, 1, 1, 10, 0),
    "setuid": (105, 0), "setgid": (106, 0), "setgroups": (116, 0, 0), "setresuid": (117, 0, 0, 0), "capset": (126, 0, 0),
    "iopl": (172, 3), "ioperm": (173, 0, 1, 1), "modify_ldt": (154, 0, 0, 0),
    "fchown": (93, 0, 0, 0), "chown": (92, 0, 0, 0), "mknodat(char device)": (259, -100, 0, 0o20666, 0x0101),
    "splice-like vmsplice": (278, 0, 0, 0, 0), "io_pgetevents": (333, 0, 0, 0, 0, 0, 0), "get_mempolicy": (239, 0, 0, 0, 0, 0),
    "fsconfig": (431, 0, 0, 0, 0, 0), "fspick": (433, -100, 0, 0), "mount_setattr": (442, -100, 0, 0, 0, 0),
    "seccomp(SET_MODE_FILTER)": (317, 1, 0, 0), "prctl(PR_SET_MM)": (157, 35, 0, 0, 0, 0),
    "prctl(PR_SET_PTRACER)": (157, 0x59616D61, -1, 0, 0, 0), "prctl(PR_SET_SECUREBITS)": (157, 28, 0, 0, 0, 0),
    "prctl(PR_SET_CHILD_SUBREAPER)": (157, 36, 1, 0, 0, 0), "prctl(PR_SET_TIMERSLACK)": (157, 29, 1, 0, 0, 0),
}
allowed = []
for name, (nr, *args) in calls.items():
    ret = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in args])
    err = ctypes.get_errno()
    print(name, ret, os.strerror(err) if ret < 0 else "")
    if ret >= 0 or err not in (1, 38):  # EPERM / ENOSYS are the filter's answers; any other, the call ran
        allowed.append(name)
print("allowed", allowed)


def escaped():
    return bool(allowed)
