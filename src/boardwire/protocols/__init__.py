"""The protocol doors (C4): thin adapters that reach the registry's commands over a
wire. Nothing about a command is declared here; each door maps the registry's ids,
schemas and stable error codes to its own protocol."""
