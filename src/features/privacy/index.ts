/**
 * What the other features use of privacy (docs/architecture.md): nothing yet. The composition root,
 * the CLI and MCP put it together from its own files.
 */
export {};
