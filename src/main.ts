/**
 * The program entry: the only file that touches the real process (argv, env,
 * streams, exit code). Everything else takes an `Io`.
 */
import { cli } from './cli/index.ts';

/**
 * Writes to a stream that a reader may close early (`caplab demo | head`):
 * a closed pipe stops further output; it does not crash the run or lose its record.
 */
function writer(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', () => void (closed = true));
  return (text) => {
    if (closed) return;
    try {
      stream.write(text);
    } catch {
      closed = true;
    }
  };
}

const code = await cli(process.argv.slice(2), {
  stdout: writer(process.stdout),
  stderr: writer(process.stderr),
  env: process.env,
  cwd: process.cwd(),
  isTTY: process.stdout.isTTY === true,
  streams: { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
});
process.exitCode = code;
