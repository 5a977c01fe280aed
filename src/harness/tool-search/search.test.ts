import { expect, test } from 'bun:test';
import { LIMITS } from '../../contract/index.ts';
import { searchTools, type SearchableTool } from './index.ts';

/** A tool with no arguments. */
const bare = (name: string, description = ''): SearchableTool => ({ name, description, input_schema: { type: 'object', properties: {} } });
const names = (tools: readonly SearchableTool[], query: string, max = 20): readonly string[] => searchTools(tools, query, max).names;
/** A payload entry as hostile JSON may make it: any shape at all. */
const hostile = (entry: unknown): SearchableTool => entry as SearchableTool;

test('select: names tools exactly, in the order named, each once, trimmed; unknown names are reported in order, once', () => {
  const tools = [bare('alpha'), bare('beta'), bare('gamma')];
  expect(searchTools(tools, 'select:gamma, alpha ,,gamma,nope,Alpha,nope', 20)).toEqual({ names: ['gamma', 'alpha'], unknown: ['nope', 'Alpha'] });
  // The cut counts found names; unknown ones are still reported.
  expect(searchTools(tools, 'select:beta,nope,gamma,alpha', 2)).toEqual({ names: ['beta', 'gamma'], unknown: ['nope'] });
  expect(searchTools(tools, 'select:', 20)).toEqual({ names: [], unknown: [] });
  expect(searchTools(tools, 'select:\u00a0beta\t', 20)).toEqual({ names: ['beta'], unknown: [] });
  // Only a query starting with `select:` selects; anything else is searched.
  expect(searchTools(tools, 'Select:beta', 20)).toEqual({ names: ['beta'], unknown: [] });
  expect(searchTools([bare('beta'), bare('select', 'select')], ' select:beta', 20)).toEqual({ names: ['select', 'beta'], unknown: [] });
});

test('words rank by BM25: length normalisation lets one mention in a short document beat two in a long one', () => {
  // avgdl = (2 + 13) / 2 = 7.5. short: 1·2.2 / (1 + 1.2·(0.25 + 0.75·2/7.5)) = 1.43; long: 2·2.2 / (2 + 1.2·(0.25 + 0.75·13/7.5)) = 1.14.
  // Without length normalisation (b = 0) long would win: 2.2/2.2 = 1 against 4.4/3.2 = 1.375.
  const tools = [bare('long', 'apple apple one two three four five six seven eight nine ten'), bare('short', 'apple')];
  expect(names(tools, 'apple')).toEqual(['short', 'long']);
});

test('IDF is ln(1 + (N − n + 0.5)/(n + 0.5)): a rare word outweighs a common one, and a word every tool has still scores', () => {
  const tools = [bare('t1', 'common common'), bare('t2', 'rare'), bare('t3', 'common'), bare('t4', 'common')];
  expect(names(tools, 'common rare')).toEqual(['t2', 't1', 't3', 't4']);
  // In all four tools: Robertson's ln((N − n + 0.5)/(n + 0.5)) would be negative; this IDF keeps it positive.
  const everywhere = [bare('a', 'shared'), bare('b', 'shared words'), bare('c', 'shared')];
  expect(names(everywhere, 'shared')).toEqual(['a', 'c', 'b']);
});

test('each distinct query token counts once; equal scores are ordered by name in code-unit order, not locale order', () => {
  const tools = [bare('zz', 'apple'), bare('aa', 'banana'), bare('cc', 'cherry')];
  // Counted twice, `apple` would put zz first.
  expect(names(tools, 'apple apple Apple banana')).toEqual(['aa', 'zz']);
  // Code units: 'B' (0x42) < 'a' (0x61), and 𝐀's surrogate pair (0xD835 …) < 'Ａ' (0xFF21), though U+1D400 > U+FF21.
  const tied = [bare('a_tool', 'same'), bare('B_tool', 'same'), bare('\uff21_tool', 'same'), bare('\u{1d400}_tool', 'same')];
  expect(names(tied, 'same')).toEqual(['B_tool', 'a_tool', '\u{1d400}_tool', '\uff21_tool']);
});

