/** Vite answers `?url` imports with the built file's address. */
declare module '*?url' {
  const href: string;
  export default href;
}
