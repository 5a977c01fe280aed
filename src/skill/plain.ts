import type { Outcome } from '../contract/index.ts';
import { ok } from '../contract/index.ts';
import { payloadSystemTexts, type ToolAdoption } from './adoption.ts';
import { skillResults } from './skill-results.ts';
import type { PlainPackage } from './types.ts';

/**
 * The method record of a plain package (run_start's `method`, and in each
 * request's adoption): `plain: true` at the top, so a reader tells it from a
 * staged package's record without knowing the package, and its body by hash
 * and size — the only material a plain package has.
 */
export interface PlainRecord {
  readonly plain: true;
  readonly name: string;
  readonly body: { readonly sha256: string; readonly bytes: number };
}

/** One request's adoption of a plain package: the record, and whether the body is in the request, whole. */
export interface PlainAdoption extends PlainRecord {
  readonly body_present: boolean;
}

/** The record that names a plain package and its body. */
export function plainRecord(pkg: PlainPackage): PlainRecord {
  return { plain: true, name: pkg.name, body: { sha256: pkg.body.sha256, bytes: pkg.body.bytes } };
}

/**
 * A plain package's body as one text block for the payload's `system`
 * section, the same for every stage. The body appears verbatim, so
 * `plainAdoption` finds it.
 */
export function plainMethodText(pkg: PlainPackage): string {
  return [`<method package="${pkg.name}" plain="true" body-sha256="${pkg.body.sha256}">`, pkg.body.text, '</method>'].join('\n');
}

/**
 * Computes a request's adoption of a plain package from the exact request
 * bytes, by the same rule as a staged package's (`adoption`): the body is
 * present iff it occurs, whole and unaltered, in one string of `system`.
 */
export function plainAdoption(pkg: PlainPackage, payload: Uint8Array): Outcome<PlainAdoption> {
  const texts = payloadSystemTexts(payload);
  if (!texts.ok) return texts;
  return ok({ ...plainRecord(pkg), body_present: texts.value.some((text) => text.includes(pkg.body.text)) });
}

/**
 * A request's adoption of a plain package in tool mode: the body is present
 * iff it occurs whole in one string of a Skill result naming the package
 * (`skillResults`), never in `system` or any other tool's result.
 */
export function plainToolAdoption(pkg: PlainPackage, payload: Uint8Array): Outcome<ToolAdoption<PlainAdoption>> {
  const results = skillResults(payload, pkg.name);
  if (!results.ok) return results;
  const delivering = results.value.filter((r) => r.texts.some((t) => t.includes(pkg.body.text))).at(-1);
  return ok({ ...plainRecord(pkg), body_present: delivering !== undefined, via: 'skill_tool', ...(delivering ? { tool_use_id: delivering.toolUseId } : {}) });
}
