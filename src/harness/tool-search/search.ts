// Interim (lead): select: only, until branch w7-search's BM25 engine replaces this file.
export interface SearchableTool { readonly name: string; readonly description: string; readonly input_schema: Readonly<Record<string, unknown>> }
export interface SearchAnswer { readonly names: readonly string[]; readonly unknown: readonly string[] }
export function searchTools(tools: readonly SearchableTool[], query: string, maxResults: number): SearchAnswer {
  const have = new Set(tools.map((t) => t.name));
  if (query.startsWith('select:')) {
    const named = [...new Set(query.slice(7).split(',').map((s) => s.trim()).filter(Boolean))];
    return { names: named.filter((n) => have.has(n)).slice(0, maxResults), unknown: named.filter((n) => !have.has(n)) };
  }
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const hits = tools.filter((t) => words.some((w) => `${t.name} ${t.description}`.toLowerCase().includes(w))).map((t) => t.name).sort();
  return { names: [...new Set(hits)].slice(0, maxResults), unknown: [] };
}
