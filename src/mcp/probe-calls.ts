import { isUnknownOutcome } from '../contract/index.ts';
import type { Correlator } from './correlator.ts';
import { excerpt, finding, fromFailure, type ProbeFinding } from './probe-finding.ts';
import type { ToolRuntime } from './probe-tools.ts';
import type { VersionProfile } from './probe-versions.ts';

/** One `--call`: a tool name and its arguments (a JSON object). */
export interface CallRequest {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/**
 * How one call ended. `unknown`: no answer (deadline, lost connection) — the
 * tool may or may not have run; it is never sent again. `not_sent`: the
 * session ended before its turn (`why` says how).
 */
export interface ProbedCall {
  readonly tool: string;
  readonly outcome: 'result' | 'tool_error' | 'rpc_error' | 'unknown' | 'failed' | 'not_sent';
  readonly ms: number;
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
  readonly findings: readonly ProbeFinding[];
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

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

/** Judges one tools/call result (a JSON-RPC result object) against the tool's listing and the revision. */
export function judgeResult(tool: string, result: Record<string, unknown>, runtime: ToolRuntime | undefined, profile: VersionProfile, ms: number): ProbedCall {
  const findings: ProbeFinding[] = [];
  const content = result['content'];
  if (!Array.isArray(content)) {
    findings.push(finding('protocol', 'malformed_result', 'spec MUST', 'tools/call result has no content array', { tool, evidence: excerpt(result) }));
    return { tool, outcome: 'failed', ms, findings };
  }
  const types = content.map((block) => (isObject(block) && typeof block['type'] === 'string' ? block['type'] : '?'));
  const text = firstText(content);
  for (const type of new Set(types)) {
    if (!profile.contentTypes.includes(type)) {
      findings.push(finding('protocol', 'content_type', 'spec MUST', `content block type not defined in MCP ${profile.version}`, { tool, evidence: excerpt(type) }));
    }
  }
  const isError = result['isError'] === true;
  if (isError) {
    findings.push(finding('business', 'is_error', 'caplab host rule', 'the tool reported an error (isError: true)', { tool, evidence: excerpt(text ?? '') }));
  }
  const structured = result['structuredContent'];
  const hasStructured = structured !== undefined;
  let outputSchema: ProbedCall['outputSchema'] = 'none';
  if (profile.structured && runtime?.hasOutputSchema && !isError) {
    if (!hasStructured) {
      findings.push(finding('protocol', 'missing_structured_content', 'spec MUST', 'the tool declares an outputSchema but the result has no structuredContent', { tool, evidence: `result members ${excerpt(Object.keys(result))}` }));
      outputSchema = 'invalid';
    } else if (!runtime.validateOutput) {
      outputSchema = 'not_checked';
    } else if (runtime.validateOutput(structured)) {
      outputSchema = 'valid';
    } else {
      const errors = (runtime.validateOutput.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
      findings.push(finding('protocol', 'output_schema_violation', 'spec MUST', 'structuredContent does not conform to the outputSchema', { tool, evidence: errors.join('; ') }));
      outputSchema = 'invalid';
    }
  }
  if (profile.structured && hasStructured) {
    if (!isObject(structured)) {
      findings.push(finding('protocol', 'malformed_result', 'spec MUST', 'structuredContent is not a JSON object', { tool, evidence: excerpt(structured) }));
    } else if (!textCarries(content, structured)) {
      findings.push(finding('protocol', 'text_without_structured', 'spec SHOULD', 'no text block carries the serialized structuredContent', { tool, evidence: text === undefined ? `no text block; content ${excerpt(types)}` : `first text ${excerpt(text)}` }));
    }
  }
  return { tool, outcome: isError ? 'tool_error' : 'result', ms, contentTypes: types, content, ...(text !== undefined ? { text } : {}), structuredContent: hasStructured, outputSchema, findings };
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
  now: () => number = () => performance.now(),
): Promise<ProbedCall> {
  const started = now();
  const reply = await correlator.request('tools/call', { name: request.name, arguments: request.arguments }, { timeoutMs }).reply;
  const ms = Math.round(now() - started);
  const tool = request.name;
  if (!reply.ok) {
    const found = fromFailure(reply, tool);
    return { tool, outcome: isUnknownOutcome(reply) ? 'unknown' : 'failed', ms, findings: [found] };
  }
  if ('error' in reply.value.answer) {
    const { code, message } = reply.value.answer.error;
    const rejected = finding('protocol', 'jsonrpc_error', 'caplab host rule', `tools/call refused with JSON-RPC error ${code}`, { tool, evidence: excerpt(message) });
    return { tool, outcome: 'rpc_error', ms, findings: [rejected] };
  }
  return judgeResult(tool, reply.value.answer.result, runtime, profile, ms);
}
