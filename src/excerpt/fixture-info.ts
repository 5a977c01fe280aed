/**
 * serverInfo of the fixture server, as the server reports it. The host names
 * the server by its key (`FIXTURE_KEY`), never by this; it is only recorded.
 */
export const FIXTURE_SERVER_INFO = { name: 'caplab-fixture', version: '1.0.0' } as const;
