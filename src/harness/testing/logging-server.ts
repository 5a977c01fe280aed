/**
 * TEST ONLY — a stdio MCP server behind a log: `bun logging-server.ts LOG
 * COMMAND…` starts COMMAND, forwards its own stdin to it line by line, and
 * appends each line that carries a `tools/call` request to LOG before the
 * server sees it; the server's stdout and stderr are this process's. What
 * the server was asked, seen from the server's side, not the host's record.
 */
import { appendFileSync } from 'node:fs';

const [log, ...command] = process.argv.slice(2);
if (log === undefined || command.length === 0) throw new Error('usage: logging-server.ts LOG COMMAND…');
const child = Bun.spawn(command, { stdin: 'pipe', stdout: 'inherit', stderr: 'inherit', env: {} });
const decoder = new TextDecoder();
let pending = '';
for await (const chunk of Bun.stdin.stream()) {
  pending += decoder.decode(chunk, { stream: true });
  let end = pending.indexOf('\n');
  while (end >= 0) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    if (line.includes('"tools/call"')) appendFileSync(log, `${line}\n`);
    child.stdin.write(`${line}\n`);
    child.stdin.flush();
    end = pending.indexOf('\n');
  }
}
child.stdin.end();
process.exit(await child.exited);
