"""The command families. Importing this package registers every command."""

from . import board_edit, board_pads, board_query, checks, drc_feedback, fab, lib, project, project_update, renders, sch_edit, sch_query, session_cmds  # noqa: F401
