/**
 * TEST ONLY — an MCP stdio server that attacks the reader of probe's report:
 * values too deep or too large to print, terminal control sequences, forged
 * report lines, errors hidden in plain results. Run as
 * `bun hostile.ts MODE [DEPTH]`. With `HOSTILE_PIDS` set (a file path), it
 * appends its pid there first, so a test can check it is gone afterwards.
 * `silent` answers nothing, ignores SIGTERM and outlives its stdin: only
 * SIGKILL ends it.
 * The protocol itself is kept: each answer is a well-formed JSON-RPC line.
 * Never imported by shipped code.
 */
import { appendFileSync, writeSync } from 'node:fs';
import { hostileTools, hostileInitialize, hostileCall, HOSTILE_MODES, type HostileMode } from './hostile-values.ts';

const mode = (process.argv[2] ?? '') as HostileMode;
if (!HOSTILE_MODES.includes(mode)) throw new Error(`unknown mode ${mode}`);
const depth = Number(process.argv[3] ?? 20_000);
if (mode === 'silent') {
  process.on('SIGTERM', () => undefined);
  setInterval(() => undefined, 1_000);
}
const pids = process.env['HOSTILE_PIDS'];
if (pids) appendFileSync(pids, `${process.pid}\n`);

const encoder = new TextEncoder();
function send(message: Record<string, unknown>): void {
  const data = encoder.encode(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  for (let offset = 0; offset < data.byteLength; ) offset += writeSync(1, data, offset);
}

for await (const line of console) {
  if (line === '') continue;
  const message = JSON.parse(line) as { id?: number; method?: string; params?: { name?: string } };
  if (message.id === undefined || mode === 'silent') continue;
  if (message.method === 'initialize') send({ id: message.id, result: hostileInitialize(mode, depth) });
  else if (message.method === 'tools/list') send({ id: message.id, result: { tools: hostileTools(mode, depth) } });
  else if (message.method === 'tools/call') {
    const answer = hostileCall(mode, depth, message.params?.name ?? '');
    if (answer.stderr) process.stderr.write(answer.stderr);
    send({ id: message.id, ...answer.reply });
  } else if (message.method === 'ping') send({ id: message.id, result: {} });
  else send({ id: message.id, error: { code: -32601, message: 'Method not found' } });
}
