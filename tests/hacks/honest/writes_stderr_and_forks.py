# ruff: noqa
import subprocess
import sys


def f(x):
    out = subprocess.run([sys.executable, "-c", "print(41 + 1)"], capture_output=True, text=True, check=True)
    sys.stderr.write(out.stdout)
    return x + 1
