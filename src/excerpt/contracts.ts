import * as v from 'valibot';
import { codePoints, kindMessage, type Contract } from '../contract/index.ts';
import { SOURCE_IDS } from './sources.ts';

/** Quote bounds, in Unicode code points (inclusive). */
export const QUOTE_MIN = 8;
export const QUOTE_MAX = 160;

const sourceId = v.picklist(SOURCE_IDS, kindMessage('unknown_source', `must be one of ${SOURCE_IDS.join(', ')}`));
const sha256 = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));

const ReadSourceInput = v.strictObject({ source_id: sourceId });
export const ReadSourceResult = v.strictObject({
  source_id: sourceId,
  text: v.string(),
  sha256,
  bytes: v.pipe(v.number(), v.integer(), v.minValue(0)),
  snapshot: v.string(),
});
export type ReadSourceResult = v.InferOutput<typeof ReadSourceResult>;

export const Excerpt = v.strictObject({
  source_id: sourceId,
  quote: v.pipe(v.string(), codePoints(QUOTE_MIN, QUOTE_MAX, 'quote_length')),
});
export const CreateCardInput = v.strictObject({
  excerpts: v.pipe(
    v.array(Excerpt),
    v.length(SOURCE_IDS.length, kindMessage('excerpt_count', `exactly one excerpt per source (${SOURCE_IDS.length})`)),
  ),
});
export type CreateCardInput = v.InferOutput<typeof CreateCardInput>;

export const CardReceipt = v.strictObject({
  action_id: v.string(),
  path: v.string(),
  sha256,
  bytes: v.pipe(v.number(), v.integer(), v.minValue(0)),
  sources: v.array(v.strictObject({ source_id: sourceId, sha256 })),
});
export type CardReceipt = v.InferOutput<typeof CardReceipt>;

/** `read_source`: returns one source from the startup snapshot. */
export const readSourceContract = {
  name: 'read_source',
  version: '1.0.0',
  discovery: 'Read one fixed source document from the startup snapshot (read-only).',
  description:
    'Returns the full text of one fixed source document as captured in the startup snapshot, ' +
    'with its sha256, byte length and snapshot id. The text never changes during a run.',
  input: ReadSourceInput,
  result: ReadSourceResult,
  effect: 'read',
  readOnly: true,
  destructive: false,
  idempotent: true,
  concurrencySafe: true,
  openWorld: false,
  identity: 'host process; no credential',
  preconditions: [],
  limits: { timeoutMs: 10_000, maxResultBytes: 64 * 1024 },
  completionEvidence: 'bytes observed now: text equal to the startup snapshot (host-computed sha256)',
  errorClasses: ['invalid_arguments', 'permission_denied', 'business', 'protocol', 'evidence', 'timeout', 'closed'],
} as const satisfies Contract;

/** `create_card`: creates one new excerpt card at a path the program fixes. */
export const createCardContract = {
  name: 'create_card',
  version: '1.0.0',
  discovery: 'Create the excerpt card from one verbatim quote per source (creates a new file; never overwrites).',
  description:
    `Creates the excerpt card. Give exactly one excerpt per source, in the order ${SOURCE_IDS.join(', ')}; ` +
    `each quote must be a verbatim substring of that source, ${QUOTE_MIN}–${QUOTE_MAX} Unicode code points. ` +
    'The sources must have been read in an earlier turn: their text must be in the request that proposes the card. ' +
    'The path and layout are fixed by the program. Returns a creation receipt.',
  input: CreateCardInput,
  result: CardReceipt,
  effect: 'create',
  readOnly: false,
  destructive: false,
  idempotent: false,
  concurrencySafe: false,
  openWorld: false,
  identity: 'host process; writes only inside the run directory',
  preconditions: ['sources_disclosed', 'target_fresh'],
  limits: { timeoutMs: 10_000, maxResultBytes: 16 * 1024 },
  completionEvidence: 'object created: receipt with the card path and the sha256 of its bytes, re-checked on disk',
  errorClasses: ['invalid_arguments', 'precondition', 'permission_denied', 'business', 'timeout'],
} as const satisfies Contract;
