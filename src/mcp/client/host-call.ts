import * as v from 'valibot';
import { canonicalJson, fail, LIMITS, ok, type Outcome, type ValidationIssue } from '../../contract/index.ts';
import type { ResultBlock } from '../../pipeline/index.ts';
import { CallToolResult, describeIssues, refuse, type Reply, textBlocks } from '../wire/index.ts';
import { excerpt, jsonTextAgrees } from './call.ts';
import { modelContent } from './host-content.ts';

/**
 * A tool as the host session calls it: its listed name and, when it listed
 * an outputSchema, the validator compiled from it (the caller's: the session
 * reads no schema itself).
 */
export interface HostTool {
  readonly name: string;
  readonly output?: { validate(value: unknown): readonly ValidationIssue[] };
  /** Called as a task (its contract completes in the background: `taskCall`); else a plain tools/call. */
  readonly task?: boolean;
}

/** A tools/call result read under the host profile. */
export interface HostCallResult {
  readonly jsonrpcId: Reply['id'];
  readonly requestBytes: number;
  readonly responseBytes: number;
  /** structuredContent, validated, when the tool listed an outputSchema; else `{ content }` as received. */
  readonly data: unknown;
  /** What the model is given: text blocks as text, every other block as one line naming it (`blockLine`). */
  readonly content: readonly ResultBlock[];
}

/** Issues a message carries: the first `LISTED_ISSUES`, each `path: keyword: message`, then how many more. */
const LISTED_ISSUES = 20;

function describeValidation(issues: readonly ValidationIssue[]): string[] {
  const shown = issues.slice(0, LISTED_ISSUES).map((issue) => excerpt(`${issue.path || '(root)'}: ${issue.keyword}: ${issue.message}`, LIMITS.evidenceChars));
  return issues.length > LISTED_ISSUES ? [...shown, `(+${issues.length - LISTED_ISSUES} more)`] : shown;
}

/**
 * What the model sees when a result has no block of its own: the structured
 * value's JSON (canonical: iterative, so any depth the wire parsed), else a
 * line saying there was none — a tool result holds at least one block.
 */
function ownBlocks(content: ResultBlock[], structured: unknown): ResultBlock[] {
  if (content.length > 0) return content;
  if (structured === undefined) return [{ type: 'text', text: '[no content]' }];
  return [{ type: 'text', text: canonicalJson(structured) }];
}

/**
 * Interprets one tools/call reply under the host profile.
 *
 * - JSON-RPC error → protocol/jsonrpc_error (the host validated the
 *   arguments against the listed schema before sending).
 * - Not a CallToolResult → protocol/malformed_result.
 * - `isError: true` → business/tool_error (the tool ran and reports failure).
 * - With an outputSchema (`tool.output`): structuredContent missing or not
 *   conforming → protocol/output_invalid; a text block beside it that does
 *   not parse equal to it (the spec's SHOULD, `jsonTextAgrees`) →
 *   evidence/result_conflict: stop, never pick the more convenient of the two.
 * - Without one, the text blocks are the result: `data` is `{ content }`
 *   as received, and a structuredContent sent anyway is neither checked nor
 *   part of it (the model still sees its JSON when there is no block).
 */
export function interpretHostCall(tool: HostTool, reply: Reply): Outcome<HostCallResult> {
  const { name } = tool;
  if ('error' in reply.answer) {
    const { code, message } = reply.answer.error;
    return refuse('protocol', 'jsonrpc_error', `${name}: JSON-RPC error ${code}: ${excerpt(message)}`);
  }
  const parsed = v.safeParse(CallToolResult, reply.answer.result);
  if (!parsed.success) return refuse('protocol', 'malformed_result', `${name}: result is not an MCP CallToolResult`, describeIssues(parsed.issues));
  const result = parsed.output;
  const texts = textBlocks(result);
  if (result.isError === true) return fail('business', 'tool_error', `${name} reported an error: ${excerpt(texts.join('\n'))}`);
  const structured = result.structuredContent;
  if (tool.output) {
    if (structured === undefined) return refuse('protocol', 'output_invalid', `${name}: outputSchema declared but structuredContent missing`);
    const issues = tool.output.validate(structured);
    if (issues.length > 0) return refuse('protocol', 'output_invalid', `${name}: structuredContent violates the listed outputSchema`, describeValidation(issues));
    if (texts.length > 0 && !jsonTextAgrees(texts, structured)) return refuse('evidence', 'result_conflict', `${name}: text content disagrees with structuredContent`);
  }
  return ok({
    jsonrpcId: reply.id,
    requestBytes: reply.requestBytes,
    responseBytes: reply.responseBytes,
    // Without an outputSchema the blocks are the result: a structuredContent sent anyway is no part of `data`
    // (the tool's result schema is `{ content }`, so taking it as data would refuse a result the spec allows).
    data: tool.output ? structured : { content: reply.answer.result['content'] },
    content: ownBlocks(modelContent(result.content), structured),
  });
}
