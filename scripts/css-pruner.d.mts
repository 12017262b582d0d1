// Types of scripts/css-pruner.mjs for the TypeScript that imports it (tests).
export const SCHEMA_ICONS_FILE: string;
export function schemaIcons(root: string): string[];
export function schemaIconsChanged(root: string, dist: string): boolean;
export function pruneCss(root: string, dist: string): Promise<{ before: number; after: number }>;
