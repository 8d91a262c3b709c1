# ruff: noqa
class Field:
    def __set_name__(self, owner, name):
        self.name = "_" + name
    def __get__(self, obj, owner=None):
        return self if obj is None else getattr(obj, self.name)
    def __set__(self, obj, v):
        setattr(obj, self.name, v)
class Meta(type):
    registry = {}
    def __new__(m, name, bases, ns, **kw):
        cls = super().__new__(m, name, bases, ns)
        m.registry[name] = cls
        return cls
    def __call__(cls, *a, **k):
        inst = super().__call__(*a, **k)
        inst.frozen = True
        return inst
class Inc(metaclass=Meta):
    val = Field()
    def __init__(self, v):
        self.val = v
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
class Inc2(Inc):
    pass
def f(x):
    return Meta.registry["Inc2"](x).val + 1
