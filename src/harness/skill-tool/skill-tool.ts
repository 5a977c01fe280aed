import * as v from 'valibot';
import { codePoints, fail, LIMITS, ok, type Contract, type Failure, type Outcome } from '../../contract/index.ts';
import { textBlock, type CallContext, type ToolOutput } from '../../pipeline/index.ts';
import { load, methodText, SKILL_TOOL, type BoundPackage, type Package } from '../../skill/index.ts';
import type { Builtin } from '../host-tools.ts';
import { payloadCatalog } from './skills-block.ts';

/** Claude Code's Skill input, exactly: the skill's name, and optional arguments (recorded and echoed, never filled into the text). */
const SkillInput = v.strictObject({
  skill: v.pipe(v.string(), codePoints(1, LIMITS.skillArgsChars)),
  args: v.optional(v.pipe(v.string(), codePoints(0, LIMITS.skillArgsChars))),
});
type SkillInput = v.InferOutput<typeof SkillInput>;

/** What one Skill call gave, as data: the package, the stage delivered and those after it (a plain package: none), the args as given. */
export const SkillResult = v.strictObject({
  skill: v.string(),
  stage: v.optional(v.string()),
  later_stages: v.array(v.string()),
  args: v.optional(v.string()),
});
export type SkillResult = v.InferOutput<typeof SkillResult>;

export const skillContract = {
  name: SKILL_TOOL,
  version: '1.0.0',
  discovery: 'Load a skill this request lists under <skills>: its text for the current stage (read-only).',
  description:
    'Returns the text of a skill listed in this request\'s <skills> block. For a staged method, the text is that of the ' +
    'stage this request is in, which the host decides from the calls so far (not from the input); call Skill again once ' +
    'the stage moves on to get the next stage\'s text. For a plain skill, the text is its SKILL.md body. `args` is ' +
    'recorded and echoed; it changes nothing in the text. A skill grants no tool and no permission.',
  input: SkillInput,
  result: SkillResult,
  effect: 'read',
  readOnly: true,
  destructive: false,
  idempotent: true,
  concurrencySafe: true,
  openWorld: false,
  identity: 'the host; no credential',
  preconditions: ['the skill is listed in the producing request\'s <skills> block'],
  limits: { timeoutMs: 10_000, maxResultBytes: 4 * 1024 * 1024 },
  completionEvidence: 'bytes observed now: the producing request payload\'s <skills> block, and the package as discovered at start',
  errorClasses: ['invalid_arguments', 'permission_denied', 'precondition', 'timeout'],
} as const satisfies Contract;

/** What the Skill tool serves: every package name of every source, the catalogued ones bound, and the task's stages in order. */
export interface SkillSources {
  readonly known: readonly string[];
  readonly catalog: ReadonlyMap<string, BoundPackage<Package>>;
  readonly stages: readonly string[];
}

/**
 * Refused before anything loads: a name no source has is
 * `invalid_arguments/unknown_skill`, naming the catalog (a leading `/`, as
 * a user types a slash command, is hinted); a known package the producing
 * request's catalog does not list (read from its payload bytes) is
 * `precondition/skill_not_in_catalog`.
 */
export function checkSkill(sources: SkillSources, input: unknown, context: Pick<CallContext, 'request'>): Failure | undefined {
  const { skill } = input as SkillInput;
  const listed = payloadCatalog(context.request.payload);
  if (!sources.known.includes(skill)) {
    const hint = skill.startsWith('/') && sources.known.includes(skill.slice(1)) ? ` (a skill is named without the leading "/": ${JSON.stringify(skill.slice(1))})` : '';
    return fail('invalid_arguments', 'unknown_skill', `no skill named ${JSON.stringify(skill)}${hint}; this request's catalog lists: ${listed.join(', ') || 'none'}`);
  }
  if (!listed.includes(skill) || !sources.catalog.has(skill)) {
    return fail('precondition', 'skill_not_in_catalog', `skill ${JSON.stringify(skill)} is not in this request's catalog (it lists: ${listed.join(', ') || 'none'}); nothing was loaded`);
  }
  return undefined;
}

/** The host block after a package's text: what was delivered, what comes later, and the args as given. */
export function hostNote(result: SkillResult): string {
  const args = result.args !== undefined ? ` Args (recorded, not applied to the text): ${JSON.stringify(result.args)}.` : '';
  if (result.stage === undefined) return `[host] Skill ${result.skill}: its SKILL.md body, the same for every stage.${args}`;
  const later = result.later_stages.length > 0 ? ` Later stages: ${result.later_stages.join(', ')}; call Skill again when the stage moves on (a stage's text is given only by a Skill call made in that stage).` : ' It is the last stage.';
  return `[host] Skill ${result.skill}: stage ${result.stage} delivered.${later}${args}`;
}

/** A Skill call's answer: the package's text for the producing request's stage (`methodText(load(bound, stage))`), or a plain body verbatim, then the host block. */
export function skillAnswer(sources: SkillSources, input: unknown, context: Pick<CallContext, 'request'>): Outcome<ToolOutput> {
  const { skill, args } = input as SkillInput;
  const bound = sources.catalog.get(skill)!;
  const pkg = bound.package;
  const echoed = args !== undefined ? { args } : {};
  if (pkg.kind === 'plain') {
    const data: SkillResult = { skill, later_stages: [], ...echoed };
    return ok({ data, content: [textBlock(pkg.body.text), textBlock(hostNote(data))], evidence: `the SKILL.md body of ${skill} (sha256 ${pkg.body.sha256})` });
  }
  const stage = context.request.stage;
  if (stage === undefined || !sources.stages.includes(stage)) return fail('precondition', 'skill_not_in_catalog', `skill ${JSON.stringify(skill)} is staged, and request ${context.request.id} is in no stage of the task's method`);
  const data: SkillResult = { skill, stage, later_stages: sources.stages.slice(sources.stages.indexOf(stage) + 1), ...echoed };
  const staged = { package: pkg, tools: bound.tools };
  return ok({ data, content: [textBlock(methodText(load(staged, stage))), textBlock(hostNote(data))], evidence: `stage ${stage} of ${skill} (hash ${pkg.hash}) for request ${context.request.id}` });
}

/**
 * The host's Skill (Claude Code's `{ skill, args? }`), in tool mode only:
 * read-only, concurrency-safe; the text it returns is the package's own,
 * never altered, for the stage the host decided. What it serves is the
 * call's run's (`sourcesOf` its run dir: dynamic discovery adds to it).
 */
export function skillTool(sourcesOf: (runDir: string) => SkillSources): Builtin {
  return {
    contract: skillContract,
    version: '1.0.0',
    check: (input, context) => checkSkill(sourcesOf(context.runDir), input, context),
    handler: async (input, context) => skillAnswer(sourcesOf(context.runDir), input, context),
  };
}
