# Uses no CPU at all: only the wall-clock backstop can stop it.
import time

time.sleep(10**6)


def escaped():
    return True
