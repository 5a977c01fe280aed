/**
 * A listing against its pin: each tool by name, then the names that came and
 * went (a removed and an added tool with the same `{description,
 * inputSchema}`, one of each, are one rename), then the server. Each finding
 * names the moved fields or pointers (`field`), old and new hash, and a short
 * diff of the first.
 */
import { canonicalJson } from '../../../contract/index.ts';
import { finding, type ProbeFinding } from '../probe-finding.ts';
import type { PinEntry, ToolPin } from './pin-hash.ts';

/** The members whose change is a `tool_changed` (error); any other member's alone is `tool_meta_changed` (warning). */
const MEANING = new Set(['/name', '/title', '/description', '/inputSchema']);

const short = (hash: string | undefined): string => (hash === undefined ? 'absent' : hash.slice(0, 12));

/** The JSON of a value at a pointer of a wire object (absent: undefined). */
function at(wire: unknown, pointer: string): unknown {
  let value = wire;
  for (const part of pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

const clipped = (text: string, max: number, from: 'start' | 'end'): string => (text.length <= max ? text : from === 'start' ? `…${text.slice(-max)}` : `${text.slice(0, max)}…`);

/** Where two JSON texts part: a little context, then `[old → new]`. */
export function shortDiff(before: unknown, after: unknown): string {
  const a = before === undefined ? 'absent' : canonicalJson(before);
  const b = after === undefined ? 'absent' : canonicalJson(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const head = clipped(a.slice(0, start), 16, 'start');
  const tail = clipped(a.slice(a.length - end), 16, 'end');
  return `${head}[${clipped(a.slice(start, a.length - end), 40, 'end')} → ${clipped(b.slice(start, b.length - end), 40, 'end')}]${tail}`;
}

/** Pointers whose hash differs between two maps (present in either). */
function moved(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => before[key] !== after[key]).sort();
}

/** The evidence of moved pointers: each with its old and new hash, the first with a diff. */
function movedEvidence(pointers: readonly string[], before: { hashes: Readonly<Record<string, string>>; wire: unknown }, after: { hashes: Readonly<Record<string, string>>; wire: unknown }): string {
  const hashes = pointers.slice(0, 4).map((p) => `${p} ${short(before.hashes[p])}→${short(after.hashes[p])}`).join('; ');
  const first = pointers[0]!;
  return `${hashes}${pointers.length > 4 ? `; and ${pointers.length - 4} more` : ''}; ${first}: ${shortDiff(at(before.wire, first), at(after.wire, first))}`;
}

/** One tool listed under a pinned name (or the new name of a rename): what changed, if anything. */
function compareTool(name: string, pinned: ToolPin, now: ToolPin, renamed: boolean): ProbeFinding[] {
  const flat = (pin: ToolPin) => ({ hashes: { ...pin.hashes.fields, ...pin.hashes.texts }, wire: pin.wire });
  const fields = moved(pinned.hashes.fields, now.hashes.fields).filter((p) => !(renamed && p === '/name'));
  const texts = moved(pinned.hashes.texts, now.hashes.texts);
  if (fields.length === 0 && texts.length === 0) return [];
  const meaning = texts.length > 0 || fields.some((p) => MEANING.has(p));
  // A text inside a schema moves its schema's hash too: the text names the change more exactly.
  const pointers = [...texts, ...fields.filter((p) => !texts.some((t) => t.startsWith(`${p}/`)))];
  const evidence = movedEvidence(pointers, flat(pinned), flat(now));
  const kind = meaning ? 'tool_changed' : 'tool_meta_changed';
  const message = `${meaning ? 'changed since pinned' : 'only outputSchema, annotations or other members changed since pinned'}: ${pointers.join(', ')}`;
  return [pinFinding(kind, message, { tool: name, evidence, field: pointers.join(',') })];
}

function pinFinding(kind: string, message: string, where: { readonly tool?: string; readonly evidence: string; readonly field: string }): ProbeFinding {
  const { field, ...rest } = where;
  return { ...finding('evidence', kind, 'caplab host rule', message, rest), field };
}

/** Names gone and names new; one of each with equal `identity` is a rename (two or more alike stay apart). */
function renames(gone: readonly string[], added: readonly string[], pinned: PinEntry, now: PinEntry): Map<string, string> {
  const byIdentity = (names: readonly string[], entry: PinEntry) => {
    const map = new Map<string, string[]>();
    for (const name of names) map.set(entry.tools[name]!.hashes.identity, [...(map.get(entry.tools[name]!.hashes.identity) ?? []), name]);
    return map;
  };
  const before = byIdentity(gone, pinned);
  const after = byIdentity(added, now);
  const pairs = new Map<string, string>();
  for (const [identity, olds] of before) {
    const news = after.get(identity);
    if (olds.length === 1 && news?.length === 1) pairs.set(olds[0]!, news[0]!);
  }
  return pairs;
}

/**
 * The pin findings of one listing. `complete`: false when the listing
 * stopped early, so a tool not seen may be on a page not read (no
 * `tool_removed` then). `skip`: names left out of both sides (no hash).
 */
export function comparePins(pinned: PinEntry | undefined, now: PinEntry, complete: boolean, skip: readonly string[] = []): ProbeFinding[] {
  if (!pinned) return [pinFinding('server_unpinned', 'the pin file has no entry for this server (--update-pins records one)', { evidence: `${Object.keys(now.tools).length} tool(s) listed, none pinned`, field: '' })];
  const names = (entry: PinEntry) => Object.keys(entry.tools).filter((name) => !skip.includes(name));
  const gone = names(pinned).filter((name) => !Object.hasOwn(now.tools, name)).sort();
  const added = names(now).filter((name) => !Object.hasOwn(pinned.tools, name)).sort();
  const pairs = renames(gone, added, pinned, now);
  const renamedTo = new Set(pairs.values());
  const found: ProbeFinding[] = [];
  for (const name of names(now)) if (Object.hasOwn(pinned.tools, name)) found.push(...compareTool(name, pinned.tools[name]!, now.tools[name]!, false));
  for (const [from, to] of pairs) {
    found.push(pinFinding('tool_renamed', `renamed ${JSON.stringify(from)} → ${JSON.stringify(to)} (same description and inputSchema): rules and hook matchers naming it no longer match`, { tool: to, evidence: `identity ${short(pinned.tools[from]!.hashes.identity)}; /name ${short(pinned.tools[from]!.hashes.fields['/name'])}→${short(now.tools[to]!.hashes.fields['/name'])}`, field: '/name' }));
    found.push(...compareTool(to, pinned.tools[from]!, now.tools[to]!, true));
  }
  for (const name of added.filter((n) => !renamedTo.has(n))) found.push(pinFinding('tool_added', 'listed but not pinned: nothing approved it', { tool: name, evidence: `entry ${short(now.tools[name]!.hashes.entry)}`, field: '' }));
  if (complete) for (const name of gone.filter((n) => !pairs.has(n))) found.push(pinFinding('tool_removed', 'pinned but no longer listed', { tool: name, evidence: `entry ${short(pinned.tools[name]!.hashes.entry)}`, field: '' }));
  return [...found, ...compareServer(pinned, now)];
}

/** The server: instructions (error), name, protocol, capabilities and other serverInfo (warning), the version alone (note). */
function compareServer(pinned: PinEntry, now: PinEntry): ProbeFinding[] {
  const before = pinned.server;
  const after = now.server;
  const changed = moved(before.hashes, after.hashes);
  const found: ProbeFinding[] = [];
  if (changed.includes('/instructions')) found.push(pinFinding('instructions_changed', 'the server\'s instructions changed since pinned', { evidence: movedEvidence(['/instructions'], before, after), field: '/instructions' }));
  const identity = changed.filter((p) => p !== '/instructions');
  const others = identity.filter((p) => p !== '/serverInfo/version');
  if (others.length > 0) found.push(pinFinding('server_changed', `the server changed since pinned: ${identity.join(', ')}`, { evidence: movedEvidence(identity, before, after), field: identity.join(',') }));
  else if (identity.length > 0) found.push(pinFinding('server_version_changed', 'only the server\'s version changed since pinned', { evidence: movedEvidence(identity, before, after), field: '/serverInfo/version' }));
  return found;
}
