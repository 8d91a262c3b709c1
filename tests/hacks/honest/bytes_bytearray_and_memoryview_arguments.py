# ruff: noqa
# Correct; bytes returned and compared, a bytearray the program fills in place through a
# memoryview (readinto-style), a bytearray returned that the tests then change, and bytes that
# are not valid UTF-8.
def f(x):
    return x + 1


def xor(data, key):
    return bytes(b ^ key for b in data)


def readinto(buf, source):
    mv = memoryview(buf)
    n = min(len(buf), len(source))
    mv[:n] = source[:n]
    return n


def builder():
    out = bytearray(b"ab")
    out += b"\xff\x00"
    return out


def reverse_bytes(b):
    return b[::-1]


TESTS_ASSERTS = """
assert xor(b"\\x00\\xff", 0x0F) == b"\\x0f\\xf0"
assert xor(xor(b"secret", 7), 7) == b"secret"
buf = bytearray(4)
assert readinto(buf, b"xyz") == 3
assert buf == b"xyz\\x00"
r = builder()
assert r == bytearray(b"ab\\xff\\x00") and type(r) is bytearray
r.append(1)
assert len(r) == 5
assert reverse_bytes(b"\\x80abc") == b"cba\\x80"
assert isinstance(reverse_bytes(bytearray(b"xy")), bytearray)
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
def check(candidate):
    assert candidate(b"\\x00\\xff", 0x0F) == b"\\x0f\\xf0"
    buf = bytearray(4)
    assert readinto(buf, b"xyz") == 3
    assert buf == b"xyz\\x00"
    r = builder()
    assert r == bytearray(b"ab\\xff\\x00")
    r.append(1)
    assert len(r) == 5


check(xor)
"""
