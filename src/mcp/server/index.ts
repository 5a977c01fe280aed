/**
 * The tools-only server engine over the wire: JSON-RPC answers line by line
 * (`serve-rpc.ts`), stdio with backpressure (`serve-stdio.ts`), and a task's
 * tool server on top (`serveTools`; the excerpt task's fixture runs on it as
 * `caplab serve`). Streamable HTTP (`serveToolsHttp`, `caplab serve --http`)
 * loads on first use, so stdio `serve` never evaluates it. It never imports
 * the client: the two meet only on the wire.
 */
export { serializeResult } from './serve-rpc.ts';
export type { Methods, SerializedResult } from './serve-rpc.ts';
export type { ServeStreams } from './serve-stdio.ts';
export { serveTools, toolServerMethods } from './tool-server.ts';
export type { ServedTool, ToolServer } from './tool-server.ts';
export type { HttpServeIo, HttpServeOptions } from './serve-http.ts';

type ServeToolsHttp = typeof import('./serve-http.ts').serveToolsHttp;

/** Serves a tools-only server over Streamable HTTP (see serve-http.ts); loads it on first use. */
export async function serveToolsHttp(...args: Parameters<ServeToolsHttp>): ReturnType<ServeToolsHttp> {
  return (await import('./serve-http.ts')).serveToolsHttp(...args);
}
