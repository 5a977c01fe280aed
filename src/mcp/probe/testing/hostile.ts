/**
 * TEST ONLY — the hostile MCP stdio server, for probe's end-to-end tests and
 * `npm run bench`. Run as `bun hostile.ts MODE [N] [FILE]`. Two families of
 * modes, one process:
 *
 * - probe's bounds on size, depth and time (`HOSTILE_MODES`,
 *   `hostile-server.ts`): N sizes it (tools listed, levels of nesting;
 *   default 1,000). If FILE is given, it appends each method it answered to
 *   it (a test waits on that, not on a clock).
 * - the reader of probe's report (`READER_MODES`, `hostile-values.ts`):
 *   values too deep or too large to print, terminal control sequences,
 *   forged report lines, errors hidden in plain results; N is the nesting
 *   depth (default 20,000). `silent` answers nothing, ignores SIGTERM and
 *   outlives its stdin: only SIGKILL ends it.
 *
 * With `HOSTILE_PIDS` set (a file path), either appends its pid there first,
 * so a test can check it is gone afterwards. The protocol itself is kept:
 * each answer is a well-formed JSON-RPC line. Never imported by shipped code.
 */
import { appendFileSync, writeSync } from 'node:fs';
import { HOSTILE_MODES, hostileServer, type HostileMessage, type HostileMode } from './hostile-server.ts';
import { hostileCall, hostileInitialize, hostileTools, READER_MODES, type ReaderMode } from './hostile-values.ts';

const mode = process.argv[2] ?? 'tools';
const bounds = (HOSTILE_MODES as readonly string[]).includes(mode);
if (!bounds && !(READER_MODES as readonly string[]).includes(mode)) throw new Error(`unknown mode ${mode}`);
if (mode === 'silent') {
  process.on('SIGTERM', () => undefined);
  setInterval(() => undefined, 1_000);
}
const pids = process.env['HOSTILE_PIDS'];
if (pids) appendFileSync(pids, `${process.pid}\n`);

const encoder = new TextEncoder();
function out(text: string): void {
  const data = encoder.encode(`${text}\n`);
  for (let offset = 0; offset < data.byteLength; ) offset += writeSync(1, data, offset);
}

/** A server of probe's bounds: each message handled by `hostileServer`. */
function boundsServer(boundsMode: HostileMode): (text: string) => void {
  const count = Number(process.argv[3] ?? 1_000);
  const marks = process.argv[4];
  const handle = hostileServer(boundsMode, count, out, (method) => {
    if (marks) appendFileSync(marks, `${method}\n`);
  });
  return (text) => handle(JSON.parse(text) as HostileMessage);
}

/** A server that attacks the report's reader: its answers are `hostile-values.ts`'s. */
function readerServer(readerMode: ReaderMode): (text: string) => void {
  const depth = Number(process.argv[3] ?? 20_000);
  const send = (message: Record<string, unknown>): void => out(JSON.stringify({ jsonrpc: '2.0', ...message }));
  return (text) => {
    const message = JSON.parse(text) as { id?: number; method?: string; params?: { name?: string } };
    if (message.id === undefined || readerMode === 'silent') return;
    if (message.method === 'initialize') send({ id: message.id, result: hostileInitialize(readerMode, depth) });
    else if (message.method === 'tools/list') send({ id: message.id, result: { tools: hostileTools(readerMode, depth) } });
    else if (message.method === 'tools/call') {
      const answer = hostileCall(readerMode, depth, message.params?.name ?? '');
      if (answer.stderr) process.stderr.write(answer.stderr);
      send({ id: message.id, ...answer.reply });
    } else if (message.method === 'ping') send({ id: message.id, result: {} });
    else send({ id: message.id, error: { code: -32601, message: 'Method not found' } });
  };
}

const handle = bounds ? boundsServer(mode as HostileMode) : readerServer(mode as ReaderMode);
for await (const text of console) {
  if (text === '') continue; // the iterator yields an empty tail after the last newline
  handle(text);
}
