import type { Hook } from '../hook.ts';
import { commandHook, type EnvSource, type SpawnHook } from '../hooks/index.ts';
import type { SettingsHook } from './load.ts';

export interface HooksFromSettingsOptions {
  /** Where allowlisted variables are read from; defaults to `process.env`. Never passed whole. */
  readonly env?: EnvSource;
  readonly spawn?: SpawnHook;
  readonly captureLimit?: number;
}

/**
 * Creates the command hooks a settings file configures, in file order. Each
 * runs in its `baseDir` (which is also its `CLAUDE_PROJECT_DIR`).
 *
 * @param settings `EffectiveSettings` or one `LoadedSettings` (anything with `hooks`).
 */
export function hooksFromSettings(settings: { readonly hooks: readonly SettingsHook[] }, options: HooksFromSettingsOptions = {}): Hook[] {
  return settings.hooks.map((hook) =>
    commandHook(
      { event: hook.event, matcher: hook.matcher, command: hook.command, timeoutSec: hook.timeoutSec },
      {
        cwd: hook.baseDir,
        ...(options.env !== undefined ? { env: options.env } : {}),
        ...(options.spawn !== undefined ? { spawn: options.spawn } : {}),
        ...(options.captureLimit !== undefined ? { captureLimit: options.captureLimit } : {}),
      },
    ),
  );
}
