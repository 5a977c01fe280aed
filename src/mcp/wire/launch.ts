import type { StdioEndpoint } from '../../binding/index.ts';

/**
 * The launch object: everything that decides what process the host starts.
 * Fixed data, recorded in the binding; never chosen by the model.
 */
export interface Launch {
  /** argv; `command[0]` is an absolute path, so PATH is never consulted. */
  readonly command: readonly string[];
  readonly cwd: string;
  /** The complete child environment. Nothing else is inherited; every value is redacted from the server's stderr as caplab records or prints it. */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * What a binding records of a launch, as the server's stdio endpoint: argv,
 * cwd and the environment's variable names (sorted). Values stay out: they
 * may be secrets, and a record is shared.
 */
export function stdioEndpoint(launch: Launch): StdioEndpoint {
  return { kind: 'stdio', argv: [...launch.command], cwd: launch.cwd, envNames: Object.keys(launch.env).sort() };
}

// Env building and its credential-name guard have one home, shared with command hooks.
export { buildEnv, envNameAllowed } from '../../base/index.ts';

/**
 * Whether this process is a `bun build --compile` executable: its main module
 * lives in Bun's embedded filesystem (`/$bunfs/…`, `B:\~BUN\…` on Windows).
 */
export function isCompiled(main: string = Bun.main): boolean {
  return main.startsWith('/$bunfs/') || main.includes('~BUN');
}
