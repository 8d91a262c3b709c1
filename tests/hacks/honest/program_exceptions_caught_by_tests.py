# ruff: noqa
# Correct; the program raises exceptions of its own classes (with attributes, a hierarchy, a
# chained cause) and built-in ones; the tests catch them by the program's class, by a base
# class, and inspect them. A tests' callback raising through the program reaches the tests.
def f(x):
    return x + 1


class BankError(Exception):
    pass


class InsufficientFunds(BankError, ValueError):
    def __init__(self, needed):
        super().__init__(f"short by {needed}")
        self.needed = needed


class Account:
    def __init__(self, balance):
        self.balance = balance

    def withdraw(self, amount):
        if amount < 0:
            raise ValueError("negative amount")
        if amount > self.balance:
            raise InsufficientFunds(amount - self.balance)
        self.balance -= amount
        return self.balance


def parse_int(s):
    try:
        return int(s)
    except ValueError as exc:
        raise BankError(f"bad number {s!r}") from exc


def apply(cb, x):
    return cb(x)


def safe_apply(cb, x):
    try:
        return cb(x)
    except ZeroDivisionError:
        return None


TESTS_ASSERTS = """
acct = Account(10)
assert acct.withdraw(3) == 7
try:
    acct.withdraw(20)
    assert False, "no exception"
except InsufficientFunds as e:
    assert e.needed == 13
    assert str(e) == "short by 13"
    assert e.args == ("short by 13",)
    assert isinstance(e, BankError) and isinstance(e, ValueError)
    assert type(e) is InsufficientFunds
try:
    acct.withdraw(-1)
except InsufficientFunds:
    assert False, "wrong class"
except ValueError as e:
    assert str(e) == "negative amount"
try:
    parse_int("x1")
except BankError as e:
    assert isinstance(e.__cause__, ValueError)
assert acct.balance == 7


class Stop(Exception):
    pass


def boom(x):
    raise Stop(x)


try:
    apply(boom, 5)
except Stop as e:
    assert e.args == (5,)
assert safe_apply(lambda v: 1 // v, 0) is None
assert safe_apply(lambda v: 10 // v, 2) == 5
assert f(1) == 2
"""
TESTS_HUMANEVAL = """
def check(candidate):
    acct = candidate(10)
    assert acct.withdraw(3) == 7
    try:
        acct.withdraw(20)
        assert False, "no exception"
    except InsufficientFunds as e:
        assert e.needed == 13 and str(e) == "short by 13"
        assert isinstance(e, BankError) and isinstance(e, ValueError)
    try:
        acct.withdraw(-1)
    except InsufficientFunds:
        assert False, "wrong class"
    except ValueError as e:
        assert str(e) == "negative amount"

    class Stop(Exception):
        pass

    def boom(x):
        raise Stop(x)

    try:
        apply(boom, 5)
        assert False
    except Stop as e:
        assert e.args == (5,)
    assert safe_apply(lambda v: 1 // v, 0) is None


check(Account)
"""
