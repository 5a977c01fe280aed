import { effectiveInput } from '../harness/index.ts';
import type { CallArguments } from '../pipeline/index.ts';
import { readSourceContract } from './contracts.ts';
import type { Snapshot } from './snapshot.ts';

/** A recorded call as disclosure reads it (live: the pipeline's record; verify: the call event). */
export interface ReadCall {
  readonly toolCallId: string;
  readonly name: string;
  readonly arguments: CallArguments;
  readonly ok: boolean;
  /** A host Agent call: the sources its subagent's own requests disclosed (its answer may carry only those). */
  readonly delegated?: readonly string[];
}

/** The source a read_source input names (the handler reads exactly that one); undefined when there is none. */
export function sourceIdOf(input: unknown): string | undefined {
  const id = (input as { source_id?: unknown } | null)?.source_id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Which source each successful read_source call read, by tool call id (from
 * the input its handler received). An id shared by two successful reads is
 * ambiguous and maps to neither.
 */
export function sourceReads(calls: readonly ReadCall[]): ReadonlyMap<string, readonly string[]> {
  const reads = new Map<string, readonly string[]>();
  const ambiguous = new Set<string>();
  for (const call of calls) {
    if (!call.ok) continue;
    const sources = call.delegated ?? (call.name === readSourceContract.name ? [sourceIdOf(effectiveInput(call.arguments))].filter((s) => s !== undefined) : []);
    if (sources.length === 0) continue;
    if (reads.has(call.toolCallId)) ambiguous.add(call.toolCallId);
    reads.set(call.toolCallId, sources);
  }
  for (const id of ambiguous) reads.delete(id);
  return reads;
}

/**
 * Which sources a request payload actually disclosed to the model, computed
 * from the payload bytes and the calls recorded before it.
 *
 * Rule (seed 000): a source is disclosed only by read_source's own answer to
 * a recorded, successful call that read that source (or a host Agent's
 * answer whose subagent's own requests disclosed it, W9 — a summary never
 * holds the full text, so it discloses nothing): a non-error
 * `tool_result` (its `is_error` absent or `false`) in a `user` message whose
 * `tool_use_id` is that call's, and whose first content block (or string
 * content) — the tool's own text; hook text comes in later blocks — holds the source's full snapshot
 * text. Text anywhere else (system blocks, plain user text, hook blocks, error
 * results, other tools' results, a read of another source, the model's own
 * tool_use input) never counts. The payload is decoded (fatal UTF-8) and
 * parsed as JSON, so escaping cannot hide or fake a match; a flag or the
 * model's word is never consulted.
 *
 * @param reads What `sourceReads` gives for the calls recorded before this request.
 */
export function disclosedSources(payload: Uint8Array, snapshot: Snapshot, reads: ReadonlyMap<string, readonly string[]>): readonly string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
  } catch {
    return [];
  }
  const disclosed = new Set<string>();
  for (const { toolUseId, text } of ownResultTexts(parsed)) {
    for (const sourceId of reads.get(toolUseId) ?? []) {
      const source = snapshot.sources.find((s) => s.id === sourceId);
      if (source && text.includes(source.text)) disclosed.add(source.id);
    }
  }
  return snapshot.sources.filter((s) => disclosed.has(s.id)).map((s) => s.id);
}

/** The first text block of every non-error tool_result in a user message, with the call it answers. */
function ownResultTexts(payload: unknown): { toolUseId: string; text: string }[] {
  const messages = (payload as { messages?: unknown })?.messages;
  if (!Array.isArray(messages)) return [];
  const texts: { toolUseId: string; text: string }[] = [];
  for (const message of messages) {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    if (role !== 'user' || !Array.isArray(content)) continue;
    for (const block of content) {
      const b = block as { type?: unknown; is_error?: unknown; tool_use_id?: unknown; content?: unknown };
      if (b?.type !== 'tool_result' || (b.is_error !== undefined && b.is_error !== false) || typeof b.tool_use_id !== 'string') continue;
      // A string content is the Messages API's shorthand for one text block.
      const first = typeof b.content === 'string' ? { type: 'text', text: b.content } : Array.isArray(b.content) ? (b.content[0] as { type?: unknown; text?: unknown } | undefined) : undefined;
      if (first?.type === 'text' && typeof first.text === 'string') texts.push({ toolUseId: b.tool_use_id, text: first.text });
    }
  }
  return texts;
}
