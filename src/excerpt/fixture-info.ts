/**
 * serverInfo of the fixture server. Kept apart from `server.ts` so the host
 * can name the server it expects without loading the server's code.
 */
export const FIXTURE_SERVER_INFO = { name: 'caplab-fixture', version: '1.0.0' } as const;
