/** The part of a valibot issue that names where it is (structural, so this folder needs no valibot). */
export interface PathedIssue {
  readonly path?: readonly { readonly key: unknown }[] | undefined;
}

/**
 * Where a validation issue is, as a dot path (`hooks.PreToolUse.0.matcher`),
 * or undefined for an issue about the whole value. Every caller words the
 * issue its own way; this is the one place the path is spelled.
 */
export function issuePath(issue: PathedIssue): string | undefined {
  return issue.path?.map((item) => String(item.key)).join('.');
}
