/**
 * `probe --fuzz`: the sets of each named tool sent for real, over sessions
 * of probe's own (each a fresh start: `start`, a fresh cwd unless `--cwd`
 * names one), in order, each set once. A set that leaves its call pending
 * (a hang, an exit) or ends the session otherwise ends that session: the
 * server is restarted, at most `fuzzRestarts` times, and that set's tool is
 * fuzzed no further; a set already sent is never sent again. A restarted
 * server listing other tools than the probe did is `tools_changed`.
 */
import { LIMITS } from '../../../contract/index.ts';
import { versionProfile } from '../../client/index.ts';
import type { CallRequest, ProbedCall } from '../probe-calls.ts';
import { finding, type ProbeFinding } from '../probe-finding.ts';
import type { ReportedCall, ReportedTool } from '../probe-report.ts';
import { classifySets } from './classify.ts';
import { fuzzSets } from './fuzz-sets.ts';
import { judgeFuzzCall, type FuzzFinding, type FuzzSet } from './fuzz-judge.ts';

/** What `--fuzz N --fuzz-tool NAME… --seed S` asks for. */
export interface FuzzPlan {
  readonly count: number;
  readonly tools: readonly string[];
  readonly seed: number;
}

/** One session as the fuzzer sees it: the listing, each call in order (not sent ones included), what ended it. */
export interface FuzzSession {
  readonly tools: readonly ReportedTool[];
  readonly calls: readonly ReportedCall[];
  readonly failure?: ProbeFinding;
}

/** Starts the server once more and sends `calls` in order, until `afterCall` says stop. */
export type FuzzStart = (calls: readonly CallRequest[], afterCall: (call: ProbedCall) => boolean) => Promise<FuzzSession>;

/** One named tool: sets drawn, sent, how many Ajv found valid, and why it was fuzzed no further (or not at all). */
export interface FuzzedTool {
  readonly name: string;
  readonly drawn: number;
  readonly sent: number;
  readonly valid: number;
  readonly invalid: number;
  readonly stopped?: string;
}

/** What fuzzing found: per tool, the findings (each naming its set), the restarts made. */
export interface FuzzSection {
  readonly seed: number;
  readonly count: number;
  readonly tools: readonly FuzzedTool[];
  readonly findings: readonly (FuzzFinding | ProbeFinding)[];
  readonly restarts: number;
}

/** The listing as the probe read it: each entry's inputSchema by name, and the revision (for the dialect). */
export interface FuzzListing {
  readonly entries: readonly unknown[];
  readonly protocolVersion: string;
  readonly tools: readonly ReportedTool[];
}

/** A set as probe's call: a set that is no object (a wrong type at the top) is sent as it is — that is the point of it. */
export const asCall = (tool: string, args: unknown): CallRequest => ({ name: tool, arguments: args as CallRequest['arguments'] });

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const listKey = (tools: readonly ReportedTool[]): string => JSON.stringify(tools.map((t) => [t.name, t.inputSchemaHash, t.outputSchemaHash]));

/** Each named tool's sets, classified by Ajv; a tool not listed, or whose schema gives no validator, is not fuzzed. */
export function planSets(plan: FuzzPlan, listing: FuzzListing): { sets: FuzzSet[]; tools: Map<string, { drawn: number; stopped?: string }> } {
  const profile = versionProfile(listing.protocolVersion);
  const sets: FuzzSet[] = [];
  const tools = new Map<string, { drawn: number; stopped?: string }>();
  for (const name of plan.tools) {
    const entry = listing.entries.find((e) => isObject(e) && e['name'] === name);
    const schema = isObject(entry) ? entry['inputSchema'] : undefined;
    if (!isObject(schema) || !profile) {
      tools.set(name, { drawn: 0, stopped: !isObject(entry) ? 'not listed: not fuzzed' : 'no object inputSchema probe reads: not fuzzed' });
      continue;
    }
    const classified = classifySets(name, schema, fuzzSets(schema, plan.count, plan.seed), profile);
    if ('notFuzzed' in classified) {
      tools.set(name, { drawn: 0, stopped: `its inputSchema gives no validator (${classified.notFuzzed.map((f) => f.kind).join(', ') || 'not compiled'}): not fuzzed` });
      continue;
    }
    tools.set(name, { drawn: classified.sets.length });
    for (const one of classified.sets) sets.push({ tool: name, index: one.index, arguments: one.arguments, valid: one.valid });
  }
  return { sets, tools };
}

