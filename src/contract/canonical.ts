/**
 * Canonical JSON: object keys sorted by UTF-16 code unit order, no whitespace,
 * arrays in order. Used for every hash that must not depend on key order or
 * formatting (schema hashes, binding ids, ledger events).
 *
 * Iterative, so nesting depth costs heap, not stack: a deeply nested value
 * cannot end the process with a RangeError.
 *
 * Throws on values JSON cannot represent faithfully (undefined inside arrays,
 * functions, non-finite numbers, bigint) — a hash over a silently dropped value
 * would prove nothing. Scenario and settings files and every tool call's
 * arguments are checked with `checkJson` first and never bring such a value here.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Work items: a value to encode, or literal text (brackets, commas, keys).
  const work: ({ readonly value: unknown } | string)[] = [{ value }];
  while (work.length > 0) {
    const item = work.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const current = item.value;
    if (current === null) {
      out.push('null');
      continue;
    }
    switch (typeof current) {
      case 'boolean':
        out.push(current ? 'true' : 'false');
        break;
      case 'number':
        if (!Number.isFinite(current)) throw new TypeError(`canonicalJson: non-finite number ${current}`);
        out.push(JSON.stringify(current));
        break;
      case 'string':
        out.push(JSON.stringify(current));
        break;
      case 'object': {
        const parts: ({ readonly value: unknown } | string)[] = [];
        if (Array.isArray(current)) {
          parts.push('[');
          for (let index = 0; index < current.length; index++) parts.push(...(index > 0 ? [','] : []), { value: current[index] });
          parts.push(']');
        } else {
          const record = current as Record<string, unknown>;
          const keys = Object.keys(record)
            .filter((key) => record[key] !== undefined)
            .sort();
          parts.push('{');
          keys.forEach((key, index) => parts.push(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`, { value: record[key] }));
          parts.push('}');
        }
        // Pushed in reverse so they pop in order.
        for (let i = parts.length - 1; i >= 0; i--) work.push(parts[i]!);
        break;
      }
      default:
        throw new TypeError(`canonicalJson: cannot encode ${typeof current}`);
    }
  }
  return out.join('');
}
