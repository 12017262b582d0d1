// Types of scripts/web-build.mjs for the TypeScript that imports it (tests).
export function precompressDir(dir: string): { files: number; raw: number; br: number };
export function webBuildIsStale(root: string): Promise<boolean>;
export function ensureWebBuilt(root: string, log?: (msg: string) => void): Promise<string>;
