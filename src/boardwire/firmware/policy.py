"""Which boards an agent may flash, reset or erase: the firmware part of the
``[agent]`` policy in the server's ``boardwire.toml``.

Keys (all optional):

* ``boards``: ``"bound"`` (default): only the project's bound board (its
  ``boardwire.toml`` ``[board] port`` or ``id``) and those in ``allowed_boards``;
  ``"any"``: every board; ``"none"``: no board.
* ``allowed_boards``: ports or board ids allowed besides the bound one.
* ``erase``: ``true`` to allow erasing the whole flash (default false).

A refused call raises `PolicyDenied` naming the key to set. A person's own
commands (the command line) are never checked: the caller says so with ``person``.
"""

from __future__ import annotations

from ..errors import PolicyDenied

CHECKED = ("flash", "erase", "reset", "run")
MODES = ("bound", "any", "none")


def check_board_action(action: str, agent: dict, *, board: dict, bound: dict, person: bool = False) -> None:
    """Raise PolicyDenied unless ``action`` (flash, erase, reset, run) may touch
    ``board`` ({port, id}) under the ``[agent]`` table ``agent`` for a project bound to
    ``bound`` ({port, id}, possibly empty). Other actions are not checked."""
    if person or action not in CHECKED:
        return
    agent = agent or {}
    if action == "erase" and agent.get("erase") is not True:
        raise PolicyDenied("fw.erase is off: erasing the whole flash needs [agent] erase = true in boardwire.toml",
                           hint="A person can set [agent] erase = true in the server's boardwire.toml.",
                           key="agent.erase")
    mode = agent.get("boards", "bound")
    if mode not in MODES:
        raise PolicyDenied(f"[agent] boards = {mode!r} is not one of {', '.join(MODES)}", key="agent.boards")
    names = {str(v).lower() for v in board.values() if v}
    if mode == "any":
        return
    label = board.get("id") or board.get("port") or "?"
    if mode == "none":
        raise PolicyDenied(f"fw.{action} on {label}: [agent] boards = \"none\" allows no board",
                           hint="A person can set [agent] boards = \"bound\" or \"any\" in boardwire.toml.",
                           key="agent.boards")
    allowed = {str(v).lower() for v in bound.values() if v}
    allowed |= {str(x).lower() for x in agent.get("allowed_boards", []) or []}
    if names & allowed:
        return
    what = (f"the project's bound board is {bound.get('id') or bound.get('port')}" if bound
            else "the project binds no board")
    raise PolicyDenied(f"fw.{action} on {label}: {what}, and [agent] boards = \"bound\" allows only that one",
                       hint=("Bind this board in the project's boardwire.toml [board] (port or id), or a person can "
                             "add it to [agent] allowed_boards, or set [agent] boards = \"any\"."),
                       key="agent.boards")
