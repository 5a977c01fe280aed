/**
 * How one description of the events serves every format (events.ts): a field
 * a format added is marked `since(format, schema)`, and each format's schemas
 * resolve the marks — the field's schema from that format on, `before` (by
 * default: absent) in the formats before it.
 */
import * as v from 'valibot';
import { ABSENT } from './event-parts.ts';
import { KNOWN_FORMATS, LEDGER_FORMAT_2, type RecordFormat } from './format.ts';

/**
 * A field that format `since` introduced (or reshaped): in earlier formats it
 * is `before` (default: absent), itself a `since` when an earlier format
 * reshaped it too.
 */
export interface Since<F extends RecordFormat, S extends v.GenericSchema | NoEntry, B extends Before> {
  readonly since: F;
  readonly schema: S;
  readonly before: B;
}

export function since<F extends RecordFormat, S extends v.GenericSchema | NoEntry>(format: F, schema: S): Since<F, S, typeof ABSENT>;
export function since<F extends RecordFormat, S extends v.GenericSchema | NoEntry, B extends Before>(format: F, schema: S, before: B): Since<F, S, B>;
export function since(format: RecordFormat, schema: v.GenericSchema | NoEntry, before: Before = ABSENT): Since<RecordFormat, v.GenericSchema | NoEntry, Before> {
  return { since: format, schema, before };
}

/**
 * No entry for the field in a format's schema: in a strict event an unknown
 * key, refused; in an open one a task's own field, which the task's recheck
 * reads. A field a format added is `NO_ENTRY` before it (`since(format,
 * schema, NO_ENTRY)`), so the schemas of the formats before it — and their
 * committed JSON Schema — stay as they were; a field the ledger stops naming
 * is `since(format, NO_ENTRY, before)`.
 */
export interface NoEntry {
  readonly noEntry: true;
}
export const NO_ENTRY: NoEntry = { noEntry: true };

/** What a field is before the format that introduced it: a schema, no entry, or an earlier format's `since`. */
export type Before = v.GenericSchema | NoEntry | Since<RecordFormat, v.GenericSchema | NoEntry, Before>;

/** A format's own value of `run_end.format`: absent in the base format, else the format itself (the run dir writes it). */
export interface NamedFormat {
  readonly namedFormat: true;
}
export const NAMED_FORMAT: NamedFormat = { namedFormat: true };

/** The formats from `F` on, in order (`KNOWN_FORMATS` is oldest first). */
export type From<F, T extends readonly string[] = typeof KNOWN_FORMATS> = T extends readonly [infer H, ...infer R extends readonly string[]] ? (H extends F ? T[number] : From<F, R>) : never;
/** A described field's schema in format `F`. */
export type Field<D, F extends RecordFormat> =
  D extends Since<infer G, infer S, infer B> ? (F extends From<G> ? S : Field<B, F>)
  : D extends NamedFormat ? (F extends typeof LEDGER_FORMAT_2 ? typeof ABSENT : v.LiteralSchema<F, undefined>)
  : D;

/** A described field's schema in `format` (the runtime side of `Field`); `NO_ENTRY` when the format has no entry for it. */
export function resolveField(field: unknown, format: RecordFormat): v.GenericSchema | NoEntry {
  if (field === NAMED_FORMAT) return format === LEDGER_FORMAT_2 ? ABSENT : v.literal(format);
  if (typeof field === 'object' && field !== null && 'since' in field) {
    const marked = field as Since<RecordFormat, v.GenericSchema | NoEntry, Before>;
    return KNOWN_FORMATS.indexOf(format) >= KNOWN_FORMATS.indexOf(marked.since) ? marked.schema : resolveField(marked.before, format);
  }
  return field as v.GenericSchema;
}

/** The newest format: what a writer's types allow (a record names an older one when it uses nothing newer). */
export type Newest = typeof KNOWN_FORMATS extends readonly [...unknown[], infer L extends RecordFormat] ? L : never;

