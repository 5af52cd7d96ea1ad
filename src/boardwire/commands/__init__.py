"""The command families. Importing this package registers every command."""

from . import board_edit, board_query, checks, fab, lib, project, project_update, renders, routing, sch_edit, sch_query, session_cmds  # noqa: F401
