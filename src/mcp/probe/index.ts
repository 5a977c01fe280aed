/**
 * The prober: any MCP server (stdio; Streamable HTTP once its transport is wired into `probeTarget`) checked under the general profile, each
 * finding with class, kind, tool, evidence and basis, everything it reports
 * bounded and clipped. It uses the client's handshake checks and the wire;
 * `probe` loads on first use, and ajv with it. `listedValidator` (a listed
 * tool's schema as a contract schema, compiled as probe compiles it) is a
 * lazy unit of its own that loads ajv too; nothing else here does.
 */
import type { ListedValidator } from './listed-schema.ts';
import type { Which } from './probe-schema.ts';
import type { VersionProfile } from '../client/index.ts';
import type { ProbeOptions, ProbeReport, ProbeTarget, StdioProbeReport } from './probe.ts';
import type { FuzzListing, FuzzPlan, FuzzSection, FuzzStart } from './fuzz/fuzz-run.ts';
import type { ReplayItem, ReplayResult } from './fuzz/fuzz-replay.ts';

export type { CallRequest, ProbedCall } from './probe-calls.ts';
export { PROBE_ENV_ALLOW, probeEnv } from './probe-env.ts';
export type { ListedValidator } from './listed-schema.ts';
export type { ProbeFinding } from './probe-finding.ts';
export { atLeast, basesOf, LEVELS, PIN_KINDS, PROBE_RULES } from './probe-rules.ts';
export type { Level, ProbeRule } from './probe-rules.ts';
export { allFindings, levelOf, parseLevelOverride, reachesFailOn, withLevels } from './probe-levels.ts';
export type { LevelOverrides } from './probe-levels.ts';
export type { ReportedCall, ReportedServer, ReportedTool } from './probe-report.ts';
export type { ProbedTool } from './probe-tools.ts';
// The version table is the client's (probe and the host session read one table); probe's names for it stay.
export { OFFERED_VERSION as PROBE_OFFERED, READ_VERSIONS as PROBE_VERSIONS } from '../client/index.ts';
export { MODERN_VERSION as PROBE_MODERN } from './probe-protocols.ts';
export type { ProtocolChoice } from './probe-protocols.ts';
export type { Negotiation } from './probe-open.ts';
// One definition, in contract (a strict-client failure carries it too); probe's findings reuse it.
export type { Basis } from '../../contract/index.ts';
export type { ProbeWire } from './probe.ts';
export { comparePins, shortDiff } from './pins/pin-compare.ts';
export { pinEntry, pinServer, pinTool } from './pins/pin-hash.ts';
export type { PinEntry, ServerPin, ServerWire, ToolPin } from './pins/pin-hash.ts';
export { EMPTY_PINS, PINS_FORMAT, pinsText, readPins } from './pins/pin-file.ts';
export type { PinFile } from './pins/pin-file.ts';
export type { HttpReached, ProbeFindings, ProbeOptions, ProbeReport, ProbeTarget, ProbeTimeouts, StdioProbeReport, StdioReached } from './probe.ts';
export { isClipped } from './report-value.ts';
export type { FuzzedTool, FuzzListing, FuzzPlan, FuzzSection, FuzzSession, FuzzStart } from './fuzz/fuzz-run.ts';
export type { FuzzFinding, FuzzSet } from './fuzz/fuzz-judge.ts';
export { FUZZ_ENDED_KIND, FUZZ_UNKNOWN_KINDS } from './fuzz/fuzz-judge.ts';
export type { ReplayItem, ReplayResult } from './fuzz/fuzz-replay.ts';
export type { Bounded, Clipped } from './report-value.ts';

/** Probes any stdio MCP server (see probe.ts); loads it, and ajv with it, on first use. */
export async function probe(command: readonly string[], options: ProbeOptions = {}): Promise<StdioProbeReport> {
  return (await import('./probe.ts')).probe(command, options);
}

/** Probes what `target` names: a stdio command, or an HTTP server (see `probeTarget` in probe.ts); loads it on first use. */
export async function probeTarget(target: ProbeTarget, options: ProbeOptions = {}): Promise<ProbeReport> {
  return (await import('./probe.ts')).probeTarget(target, options);
}

/**
 * A listed tool's inputSchema or outputSchema as a contract schema: its Ajv
 * validator, or findings saying why there is none (see listed-schema.ts).
 * Loads that unit, and ajv with it, on first use.
 */
export async function listedValidator(schema: object, which: Which, tool: string, profile: VersionProfile): Promise<ListedValidator> {
  return (await import('./listed-schema.ts')).listedValidator(schema, which, tool, profile);
}

/** `listedValidator` itself, once its unit (and ajv) loaded: for a caller compiling a whole listing without awaiting each schema. */
export async function loadListedValidator(): Promise<typeof import('./listed-schema.ts').listedValidator> {
  return (await import('./listed-schema.ts')).listedValidator;
}

/** `probe --fuzz`: the plan's sets sent over fresh sessions (see fuzz/fuzz-run.ts); loads it, and ajv with it, on first use. */
export async function runFuzz(plan: FuzzPlan, listing: FuzzListing, start: FuzzStart, signal?: AbortSignal): Promise<FuzzSection> {
  return (await import('./fuzz/fuzz-run.ts')).runFuzz(plan, listing, start, signal);
}

/** `probe --fuzz-replay`: each reported fuzz finding re-sent once (see fuzz/fuzz-replay.ts); loads it on first use. */
export async function replayFuzz(items: readonly ReplayItem[], listing: FuzzListing, start: FuzzStart, signal?: AbortSignal): Promise<ReplayResult[]> {
  return (await import('./fuzz/fuzz-replay.ts')).replayFuzz(items, listing, start, signal);
}
