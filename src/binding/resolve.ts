import { fail, ok, type Outcome } from '../contract/index.ts';
import type { Binding } from './binding.ts';

/**
 * Resolves a tool call under the binding recorded in the request that
 * produced it (SPEC F-BIND) — never by looking the name up again. The current
 * registry is consulted only to refuse a call whose binding has changed since:
 * the model proposed it under the old contract, so it must not run under the
 * new one.
 *
 * @param pinned The bindings the producing request exposed, by tool name.
 * @param current The bindings registered now, by tool name.
 * @param toolName The name in the tool call.
 * @returns The pinned binding; `invalid_arguments`/`unknown_tool` if the request never exposed the name;
 *   `precondition`/`binding_changed` if the name is now unbound or bound differently.
 */
export function resolvePinned(
  pinned: Readonly<Record<string, Binding>>,
  current: Readonly<Record<string, Binding>>,
  toolName: string,
): Outcome<Binding> {
  // Own properties only: a tool named "constructor" must not resolve to Object.prototype's.
  const shown = Object.hasOwn(pinned, toolName) ? pinned[toolName] : undefined;
  if (shown === undefined) {
    return fail('invalid_arguments', 'unknown_tool', `${toolName}: not a tool of the request that produced this call`);
  }
  const now = Object.hasOwn(current, toolName) ? current[toolName] : undefined;
  if (now === undefined) {
    return fail('precondition', 'binding_changed', `${toolName}: no longer registered (was ${shown.id.slice(0, 12)})`, [shown.id]);
  }
  if (now.id !== shown.id) {
    return fail(
      'precondition',
      'binding_changed',
      `${toolName}: binding changed since the request (${shown.id.slice(0, 12)} → ${now.id.slice(0, 12)}); the call is not re-interpreted`,
      [shown.id, now.id],
    );
  }
  return ok(shown);
}
