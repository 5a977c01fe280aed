/**
 * Hooks: in-process functions and command hooks speaking Claude Code's hook
 * protocol, selected by Claude Code matchers and run by one engine
 * (`runHookEvent`). See matcher.ts, protocol.ts and run.ts for the exact rules.
 */
export { compileMatcher, matches } from './matcher.ts';
export type { ToolNameTest } from './matcher.ts';
export { interpretHook } from './protocol.ts';
export type { Finished } from './protocol.ts';
export { bunSpawnHook, commandHook, DEFAULT_HOOK_TIMEOUT_SEC } from './command-hook.ts';
export type { CommandHookOptions, CommandHookSpec, HookProcess, SpawnHook } from './command-hook.ts';
export { FALLBACK_PATH, HOOK_ENV_ALLOWLIST, hookEnv } from './env.ts';
export type { EnvSource } from './env.ts';
export { inProcessHook } from './in-process.ts';
export type { InProcessAnswer } from './in-process.ts';
export { runHookEvent } from './run.ts';
export type { HookVerdict } from './run.ts';
export { captureBounded, TRUNCATION_MARK } from './capture.ts';
export type { Captured } from './capture.ts';
