/**
 * How one fuzzed set is judged, from the call probe made of it (`probeCall`,
 * judged as any `--call`): a set Ajv found valid keeps the call's findings
 * (`isError` is `is_error`); a set Ajv refused expects a refusal — a tool
 * error or a JSON-RPC error is the right answer, an ok result is
 * `accepted_invalid_input`. A call left pending (no answer within
 * `--timeout-ms`, or the server gone while it waited) is `fuzz_hang` or
 * `fuzz_exit`: its outcome unknown (exit 4). A session the set ended
 * otherwise (non-protocol output, an exit with no call pending) is
 * `fuzz_session_ended` (exit 3). Each names the seed, the set's index and its
 * arguments, whole.
 */
import type { ReportedCall } from '../probe-report.ts';
import { excerpt, finding, type ProbeFinding } from '../probe-finding.ts';

/** One set as sent: its tool, its index among that tool's sets, its arguments, Ajv's verdict. */
export interface FuzzSet {
  readonly tool: string;
  readonly index: number;
  /** What is sent as `arguments`: usually an object; a set of the wrong type at the top is not. */
  readonly arguments: unknown;
  readonly valid: boolean;
}

/** A finding of a fuzzed set: which set (seed, index, arguments whole) and what Ajv said of it. */
export type FuzzFinding = ProbeFinding & { readonly seed: number; readonly index: number; /** What is sent as `arguments`: usually an object; a set of the wrong type at the top is not. */
  readonly arguments: unknown; readonly valid: boolean };

/** Kinds whose outcome is unknown (exit 4), and the one that ended the session otherwise (exit 3). */
export const FUZZ_UNKNOWN_KINDS: ReadonlySet<string> = new Set(['fuzz_hang', 'fuzz_exit']);
export const FUZZ_ENDED_KIND = 'fuzz_session_ended';

const REFUSALS = new Set(['is_error', 'jsonrpc_error']);

/** The findings of one set's call (a call that was sent); `ended`: what ended the session right after it, if anything. */
export function judgeFuzzCall(set: FuzzSet, seed: number, call: ReportedCall, ended?: ProbeFinding): FuzzFinding[] {
  // `field` names the set: SARIF's fingerprints tell one set's finding from another's.
  const of = (found: ProbeFinding): FuzzFinding => ({ ...found, tool: set.tool, field: `fuzz set ${set.index}`, seed, index: set.index, arguments: set.arguments, valid: set.valid });
  const where = { tool: set.tool, evidence: '' };
  if (call.outcome === 'unknown') {
    const cause = call.findings[0];
    const evidence = cause ? `${cause.class}/${cause.kind}: ${cause.evidence}` : 'no answer';
    if (cause?.class === 'timeout') return [of(finding('timeout', 'fuzz_hang', 'caplab host rule', 'no answer to this set within --timeout-ms: outcome unknown; the server is restarted', { ...where, evidence }))];
    return [of(finding('closed', 'fuzz_exit', 'caplab host rule', 'the server exited (or closed its pipes) while this set was pending: outcome unknown', { ...where, evidence }))];
  }
  const found: FuzzFinding[] = [];
  if (set.valid) found.push(...call.findings.map(of));
  else if (call.outcome === 'result') {
    found.push(of(finding('protocol', 'accepted_invalid_input', 'caplab host rule', 'an argument set the inputSchema refuses was answered ok (no isError, no JSON-RPC error)', { ...where, evidence: call.text !== undefined ? `answered ${excerpt(call.text)}` : `content ${excerpt(call.contentTypes ?? [])}` })));
    found.push(...call.findings.map(of));
  } else found.push(...call.findings.filter((f) => !REFUSALS.has(f.kind)).map(of));
  if (ended) found.push(of(finding('protocol', 'fuzz_session_ended', 'caplab host rule', 'the session ended after this set (non-protocol output, or an exit with no call pending)', { ...where, evidence: `${ended.class}/${ended.kind}: ${ended.evidence}` })));
  return found;
}
