/**
 * TEST ONLY — the launch of the misbehaving read_source server (`misbehave.ts`).
 */
import type { Launch } from '../../mcp/index.ts';
import type { Mode } from './misbehave.ts';

const MISBEHAVE = new URL('./misbehave.ts', import.meta.url).pathname;

/** Launch of the misbehaving server in one mode: Bun, absolute script path, empty env. */
export function misbehaveLaunch(mode: Mode): Launch {
  return { command: [process.execPath, MISBEHAVE, mode], cwd: '/', env: {} };
}
