import { LIMITS, sha256Hex } from '../contract/index.ts';
import type { Found } from './found.ts';
import { html, type Html } from './html.ts';

/** A field as a string, when it is one. */
export const str = (record: Found | undefined, key: string): string | undefined => (typeof record?.[key] === 'string' ? (record[key] as string) : undefined);
/** A field as a finite number, when it is one. */
export const num = (record: Found | undefined, key: string): number | undefined => (typeof record?.[key] === 'number' && Number.isFinite(record[key]) ? (record[key] as number) : undefined);
/** A field as a boolean, when it is one. */
export const bool = (record: Found | undefined, key: string): boolean | undefined => (typeof record?.[key] === 'boolean' ? (record[key] as boolean) : undefined);
/** A field as an array, when it is one (empty otherwise). */
export const arr = (record: Found | undefined, key: string): readonly unknown[] => (Array.isArray(record?.[key]) ? (record[key] as unknown[]) : []);
/** A value as a JSON object, when it is one. */
export const asObject = (value: unknown): Found | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Found) : undefined);
/** A field as a JSON object, when it is one. */
export const obj = (record: Found | undefined, key: string): Found | undefined => asObject(record?.[key]);
/** The objects of an array field. */
export const objects = (record: Found | undefined, key: string): readonly Found[] => arr(record, key).map(asObject).filter((o): o is Found => o !== undefined);
/** The strings of an array field. */
export const strings = (record: Found | undefined, key: string): readonly string[] => arr(record, key).filter((s): s is string => typeof s === 'string');

const utf8 = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });

/** A text cut at `limit` UTF-8 bytes on a character boundary, with the whole's size and sha256. */
export interface Clip {
  readonly head: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly cut: boolean;
}

/** Cuts bytes (or a text's UTF-8) at `limit` bytes, never inside a character. */
export function clip(whole: Uint8Array | string, limit: number = LIMITS.reportExcerptBytes): Clip {
  const bytes = typeof whole === 'string' ? utf8.encode(whole) : whole;
  let end = Math.min(limit, bytes.byteLength);
  // Back off UTF-8 continuation bytes (top bits 10) so the cut falls between characters.
  if (end < bytes.byteLength) while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { head: decoder.decode(bytes.subarray(0, end)), bytes: bytes.byteLength, sha256: sha256Hex(bytes), cut: end < bytes.byteLength };
}

/** A value's JSON text, two-space indented (a string as itself). */
export function jsonText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A size in bytes as people read it. */
export function sizeOf(bytes: number): string {
  return bytes === 1 ? '1 byte' : `${bytes} bytes`;
}

/** A text (or bytes) in a wrapping `<pre>`, cut at `reportExcerptBytes` and then named by its full size and sha256. */
export function excerpt(whole: Uint8Array | string, always = false): Html {
  const c = clip(whole);
  const note = c.cut || always ? html`<p class="note">${c.cut ? `first ${sizeOf(Buffer.byteLength(c.head))} of ` : ''}${sizeOf(c.bytes)}, sha256 <code class="hash">${c.sha256}</code></p>` : html``;
  return html`<pre>${c.head}${c.cut ? '…' : ''}</pre>${note}`;
}

/** A recorded JSON value shown as text (cut like any excerpt). */
export function shown(value: unknown): Html {
  return value === undefined ? html`<p class="note">absent</p>` : excerpt(jsonText(value));
}

/** A short inline value: a string as itself, anything else as compact JSON, cut at 200 bytes. */
export function inline(value: unknown): string {
  const text = typeof value === 'string' ? value : (() => {
    try {
      return JSON.stringify(value) ?? 'absent';
    } catch {
      return String(value);
    }
  })();
  const c = clip(text, 200);
  return c.cut ? `${c.head}…` : c.head;
}

/** A hash shown whole, wrapping anywhere. */
export function hash(value: unknown): Html {
  return html`<code class="hash">${typeof value === 'string' ? value : inline(value)}</code>`;
}

/** A definition list of label/value rows; rows whose value is undefined are left out. */
export function facts(rows: readonly (readonly [string, Html | string | number | undefined])[]): Html {
  const kept = rows.filter(([, value]) => value !== undefined);
  return html`<dl class="facts">${kept.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>`;
}
