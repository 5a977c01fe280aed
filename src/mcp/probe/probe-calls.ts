import * as v from 'valibot';
import { isUnknownOutcome, LIMITS } from '../../contract/index.ts';
import { CONTENT_BLOCKS, type Correlator } from '../wire/index.ts';
import type { OutputJudge, Verdict } from './output-judge.ts';
import { excerpt, finding, fromFailure, type ProbeFinding } from './probe-finding.ts';
import type { ToolRuntime } from './probe-tools.ts';
import type { ProbedTask } from './probe-task.ts';
import type { VersionProfile } from '../client/index.ts';

/** One `--call`: a tool name and its arguments (a JSON object). */
export interface CallRequest {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** The checks of one result, in the order probe makes them. */
export const CALL_CHECKS = ['content', 'isError', 'structuredContent', 'outputSchema', 'text'] as const;
export type CallCheck = (typeof CALL_CHECKS)[number];

/**
 * How one call ended. `unknown`: no answer (deadline, lost connection) — the
 * tool may or may not have run; it is never sent again. `not_sent`: the
 * session ended before its turn (`why` says how).
 */
export interface ProbedCall {
  readonly tool: string;
  readonly outcome: 'result' | 'tool_error' | 'rpc_error' | 'unknown' | 'failed' | 'not_sent';
  /** Request to answer. */
  readonly ms: number;
  /** Judging the answer, apart from `ms`: judging has a deadline of its own (`--timeout-ms`). */
  readonly judgingMs?: number;
  /** For `not_sent`: what ended the session first. */
  readonly why?: string;
  /** Something worth saying that is not a finding. */
  readonly note?: string;
  readonly contentTypes?: readonly string[];
  /** The result's content blocks as sent. */
  readonly content?: readonly unknown[];
  /** The text of the first text block, if any. */
  readonly text?: string;
  readonly structuredContent?: boolean;
  /** Whether structuredContent was checked against the outputSchema, and passed. */
  readonly outputSchema?: 'valid' | 'invalid' | 'not_checked' | 'none';
  /** Checks not made: the result was too deep to judge, or judging stopped at its deadline or at a signal. */
  readonly notChecked?: readonly CallCheck[];
  /** A call run as a 2025-11-25 task: its taskId, transitions with their times, polls, cancel (probe-task.ts). */
  readonly task?: ProbedTask;
  readonly findings: readonly ProbeFinding[];
}

/** How a result is judged: the outputSchema validation (a worker, stoppable), its deadline, the probe's signal, the clock. */
export interface Judging {
  readonly judge: Pick<OutputJudge, 'validate'>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly now?: () => number;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether a parsed value nests arrays and objects deeper than `max`, found without recursion. */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: at, depth } = stack.pop()!;
    if (at === null || typeof at !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(at) ? at : Object.values(at)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/** Deep equality of parsed JSON; it recurses only while both sides nest, so no deeper than structuredContent (within probeResultDepth). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameJson(a[key], b[key]));
  }
  return false;
}

/** Whether some text block holds exactly the serialized structuredContent (the spec's SHOULD for older clients). */
function textCarries(content: readonly unknown[], structured: unknown): boolean {
  return content.some((block) => {
    if (!isObject(block) || block['type'] !== 'text' || typeof block['text'] !== 'string') return false;
    try {
      return sameJson(JSON.parse(block['text']), structured);
    } catch {
      return false;
    }
  });
}

/** What a block of each type must carry (2025-06-18; the same in the older revisions probe reads). */
const REQUIRED: Readonly<Record<keyof typeof CONTENT_BLOCKS, string>> = {
  text: 'a string text',
  image: 'string data and mimeType',
  audio: 'string data and mimeType',
  resource: 'a resource with a string uri and a string text or blob',
  resource_link: 'a type',
};

/** One part of a result that breaks its shape, and the value the server sent there. */
interface Malformed {
  readonly what: string;
  readonly value: unknown;
}

/**
 * What breaks the result's shape (the spec's MUSTs, checked as the strict
 * client's `CallToolResult` does): `isError` other than a boolean, a content
 * block of a known type without the members it requires. Unknown types are
 * `content_type`'s.
 */
function malformedParts(result: Record<string, unknown>, content: readonly unknown[]): Malformed[] {
  const parts: Malformed[] = [];
  const isError = result['isError'];
  if (isError !== undefined && typeof isError !== 'boolean') parts.push({ what: 'isError is not a boolean', value: isError });
  content.forEach((block, index) => {
    const type = isObject(block) ? block['type'] : undefined;
    if (typeof type !== 'string' || !Object.hasOwn(CONTENT_BLOCKS, type)) return;
    const known = type as keyof typeof CONTENT_BLOCKS;
    if (!v.is(CONTENT_BLOCKS[known], block)) parts.push({ what: `content[${index}] (${known}) needs ${REQUIRED[known]}`, value: block });
  });
  return parts;
}


/** The checks after `check`, for a judgment that stopped there. */
const from = (check: CallCheck): CallCheck[] => CALL_CHECKS.slice(CALL_CHECKS.indexOf(check));

/** structuredContent against the tool's outputSchema, in the worker, within what is left of the deadline. */
async function checkOutput(tool: string, structured: unknown, output: NonNullable<ToolRuntime['output']>, judging: Judging, left: number): Promise<{ outputSchema: NonNullable<ProbedCall['outputSchema']>; findings: ProbeFinding[]; stopped: boolean }> {
  const verdict: Verdict = await judging.judge.validate(output.schema, output.mode, structured, left, judging.signal);
  switch (verdict.kind) {
    case 'valid':
      return { outputSchema: 'valid', findings: [], stopped: false };
    case 'invalid': {
      const violation = finding('protocol', 'output_schema_violation', 'spec MUST', 'structuredContent does not conform to the outputSchema', { tool, evidence: verdict.errors.join('; ') });
      return { outputSchema: 'invalid', findings: [violation], stopped: false };
    }
    case 'not_compiled':
      return { outputSchema: 'not_checked', findings: [], stopped: false };
    case 'interrupted':
      return { outputSchema: 'not_checked', findings: [], stopped: true };
    case 'timeout': {
      const message = `judging did not finish within ${judging.timeoutMs} ms (--timeout-ms; judging has its own): stopped at the outputSchema check, ${from('text').join(', ')} not checked`;
      const late = finding('timeout', 'judging_timeout', 'caplab host rule', message, { tool, evidence: 'outputSchema: structuredContent against the outputSchema' });
      return { outputSchema: 'not_checked', findings: [late], stopped: true };
    }
  }
}

/**
 * Judges one tools/call result (a JSON-RPC result object) against the tool's
 * listing and the revision, in the order of CALL_CHECKS. A result nested
 * deeper than `probeResultDepth` is not judged at all (every walk over it
 * would have to be iterative, Ajv's is not). Judging gets `--timeout-ms` of
 * its own: past it, the check running is named and the rest not made.
 */
export async function judgeResult(tool: string, result: Record<string, unknown>, runtime: ToolRuntime | undefined, profile: VersionProfile, ms: number, judging: Judging): Promise<ProbedCall> {
  const now = judging.now ?? (() => performance.now());
  const started = now();
  const timed = (call: Omit<ProbedCall, 'judgingMs'>): ProbedCall => ({ ...call, judgingMs: Math.round(now() - started) });
  const declared = profile.structured && runtime?.hasOutputSchema === true;
  if (nestsDeeperThan(result, LIMITS.probeResultDepth)) {
    const deep = finding('protocol', 'result_too_deep', 'caplab host rule', `tools/call result nests deeper than ${LIMITS.probeResultDepth} levels (probeResultDepth); not judged: ${CALL_CHECKS.join(', ')} not checked`, { tool, evidence: excerpt(result) });
    return timed({ tool, outcome: 'failed', ms, outputSchema: declared ? 'not_checked' : 'none', notChecked: [...CALL_CHECKS], findings: [deep] });
  }
  const findings: ProbeFinding[] = [];
  const content = result['content'];
  if (!Array.isArray(content)) {
    findings.push(finding('protocol', 'malformed_result', 'spec MUST', 'tools/call result has no content array', { tool, evidence: excerpt(result) }));
    return timed({ tool, outcome: 'failed', ms, findings });
  }
  const types = content.map((block) => (isObject(block) && typeof block['type'] === 'string' ? block['type'] : '?'));
  const text = firstText(content);
  for (const type of new Set(types)) {
    if (!profile.contentTypes.includes(type)) {
      findings.push(finding('protocol', 'content_type', 'spec MUST', `content block type not defined in MCP ${profile.version}`, { tool, evidence: excerpt(type) }));
    }
  }
  const malformed = malformedParts(result, content);
  if (malformed.length > 0) {
    const listed = malformed.slice(0, 5).map((part) => part.what).join('; ');
    const more = malformed.length > 5 ? ` (and ${malformed.length - 5} more)` : '';
    const message = `tools/call result is not an MCP CallToolResult: ${listed}${more}`;
    findings.push(finding('protocol', 'malformed_result', 'spec MUST', message, { tool, evidence: excerpt(malformed[0]!.value) }));
    return timed({ tool, outcome: 'failed', ms, contentTypes: types, content, ...(text !== undefined ? { text } : {}), findings });
  }
  const isError = result['isError'] === true;
  if (isError) {
    findings.push(finding('business', 'is_error', 'caplab host rule', 'the tool reported an error (isError: true)', { tool, evidence: excerpt(text ?? '') }));
  }
  const structured = result['structuredContent'];
  const hasStructured = structured !== undefined;
  const judged = { tool, outcome: isError ? 'tool_error' : 'result', ms, contentTypes: types, content, ...(text !== undefined ? { text } : {}), structuredContent: hasStructured } as const;
  if (profile.structured && hasStructured && !isObject(structured)) {
    findings.push(finding('protocol', 'malformed_result', 'spec MUST', 'structuredContent is not a JSON object', { tool, evidence: excerpt(structured) }));
  }
  let outputSchema: ProbedCall['outputSchema'] = 'none';
  if (declared && !isError) {
    if (!hasStructured) {
      findings.push(finding('protocol', 'missing_structured_content', 'spec MUST', 'the tool declares an outputSchema but the result has no structuredContent', { tool, evidence: `result members ${excerpt(Object.keys(result))}` }));
      outputSchema = 'invalid';
    } else if (!runtime?.output) {
      outputSchema = 'not_checked';
    } else {
      const checked = await checkOutput(tool, structured, runtime.output, judging, judging.timeoutMs - (now() - started));
      findings.push(...checked.findings);
      if (checked.stopped) return timed({ ...judged, outputSchema: checked.outputSchema, notChecked: from('outputSchema'), findings });
      outputSchema = checked.outputSchema;
    }
  }
  if (profile.structured && hasStructured && isObject(structured) && !textCarries(content, structured)) {
    findings.push(finding('protocol', 'text_without_structured', 'spec SHOULD', 'no text block carries the serialized structuredContent', { tool, evidence: text === undefined ? `no text block; content ${excerpt(types)}` : `first text ${excerpt(text)}` }));
  }
  return timed({ ...judged, outputSchema, findings });
}

/** The text of the first text block that has a string `text`. */
function firstText(content: readonly unknown[]): string | undefined {
  const block = content.find((item) => isObject(item) && item['type'] === 'text' && typeof item['text'] === 'string') as { text: string } | undefined;
  return block?.text;
}

/**
 * A `--call` of a name the server did not list. It is still sent, once: the
 * user named it, and what a server does with a name it never listed is
 * evidence of its own — an unknown-tool error is the expected answer; a
 * result means the server runs tools it does not show. The finding is
 * caplab's (the spec has no rule on calling an unlisted name). An `isError`
 * answer is no tool's error (there is no such tool): a note, not a finding.
 */
export function unlistedCall(call: ProbedCall, listingComplete: boolean): ProbedCall {
  const page = listingComplete ? '' : ' (the listing was incomplete: it may be on a page probe did not read)';
  // What the server answered: its text, else its refusal or what became of the call.
  const answer = call.text !== undefined ? `answered ${excerpt(call.text)}` : (call.findings[0]?.evidence ?? `outcome ${call.outcome}`);
  const unlisted = finding('protocol', 'unlisted_tool', 'caplab host rule', `not in the server's tools/list${page}; sent as asked, outcome ${call.outcome}`, { tool: call.tool, evidence: answer });
  if (call.outcome !== 'tool_error') return { ...call, findings: [unlisted, ...call.findings] };
  const note = 'answered with an isError result; the spec lists unknown tools among protocol errors (JSON-RPC -32602)';
  return { ...call, note, findings: [unlisted, ...call.findings.filter((f) => f.kind !== 'is_error')] };
}

/** A `--call` never sent: the session ended before its turn. */
export function notSent(request: CallRequest, why: string): ProbedCall {
  return { tool: request.name, outcome: 'not_sent', ms: 0, why, findings: [] };
}

/**
 * Sends one tools/call — once: a call that times out is reported with its
 * outcome unknown and is never sent again — and judges what came back.
 */
export async function probeCall(
  correlator: Correlator<unknown>,
  request: CallRequest,
  runtime: ToolRuntime | undefined,
  profile: VersionProfile,
  timeoutMs: number,
  judging: Judging,
): Promise<ProbedCall> {
  const now = judging.now ?? (() => performance.now());
  const started = now();
  const reply = await correlator.request('tools/call', { name: request.name, arguments: request.arguments }, { timeoutMs }).reply;
  const ms = Math.round(now() - started);
  const tool = request.name;
  if (!reply.ok) {
    const found = fromFailure(reply, tool);
    // 2026-07-28: a result type probe never asked for (input_required, task) does not say whether the tool ran.
    const unknown = isUnknownOutcome(reply) || reply.kind === 'unrequested_result_type';
    return { tool, outcome: unknown ? 'unknown' : 'failed', ms, findings: [found] };
  }
  if ('error' in reply.value.answer) {
    const { code, message } = reply.value.answer.error;
    const rejected = finding('protocol', 'jsonrpc_error', 'caplab host rule', `tools/call refused with JSON-RPC error ${code}`, { tool, evidence: excerpt(message) });
    return { tool, outcome: 'rpc_error', ms, findings: [rejected] };
  }
  return judgeResult(tool, reply.value.answer.result, runtime, profile, ms, judging);
}
