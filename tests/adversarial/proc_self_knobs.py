# The writable knobs of a process's own /proc directory that reach past it: exempting itself
# from the OOM killer (oom_score_adj -1000: the host's other processes would be killed first),
# raising its autogroup's priority, the audit login uid, uid/gid maps and setgroups, the
# timer slack of its parent (pid 0 outside), and /proc's host-wide files (sysrq, sysctls).

took = []
for path, value in (("/proc/self/oom_score_adj", "-1000"), ("/proc/self/oom_adj", "-17"),
                    ("/proc/self/autogroup", "-20"), ("/proc/self/loginuid", "0"), ("/proc/self/uid_map", "0 0 1"),
                    ("/proc/self/gid_map", "0 0 1"), ("/proc/self/setgroups", "deny"),
                    ("/proc/1/oom_score_adj", "-1000"), ("/proc/sysrq-trigger", "h"),
                    ("/proc/sys/kernel/core_pattern", "|/bin/true"), ("/proc/sys/vm/drop_caches", "3"),
                    ("/proc/self/task/1/oom_score_adj", "-1000")):
    try:
        with open(path, "w") as fh:
            fh.write(value)
        took.append(path)
    except OSError as exc:
        print(path, exc.strerror)
with open("/proc/self/oom_score_adj") as fh:
    adj = int(fh.read())
print("took", took, "oom_score_adj", adj)


def escaped():
    return bool(took) or adj < 0
