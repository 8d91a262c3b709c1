# Writes 64 MiB to stdout and stderr: past the cap the check is stopped (a judge's OLE).
import sys

block = "x" * 65536
for _ in range(512):
    sys.stdout.write(block)
    sys.stderr.write(block)
sys.stdout.flush()
print("wrote everything")


def escaped():
    return False
