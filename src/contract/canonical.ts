/**
 * Canonical JSON: object keys sorted by UTF-16 code unit order, no whitespace,
 * arrays in order. Used for every hash that must not depend on key order or
 * formatting (schema hashes, binding ids, ledger events).
 *
 * Throws on values JSON cannot represent faithfully (undefined inside arrays,
 * functions, non-finite numbers, bigint) — a hash over a silently dropped value
 * would prove nothing.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: non-finite number ${value}`);
      return JSON.stringify(value);
    case 'string':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort();
      return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: cannot encode ${typeof value}`);
  }
}
