import type { CallEvent, Event, ReadRecorded, VerifyFailure } from '../ledger/index.ts';
import { failAt } from '../ledger/index.ts';
import { canonicalOf, eventAt, parseJson } from './record-checks.ts';

const mismatch = (call: CallEvent, message: string): VerifyFailure => failAt('result_mismatch', `call ${call.tool_call_id}: ${message}`, eventAt(call));

/**
 * The result files of a record (format 6: `call_result`) against their calls:
 * only a successful call has one, at most one, whose bytes are canonical JSON
 * and whose sha256 is the outcome's `data_sha256`. A task that keeps results
 * (`keeps`) has one for every successful call. A forged file, or a
 * `data_sha256` rewritten to another file, is `result_mismatch` here; a
 * consistent forgery of both is the task's recheck to catch (the checks it
 * re-computes from the file).
 */
export function checkResultFiles(events: readonly Event[], readFile: ReadRecorded, keeps: boolean): VerifyFailure | undefined {
  for (const call of events) {
    if (call.type !== 'call') continue;
    const results = (call.files ?? []).filter((file) => file.role === 'call_result');
    if (results.length === 0) {
      if (keeps && call.outcome.ok) return mismatch(call, 'succeeded, but no result file (call_result) keeps its data');
      continue;
    }
    if (!call.outcome.ok) return mismatch(call, 'failed, yet references a result file');
    if (results.length > 1) return mismatch(call, `references ${results.length} result files`);
    const file = results[0]!;
    if (file.sha256 !== call.outcome.data_sha256) return mismatch(call, `${file.path} is not the data its outcome hashes (data_sha256)`);
    // verify has checked the bytes against the reference's sha256.
    const bytes = readFile(file.path);
    if (!bytes.ok) return failAt(bytes.kind, bytes.message, eventAt(call));
    const value = parseJson(bytes.value);
    if (value === undefined || canonicalOf(value) !== new TextDecoder().decode(bytes.value)) {
      return mismatch(call, `${file.path} is not canonical JSON`);
    }
  }
  return undefined;
}
