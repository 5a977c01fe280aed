/**
 * The prober: any stdio MCP server checked under the general profile, each
 * finding with class, kind, tool, evidence and basis, everything it reports
 * bounded and clipped. It uses the client's handshake checks and the wire;
 * `probe` loads on first use, and ajv with it (only `caplab probe` loads ajv).
 */
import type { ProbeOptions, ProbeReport } from './probe.ts';

export type { CallRequest, ProbedCall } from './probe-calls.ts';
export { PROBE_ENV_ALLOW, probeEnv } from './probe-env.ts';
export type { ProbeFinding } from './probe-finding.ts';
export type { ReportedCall, ReportedServer, ReportedTool } from './probe-report.ts';
export type { ProbedTool } from './probe-tools.ts';
// The version table is the client's (probe and the host session read one table); probe's names for it stay.
export { OFFERED_VERSION as PROBE_OFFERED, READ_VERSIONS as PROBE_VERSIONS } from '../client/index.ts';
// One definition, in contract (a strict-client failure carries it too); probe's findings reuse it.
export type { Basis } from '../../contract/index.ts';
export type { ProbeOptions, ProbeReport, ProbeTimeouts } from './probe.ts';
export { isClipped } from './report-value.ts';
export type { Bounded, Clipped } from './report-value.ts';

/** Probes any stdio MCP server (see probe.ts); loads it, and ajv with it, on first use. */
export async function probe(command: readonly string[], options: ProbeOptions = {}): Promise<ProbeReport> {
  return (await import('./probe.ts')).probe(command, options);
}
