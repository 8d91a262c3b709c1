"""Only what pyproject.toml cannot say: the extensions are linked without the interpreter's
RUNPATH. A shared build's LDSHARED carries `-Wl,-rpath,<its prefix>/lib` (pyenv's:
/root/.pyenv/versions/3.11.7/lib), which an extension module never needs (it is not linked
against libpython) but which names where Python is installed on the host in every .so built
with it: the harness's extensions are files in every check's root, readable by it (issue 16)."""

from setuptools import setup
from setuptools.command.build_ext import build_ext


class BuildExt(build_ext):
    def build_extensions(self):
        self.compiler.linker_so = [a for a in self.compiler.linker_so if not a.startswith(("-Wl,-rpath", "-Wl,-R"))]
        super().build_extensions()


setup(cmdclass={"build_ext": BuildExt})
