/**
 * The program entry: the only file that touches the real process (argv, env,
 * streams, signals, exit code). Everything else takes an `Io`.
 */
import { cli, exitAfterOutput, guardsProcesses, outputWriter } from './cli/index.ts';
import { becomeSubreaper } from './platform/index.ts';

const argv = process.argv.slice(2);
const interrupt = new AbortController();
if (guardsProcesses(argv)) {
  // Escaped descendants (setsid) are reparented here, so a run's close can find and kill them (Linux).
  becomeSubreaper();
  // The first SIGINT/SIGTERM stops the work in order; later ones are ignored so the teardown
  // (bounded by its graces) completes and the record is sealed.
  for (const name of ['SIGINT', 'SIGTERM'] as const) process.on(name, () => interrupt.abort(name));
}
const stdout = outputWriter(process.stdout);
const stderr = outputWriter(process.stderr);
const code = await cli(argv, {
  stdout: stdout.write,
  stderr: stderr.write,
  env: process.env,
  cwd: process.cwd(),
  isTTY: process.stdout.isTTY === true,
  streams: { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
  interrupt: interrupt.signal,
});
// A closed pipe (`| head`) is not a failure; anything else that lost stdout is, and is said on stderr.
const lost = await stdout.settled();
if (lost) stderr.write(`caplab: could not write to stdout: ${lost.message}\n`);
process.exitCode = exitAfterOutput(code, lost);
