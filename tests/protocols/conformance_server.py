"""What the MCP conformance suite runs against: ``boardwire mcp --http --no-auth`` with
the suite's fixtures (conformance_fixtures.py) in front of the real handlers.

Test code only: the package has neither the fixtures nor a switch for them. This
launcher wraps the handlers `boardwire.protocols.mcp.server.build_server` passes to the
SDK's ``Server`` (the one place they meet), then runs the real command line, so
everything else (the HTTP transport, Origin checks, logging, completion,
subscriptions) is the code users run.

    python -m tests.protocols.conformance_server --port 8931   # from the checkout
"""

from __future__ import annotations

import sys

from boardwire.cli.main import main
from boardwire.protocols.mcp import server
from tests.protocols import conformance_fixtures


def serve(args: list[str]) -> None:
    """Run ``boardwire mcp --http --no-auth ARGS`` with the fixtures added."""
    sdk_server = server.Server

    def with_fixtures(*a, **handlers):
        return sdk_server(*a, **conformance_fixtures.wrap(handlers))

    server.Server = with_fixtures
    sys.argv = ["boardwire", "mcp", "--http", "--no-auth", *args]
    main()


if __name__ == "__main__":
    serve(sys.argv[1:])
