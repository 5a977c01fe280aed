/** The command line: `cli(argv, io)` returns an exit code; main.ts is the only caller that touches the process. */
export { cli, guardsProcesses, stopsOnSignal } from './cli.ts';
export { EXIT, exitAfterOutput } from './exit.ts';
export { fileSink, outputWriter, paint, writeOrder } from './io.ts';
export { inert } from '../base/index.ts';
export type { Io, OutputStream, OutputWriter, Paint, ProcessSink, WriteOrder } from './io.ts';
export { CLI_KINDS } from './kinds.ts';
