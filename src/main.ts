/**
 * The program entry: the only file that touches the real process (argv, env,
 * streams, exit code). Everything else takes an `Io`.
 */
import { cli, exitAfterOutput, outputWriter } from './cli/index.ts';

const stdout = outputWriter(process.stdout);
const stderr = outputWriter(process.stderr);
const code = await cli(process.argv.slice(2), {
  stdout: stdout.write,
  stderr: stderr.write,
  env: process.env,
  cwd: process.cwd(),
  isTTY: process.stdout.isTTY === true,
  streams: { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
});
// A closed pipe (`| head`) is not a failure; anything else that lost stdout is, and is said on stderr.
const lost = await stdout.settled();
if (lost) stderr.write(`caplab: could not write to stdout: ${lost.message}\n`);
process.exitCode = exitAfterOutput(code, lost);
