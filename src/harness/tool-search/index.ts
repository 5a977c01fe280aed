/** ToolSearch (issue 25): the pure search over a payload's deferred tools. */
export { type SearchableTool } from './document.ts';
export { searchTools, type SearchAnswer } from './search.ts';
