/**
 * caplab's fixture server over a sources folder, for the payload sweep: the
 * same `serve()` and the same process streams as `caplab serve` (src/main.ts),
 * with the snapshot read from SOURCES_DIR instead of the embedded fixtures.
 * With serve's flags after the folder (`--http --port 0 …`, parsed by the
 * CLI's own parser), the same fixture server over Streamable HTTP as
 * `caplab serve --http` runs it (`serveToolsHttp`), stopped by SIGINT/SIGTERM
 * or, with `--exit-on-stdin-eof`, stdin's end.
 *
 * Usage: bun scripts/bench/caplab-server.ts SOURCES_DIR [--http SERVE_FLAGS…]
 */
import { fileSink } from '../../src/cli/index.ts';
import { parseServeFlags } from '../../src/cli/serve-command.ts';
import { serveToolsHttp } from '../../src/mcp/index.ts';
import { fixtureServer, serve } from '../../src/excerpt/server/index.ts';
import { readSnapshot } from './targets.ts';

const [dir, ...flags] = process.argv.slice(2);
if (!dir) throw new Error('usage: caplab-server.ts SOURCES_DIR [--http SERVE_FLAGS…]');
if (flags.length === 0) {
  process.exitCode = await serve({ stdin: Bun.stdin.stream(), stdout: fileSink(Bun.stdout), stderr: fileSink(Bun.stderr), snapshot: readSnapshot(dir) });
} else {
  const options = parseServeFlags(flags, process.env);
  if (!options.ok) throw new Error(`caplab-server.ts: ${options.message}`);
  const stop = new AbortController();
  for (const name of ['SIGINT', 'SIGTERM'] as const) process.on(name, () => stop.abort(name));
  const write = (fd: 1 | 2) => (text: string) => void process.getBuiltinModule('node:fs').writeSync(fd, text);
  process.exitCode = await serveToolsHttp(fixtureServer(readSnapshot(dir)), options.value, { stdout: write(1), stderr: write(2), stdin: Bun.stdin.stream(), stop: stop.signal });
}
