"""The compiled inner loops (C extensions; everything else is in pyproject.toml): the
router's maze search and the S-expression tree's reader and writer.

`pip install -e .` builds them; gcc and Python's headers are all they need."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("boardwire.layout.route._maze",
                             sources=["src/boardwire/layout/route/_maze.c"],
                             extra_compile_args=["-O2"]),
                   Extension("boardwire.sexpr._sexpr",
                             sources=["src/boardwire/sexpr/_sexpr.c"],
                             extra_compile_args=["-O2"])])
