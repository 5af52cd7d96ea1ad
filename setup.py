"""The router's compiled inner loops (a C extension; everything else is in pyproject.toml).

`pip install -e .` builds it; gcc and Python's headers are all it needs."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("boardwire.layout.route._maze",
                             sources=["src/boardwire/layout/route/_maze.c"],
                             extra_compile_args=["-O2"])])
