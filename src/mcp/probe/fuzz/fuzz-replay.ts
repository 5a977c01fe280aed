/**
 * `probe --fuzz-replay FILE`: each fuzz finding of an earlier `--json`
 * report re-sent once, its arguments whole as the report kept them, each in
 * a session of its own (a set that crashes the server ends only its own),
 * judged as `--fuzz` judged it (Ajv's verdict against today's inputSchema):
 * reproduced when the same kind is found again.
 */
import { versionProfile } from '../../client/index.ts';
import { classifySets } from './classify.ts';
import { judgeFuzzCall, type FuzzSet } from './fuzz-judge.ts';
import { asCall, type FuzzListing, type FuzzStart } from './fuzz-run.ts';

/** One fuzz finding as the report holds it. */
export interface ReplayItem {
  readonly tool: string;
  readonly kind: string;
  readonly seed: number;
  readonly index: number;
  /** What is sent as `arguments`: usually an object; a set of the wrong type at the top is not. */
  readonly arguments: unknown;
}

/** What re-sending it found: the kinds now, and whether the one reported is among them. */
export interface ReplayResult extends ReplayItem {
  readonly reproduced: boolean;
  readonly found: readonly string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether today's inputSchema takes the arguments (a tool no longer listed, or without a validator: taken as invalid). */
function validNow(item: ReplayItem, listing: FuzzListing): boolean {
  const entry = listing.entries.find((e) => isObject(e) && e['name'] === item.tool);
  const schema = isObject(entry) ? entry['inputSchema'] : undefined;
  const profile = versionProfile(listing.protocolVersion);
  if (!isObject(schema) || !profile) return false;
  const classified = classifySets(item.tool, schema, [item.arguments], profile);
  return 'sets' in classified && classified.sets[0]!.valid;
}

/** Re-sends each item once, in order; `signal` aborted: the rest are not sent (and not listed). */
export async function replayFuzz(items: readonly ReplayItem[], listing: FuzzListing, start: FuzzStart, signal?: AbortSignal): Promise<ReplayResult[]> {
  const results: ReplayResult[] = [];
  for (const item of items) {
    if (signal?.aborted) break;
    const set: FuzzSet = { tool: item.tool, index: item.index, arguments: item.arguments, valid: validNow(item, listing) };
    const session = await start([asCall(item.tool, item.arguments)], () => true);
    const call = session.calls[0];
    const found = call === undefined || call.outcome === 'not_sent' ? (session.failure ? [session.failure.kind] : []) : judgeFuzzCall(set, item.seed, call, call.outcome === 'unknown' ? undefined : session.failure).map((f) => f.kind);
    results.push({ ...item, reproduced: found.includes(item.kind), found });
  }
  return results;
}
