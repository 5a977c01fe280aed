import { fail, ok, type Failure, type Outcome } from '../contract/index.ts';
import { isJsonObject, MISSING, operationOf, readField, setOwn } from './missing.ts';
import type { FieldPlan, StrictPlan } from './strict-schema.ts';

/** The arguments conversion version of the strict target. Bump it whenever either direction changes. */
export const STRICT_CONVERSION = 'strict/1';

function at(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

function invalid(kind: 'invalid_operation' | 'extra_field' | 'missing_field' | 'wrong_type', path: string, message: string): Failure {
  return fail('invalid_arguments', kind, `${path}: ${message}`);
}

/** Reads one `{ op, value }` envelope into the field's contract value or `MISSING`. */
function openEnvelope(field: FieldPlan, raw: unknown, path: string): Outcome<unknown> {
  const ops = field.nullable ? '"keep", "clear" or "set"' : '"keep" or "set"';
  if (!isJsonObject(raw) || Object.keys(raw).length !== 2 || !Object.hasOwn(raw, 'op') || !Object.hasOwn(raw, 'value')) {
    return invalid('invalid_operation', path, `must be { op, value } with op ${ops}`);
  }
  const { op, value } = raw;
  if (op === 'keep' || (op === 'clear' && field.nullable)) {
    // A value beside keep/clear is refused, not ignored: the model may have meant set.
    if (value !== null) return invalid('invalid_operation', path, `op "${op}" requires value null`);
    return ok(op === 'keep' ? MISSING : null);
  }
  if (op === 'set') {
    // set + null would be a second spelling of clear (or of an invalid null): one meaning, one form.
    if (value === null) return invalid('invalid_operation', path, field.nullable ? 'op "set" needs a value; use op "clear" for null' : 'op "set" needs a value');
    return decodeStrict(field.plan, value, path);
  }
  return invalid('invalid_operation', path, `op must be ${ops}`);
}

/**
 * Converts strict/1 model arguments into contract arguments: envelopes become
 * missing / `null` / the value. Only envelope misuse fails here; a value of the
 * wrong type passes through unchanged for contract validation to report.
 *
 * @param plan The compiled plan.
 * @param value Model arguments (parsed JSON, untrusted).
 * @param path The field path, for messages.
 */
export function decodeStrict(plan: StrictPlan, value: unknown, path = ''): Outcome<unknown> {
  switch (plan.kind) {
    case 'value':
      return ok(value);
    case 'nullable':
      return value === null ? ok(null) : decodeStrict(plan.inner, value, path);
    case 'array': {
      if (!Array.isArray(value)) return ok(value);
      const out: unknown[] = [];
      for (const [index, item] of value.entries()) {
        const step = decodeStrict(plan.items, item, `${path}[${index}]`);
        if (!step.ok) return step;
        out.push(step.value);
      }
      return ok(out);
    }
    case 'object': {
      if (!isJsonObject(value)) return ok(value);
      const extra = Object.keys(value).find((key) => !plan.fields.some((field) => field.name === key));
      if (extra !== undefined) return invalid('extra_field', at(path, extra), 'is not a field of this tool');
      const out: Record<string, unknown> = {};
      for (const field of plan.fields) {
        const where = at(path, field.name);
        const raw = readField(value, field.name);
        if (raw === MISSING) {
          const hint = field.optional ? ' (send { "op": "keep", "value": null } to leave it out)' : '';
          return invalid('missing_field', where, `is required in strict mode${hint}`);
        }
        const step = field.optional ? openEnvelope(field, raw, where) : raw === null ? ok(null) : decodeStrict(field.plan, raw, where);
        if (!step.ok) return step;
        if (step.value !== MISSING) setOwn(out, field.name, step.value);
      }
      return ok(out);
    }
  }
}

/**
 * Converts contract arguments into strict/1 model arguments (the inverse of
 * `decodeStrict`, used by the round-trip check). Fails where the arguments
 * do not fit the contract's shape, since such a value would not survive.
 *
 * @param plan The compiled plan.
 * @param value Contract arguments.
 * @param path The field path, for messages.
 */
export function encodeStrict(plan: StrictPlan, value: unknown, path = ''): Outcome<unknown> {
  switch (plan.kind) {
    case 'value':
      return ok(value);
    case 'nullable':
      return value === null ? ok(null) : encodeStrict(plan.inner, value, path);
    case 'array': {
      if (!Array.isArray(value)) return invalid('wrong_type', path || '(root)', 'must be an array');
      const out: unknown[] = [];
      for (const [index, item] of value.entries()) {
        const step = encodeStrict(plan.items, item, `${path}[${index}]`);
        if (!step.ok) return step;
        out.push(step.value);
      }
      return ok(out);
    }
    case 'object': {
      if (!isJsonObject(value)) return invalid('wrong_type', path || '(root)', 'must be an object');
      const extra = Object.keys(value).find((key) => readField(value, key) !== MISSING && !plan.fields.some((f) => f.name === key));
      if (extra !== undefined) return invalid('extra_field', at(path, extra), 'is not a field of this tool');
      const out: Record<string, unknown> = {};
      for (const field of plan.fields) {
        const where = at(path, field.name);
        const raw = readField(value, field.name);
        const op = operationOf(raw);
        if (op === 'keep' && !field.optional) return invalid('missing_field', where, 'is required');
        if (op === 'clear' && !field.nullable) return invalid('wrong_type', where, 'may not be null');
        let encoded: unknown = null;
        if (op === 'set') {
          const step = encodeStrict(field.plan, raw, where);
          if (!step.ok) return step;
          encoded = step.value;
        }
        setOwn(out, field.name, field.optional ? { op, value: encoded } : encoded);
      }
      return ok(out);
    }
  }
}
