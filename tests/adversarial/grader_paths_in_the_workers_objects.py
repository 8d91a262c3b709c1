# A check is a fork of its slot's worker, taken inside the worker's request loop: the worker's
# own objects are on the way out of its stack (its configuration: the folders it hides, among
# them the grader's working directory; its slot cgroup's host paths, named after the grader's
# pid; the seed's pid). Walks its frames out to them and looks for the grader's working
# directory's name ($LEFT_CWD) in what they hold. The in-process guard is off in these tests.
import sys

LOOK_FOR = "$LEFT_CWD"
seen = []
frame = sys._getframe()
while frame is not None:
    for value in list(frame.f_locals.values()):
        # the worker's configuration (a small frozen dataclass; the check's own payload, which
        # holds this program's text and so the name looked for, is not looked at)
        for item in (value, getattr(value, "cfg", None)):
            if type(item).__name__ == "WorkerInit" and LOOK_FOR in repr(item):
                seen.append(frame.f_code.co_name)
    frame = frame.f_back
print("frames holding the grader's folder:", sorted(set(seen)))


def escaped():
    return bool(seen)
