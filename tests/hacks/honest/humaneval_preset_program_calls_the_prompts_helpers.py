# ruff: noqa
# Correct; a HumanEval-preset completion (graded as PROMPT + this file, TEST's check(ENTRY_POINT))
# whose program calls the prompt's helpers (a function, as HumanEval/38's decode_cyclic calls
# encode_cyclic, and a class's instances) while the tests call their own copies of the same
# helpers: they build the inputs with the prompt's class and check the outputs with the prompt's
# function. (The program duck-types the nodes: an isinstance of the prompt's class on the tests'
# nodes is open, docs/fidelity.md.)
# Under the plain styles it is f(x) = x + 1 like the rest of the corpus.
def decode_rotated(s: str, k: int) -> str:
    return rotate(s, -k)


def total(node) -> int:
    out = 0
    while node is not None:
        out += node.val
        node = node.next
    return out


def f(x):
    return x + 1


PROMPT = '''
def rotate(s: str, k: int) -> str:
    """Rotate every letter of s by k places in the alphabet."""
    return "".join(chr((ord(c) - 97 + k) % 26 + 97) if c.islower() else c for c in s)


class Node:
    def __init__(self, val, next=None):
        self.val = val
        self.next = next


def decode_rotated(s: str, k: int) -> str:
    """Undo rotate(s, k).
    >>> decode_rotated(rotate("abc", 3), 3)
    'abc'
    """
'''
TEST = '''
METADATA = {}


def check(candidate):
    for k in (0, 1, 13, 25):
        assert candidate(rotate("hello world", k), k) == "hello world"
    assert rotate(candidate("abc", 1), 1) == "abc"
    assert total(Node(1, Node(2, Node(3)))) == 6
    assert total(None) == 0
'''
ENTRY_POINT = "decode_rotated"
