import { sha256Hex } from '../../contract/index.ts';
import type { Event, ReadRecorded, VerifyFailure } from '../../ledger/index.ts';
import { failAt } from '../../ledger/index.ts';
import { discoverSkills, load, methodText, skillResults, type StagedPackage } from '../../skill/index.ts';
import { effectiveInput } from '../recorded-call.ts';
import { eventAt } from '../record-checks.ts';
import { toolModeStart, type SkillPackageRecord } from './package-record.ts';
import { hostNote } from './skill-tool.ts';

const HEADER = /^<method package="([^"]*)" version="([^"]*)" hash="([0-9a-f]{64})" stage="([^"]*)">\n/;

/** The embedded package of this build with the recorded name and hash, parsed against the recorded stages; undefined when this build has none that hashes the same. */
function embeddedPackage(record: SkillPackageRecord): StagedPackage | undefined {
  if (record.origin.kind !== 'embedded' || record.kind !== 'staged') return undefined;
  const found = discoverSkills({ embedded: true, dirs: [], stages: record.stages ?? [] });
  const pkg = found.ok ? found.value.packages.find((p) => p.name === record.name) : undefined;
  return pkg?.kind === 'staged' && pkg.hash === record.hash ? pkg : undefined;
}

/** The `args` a Skill call was given (its effective input), when it has them. */
function argsOf(call: Event<'call'> | undefined): string | undefined {
  const input = call ? effectiveInput(call.arguments) : undefined;
  const args = typeof input === 'object' && input !== null ? (input as { args?: unknown }).args : undefined;
  return typeof args === 'string' ? args : undefined;
}

/**
 * What is wrong with one Skill result's text blocks against the package's
 * recorded identity, if anything. A plain package: the first block is the
 * body whose sha256 run_start records. A staged one: the first block's
 * header names its recorded name, version and hash and one of its stages,
 * and the second is the host block for that stage, its later stages and the
 * call's args. For an embedded package this build holds under the same hash,
 * the first block is recomputed whole (`methodText(load(package, stage))`);
 * a staged package of a folder is not in the run dir, so beyond its header
 * its text is not recomputable.
 */
export function skillTextProblem(record: SkillPackageRecord, texts: readonly string[], args: string | undefined, embedded: () => StagedPackage | undefined): string | undefined {
  const echoed = args !== undefined ? { args } : {};
  if (texts.length !== 2) return `holds ${texts.length} text blocks; a Skill result is the package's text, then the host block`;
  if (record.kind === 'plain') {
    if (sha256Hex(new TextEncoder().encode(texts[0]!)) !== record.body_sha256) return `its text is not ${record.name}'s SKILL.md body (run_start records its sha256 ${record.body_sha256})`;
    return texts[1] === hostNote({ skill: record.name, later_stages: [], ...echoed }) ? undefined : 'its host block is not the one for a plain package and its args';
  }
  const header = HEADER.exec(texts[0]!);
  const stages = record.stages ?? [];
  if (!header || header[1] !== record.name || header[2] !== record.version || header[3] !== record.hash) return `its text does not open as ${record.name} ${record.version ?? ''} with hash ${record.hash} (run_start's identity)`;
  const stage = header[4]!;
  if (!stages.includes(stage)) return `its text names stage ${JSON.stringify(stage)}, not one of ${JSON.stringify(stages)}`;
  if (texts[1] !== hostNote({ skill: record.name, stage, later_stages: stages.slice(stages.indexOf(stage) + 1), ...echoed })) return `its host block is not the one for stage ${stage}, the stages after it and its args`;
  const pkg = embedded();
  if (pkg && texts[0] !== methodText(load({ package: pkg, tools: [] }, stage))) return `its text is not stage ${stage} of the embedded ${record.name} (hash ${record.hash}), as this build recomputes it`;
  return undefined;
}

/**
 * Tool mode's Skill results, re-checked from the record (format 10): each
 * non-error result answering a Skill use, the first time a request payload
 * holds it, against the identity run_start (or a nested find) records of the
 * package it names (`skillTextProblem`): `evidence/result_mismatch` naming
 * the request. Which stage the host decided is not re-derived here (the
 * task's stage rule runs over the pipeline's records, not the ledger's).
 */
export function checkSkillTexts(events: readonly Event[], readFile: ReadRecorded): VerifyFailure | undefined {
  const start = events.find((e) => e.type === 'run_start');
  const packages = start ? toolModeStart(start).skill_packages : undefined;
  if (packages === undefined) return undefined;
  const records = new Map<string, SkillPackageRecord>(packages.map((p) => [p.name, p]));
  const calls = new Map(events.flatMap((e) => (e.type === 'call' ? [[e.tool_call_id, e] as const] : [])));
  const seen = new Set<string>();
  const embedded = new Map<string, StagedPackage | undefined>();
  for (const event of events) {
    if (event.type === 'skill_visible' && event.package) records.set(event.name, event.package);
    if (event.type === 'skill_found') for (const held of event.held) records.set(held.name, held);
    if (event.type !== 'request') continue;
    const ref = event.files.find((f) => f.role === 'request_payload');
    const bytes = ref ? readFile(ref.path) : undefined;
    if (!bytes?.ok) continue;
    for (const [name, record] of records) {
      const results = skillResults(bytes.value, name);
      for (const result of results.ok ? results.value : []) {
        if (seen.has(result.toolUseId)) continue;
        seen.add(result.toolUseId);
        const once = () => (embedded.has(name) ? embedded.get(name) : embedded.set(name, embeddedPackage(record)).get(name));
        const problem = skillTextProblem(record, result.texts, argsOf(calls.get(result.toolUseId)), once);
        if (problem) return failAt('result_mismatch', `request ${event.request_id}: the Skill result answering ${result.toolUseId} (${name}) ${problem}`, eventAt(event));
      }
    }
  }
  return undefined;
}
