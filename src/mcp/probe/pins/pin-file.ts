/**
 * The pin file, `"format": "caplab.pins/1"`: one entry per server name, each
 * holding the server's and every tool's wire object beside its hashes, so a
 * change reads as a `git diff`. Read bounded (`pinsBytes`, `fileJsonDepth`)
 * and strictly: anything but that shape, or a wire object unlike its hashes,
 * is `invalid_arguments/malformed_pins`. Written deterministically — sorted
 * keys, 2-space indent, no time — every other server's entry kept byte for
 * byte from the file as read.
 */
import { canonicalJson, checkJson, fail, FILE_JSON_BOUNDS, LIMITS, ok, parseJsonBounded, readBoundedText, type Failure, type Outcome } from '../../../contract/index.ts';
import { pinServer, pinTool, type PinEntry, type ServerWire } from './pin-hash.ts';

export const PINS_FORMAT = 'caplab.pins/1';

/** A pin file as read: its entries, and the exact text of each (kept when another entry is written). */
export interface PinFile {
  readonly entries: ReadonlyMap<string, PinEntry>;
  readonly texts: ReadonlyMap<string, string>;
}

export const EMPTY_PINS: PinFile = { entries: new Map(), texts: new Map() };

const malformed = (path: string, why: string): Failure => fail('invalid_arguments', 'malformed_pins', `${path}: ${why}`);
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const keysAre = (value: Record<string, unknown>, keys: readonly string[]): boolean => Object.keys(value).sort().join(',') === [...keys].sort().join(',');

/** One tool's pin, if it is one: `{hashes, wire}`, the hashes those of the wire, the wire named as its key. */
function checkTool(name: string, value: unknown): string | undefined {
  if (!isObject(value) || !keysAre(value, ['hashes', 'wire']) || !isObject(value['wire'])) return `tool ${JSON.stringify(name)} is not {hashes, wire}`;
  if (value['wire']['name'] !== name) return `tool ${JSON.stringify(name)}: its wire object is named ${JSON.stringify(value['wire']['name'])}`;
  if (canonicalJson(pinTool(value['wire']).hashes) !== canonicalJson(value['hashes'])) return `tool ${JSON.stringify(name)}: its hashes are not those of its wire object`;
  return undefined;
}

/** One server's entry, if it is one. */
function checkEntry(name: string, value: unknown): string | undefined {
  if (!isObject(value) || !keysAre(value, ['server', 'tools']) || !isObject(value['tools'])) return `server ${JSON.stringify(name)} is not {server, tools}`;
  const server = value['server'];
  if (!isObject(server) || !keysAre(server, ['hashes', 'wire']) || !isObject(server['wire']) || typeof server['wire']['protocolVersion'] !== 'string') return `server ${JSON.stringify(name)}: its server is not {hashes, wire}`;
  if (canonicalJson(pinServer(server['wire'] as unknown as ServerWire).hashes) !== canonicalJson(server['hashes'])) return `server ${JSON.stringify(name)}: its hashes are not those of its wire object`;
  for (const [tool, pin] of Object.entries(value['tools'])) {
    const why = checkTool(tool, pin);
    if (why) return `server ${JSON.stringify(name)}: ${why}`;
  }
  return undefined;
}

/**
 * Reads a pin file. Missing: empty when `missingOk` (`--update-pins`
 * creates it), else malformed. Every failure is `malformed_pins`, naming why.
 */
export function readPins(path: string, missingOk: boolean): Outcome<PinFile> {
  const read = readBoundedText(path, LIMITS.pinsBytes);
  if (!read.ok) return read.kind === 'not_found' && missingOk ? ok(EMPTY_PINS) : malformed(path, read.message);
  const parsed = parseJsonBounded(read.value, FILE_JSON_BOUNDS);
  if (!parsed.ok) return malformed(path, `${parsed.kind}: ${parsed.message}`);
  const doc = parsed.value;
  if (!isObject(doc) || !keysAre(doc, ['format', 'servers']) || !isObject(doc['servers'])) return malformed(path, 'not {"format", "servers"}');
  if (doc['format'] !== PINS_FORMAT) return malformed(path, `format ${JSON.stringify(doc['format'])}; this caplab reads ${PINS_FORMAT}`);
  const entries = new Map<string, PinEntry>();
  for (const [name, entry] of Object.entries(doc['servers'])) {
    const why = checkEntry(name, entry);
    if (why) return malformed(path, why);
    entries.set(name, entry as unknown as PinEntry);
  }
  return ok({ entries, texts: serverTexts(read.value) });
}

