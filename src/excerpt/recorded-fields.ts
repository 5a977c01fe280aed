import * as v from 'valibot';
import { canonicalJson } from '../contract/index.ts';
import { AGENT_TOOL, agentIdOf, canonicalOf, eventAt, isVerifyFailure, shapedEvent, type RecordedRun } from '../harness/index.ts';
import { failAt, type VerifyFailure } from '../ledger/index.ts';
import { disclosedSources, sourceReads, type ReadCall } from './disclosure.ts';
import { SNAPSHOT_ROLE, snapshotIdOf } from './snapshot-files.ts';
import { takeSnapshot, type Snapshot } from './snapshot.ts';

// The fields of the events these checks read, checked before any is used.
const StartShape = v.looseObject({ snapshot: v.looseObject({ id: v.string(), sources: v.array(v.unknown()) }) });
const RequestShape = v.looseObject({ request_id: v.string(), disclosed_sources: v.array(v.string()) });

/**
 * The snapshot rebuilt from the source files run_start vouches for: its id
 * and its list of sources (id, sha256, bytes) must be what run_start records.
 */
export function recordedSnapshot(run: RecordedRun): Snapshot | VerifyFailure {
  const start = shapedEvent(StartShape, run.start);
  if (isVerifyFailure(start)) return start;
  const files: { id: string; bytes: Uint8Array }[] = [];
  for (const file of (run.start.files ?? []).filter((f) => f.role === SNAPSHOT_ROLE)) {
    const bytes = run.readFile(file.path);
    if (!bytes.ok) return failAt(bytes.kind, bytes.message, eventAt(run.start));
    files.push({ id: snapshotIdOf(file.path), bytes: bytes.value });
  }
  let snapshot: Snapshot;
  try {
    snapshot = takeSnapshot(files);
  } catch {
    return failAt('snapshot_mismatch', 'a recorded snapshot file is not UTF-8 text', eventAt(run.start));
  }
  if (snapshot.id !== start.snapshot.id) {
    return failAt('snapshot_mismatch', `snapshot files hash to ${snapshot.id}, run_start recorded ${start.snapshot.id}`, eventAt(run.start));
  }
  const claims = snapshot.sources.map((s) => ({ id: s.id, sha256: s.sha256, bytes: s.byteLength }));
  if (canonicalOf(claims) !== canonicalOf(start.snapshot.sources)) {
    return failAt('snapshot_mismatch', 'run_start\'s list of sources (id, sha256, bytes) is not what the snapshot files are', eventAt(run.start));
  }
  return snapshot;
}

/**
 * Every request's `disclosed_sources` must be what disclosure re-computes
 * from its payload and the calls its own loop recorded before it (a
 * subagent's requests: its own calls; the run's: its own, an Agent call
 * carrying what its subagent's requests recorded as disclosed).
 */
export function checkDisclosures(run: RecordedRun, snapshot: Snapshot): VerifyFailure | undefined {
  const calls = new Map<unknown, RecordedRun['calls'][number]>(run.calls.map((call) => [call, call]));
  const before = new Map<string, ReadCall[]>();
  const byAgent = new Map<string, Set<string>>();
  for (const event of run.events) {
    const level = typeof event['agent_id'] === 'string' ? event['agent_id'] : '';
    const call = event.type === 'call' ? calls.get(event) : undefined;
    if (call) {
      const delegated = call.via === 'host' && call.name === AGENT_TOOL ? { delegated: snapshot.sources.filter((s) => byAgent.get(agentIdOf(call.action_id))?.has(s.id)).map((s) => s.id) } : {};
      before.set(level, [...(before.get(level) ?? []), { toolCallId: call.tool_call_id, name: call.name, arguments: call.arguments, ok: call.outcome.ok, ...delegated }]);
    }
    if (event.type !== 'request') continue;
    const request = shapedEvent(RequestShape, event);
    if (isVerifyFailure(request)) return request;
    const ref = event.files?.find((f) => f.role === 'request_payload');
    const bytes = ref ? run.readFile(ref.path) : undefined;
    // The harness already refused a request whose payload is missing (result_mismatch).
    if (!bytes?.ok) return failAt('disclosure_mismatch', `request ${request.request_id} has no readable payload file`, eventAt(event));
    const recomputed = disclosedSources(bytes.value, snapshot, sourceReads(before.get(level) ?? []));
    if (canonicalJson(recomputed) !== canonicalJson(request.disclosed_sources)) {
      return failAt('disclosure_mismatch', `request ${request.request_id} records disclosed [${request.disclosed_sources.join(', ')}], its payload and the calls before it disclose [${recomputed.join(', ')}]`, eventAt(event));
    }
    if (level !== '') byAgent.set(level, new Set([...(byAgent.get(level) ?? []), ...recomputed]));
  }
  return undefined;
}
