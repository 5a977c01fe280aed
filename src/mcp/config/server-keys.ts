import { hashSuffix, replaceOther, TOOL_NAME_STEM } from '../../binding/index.ts';
import { fail, ok, type Outcome } from '../../contract/index.ts';

/** A key kept as the config writes it: the tool-name alphabet, at least one character. */
const KEPT_KEY = /^[A-Za-z0-9_-]+$/;

/** What a config name is called in tool names (`mcp__<key>__<tool>`), and whether the tool-name rule rewrote it. */
export interface ServerKey {
  /** The entry's name in `mcpServers`, as written. */
  readonly name: string;
  readonly key: string;
  readonly mapped: boolean;
}

/**
 * Whether `name` can be a key as written: in `[A-Za-z0-9_-]+`, and such that
 * `mcp__<key>__<tool>` parses one way — no `__` in it, and no `_` at its end
 * (`a_` with tool `x` and `a` with tool `_x` would both be `mcp__a___x`).
 */
function keptAsWritten(name: string): boolean {
  return KEPT_KEY.test(name) && !name.includes('__') && !name.endsWith('_');
}

/**
 * The key a config name gets: itself when kept, else the tool-name rule's
 * character replacement (every other character to `_`), runs of `_` made
 * one and a final `_` dropped (so the key parses one way), cut to the rule's
 * 55, then `_` and 8 hex of sha256 of the name as written — so `my.server`
 * and `my server` get distinct keys, the same every run.
 *
 * @example serverKey('my.server') // { name: 'my.server', key: 'my_server_' + 8 hex, mapped: true }
 */
export function serverKey(name: string): ServerKey {
  if (keptAsWritten(name)) return { name, key: name, mapped: false };
  const stem = replaceOther(name).replace(/_+/g, '_').slice(0, TOOL_NAME_STEM).replace(/_$/, '');
  return { name, key: `${stem}${hashSuffix(name)}`, mapped: true };
}

/**
 * The keys of a config's servers, in the order given. Two names that get one
 * key — a mapped one equal to another's as written, or (a 32-bit hash
 * collision) two mapped alike — would make one tool name select two tools:
 * `invalid_arguments/bad_server_key`, naming both.
 *
 * @example serverKeys(['notes', 'my.server']) // ok([{ name: 'notes', key: 'notes', mapped: false }, { name: 'my.server', key: 'my_server_…', mapped: true }])
 */
export function serverKeys(names: readonly string[]): Outcome<readonly ServerKey[]> {
  const byKey = new Map<string, ServerKey>();
  const keys: ServerKey[] = [];
  for (const name of names) {
    const key = serverKey(name);
    const other = byKey.get(key.key);
    if (other !== undefined) {
      const how = (k: ServerKey): string => `${JSON.stringify(k.name)}${k.mapped ? ` (mapped to ${k.key})` : ''}`;
      return fail('invalid_arguments', 'bad_server_key', `servers ${how(other)} and ${how(key)} both get the key ${JSON.stringify(key.key)}; rename one in the config`);
    }
    byKey.set(key.key, key);
    keys.push(key);
  }
  return ok(keys);
}
