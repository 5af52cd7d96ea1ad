"""Design documents (components, nets, board, constraints), their check, the
stage-by-stage build into a versioned KiCad project, and the verdict on a build."""
