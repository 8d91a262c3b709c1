# ruff: noqa
# Correct; reads a file by a relative name and an environment variable that the tests set
# (chdir, os.environ / monkeypatch) before they call it. (red team rtk)
import os


def f(name):
    with open(name) as fh:
        base = int(fh.read())
    return base * (2 if os.environ.get("RTK_MODE") == "double" else 1)


TESTS_ASSERTS = ("import os, tempfile\n\n\ndef check(candidate):\n    d = tempfile.mkdtemp()\n    os.chdir(d)\n"
                 "    with open('n.txt', 'w') as fh:\n        fh.write('21')\n    os.environ['RTK_MODE'] = 'double'\n"
                 "    assert candidate('n.txt') == 42\n\n\ncheck(f)\n")
TESTS_PYTEST = ("import os\nfrom solution import *\n\n\ndef test_f(tmp_path, monkeypatch):\n    monkeypatch.chdir(tmp_path)\n"
                "    (tmp_path / 'n.txt').write_text('21')\n    monkeypatch.setenv('RTK_MODE', 'double')\n    assert f('n.txt') == 42\n")
TESTS_UNITTEST = ("import os, tempfile, unittest\nfrom solution import *\n\n\nclass TestF(unittest.TestCase):\n"
                  "    def test_f(self):\n        d = tempfile.mkdtemp()\n        old = os.getcwd()\n        os.chdir(d)\n"
                  "        try:\n            with open('n.txt', 'w') as fh:\n                fh.write('21')\n"
                  "            os.environ['RTK_MODE'] = 'double'\n            self.assertEqual(f('n.txt'), 42)\n"
                  "        finally:\n            os.chdir(old)\n")
