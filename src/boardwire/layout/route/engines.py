"""The router seam: routing engines by name, the options every caller gives them, and
the one gate every result passes.

An engine is a function ``engine(problem, options, progress) -> Result`` over the
neutral data of `problem` (`Problem` in, `Result` out, nm; no documents): ``options``
is a `RouteOptions`, ``progress(fraction, message)`` (or None) may raise to cancel.
`register` adds one under a name; the built-in maze router (`engine.Router`) is
"builtin", the default. `run` calls the engine named in the options and checks what
it gives with the router's own exact checks (`verify.check_result`), whatever the
engine: the result carries what the check found (``violations``) and the engine's
name. pcb.autoroute, design.build (through pcb.autoroute) and pcb.autoplace's trial
routes all route through `run`, with options of the one `RouteOptions` model.
"""

from __future__ import annotations

import time
from typing import Annotated, Callable

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from ...errors import InvalidArgs
from .budget import Budget
from .engine import Options, Router
from .problem import Problem, Result
from .verify import check_result

Progress = Callable[[float, str], None]
Engine = Callable[[Problem, "RouteOptions", "Progress | None"], Result]

DEFAULT = "builtin"
GATE_S = 1.0  # s the result's check may take beyond the time limit, at least
_ENGINES: dict[str, Engine] = {}


def register(name: str, engine: Engine) -> None:
    """Make ``engine`` routable as ``name`` (a new name, or a replacement)."""
    _ENGINES[name] = engine


def unregister(name: str) -> None:
    """Forget the engine ``name`` (the built-in one stays)."""
    if name != DEFAULT:
        _ENGINES.pop(name, None)


def names() -> list[str]:
    """The names of the registered engines, sorted."""
    return sorted(_ENGINES)


def _known(name: str) -> str:
    if name not in _ENGINES:
        raise ValueError(f"unknown engine {name!r}; registered: {', '.join(names())}")
    return name


EngineName = Annotated[str, Field(min_length=1, max_length=500), AfterValidator(_known)]


class RouteOptions(BaseModel):
    """How to route, the same for every caller: pcb.autoroute's arguments,
    design.build's ``constraints.router``, pcb.autoplace's trial routes. An engine
    reads what it understands; ``time_limit`` binds every engine (s)."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    engine: EngineName = DEFAULT
    time_limit: float = Field(120, gt=0, le=3600, description="s")
    effort: Annotated[int, Field(ge=1, le=3)] = 2
    via_cost: float = Field(2.0, ge=0, le=100, description="mm of track")
    seed: int = Field(0, ge=0, le=2**31 - 1)


def run(problem: Problem, options: RouteOptions | None = None, progress: Progress | None = None) -> Result:
    """Route ``problem`` with the engine ``options.engine`` names (default options:
    `RouteOptions`' defaults), then check the result against the problem
    (`verify.check_result`): ``result.violations`` holds what was found, the same
    check for every engine; the check stops (its items left "not checked") once the
    time limit plus a tenth (at least `GATE_S`) is spent. Raises InvalidArgs for an engine not registered (it was
    unregistered after the options were made)."""
    options = options or RouteOptions()
    engine = _ENGINES.get(options.engine)
    if engine is None:
        raise InvalidArgs(f"unknown engine {options.engine!r}; registered: {', '.join(names())}",
                          errors=[{"loc": "engine", "msg": "unknown engine", "type": "value"}])
    t0 = time.monotonic()
    result = engine(problem, options, progress)
    result.engine = options.engine
    # the gate gets a tenth of the time limit (at least GATE_S) beyond it
    budget = Budget(t0 + options.time_limit + max(GATE_S, options.time_limit / 10),
                    None if progress is None else lambda: progress(1.0, "checking the routes"))
    result.violations = check_result(problem, result, budget)
    return result


def builtin(problem: Problem, options: RouteOptions, progress: Progress | None = None) -> Result:
    """The built-in grid maze router (`engine.Router`) with ``options``."""
    return Router(problem, Options(time_limit=options.time_limit, effort=options.effort,
                                   via_cost=options.via_cost, seed=options.seed, progress=progress)).run()


register(DEFAULT, builtin)
