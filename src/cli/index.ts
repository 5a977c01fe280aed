/** The command line: `cli(argv, io)` returns an exit code; main.ts is the only caller that touches the process. */
export { cli } from './cli.ts';
export { EXIT, paint } from './io.ts';
export type { Io, Paint } from './io.ts';
