/**
 * Peak RSS of a process and of each child it starts, read from /proc while
 * they run: VmHWM (the kernel's high-water mark of resident memory) is polled
 * about every millisecond for the process and every child listed in
 * /proc/PID/task/PID/children, keeping the last value seen of each. VmHWM
 * only grows, so the figure is the peak up to the last poll before the
 * process released its memory — a lower bound within one poll interval.
 * (wait4's ru_maxrss cannot split a parent from its children: it reports the
 * largest of them.) Linux only.
 */
import { readFileSync } from 'node:fs';

export interface PeakRss {
  /** KiB, the process started. */
  readonly self: number;
  /** Its children (largest first), each with its command line: for caplab the MCP server and its guard, for the SDK client the server. */
  readonly children: readonly { readonly kib: number; readonly argv: readonly string[] }[];
  /** Spawn to exit, in ms (the polling runs in this process, not in the one measured). */
  readonly wallMs: number;
}

function argvOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

function hwmKiB(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Runs `argv` to its end (stdout must contain `expect`) and returns the peaks seen; `env` is all it gets (default: a PATH). */
export async function peakRss(argv: readonly string[], cwd: string, expect: string, env: Record<string, string> = { PATH: '/usr/bin:/bin' }): Promise<PeakRss> {
  const t0 = Bun.nanoseconds();
  const proc = Bun.spawn([...argv], { cwd, env, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  const peaks = new Map<number, number>();
  const argvs = new Map<number, string[]>();
  const note = (pid: number) => {
    const kib = hwmKiB(pid);
    if (kib !== undefined) peaks.set(pid, Math.max(kib, peaks.get(pid) ?? 0));
    // The last one read: a fresh fork still shows its parent's command line, a gone process none.
    const argv = argvOf(pid);
    if (argv.length > 0) argvs.set(pid, argv);
  };
  let done = false;
  let wallMs = 0;
  const output = Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]).finally(() => {
    wallMs = (Bun.nanoseconds() - t0) / 1e6;
    done = true;
  });
  while (!done) {
    note(proc.pid);
    for (const child of childrenOf(proc.pid)) note(child);
    await Bun.sleep(1);
  }
  const [out, err, code] = await output;
  if (code !== 0 || !out.includes(expect)) throw new Error(`${argv.join(' ')} exited ${code}: ${err.slice(-500)}`);
  const self = peaks.get(proc.pid) ?? 0;
  peaks.delete(proc.pid);
  const children = [...peaks].map(([pid, kib]) => ({ kib, argv: argvs.get(pid) ?? [] }));
  return { self, children: children.sort((a, b) => b.kib - a.kib), wallMs };
}
