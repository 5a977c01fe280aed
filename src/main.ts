/**
 * The program entry: the only file that touches the real process (argv, env,
 * streams, exit code). Everything else takes an `Io`.
 */
import { cli } from './cli/index.ts';

const code = await cli(process.argv.slice(2), {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  isTTY: process.stdout.isTTY === true,
  streams: { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
});
process.exitCode = code;
