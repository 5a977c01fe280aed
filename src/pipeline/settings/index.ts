/**
 * Settings files (`--settings FILE`, `--trust-project`): the hooks and
 * permissions parts of Claude Code's settings.json, validated strictly.
 */
export { loadSettings, readSettingsFile } from './load.ts';
export type { LoadedSettings, ReadText, SettingsHook } from './load.ts';
export { NO_SETTINGS, PROJECT_SETTINGS, resolveSettings } from './resolve.ts';
export type { EffectiveSettings, ResolveOptions } from './resolve.ts';
export { hooksFromSettings } from './hooks-from-settings.ts';
export type { HooksFromSettingsOptions } from './hooks-from-settings.ts';
export { MAX_HOOK_TIMEOUT_SEC, SettingsSchema } from './schema.ts';
export type { SettingsFile } from './schema.ts';
