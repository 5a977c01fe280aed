/**
 * The raw pipe floor: copies stdin to stdout unchanged, so every line comes
 * back as sent. No parsing, no framing — only the cost of two pipe hops and
 * one process wake-up, which every stdio transport pays at least once.
 */
const out = Bun.stdout.writer();
for await (const chunk of Bun.stdin.stream()) {
  out.write(chunk);
  // Flush per chunk: buffering would batch round trips and undercut the floor.
  out.flush();
}
await out.end();