test('a tool scoring 0 is dropped; a query with no tokens finds nothing', () => {
  const tools = [bare('read_source', 'Read one source file.'), bare('create_card', 'Write the card.')];
  expect(names(tools, 'source')).toEqual(['read_source']);
  expect(names(tools, 'nothing matches')).toEqual([]);
  for (const empty of ['', '   ', ',;.!', '+', '+++ ---', '\u3000']) expect(searchTools(tools, empty, 20)).toEqual({ names: [], unknown: [] });
});

test('+word requires its tokens among the name tokens, every +word must hold, and +words do not rank', () => {
  const tools = [
    bare('read_source', 'Read one source file.'),
    bare('readArchive', 'Read an archive of source files.'),
    bare('list_sources', 'List every source; read none.'),
    bare('write_card', 'Write a card that cites a source to read.'),
  ];
  // Only a +word: every tool admitted, by name (write_card says `read` in its description only).
  expect(names(tools, '+read')).toEqual(['readArchive', 'read_source']);
  expect(names(tools, '+READ')).toEqual(['readArchive', 'read_source']);
  expect(names(tools, '+read +source')).toEqual(['read_source']);
  expect(names(tools, '+read_source')).toEqual(['read_source']);
  // `archive` ranks among the admitted; read_source scores 0 and stays, after the positive one.
  expect(names(tools, '+read archive')).toEqual(['readArchive', 'read_source']);
  expect(names(tools, 'archive')).toEqual(['readArchive']);
  // A +word no name holds admits nothing, whatever else the query says.
  expect(names(tools, '+delete source')).toEqual([]);
  // `+` alone has no tokens and requires nothing.
  expect(names(tools, '+ archive')).toEqual(['readArchive']);
});

test('names and argument names split at case changes; a query is text and does not', () => {
  const tools = [
    bare('readSource', 'Opens a file.'),
    bare('HTMLParser', 'Turns markup into a tree.'),
    { name: 'fetch', description: 'Fetch a page.', input_schema: { type: 'object', properties: { maxResults: { type: 'integer' } } } },
  ];
  expect(names(tools, 'source')).toEqual(['readSource']);
  expect(names(tools, 'html parser')).toEqual(['HTMLParser']);
  expect(names(tools, 'results')).toEqual(['fetch']);
  expect(names(tools, '+results')).toEqual([]);
  expect(names(tools, 'readsource')).toEqual([]);
});

test('unicode words and digits are tokens', () => {
  const tools = [bare('resize', 'Ändert die Größe eines Bildes auf 1024 Pixel.'), bare('count', '统计工具数量 in 2 Schritten.'), bare('hash', 'sha256 of the bytes.')];
  expect(names(tools, 'GRÖẞE')).toEqual(['resize']);
  expect(names(tools, 'größe')).toEqual(['resize']);
  expect(names(tools, '1024')).toEqual(['resize']);
  expect(names(tools, '统计工具数量')).toEqual(['count']);
  expect(names(tools, 'sha256')).toEqual(['hash']);
  expect(names(tools, 'sha')).toEqual([]);
});

test('the document holds argument names and descriptions of properties, nested properties and items', () => {
  const tools: SearchableTool[] = [
    {
      name: 'create_review',
      description: 'Submit a review.',
      input_schema: {
        type: 'object',
        properties: {
          comments: { type: 'array', description: 'Line comments.', items: { type: 'object', properties: { diff_line: { type: 'integer', description: 'Where it lands.' } } } },
          options: { type: 'object', properties: { dryRun: { type: 'boolean', description: 'Pretend only.' } } },
        },
      },
    },
    bare('other', 'Something else.'),
  ];
  for (const query of ['comments', 'line', 'diff', 'lands', 'options', 'dry', 'run', 'pretend']) expect({ query, found: names(tools, query) }).toEqual({ query, found: ['create_review'] });
  // Only names and descriptions: a schema's `type` values are not words of the tool.
  expect(names(tools, 'integer boolean array')).toEqual([]);
});

