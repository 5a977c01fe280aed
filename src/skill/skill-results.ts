import { fail, ok, type Outcome } from '../contract/index.ts';

/** The host's built-in that gives a package's text on request (tool mode). */
export const SKILL_TOOL = 'Skill';

/** One `Skill` result of a payload: the tool_use id it answers and the strings of its text blocks. */
export interface SkillResult {
  readonly toolUseId: string;
  readonly texts: readonly string[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A payload's bytes as JSON (fatal UTF-8), or `invalid_arguments/bad_payload`. */
function parsed(payload: Uint8Array): Outcome<unknown> {
  try {
    return ok(JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(payload)));
  } catch (error) {
    return fail('invalid_arguments', 'bad_payload', `payload: not UTF-8 JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The strings of a tool_result's content: a string, or its `{ type: "text", text }` blocks. */
function resultTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((block) => (isObject(block) && block['type'] === 'text' && typeof block['text'] === 'string' ? [block['text']] : []));
}

/**
 * The `Skill` results of a payload that may carry a package's material, in
 * payload order: a non-error `tool_result` (its `is_error` absent or
 * `false`) of a user message whose `tool_use_id` answers a `Skill` tool_use
 * whose `input.skill` is exactly `name`, in an earlier assistant message of
 * the same payload. Anything else — `system`, user text, another tool's
 * result, an error result, a result answering an id no earlier `Skill` use
 * naming the package has — is not one. `name` undefined: every package's.
 */
export function skillResults(payload: Uint8Array, name?: string): Outcome<SkillResult[]> {
  const json = parsed(payload);
  if (!json.ok) return json;
  const messages = isObject(json.value) && Array.isArray(json.value['messages']) ? json.value['messages'] : [];
  const asked = new Map<string, string>();
  const results: SkillResult[] = [];
  for (const message of messages.filter(isObject)) {
    const content = Array.isArray(message['content']) ? message['content'].filter(isObject) : [];
    if (message['role'] === 'assistant') {
      for (const use of content) {
        const input = use['input'];
        if (use['type'] === 'tool_use' && use['name'] === SKILL_TOOL && typeof use['id'] === 'string' && isObject(input) && typeof input['skill'] === 'string') asked.set(use['id'], input['skill']);
      }
    } else if (message['role'] === 'user') {
      for (const block of content) {
        const id = block['tool_use_id'];
        if (block['type'] !== 'tool_result' || typeof id !== 'string' || (block['is_error'] !== undefined && block['is_error'] !== false)) continue;
        const skill = asked.get(id);
        if (skill !== undefined && (name === undefined || skill === name)) results.push({ toolUseId: id, texts: resultTexts(block['content']) });
      }
    }
  }
  return ok(results);
}

/**
 * The package named by the last `Skill` tool_use a result of the payload
 * answered (`skillResults`): the package whose adoption a tool-mode
 * request records; undefined when no Skill result is in it.
 */
export function lastSkillNamed(payload: Uint8Array): Outcome<string | undefined> {
  const json = parsed(payload);
  if (!json.ok) return json;
  const answered = skillResults(payload);
  if (!answered.ok) return answered;
  const ids = new Set(answered.value.map((r) => r.toolUseId));
  const messages = isObject(json.value) && Array.isArray(json.value['messages']) ? json.value['messages'].filter(isObject) : [];
  let last: string | undefined;
  for (const message of messages.filter((m) => m['role'] === 'assistant')) {
    for (const use of Array.isArray(message['content']) ? message['content'].filter(isObject) : []) {
      const input = use['input'];
      if (typeof use['id'] === 'string' && ids.has(use['id']) && isObject(input) && typeof input['skill'] === 'string') last = input['skill'];
    }
  }
  return ok(last);
}
