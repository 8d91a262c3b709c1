import time

# Burns ~80% of the corpus's 2 s CPU limit once, at import; CPU time, not wall time, is measured.
_t0 = time.process_time()
while time.process_time() - _t0 < 1.6:
    pass


def f(x):
    return x + 1