/** A schema whose properties nest `levels` deep, the property at level k named `pk`, built without recursion. */
function chain(levels: number): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'string' };
  for (let level = levels; level >= 1; level--) node = { type: 'object', properties: { [`p${level}`]: node } };
  return node;
}

test(`arguments are read to ${LIMITS.argumentsDepth} levels; a deeper schema is read that far, without throwing`, () => {
  const depth = LIMITS.argumentsDepth;
  const deep = [{ name: 'deep', description: '', input_schema: chain(100_000) }, bare('other', 'x')];
  expect(names(deep, `p1 p${depth}`)).toEqual(['deep']);
  expect(names(deep, `p${depth + 1}`)).toEqual([]);
  expect(names(deep, 'p50000')).toEqual([]);
  // `items` is a level too, as an array is in the arguments.
  const viaItems = [{ name: 'arr', description: '', input_schema: { type: 'object', properties: { list: { type: 'array', items: chain(depth) } } } }];
  expect(names(viaItems, `p${depth - 2}`)).toEqual(['arr']);
  expect(names(viaItems, `p${depth - 1}`)).toEqual([]);
});

test('hostile entries are data: wrong types are skipped, huge values do not overflow the stack', () => {
  const tools = [
    hostile({ name: 'odd', description: 42, input_schema: { properties: { a: { description: { nested: 'no' } }, b: 7, c: null, d: { description: 'kept words' } }, items: [{ properties: { e: {} } }] } }),
    hostile({ name: 'odder', description: null, input_schema: null }),
    hostile({ name: 'array_schema', description: 'array schema', input_schema: [1, 2, 3] }),
    hostile({ name: 'listed_properties', description: 'x', input_schema: { properties: Array.from({ length: 100_000 }, () => ({ description: 'hidden' })) } }),
    hostile({ name: 'no_schema', description: 'no schema here' }),
    hostile({ name: 7, description: 'unnamed' }),
    hostile(null),
    hostile('a string'),
    hostile(JSON.parse('{"name":"proto","description":"","input_schema":{"properties":{"__proto__":{"description":"magic"}}}}')),
  ];
  expect(names(tools, 'kept')).toEqual(['odd']);
  expect(names(tools, 'a b c d')).toEqual(['odd']);
  expect(names(tools, 'e nested 42')).toEqual([]);
  expect(names(tools, 'hidden')).toEqual([]);
  expect(names(tools, 'schema')).toEqual(['array_schema', 'no_schema']);
  expect(names(tools, 'unnamed')).toEqual([]);
  expect(names(tools, 'magic')).toEqual(['proto']);
  expect(searchTools(tools, 'select:odder,7', 20)).toEqual({ names: ['odder'], unknown: ['7'] });
});

test('a description or argument description of over a million words is searched without overflowing the stack', () => {
  const huge = 'w '.repeat(1_200_000);
  const tools = [{ name: 'big', description: huge, input_schema: { properties: { f: { description: huge } } } }, bare('small', 'x')];
  expect(names(tools, 'w')).toEqual(['big']);
});

test('a name held by several entries is searched in each and reported once, at its best rank', () => {
  const tools = [bare('dup', 'plain'), bare('mid', 'apple once among several other words here'), bare('dup', 'apple apple'), bare('dup', 'apple')];
  expect(names(tools, 'apple')).toEqual(['dup', 'mid']);
  expect(names(tools, 'plain apple', 1)).toEqual(['dup']);
  expect(searchTools(tools, 'select:dup,dup', 20)).toEqual({ names: ['dup'], unknown: [] });
});

test('maxResults below 1 or NaN returns no names; a fraction is cut down; Infinity keeps all', () => {
  const tools = [bare('a', 'word'), bare('b', 'word'), bare('c', 'word')];
  for (const max of [0, -1, Number.NaN, 0.5]) expect(names(tools, 'word', max)).toEqual([]);
  expect(names(tools, 'word', 2.9)).toEqual(['a', 'b']);
  expect(names(tools, 'word', Number.POSITIVE_INFINITY)).toEqual(['a', 'b', 'c']);
  expect(names([], 'word')).toEqual([]);
});
