"""The command families. Importing this package registers every command."""

from . import (agent, board_copper, board_draw, board_edit, board_pads, board_rules, board_query, checks, drc_feedback, fab, lib, project, project_update, renders,  # noqa: F401
               design, jobs, parts, placement, routing, sch_connect, sch_hierarchy, sch_place, sch_query, sch_symbol, sch_wire, session_cmds)
from . import fw, fw_board, fw_monitor  # noqa: F401,E402
