import type { CallRecord } from '../pipeline/index.ts';
import { SOURCE_IDS } from './sources.ts';

/** The excerpt method's stages, in order: a method package for this task covers each, and no other. */
export const STAGES = ['read', 'create', 'finish'] as const;
export type MethodStage = (typeof STAGES)[number];

/**
 * The stage of the next request, decided by the host from the calls it has
 * checked — never from the model's word: read until every source was read
 * successfully; then create; once a card was created, finish.
 */
export function stageOf(calls: readonly CallRecord[]): MethodStage {
  if (calls.some((c) => c.name === 'create_card' && c.outcome.ok)) return 'finish';
  const read = new Set(calls.filter((c) => c.name === 'read_source' && c.outcome.ok).map((c) => (c.outcome.ok ? (c.outcome.value.data as { source_id: string }).source_id : '')));
  return read.size >= SOURCE_IDS.length ? 'create' : 'read';
}
