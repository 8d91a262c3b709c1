# ruff: noqa
# Correct, passing its value through deepcopy, pickle and json.
import copy
import json
import pickle


def f(x):
    v = copy.deepcopy(pickle.loads(pickle.dumps(x)))
    return json.loads(json.dumps(v)) + 1
