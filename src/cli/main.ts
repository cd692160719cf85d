import { runCli } from './run-cli.ts';

// Not a top-level await: the bundle `leadgate build` writes is CommonJS (src/cli/bundle-cli.ts).
void runCli(process.argv, {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  exitCode: 0,
}).then((code) => {
  // A command that failed exits now, whatever a half-started server holds; one that succeeded
  // ends when its work does (`serve` and `dispatch` keep running).
  if (code !== 0) process.exit(code);
});
