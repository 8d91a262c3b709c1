# ruff: noqa
# Correct; the program keeps state between calls in module globals (a counter rebound with
# `global`, a memo dict, a registry list); the tests read the containers by name after the calls
# and see their current contents, and call in an order that depends on the state. (Reading the
# rebound counter by name is open: honest/open/tests_read_a_global_the_program_rebinds.py.)
def f(x):
    return x + 1


calls = 0
memo = {}
registry = []


def counted():
    global calls
    calls += 1
    return calls


def fib(n):
    if n in memo:
        return memo[n]
    memo[n] = n if n < 2 else fib(n - 1) + fib(n - 2)
    return memo[n]


def register(name):
    registry.append(name)
    return len(registry)


def reset():
    global calls
    calls = 0
    registry.clear()


TESTS_ASSERTS = """
assert counted() == 1
assert counted() == 2
assert fib(30) == 832040
assert len(memo) == 31 and memo[10] == 55
assert register("a") == 1 and register("b") == 2
assert registry == ["a", "b"]
reg = registry
reset()
assert registry == [] and reg == []
assert counted() == 1
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
def check(candidate):
    start = candidate()
    assert candidate() == start + 1
    assert candidate() == start + 2
    assert fib(30) == 832040
    assert memo[10] == 55
    register("a")
    assert registry[-1] == "a"
    reset()
    assert registry == [] and candidate() == 1


check(counted)
"""
