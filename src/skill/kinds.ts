import type { KindTable } from '../contract/index.ts';

/** The failures skill raises: discovering, reading and binding method packages, and adopting a payload. */
export const SKILL_KINDS = {
  bad_skills_dir: { class: 'invalid_arguments', basis: null },
  duplicate_package: { class: 'invalid_arguments', basis: null },
  too_many_skills: { class: 'invalid_arguments', basis: null },
  untrusted_skill: { class: 'invalid_arguments', basis: null },
  bad_package: { class: 'invalid_arguments', basis: null },
  missing_resource: { class: 'invalid_arguments', basis: null },
  too_deep: { class: 'invalid_arguments', basis: null },
  too_large: { class: 'precondition', basis: null },
  hash_mismatch: { class: 'evidence', basis: null },
  bad_payload: { class: 'invalid_arguments', basis: null },
  tool_unbound: { class: 'precondition', basis: null },
  tool_version: { class: 'precondition', basis: null },
} as const satisfies KindTable;

declare module '../contract/index.ts' {
  interface FailureTables {
    readonly skill: typeof SKILL_KINDS;
  }
}
