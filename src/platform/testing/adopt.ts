/**
 * TEST ONLY — run as `bun adopt.ts CMD ARGS…`. Becomes a child subreaper,
 * runs the command to its end, then prints one JSON line: its exit code and
 * every process the command left behind. Whatever the command started and
 * had not reaped when it exited is reparented here and stays visible (alive,
 * or a zombie this process never reaps), so "it started nothing that outlived
 * it" is a fact to read, not a moment to catch. Never imported by shipped code.
 */
import { becomeSubreaper } from '../index.ts';
import { allProcesses } from '../proc.ts';

const command = process.argv.slice(2);
const became = becomeSubreaper();
const child = Bun.spawn(command, { stdin: 'ignore', stdout: 'ignore', stderr: 'pipe', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
const adopted = allProcesses().filter((s) => s.ppid === process.pid && s.pid !== child.pid);
for (const s of adopted) {
  try {
    process.kill(s.pid, 'SIGKILL');
  } catch {
    // A zombie or gone: nothing runs.
  }
}
process.stdout.write(`${JSON.stringify({ subreaper: became.enabled, code, stderr, adopted: adopted.map((s) => s.name) })}\n`);
