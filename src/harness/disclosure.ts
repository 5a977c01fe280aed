import type { Snapshot } from './task.ts';

/**
 * Which sources a request payload actually disclosed to the model, computed
 * from the payload bytes alone.
 *
 * Rule: a source is disclosed when some non-error `tool_result` block (one
 * whose `is_error` is absent or `false`) in a `user` message of the payload
 * carries one text that contains the source's full snapshot text. Text
 * anywhere else — system blocks, plain user text, error results, the model's
 * own tool_use input — is not a tool result and never counts. The payload is
 * decoded (fatal UTF-8) and parsed as JSON, so escaping cannot hide or fake a
 * match; a flag or the model's word is never consulted.
 */
export function disclosedSources(payload: Uint8Array, snapshot: Snapshot): readonly string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
  } catch {
    return [];
  }
  const texts = toolResultTexts(parsed);
  return snapshot.sources.filter((source) => texts.some((text) => text.includes(source.text))).map((s) => s.id);
}

function toolResultTexts(payload: unknown): string[] {
  const messages = (payload as { messages?: unknown })?.messages;
  if (!Array.isArray(messages)) return [];
  const texts: string[] = [];
  for (const message of messages) {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    if (role !== 'user' || !Array.isArray(content)) continue;
    for (const block of content) {
      const b = block as { type?: unknown; is_error?: unknown; content?: unknown };
      if (b?.type !== 'tool_result' || (b.is_error !== undefined && b.is_error !== false)) continue;
      if (typeof b.content === 'string') texts.push(b.content);
      else if (Array.isArray(b.content)) {
        for (const part of b.content) {
          const p = part as { type?: unknown; text?: unknown };
          if (p?.type === 'text' && typeof p.text === 'string') texts.push(p.text);
        }
      }
    }
  }
  return texts;
}
