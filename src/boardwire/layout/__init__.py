"""Layout engines: routing (`route`), and the board adapter (`route_board`)."""
