# A check is a fork of its slot's worker taken inside the worker's request loop, so the loop's
# frame comes with it, and in that frame the report the worker sent for the check before this
# one (its stdout, each stdio case's output) is still bound. Walks its own stack out to the
# worker's frames and looks, in every report-like dict it finds there, for the marker the
# previous check printed ($LEFT_HEAD then $LEFT_TAIL, never adjacent in this source).
import sys

HEAD, TAIL = "$LEFT_HEAD", "$LEFT_TAIL"


def _reports():
    frame = sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()):
            if isinstance(value, dict) and ("stdout" in value or "records" in value):
                yield value
        frame = frame.f_back


seen = [repr(r)[:120] for r in _reports() if (HEAD + TAIL) in repr(r)]
print("previous reports holding the marker:", len(seen))


def escaped():
    return bool(seen)
