"""What commands share over the session: one home for the services every command
family asks of the open documents, so no command module imports another's internals.

One job per module: `board` (a board by path, a footprint by reference), `rules` (a
board's design rules as the session has them: the one `geometry.Rules` model, and the
project file's editable copy), `schematic` (a design's hierarchy and connectivity, the
sheet a symbol is on), `zones` (KiCad's zone filler on a session board), `drc` (the
built-in DRC of a session board as KiCad's report), `feedback` (the violations each
board edit introduced, on its result), `describe` (a board's one-screen summary).

Services take the command's context (``ctx.session``, ``ctx.actor``, ``ctx.progress``,
``ctx.cancel``) and never import the registry or a command module.
"""
