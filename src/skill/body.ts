import { fail, ok, type Outcome } from '../contract/index.ts';
import type { MethodStage } from './types.ts';

/**
 * The SKILL.md body: a shared preamble (loaded with every stage) followed by
 * one section per stage, each starting with a line `## Stage: <stage>` and
 * running to the next such line or the end. The texts are exact slices of the
 * file, so what is loaded is what the package hash covers.
 *
 * Why sections rather than one file per stage: Agent Skills readers load the
 * body on activation; keeping every stage in it leaves the package readable
 * by them, while caplab still sends only the current stage's section.
 */
const HEADING = /^## Stage: (.*)$/gm;

/**
 * Splits a body into per-stage instructions (preamble + that stage's section).
 * Every stage of `stages` must have exactly one section; an unknown stage is refused.
 */
export function stageInstructions(body: string, stages: readonly MethodStage[]): Outcome<Readonly<Record<MethodStage, string>>> {
  const headings = [...body.matchAll(HEADING)];
  const preamble = body.slice(0, headings[0]?.index ?? body.length);
  const sections = new Map<MethodStage, string>();
  for (const [i, heading] of headings.entries()) {
    const name = heading[1]!.trim();
    if (!stages.includes(name)) {
      return fail('invalid_arguments', 'bad_package', `field \`body\`: unknown stage '${name}' in "${heading[0]}" (stages: ${stages.join(', ')})`);
    }
    const stage = name as MethodStage;
    if (sections.has(stage)) return fail('invalid_arguments', 'bad_package', `field \`body\`: stage '${stage}' has two sections`);
    sections.set(stage, body.slice(heading.index, headings[i + 1]?.index ?? body.length));
  }
  const out = {} as Record<MethodStage, string>;
  for (const stage of stages) {
    const section = sections.get(stage);
    if (section === undefined) {
      return fail('invalid_arguments', 'bad_package', `field \`body\`: no "## Stage: ${stage}" section`);
    }
    out[stage] = `${preamble}${section}`;
  }
  return ok(out);
}
