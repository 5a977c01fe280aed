import type { ServeIo } from '../mcp/index.ts';

/**
 * The CLI's only window on the process: streams, environment, cwd. `main.ts`
 * supplies the real ones; tests pass their own and read what was written.
 */
export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Whether stdout is a terminal (colour is used only then, and never with NO_COLOR). */
  readonly isTTY: boolean;
  /** The raw process streams, for `caplab serve` only (it speaks MCP on stdin/stdout). */
  readonly streams?: ServeIo;
}

/** Exit codes (SPEC F-CLI), documented in `--help` and README. */
export const EXIT = { ok: 0, failed: 1, usage: 2, protocol: 3, unknown: 4 } as const;

export interface Paint {
  readonly ok: (text: string) => string;
  readonly bad: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly bold: (text: string) => string;
}

/** Colours for this output: none unless a TTY, and never with NO_COLOR set (no-color.org). */
export function paint(io: Io): Paint {
  const on = io.isTTY && (io.env['NO_COLOR'] === undefined || io.env['NO_COLOR'] === '');
  const wrap = (code: string) => (text: string) => (on ? `\x1b[${code}m${text}\x1b[0m` : text);
  return { ok: wrap('32'), bad: wrap('31'), dim: wrap('2'), bold: wrap('1') };
}
