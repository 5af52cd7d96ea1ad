"""KiCad's PCB editor, live, through its IPC API (KiCad 9; kicad-python).

`editor` connects and commits, `convert` turns the session board's changed items into
one KiCad commit, `launch` starts an isolated editor under Xvfb (tests, demos),
`plugin` installs the toolbar button. See docs/bridge.md.
"""
