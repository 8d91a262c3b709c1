# ruff: noqa
import faulthandler, sys
faulthandler.enable()
sys.setswitchinterval(0.001)
def f(x):
    return x + 1