/** Index just past the JSON string starting at `at` (a `"`). */
function endOfString(text: string, at: number): number {
  let i = at + 1;
  while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** Index just past the JSON value starting at `at` (text already parsed: well formed). */
function endOfValue(text: string, at: number): number {
  if (text[at] === '"') return endOfString(text, at);
  if (text[at] !== '{' && text[at] !== '[') return at + /^[^,\]}\s]+/.exec(text.slice(at))![0].length;
  let depth = 0;
  for (let i = at; ; ) {
    const c = text[i]!;
    if (c === '"') {
      i = endOfString(text, i);
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    i++;
    if (depth === 0) return i;
  }
}

const skipSpace = (text: string, at: number): number => at + /^\s*/.exec(text.slice(at))![0].length;

/** The text of each member of `servers`, by name, exactly as in the file. */
function serverTexts(text: string): Map<string, string> {
  const texts = new Map<string, string>();
  let i = skipSpace(text, 0) + 1;
  for (;;) {
    i = skipSpace(text, i);
    if (text[i] === '}') return texts;
    if (text[i] === ',') i = skipSpace(text, i + 1);
    const keyEnd = endOfString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    const valueAt = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const valueEnd = endOfValue(text, valueAt);
    if (key === 'servers') return membersOf(text, valueAt, texts);
    i = valueEnd;
  }
}

function membersOf(text: string, at: number, into: Map<string, string>): Map<string, string> {
  let i = at + 1;
  for (;;) {
    i = skipSpace(text, i);
    if (text[i] === '}') return into;
    if (text[i] === ',') i = skipSpace(text, i + 1);
    const keyEnd = endOfString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    const valueAt = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const valueEnd = endOfValue(text, valueAt);
    into.set(key, text.slice(valueAt, valueEnd));
    i = valueEnd;
  }
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** JSON with sorted keys and 2-space indent, each line after the first indented `pad` more (depth is bounded by the caller). */
export function prettyJson(value: unknown, pad = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${pad}  ${prettyJson(item, `${pad}  `)}`).join(',\n')}\n${pad}]`;
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined).sort(byCodeUnit);
    if (keys.length === 0) return '{}';
    return `{\n${keys.map((key) => `${pad}  ${JSON.stringify(key)}: ${prettyJson((value as Record<string, unknown>)[key], `${pad}  `)}`).join(',\n')}\n${pad}}`;
  }
  return JSON.stringify(value);
}

/**
 * The file's text with `updates` written (each by name), every other entry's
 * text kept as read; or why it cannot be written (an entry nesting past
 * `fileJsonDepth`, which reading would refuse).
 */
export function pinsText(file: PinFile, updates: ReadonlyMap<string, PinEntry>): { readonly text: string } | { readonly why: string } {
  const texts = new Map(file.texts);
  for (const [name, entry] of updates) {
    // The document wraps an entry in two objects: what would be read back must fit fileJsonDepth.
    const bounded = checkJson(entry, { maxDepth: LIMITS.fileJsonDepth - 2 });
    if (!bounded.ok) return { why: `the entry for ${JSON.stringify(name)}: ${bounded.message} (a pin file is read within fileJsonDepth)` };
    texts.set(name, prettyJson(entry, '    '));
  }
  const members = [...texts.keys()].sort(byCodeUnit).map((name) => `    ${JSON.stringify(name)}: ${texts.get(name)}`);
  const servers = members.length === 0 ? '{}' : `{\n${members.join(',\n')}\n  }`;
  return { text: `{\n  "format": ${JSON.stringify(PINS_FORMAT)},\n  "servers": ${servers}\n}\n` };
}
