import * as v from 'valibot';
import { canonicalJson, codePointLength, fail, ok, validateArguments, type Contract, type Outcome } from '../../contract/index.ts';
import { CallToolResult, describeIssues, type JsonRpcId, refuse, type Reply, textBlocks } from '../wire/index.ts';

/**
 * Whether the text content of a result says the same as its structured
 * content. The default is the spec's SHOULD ("a tool that returns structured
 * content SHOULD also return the serialized JSON in a TextContent block"):
 * exactly one text block, which parses as JSON equal to structuredContent as
 * sent (key order aside). A tool may pin another meaning of "the same".
 */
export type TextAgreement = (texts: readonly string[], structured: unknown) => boolean;

/** Whether a parsed JSON value holds a number JSON.stringify would write as `null` (1e999 parses to Infinity). */
function holdsNonFinite(value: unknown): boolean {
  const work = [value];
  while (work.length > 0) {
    const current = work.pop();
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return true;
    } else if (current !== null && typeof current === 'object') {
      for (const inner of Array.isArray(current) ? current : Object.values(current)) if (typeof inner === 'number' || typeof inner === 'object') work.push(inner);
    }
  }
  return false;
}

/**
 * JSON.stringify of a parsed value, or undefined where it cannot give one:
 * it recurses, so a structuredContent nested deeper than the stack (a few
 * hundred KB of brackets) throws a RangeError; the iterative canonical
 * comparison still decides that case.
 */
function serialized(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** The spec's SHOULD as a `TextAgreement` (see there); the strict and the host session both judge text by it. */
export const jsonTextAgrees: TextAgreement = function jsonTextAgrees(texts, structured) {
  if (texts.length !== 1) return false;
  const text = texts[0]!;
  // The usual case, without parsing the text again: it is the serialization of
  // structuredContent as received. Exact unless a number did not survive
  // parsing (written back as null, where the canonical comparison refuses).
  if (text === serialized(structured) && !holdsNonFinite(structured)) return true;
  try {
    return canonicalJson(JSON.parse(text)) === canonicalJson(structured);
  } catch {
    return false;
  }
};

/** A tool the fixed profile expects, pinned to its contract. */
export interface ExpectedTool {
  readonly contract: Contract;
  readonly textAgrees?: TextAgreement;
}

/** A checked tools/call result. */
export interface CallResult {
  readonly jsonrpcId: JsonRpcId;
  readonly requestBytes: number;
  readonly responseBytes: number;
  /** structuredContent, validated by the contract's own result schema (valibot's output, or as received for a listed one). */
  readonly structured: unknown;
  readonly texts: readonly string[];
}

/** Caps server-provided text that ends up in a failure message at `max` code points (never half a surrogate pair). */
export function excerpt(text: string, max = 2000): string {
  let units = 0;
  for (let points = 0; points < max && units < text.length; points++) units += text.codePointAt(units)! > 0xffff ? 2 : 1;
  return units >= text.length ? text : `${text.slice(0, units)}… (${codePointLength(text)} chars)`;
}

/**
 * Interprets one tools/call reply under the pinned contract.
 *
 * - JSON-RPC error → protocol/jsonrpc_error. The host validated the arguments
 *   against the same pinned schema before sending, so a -32602 here means the
 *   server disagrees with the pin; calling it invalid_arguments would send the
 *   model off to rewrite arguments that are valid.
 * - `isError: true` → business/tool_error (the tool ran and reports failure).
 * - structuredContent missing or invalid → protocol/output_invalid.
 * - text disagreeing with structuredContent → evidence/result_conflict: stop,
 *   never pick the more convenient of the two.
 * Every protocol refusal names its basis (src/mcp/wire/basis.ts).
 */
export function interpretCall(tool: ExpectedTool, reply: Reply): Outcome<CallResult> {
  const name = tool.contract.name;
  if ('error' in reply.answer) {
    const { code, message } = reply.answer.error;
    return refuse('protocol', 'jsonrpc_error', `${name}: JSON-RPC error ${code}: ${excerpt(message)}`);
  }
  const parsed = v.safeParse(CallToolResult, reply.answer.result);
  if (!parsed.success) {
    return refuse('protocol', 'malformed_result', `${name}: result is not an MCP CallToolResult`, describeIssues(parsed.issues));
  }
  const result = parsed.output;
  const texts = textBlocks(result);
  if (result.isError === true) {
    return fail('business', 'tool_error', `${name} reported an error: ${excerpt(texts.join('\n'))}`);
  }
  if (result.structuredContent === undefined) {
    return refuse('protocol', 'output_invalid', `${name}: outputSchema declared but structuredContent missing`);
  }
  const structured = validateArguments(tool.contract.result, result.structuredContent);
  if (!structured.ok) {
    return refuse('protocol', 'output_invalid', `${name}: structuredContent violates the pinned result schema`, structured.issues ?? [structured.message]);
  }
  if (!(tool.textAgrees ?? jsonTextAgrees)(texts, result.structuredContent)) {
    return refuse('evidence', 'result_conflict', `${name}: text content disagrees with structuredContent`);
  }
  return ok({
    jsonrpcId: reply.id,
    requestBytes: reply.requestBytes,
    responseBytes: reply.responseBytes,
    structured: structured.value,
    texts,
  });
}
