import type { Package } from './types.ts';

/** The tools a model may call in a request, and what a package's `allowed-tools` asked for in vain. */
export interface CallableTools {
  /** Bound tools the permission decision allows, in binding order. */
  readonly callable: readonly string[];
  /**
   * `allowed-tools` entries of the package that are not callable. Reported,
   * never acted on: in Claude Code `allowed-tools` pre-approves tools while a
   * skill is active; in caplab a method package grants nothing (SPEC F-SKILL).
   */
  readonly notGranted: readonly string[];
}

/**
 * Computes the callable tool set from bindings and permissions only.
 *
 * The package parameter only feeds `notGranted` (what the package asked for
 * in vain); it never enters the computation of `callable`, so no package
 * text can widen (or narrow) it.
 *
 * @param bound Model-visible names of the tools bound for this request.
 * @param permits The permission decision (rules deny > ask > allow, flags, policy) for a tool name.
 * @param pkg The adopted package, if any.
 */
export function callableTools(
  bound: readonly string[],
  permits: (tool: string) => boolean,
  pkg?: Pick<Package, 'allowedTools'>,
): CallableTools {
  const callable = [...new Set(bound)].filter((tool) => permits(tool));
  const notGranted = (pkg?.allowedTools ?? []).filter((tool) => !callable.includes(tool));
  return Object.freeze({ callable: Object.freeze(callable), notGranted: Object.freeze(notGranted) });
}