/** Fuzzes the plan's tools over fresh sessions (`start`); `signal` aborted: nothing more is sent. */
export async function runFuzz(plan: FuzzPlan, listing: FuzzListing, start: FuzzStart, signal?: AbortSignal): Promise<FuzzSection> {
  const { sets, tools } = planSets(plan, listing);
  const sent = new Set<FuzzSet>();
  const stopped = new Map<string, string>();
  const findings: (FuzzFinding | ProbeFinding)[] = [];
  let sessions = 0;
  for (;;) {
    const pending = sets.filter((set) => !sent.has(set) && !stopped.has(set.tool));
    if (pending.length === 0 || signal?.aborted) break;
    if (sessions > LIMITS.fuzzRestarts) {
      for (const set of pending) if (!stopped.has(set.tool)) stopped.set(set.tool, `the server was restarted ${LIMITS.fuzzRestarts} times (fuzzRestarts): fuzzed no further`);
      break;
    }
    sessions += 1;
    // Stop at the first call left pending: the server's state is unknown after it.
    const session = await start(pending.map((set) => asCall(set.tool, set.arguments)), (call) => call.outcome !== 'unknown');
    if (listKey(session.tools) !== listKey(listing.tools)) {
      findings.push(finding('protocol', 'tools_changed', 'caplab host rule', 'the restarted server listed other tools than the probe read (a host pins what it listed)', { evidence: `session ${sessions} of --fuzz` }));
    }
    // Interrupted: a call cut off by the signal is no finding of the server's; nothing more is judged or sent.
    if (signal?.aborted) break;
    const culprit = judgeSession(pending, session, plan.seed, sent, findings);
    if (culprit === undefined) {
      if (session.failure && !signal?.aborted) findings.push(session.failure);
      if (session.failure || session.calls.some((call) => call.outcome === 'not_sent')) break;
      continue;
    }
    stopped.set(culprit.tool, `set #${culprit.index} ended the session: fuzzed no further`);
  }
  return { seed: plan.seed, count: plan.count, tools: toolCounts(plan, tools, sets, sent, stopped), findings, restarts: Math.max(0, sessions - 1) };
}

/**
 * Judges the calls one session sent, marking each set sent; the set that
 * ended the session (its call pending, or the last one sent before the
 * session failed), if one did.
 */
function judgeSession(pending: readonly FuzzSet[], session: FuzzSession, seed: number, sent: Set<FuzzSet>, findings: (FuzzFinding | ProbeFinding)[]): FuzzSet | undefined {
  const calls = session.calls;
  const last = calls.findLastIndex((call) => call.outcome !== 'not_sent');
  for (let i = 0; i <= last; i++) {
    const set = pending[i]!;
    sent.add(set);
    const unknown = calls[i]!.outcome === 'unknown';
    const ended = i === last && !unknown ? session.failure : undefined;
    findings.push(...judgeFuzzCall(set, seed, calls[i]!, ended));
    if (unknown || ended) return set;
  }
  return undefined;
}

function toolCounts(plan: FuzzPlan, tools: Map<string, { drawn: number; stopped?: string }>, sets: readonly FuzzSet[], sent: Set<FuzzSet>, stopped: Map<string, string>): FuzzedTool[] {
  return plan.tools.map((name) => {
    const own = sets.filter((set) => set.tool === name && sent.has(set));
    const why = tools.get(name)?.stopped ?? stopped.get(name);
    return { name, drawn: tools.get(name)?.drawn ?? 0, sent: own.length, valid: own.filter((s) => s.valid).length, invalid: own.filter((s) => !s.valid).length, ...(why !== undefined ? { stopped: why } : {}) };
  });
}
