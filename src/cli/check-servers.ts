import type { Failure } from '../contract/index.ts';
import type { ServerEnd, ServerStart } from '../harness/index.ts';
import type { CheckResult } from './check.ts';
import { startConfigured } from './configured.ts';
import type { Io } from './io.ts';
import type { ServerFlags } from './server-flags.ts';

const EXPECTED = 'started, every listed tool bound, closed clean (exited once stdin ended, nothing left running)';

/** Whether a close report says the server went when asked: it exited after stdin ended, and nothing of its group or escaped processes survived. */
function closedClean(close: unknown): string | undefined {
  const report = close as { steps?: readonly string[]; survivors?: readonly unknown[]; orphans?: { survivors?: readonly unknown[]; killed?: readonly unknown[] } } | null;
  if (!report) return 'no close report';
  if ((report.steps ?? []).some((step) => step !== 'stdin_end')) return `needed ${report.steps!.filter((s) => s !== 'stdin_end').join(', ')} to stop`;
  if ((report.survivors ?? []).length > 0) return `${report.survivors!.length} process(es) of its group survived`;
  if ((report.orphans?.killed ?? []).length > 0 || (report.orphans?.survivors ?? []).length > 0) return 'left escaped processes behind';
  return undefined;
}

/** One server's case from what its start and its close recorded. */
export function judgeServer(start: ServerStart, end: ServerEnd | undefined): CheckResult {
  const base = { id: `server-${start.key}`, scenario: `server ${start.key}`, transport: 'mcp' as const, expected: EXPECTED };
  if (start.status === 'failed') {
    const f = start.failure!;
    return { ...base, observed: `did not start: ${f.class}/${f.kind}`, passed: false, failure: f };
  }
  const unbound = start.tools.filter((tool) => tool.status === 'unbound');
  const unclean = closedClean(end?.close ?? null);
  const observed = [
    'started',
    unbound.length === 0 ? `${start.tools.length} tools bound` : `${unbound.length} of ${start.tools.length} tools unbound (${unbound.map((t) => t.name).slice(0, 5).join(', ')})`,
    unclean ? `not closed clean: ${unclean}` : 'closed clean',
  ].join(', ');
  const first = unbound[0];
  return {
    ...base,
    observed,
    passed: unbound.length === 0 && unclean === undefined,
    ...(first && first.status === 'unbound' ? { failure: first.failure } : {}),
  };
}

/**
 * `check --mcp-config`: starts every configured server as a run would,
 * closes them, and gives one case per server. A usage problem (the file, a
 * key) or a required server that does not start is returned as the failure
 * that stops the check.
 */
export async function serverCases(flags: ServerFlags & { readonly mcpConfig: string }, io: Io, checkId: string): Promise<{ readonly results: readonly CheckResult[]; readonly notices: readonly string[] } | { readonly usage: Failure } | { readonly required: Failure }> {
  const started = await startConfigured(flags, false, io, checkId);
  if (!started.ok) return started.refusal;
  const { servers, notices } = started.value;
  const ends = await servers.close();
  return { results: servers.starts.map((start) => judgeServer(start, ends.find((end) => end.key === start.key))), notices };
}
