/**
 * The tools-only server engine over the wire: JSON-RPC answers line by line
 * (`serve-rpc.ts`), stdio with backpressure (`serve-stdio.ts`), and a task's
 * tool server on top (`serveTools`; the excerpt task's fixture runs on it as
 * `caplab serve`). It never imports the client: the two meet only on the wire.
 */
export { serializeResult } from './serve-rpc.ts';
export type { Methods, SerializedResult } from './serve-rpc.ts';
export type { ServeStreams } from './serve-stdio.ts';
export { serveTools, toolServerMethods } from './tool-server.ts';
export type { ServedTool, ToolServer } from './tool-server.ts';
