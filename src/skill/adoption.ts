import { fail, ok, type Outcome } from '../contract/index.ts';
import { load } from './bind.ts';
import { skillResults } from './skill-results.ts';
import type { BoundPackage, LoadedStage, MethodStage } from './types.ts';

/**
 * The adoption record of one model request (seed 000 §5.7): which method, at
 * which version and stage, and which of its materials are actually in the
 * request — computed from the payload bytes, never from what the host meant
 * to send.
 */
export interface Adoption {
  readonly name: string;
  readonly version: string;
  readonly hash: string;
  readonly stage: MethodStage;
  readonly instructions_sha256: string;
  readonly instructions_present: boolean;
  /** Every resource of the package found in the payload (any stage's). */
  readonly resources_present: readonly { readonly path: string; readonly sha256: string }[];
  /** Resources this stage loads that are not in the payload. */
  readonly resources_missing: readonly { readonly path: string; readonly sha256: string }[];
  /** The stage's instructions and all its resources are present. */
  readonly adopted: boolean;
}

/**
 * The method section of a payload: the top-level `system` field, either a
 * string or an array of `{ type: "text", text }` blocks (provider shape).
 * Method material anywhere else (e.g. echoed inside a tool result) is data the
 * model received, not the method the host sent, so it does not count.
 */
function systemTexts(payload: unknown): string[] {
  const system = (payload as { system?: unknown } | null)?.system;
  if (typeof system === 'string') return [system];
  if (!Array.isArray(system)) return [];
  return system.flatMap((block) => {
    const b = block as { type?: unknown; text?: unknown } | null;
    return b?.type === 'text' && typeof b.text === 'string' ? [b.text] : [];
  });
}

/**
 * The strings of a payload's `system` section, read from the exact request
 * bytes: decoded as UTF-8 (fatal) and parsed as JSON, so escapes cannot hide
 * or fake a match.
 * @returns The strings, or `invalid_arguments`/`bad_payload` if the bytes are not UTF-8 JSON.
 */
export function payloadSystemTexts(payload: Uint8Array): Outcome<string[]> {
  try {
    return ok(systemTexts(JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(payload))));
  } catch (error) {
    return fail('invalid_arguments', 'bad_payload', `payload: not UTF-8 JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/**
 * Computes the adoption record from the exact request bytes.
 *
 * Rule: the bytes are decoded as UTF-8 (fatal) and parsed as JSON, so escapes
 * (`\n`, `\u4e2d`) cannot hide or fake a match. A piece of method material —
 * the stage's instructions, or a resource's full text — is present iff it
 * occurs, whole and unaltered, as a substring of ONE string of the payload's
 * `system` section. Pieces split across strings, trimmed or re-encoded do not
 * count. Resources are checked for the whole package, so a reference sent in
 * the wrong stage shows up too.
 *
 * @returns The record, or `invalid_arguments`/`bad_payload` if the bytes are not UTF-8 JSON.
 */
export function adoption(bound: BoundPackage, stage: MethodStage, payload: Uint8Array): Outcome<Adoption> {
  const texts = payloadSystemTexts(payload);
  return texts.ok ? ok(materialRecord(bound, stage, texts.value)) : texts;
}

/** The adoption record of a stage's material among some strings of a payload: each piece present iff whole in one of them. */
function materialRecord(bound: BoundPackage, stage: MethodStage, texts: readonly string[]): Adoption {
  const present = (text: string) => texts.some((t) => t.includes(text));
  const loaded = load(bound, stage);
  const pkg = bound.package;
  const instructionsPresent = present(loaded.instructions);
  const found = pkg.resources.filter((r) => present(r.text)).map(({ path, sha256 }) => ({ path, sha256 }));
  const missing = loaded.resources.filter((r) => !found.some((f) => f.path === r.path)).map(({ path, sha256 }) => ({ path, sha256 }));
  return {
    name: pkg.name,
    version: pkg.version,
    hash: pkg.hash,
    stage,
    instructions_sha256: loaded.instructionsSha256,
    instructions_present: instructionsPresent,
    resources_present: found,
    resources_missing: missing,
    adopted: instructionsPresent && missing.length === 0,
  };
}

/**
 * Renders a loaded stage as one text block for the payload's `system`
 * section. Each piece appears verbatim, so `adoption` finds it. Deterministic.
 *
 * @example
 * const system = [{ type: 'text', text: base }, { type: 'text', text: methodText(load(bound, 'read')) }];
 */
export function methodText(loaded: LoadedStage): string {
  const { name, version, hash } = loaded.package;
  const parts = [
    `<method package="${name}" version="${version}" hash="${hash}" stage="${loaded.stage}">`,
    loaded.instructions,
    ...loaded.resources.map((r) => `<reference path="${r.path}" sha256="${r.sha256}">\n${r.text}\n</reference>`),
    '</method>',
  ];
  return parts.join('\n');
}

/** A tool-mode adoption (`--skill-mode tool`): the direct record, and the Skill result its material came from. */
export type ToolAdoption<A> = A & {
  readonly via: 'skill_tool';
  /** The Skill tool_use whose result held the stage's instructions; absent when no Skill result delivered this stage. */
  readonly tool_use_id?: string;
};

/**
 * A request's adoption in tool mode, from the exact request bytes: the same
 * rule as `adoption`, but the strings searched are only those of the Skill
 * results naming this package (`skillResults`) — never `system`, user text
 * or another tool's result. A request in a stage no Skill result delivered
 * is `adopted: false`, its instructions absent and its resources missing.
 */
export function toolAdoption(bound: BoundPackage, stage: MethodStage, payload: Uint8Array): Outcome<ToolAdoption<Adoption>> {
  const results = skillResults(payload, bound.package.name);
  if (!results.ok) return results;
  const { instructions } = load(bound, stage);
  // The instructions are present iff some Skill result delivered them: the last such result is the one adopted.
  const delivering = results.value.filter((r) => r.texts.some((t) => t.includes(instructions))).at(-1);
  const record = materialRecord(bound, stage, results.value.flatMap((r) => r.texts));
  return ok({ ...record, via: 'skill_tool', ...(delivering ? { tool_use_id: delivering.toolUseId } : {}) });
}
