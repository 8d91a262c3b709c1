# The other end of a check that prints a lot (test_worker_leftovers.py): a check starts with
# the address space of its slot's worker at the fork, and the worker still holds the report
# (the output) of the check before. This one reads its own size as its first act: VmData from
# /proc/self/status and getrusage's maxrss (the resident size it was forked with), plain
# reads the in-process guard lets through. The test compares two readings.
import resource

with open("/proc/self/status") as fh:
    status = {line.split(":")[0]: int(line.split()[1]) for line in fh if line.startswith(("VmData:", "RssAnon:"))}
print("footprint", status["VmData"], status["RssAnon"], resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def escaped():
    return False
