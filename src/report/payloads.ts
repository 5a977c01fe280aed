import { LIMITS, jsonTooDeep } from '../contract/index.ts';
import type { Found, FoundRun } from './found.ts';
import { arr, asObject, bool, obj, str } from './values.ts';

/** One tool_result block of a request payload: the call it answers, whether it is an error, its content. */
export interface ToolResult {
  readonly isError: boolean;
  readonly content: unknown;
}

/** What a request payload shows, read from its bytes: its tool_result blocks and the tools each `tool_reference` names. */
export interface PayloadView {
  readonly bytes?: Uint8Array;
  /** The first tool_result of a user message for each tool_use id. */
  readonly results: ReadonlyMap<string, ToolResult>;
  /** For each tool a non-error tool_result referenced (`tool_reference`), the tool_use id of that result. */
  readonly references: ReadonlyMap<string, string>;
}

const EMPTY: PayloadView = { results: new Map(), references: new Map() };
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The path of a request's payload: its `payload` record, else its first file. */
export function payloadPath(request: Found): string | undefined {
  return str(obj(request, 'payload'), 'path') ?? str(asObject(arr(request, 'files')[0]), 'path');
}

function parsed(bytes: Uint8Array): Found | undefined {
  try {
    const text = decoder.decode(bytes);
    if (jsonTooDeep(text, LIMITS.recordJsonDepth)) return undefined;
    return asObject(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** Reads a request's payload as found and indexes its tool results; a payload that is absent or no JSON shows none. */
export function viewPayload(run: FoundRun, request: Found): PayloadView {
  const path = payloadPath(request);
  const bytes = path === undefined ? undefined : run.read(path);
  const payload = bytes && parsed(bytes);
  if (!payload) return bytes ? { ...EMPTY, bytes } : EMPTY;
  const results = new Map<string, ToolResult>();
  const references = new Map<string, string>();
  for (const message of arr(payload, 'messages').map(asObject)) {
    if (str(message, 'role') !== 'user') continue;
    for (const block of arr(message, 'content').map(asObject)) {
      const id = str(block, 'tool_use_id');
      if (str(block, 'type') !== 'tool_result' || id === undefined || results.has(id)) continue;
      const isError = block?.['is_error'] !== undefined && bool(block, 'is_error') !== false;
      results.set(id, { isError, content: block?.['content'] });
      if (isError) continue;
      for (const item of arr(block, 'content').map(asObject)) {
        const name = str(item, 'tool_name');
        if (str(item, 'type') === 'tool_reference' && name !== undefined && !references.has(name)) references.set(name, id);
      }
    }
  }
  return { bytes, results, references };
}

/** A tool_result's content as text: a string as itself, its text blocks joined, anything else as JSON. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.every((b) => str(asObject(b), 'type') === 'text' && str(asObject(b), 'text') !== undefined)) {
    return content.map((b) => str(asObject(b), 'text')!).join('\n');
  }
  return JSON.stringify(content, null, 2) ?? '';
}
