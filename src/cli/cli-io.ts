/** Where a `leadgate` command reads its settings and writes what it says (run-cli.ts). */
export interface CliIo {
  /** The environment the command's configuration comes from (docs/deployment.md). */
  env: Record<string, string | undefined>;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** What the command ends with when it finishes without an error: 1 when it did not do it all. */
  exitCode: number;
}
