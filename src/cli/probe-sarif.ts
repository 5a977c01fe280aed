/**
 * `probe --sarif FILE`: SARIF 2.1.0, one run of `caplab probe`. Its driver
 * has one rule per kind of PROBE_RULES (class and basis as properties, the
 * default level as `defaultConfiguration.level`); each finding of each
 * server is a result with its level, message, the logical location
 * `server/tool`, the `.mcp.json` as physical location when the server came
 * from one, and `partialFingerprints` from server, tool, kind and field only
 * (nothing timed), so they are equal across runs.
 */
import { sha256Hex } from '../contract/index.ts';
import { allFindings, basesOf, isClipped, PROBE_RULES, type ProbeFinding, type ProbeReport } from '../mcp/index.ts';
import { CAPLAB_VERSION } from '../version.ts';

/** One probed server as the reports see it: its name (config key, `--name`, or serverInfo), report and where it was configured. */
export interface ReportedServerRun {
  readonly name: string;
  readonly report: Pick<ProbeReport, 'findings' | 'calls' | 'failure'>;
  /** The `.mcp.json` it came from, as an absolute path. */
  readonly config?: string;
}

const RULE_IDS = Object.keys(PROBE_RULES);

/** A tool's name as a location: a clipped one by its head. */
export const toolName = (tool: ProbeFinding['tool']): string | undefined => (tool === undefined ? undefined : isClipped(tool) ? tool.head : tool);

/** The fingerprint of a finding: what it is about, never when or how long. */
export const fingerprint = (server: string, f: ProbeFinding): string => sha256Hex(JSON.stringify([server, toolName(f.tool) ?? '', f.kind, f.field ?? '']));

function result(run: ReportedServerRun, f: ProbeFinding): Record<string, unknown> {
  const tool = toolName(f.tool);
  const ruleIndex = RULE_IDS.indexOf(f.kind);
  const logical = { fullyQualifiedName: tool === undefined ? run.name : `${run.name}/${tool}`, name: tool ?? run.name, kind: tool === undefined ? 'module' : 'function' };
  const physical = run.config !== undefined ? { physicalLocation: { artifactLocation: { uri: new URL(`file://${run.config}`).href } } } : {};
  return {
    ruleId: f.kind,
    ...(ruleIndex >= 0 ? { ruleIndex } : {}),
    level: f.level ?? 'error',
    message: { text: f.evidence === f.message ? f.message : `${f.message} — ${f.evidence}` },
    locations: [{ ...physical, logicalLocations: [logical] }],
    partialFingerprints: { 'caplabFinding/v1': fingerprint(run.name, f) },
    properties: { class: f.class, basis: f.basis, server: run.name, ...(f.field ? { field: f.field } : {}) },
  };
}

/** The SARIF log of one or more probed servers (`--all`: every one, in order). */
export function probeSarif(runs: readonly ReportedServerRun[]): string {
  const rules = Object.entries(PROBE_RULES).map(([id, rule]) => ({
    id,
    shortDescription: { text: rule.help },
    defaultConfiguration: { level: rule.level },
    properties: { class: rule.class, basis: basesOf(rule) },
  }));
  const results = runs.flatMap((run) => allFindings(run.report).map((f) => result(run, f)));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'caplab probe', version: CAPLAB_VERSION, informationUri: 'https://github.com/caplab/caplab', rules } }, results }],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
