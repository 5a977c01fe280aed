/**
 * TEST ONLY — the hostile server (`hostile-server.ts`) on stdio, for probe's
 * end-to-end bound tests and `npm run bench`. Run as `bun hostile.ts MODE [N]
 * [FILE]`: it announces `hostile=PID` on stderr, and if FILE is given,
 * appends each method it answered to it (a test waits on that, not on a clock).
 */
import { appendFileSync, writeSync } from 'node:fs';
import { HOSTILE_MODES, hostileServer, type HostileMessage, type HostileMode } from './hostile-server.ts';

const mode = (process.argv[2] ?? 'tools') as HostileMode;
if (!HOSTILE_MODES.includes(mode)) throw new Error(`unknown mode ${mode}`);
const count = Number(process.argv[3] ?? 1_000);
const marks = process.argv[4];
const encoder = new TextEncoder();

function out(text: string): void {
  const data = encoder.encode(`${text}\n`);
  for (let offset = 0; offset < data.byteLength; ) offset += writeSync(1, data, offset);
}

process.stderr.write(`hostile=${process.pid}\n`);
const handle = hostileServer(mode, count, out, (method) => {
  if (marks) appendFileSync(marks, `${method}\n`);
});

for await (const text of console) {
  if (text === '') continue; // the iterator yields an empty tail after the last newline
  handle(JSON.parse(text) as HostileMessage);
}
