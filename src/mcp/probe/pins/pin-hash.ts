/**
 * What a pin holds of one tool or one server: the wire object as listed and
 * its hashes — sha256 of the canonical JSON of the whole, of each member, of
 * each `description` and `title` string inside its schemas (by JSON pointer),
 * and of `{description, inputSchema}` (what a rename keeps). A pin file is
 * checked by computing these again from its wire objects.
 */
import { canonicalJson, checkJson, sha256Hex } from '../../../contract/index.ts';

export type Hash = string;

export interface ToolHashes {
  /** The whole list entry. */
  readonly entry: Hash;
  /** `{description, inputSchema}`: equal across a rename. */
  readonly identity: Hash;
  /** Each member of the entry, by pointer (`/name`, `/inputSchema` …). */
  readonly fields: Readonly<Record<string, Hash>>;
  /** Each `description` and `title` string inside `inputSchema` and `outputSchema`, by pointer. */
  readonly texts: Readonly<Record<string, Hash>>;
}

export interface ToolPin {
  readonly hashes: ToolHashes;
  readonly wire: Readonly<Record<string, unknown>>;
}

/** The server as the handshake named it. */
export interface ServerWire {
  readonly serverInfo?: Readonly<Record<string, unknown>>;
  readonly protocolVersion: string;
  readonly capabilities: unknown;
  readonly instructions?: string;
}

export interface ServerPin {
  /** `/serverInfo/name`, `/serverInfo/version`, each other serverInfo member, `/protocolVersion`, `/capabilities`, `/instructions`. */
  readonly hashes: Readonly<Record<string, Hash>>;
  readonly wire: ServerWire;
}

/** One server's entry in a pin file. */
export interface PinEntry {
  readonly server: ServerPin;
  readonly tools: Readonly<Record<string, ToolPin>>;
}

export const hashOf = (value: unknown): Hash => sha256Hex(canonicalJson(value));

/** A JSON pointer's reference token (RFC 6901). */
export const token = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Every `description` and `title` string under `root`, by pointer; an iterative walk. */
function schemaTexts(root: unknown, at: string): Record<string, Hash> {
  const texts: Record<string, Hash> = {};
  const stack: { value: unknown; pointer: string }[] = [{ value: root, pointer: at }];
  while (stack.length > 0) {
    const { value, pointer } = stack.pop()!;
    if (Array.isArray(value)) value.forEach((item, index) => stack.push({ value: item, pointer: `${pointer}/${index}` }));
    else if (isObject(value)) {
      for (const [key, inner] of Object.entries(value)) {
        const path = `${pointer}/${token(key)}`;
        if ((key === 'description' || key === 'title') && typeof inner === 'string') texts[path] = hashOf(inner);
        else stack.push({ value: inner, pointer: path });
      }
    }
  }
  return texts;
}

/** Sorted by key, so a pin's hashes read the same however the server ordered its members. */
const sorted = (record: Record<string, Hash>): Record<string, Hash> => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** A listed tool's pin: its hashes and the entry itself. */
export function pinTool(wire: Readonly<Record<string, unknown>>): ToolPin {
  const fields: Record<string, Hash> = {};
  for (const [key, value] of Object.entries(wire)) if (value !== undefined) fields[`/${token(key)}`] = hashOf(value);
  const texts = { ...schemaTexts(wire['inputSchema'], '/inputSchema'), ...schemaTexts(wire['outputSchema'], '/outputSchema') };
  const identity = hashOf({ description: wire['description'] ?? null, inputSchema: wire['inputSchema'] ?? null });
  return { hashes: { entry: hashOf(wire), identity, fields: sorted(fields), texts: sorted(texts) }, wire };
}

/** The server's pin: each identity member hashed by pointer. */
export function pinServer(wire: ServerWire): ServerPin {
  const hashes: Record<string, Hash> = { '/protocolVersion': hashOf(wire.protocolVersion), '/capabilities': hashOf(wire.capabilities ?? null) };
  for (const [key, value] of Object.entries(wire.serverInfo ?? {})) if (value !== undefined) hashes[`/serverInfo/${token(key)}`] = hashOf(value);
  if (wire.instructions !== undefined) hashes['/instructions'] = hashOf(wire.instructions);
  return { hashes: sorted(hashes), wire };
}

/** Whether canonical JSON can write a value (a `1e400` parses as Infinity; it cannot). */
const writable = (value: unknown): boolean => checkJson(value, { maxDepth: Number.POSITIVE_INFINITY }).ok;

/**
 * The entry a listing pins: the server, and each tool by name (a name listed
 * twice: the first). A tool holding a number JSON cannot carry has no hash:
 * it is left out and named in `unpinnable` (so is the server's, then `server`).
 */
export function pinEntry(server: ServerWire, entries: readonly unknown[]): { readonly entry: PinEntry; readonly unpinnable: readonly string[] } {
  const tools: Record<string, ToolPin> = {};
  const unpinnable: string[] = [];
  for (const entry of entries) {
    if (!isObject(entry) || typeof entry['name'] !== 'string' || Object.hasOwn(tools, entry['name'])) continue;
    if (writable(entry)) tools[entry['name']] = pinTool(entry);
    else unpinnable.push(entry['name']);
  }
  const serverOk = writable(server);
  return { entry: { server: pinServer(serverOk ? server : { protocolVersion: server.protocolVersion, capabilities: null }), tools }, unpinnable: serverOk ? unpinnable : ['server', ...unpinnable] };
}
