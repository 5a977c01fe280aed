import { failAt, ledgerKeys, type Event, type RecordFormat, type TaskFieldsEvent, type VerifyFailure } from '../ledger/index.ts';
import { eventAt } from './record-checks.ts';
import type { TaskRecheck } from './task.ts';

const OPEN_TYPES: readonly TaskFieldsEvent[] = ['run_start', 'request', 'acceptance'];

/**
 * Where an event open to a task's own fields carries a key that neither the
 * ledger (in the record's format) nor the task (`Task.fields`) names: the
 * first such key as `bad_event`, else undefined. Without it a forged field
 * would ride along in a verified record, read by no check.
 */
export function checkTaskFields(task: TaskRecheck, events: readonly Event[], format: RecordFormat): VerifyFailure | undefined {
  for (const event of events) {
    const type = OPEN_TYPES.find((t) => t === event.type);
    if (type === undefined) continue;
    const ledger = ledgerKeys(type, format);
    if (ledger === undefined) continue;
    const named = new Set([...ledger, ...(task.fields?.[type] ?? [])]);
    const extra = Object.keys(event).find((key) => !named.has(key));
    if (extra !== undefined) {
      return failAt('bad_event', `line ${event.seq + 1}: ${type} has a field ${JSON.stringify(extra)} that neither the ledger (${format}) nor task ${JSON.stringify(task.id)} names`, eventAt(event));
    }
  }
  return undefined;
}
