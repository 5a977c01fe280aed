/**
 * Field semantics for updates (SPEC F-CONTRACT): a field that is **missing**
 * means keep, `null` means clear, any other value (including `""`) means set.
 *
 * `MISSING` marks an absent field inside the program. It is a unique symbol so
 * it can never collide with a JSON value, and `canonicalJson` throws on it, so
 * it can never be hashed or serialised by accident.
 */
export const MISSING: unique symbol = Symbol('caplab.MISSING');
export type Missing = typeof MISSING;

/** The operation a field value stands for. */
export type FieldOperation = 'keep' | 'clear' | 'set';

/**
 * Reads one field of a JSON object, keeping "absent" distinct from `null`.
 * Only own properties count (an inherited `toString` is not a field), and an
 * own `undefined` is absent — JSON has no `undefined`, and `JSON.stringify`
 * drops it, so treating it as a value would change meaning on the wire.
 *
 * @param record The object to read.
 * @param key The field name.
 * @returns The value, or `MISSING`.
 */
export function readField(record: object, key: string): unknown {
  if (!Object.hasOwn(record, key)) return MISSING;
  const value = (record as Record<string, unknown>)[key];
  return value === undefined ? MISSING : value;
}

/**
 * The operation a field value stands for, the seed's `args.get(key, MISSING)`.
 *
 * @param value A value from `readField`.
 * @returns keep for `MISSING`, clear for `null`, set otherwise.
 */
export function operationOf(value: unknown): FieldOperation {
  if (value === MISSING) return 'keep';
  return value === null ? 'clear' : 'set';
}

/**
 * Defines an own, enumerable data property. Plain assignment would treat a
 * model-chosen key such as `__proto__` as the prototype setter.
 */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Whether a value is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
