// Text imports (`with { type: 'text' }`) of embedded files.
declare module '*.md' {
  const text: string;
  export default text;
}
