import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';

const root = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.API_URL ?? 'http://127.0.0.1:3000';

/** The screens whose code web/src/boot.ts loads ahead for the route it opens (besides the app itself). */
const ROUTE_SCREENS = ['src/ui/AppShell.tsx', 'src/renderer/EntityScreen.tsx', 'src/renderer/EntityList.tsx', 'src/renderer/EntityForm.tsx', 'src/renderer/SingletonForm.tsx', 'src/pages/Home.tsx',
  'src/pages/reports/ReportScreen.tsx', 'src/pages/page-setting/SubPageScreen.tsx', 'src/pages/documents/CreateFromRoute.tsx', 'src/pages/documents/CreateFromPage.tsx'];

/** The names of the report files the server ships (a report's name is its file's). */
function reportNames(): string[] {
  return readdirSync(fileURLToPath(new URL('../schemas/reports', import.meta.url))).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
}

/**
 * The create-from screens the entity files declare (`document.from[]`), as "target/source": the boot entry asks
 * both schemas and the open documents of /{target}/{source} before the screen's code has loaded. A list out of date
 * costs only those early calls (the screen decides from the schemas), and a schema file's change makes the build stale.
 */
function createFromPaths(): string[] {
  const dir = fileURLToPath(new URL('../schemas', import.meta.url));
  return readdirSync(dir).filter((f) => f.endsWith('.json')).flatMap((f) => {
    const schema = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { name?: string; document?: { from?: { source: string }[] } };
    return (schema.document?.from ?? []).map((from) => `${schema.name ?? f.slice(0, -5)}/${from.source}`);
  }).sort();
}

/**
 * index.html learns which built files the first screens need, so none waits for
 * another (no chunk waterfall): `<link rel="modulepreload">` for the app
 * (src/main.tsx and everything it imports statically), which every page loads,
 * and a JSON map from the screens above to their files, which the boot entry
 * reads to preload the shell and the list or form of the route it opens.
 */
function routeChunks(): Plugin {
  return {
    name: 'bo-route-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        const chunks = Object.values(ctx.bundle).filter((c) => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        // a screen's module may sit in a chunk of its own or in one of the first-screen groups below
        const bySource = new Map(chunks.flatMap((c) => c.moduleIds.map((id) => [relative(root, id), c] as const)));
        const closure = (source: string): string[] => {
          const out = new Set<string>();
          const visit = (file: string) => {
            if (out.has(file)) return;
            out.add(file);
            for (const i of byFile.get(file)?.imports ?? []) visit(i);
          };
          const c = bySource.get(source);
          if (c) visit(c.fileName);
          return [...out];
        };
        const inHtml = (f: string) => html.includes(`/${f}"`);
        const app = closure('src/main.tsx');
        const css = [...new Set(app.flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])]))].filter((f) => !inHtml(f));
        const map = Object.fromEntries(ROUTE_SCREENS.map((s) => [s, closure(s).filter((f) => !app.includes(f) && !inHtml(f)).map((f) => `/${f}`)]));
        return [
          ...css.map((f) => ({ tag: 'link', attrs: { rel: 'stylesheet', crossorigin: true, href: `/${f}` }, injectTo: 'head' as const })),
          ...app.filter((f) => !inHtml(f)).map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${f}` }, injectTo: 'head' as const })),
          // data, not code: the page's script policy does not apply to it
          { tag: 'script', attrs: { type: 'application/json', id: 'bo-route-chunks' }, children: JSON.stringify(map), injectTo: 'head' as const },
          // the report files' names (schemas/reports): /{name} of one is its report screen, which has no entity schema to ask for
          { tag: 'script', attrs: { type: 'application/json', id: 'bo-report-names' }, children: JSON.stringify(reportNames()), injectTo: 'head' as const },
          // the create-from screens' paths ("receipt/billing_note"): their schemas and open documents are asked at once
          { tag: 'script', attrs: { type: 'application/json', id: 'bo-create-from' }, children: JSON.stringify(createFromPaths()), injectTo: 'head' as const },
        ];
      },
    },
  };
}

/**
 * Fewer, larger chunks for the first screens. Over HTTP/1.1 a browser opens six
 * connections per server, so the thirty small chunks a cold /product needed
 * (each component of the UI kit, each small hook) queued behind one another.
 * The code the app imports statically (src/main.tsx, beyond what the boot entry
 * holds) becomes one chunk, the shell's code another, the generic list's a third,
 * the generic form's a fourth (a record loaded 23 files, up to 150 ms queued for a
 * connection on a cold /product/1; measured side by side, records' first row came
 * 50–120 ms sooner as one file). The form's chunk holds the UI kit's inputs, so most
 * other screens import it too, and download it once for all of them; every other
 * screen keeps Rolldown's automatic chunks and loads only when opened.
 */
function firstScreenGroups(): { plugin: Plugin; groupOf: (id: string) => string | null } {
  const group = new Map<string, string>();
  const plugin: Plugin = {
    name: 'bo-first-screen-groups',
    apply: 'build',
    buildEnd() {
      const src = (rel: string) => [...this.getModuleIds()].find((id) => id === `${root}${rel}` || id.endsWith(`/web/${rel}`));
      const closure = (rels: string[], taken: Set<string>): Set<string> => {
        const out = new Set<string>();
        const stack = rels.map(src).filter((id): id is string => !!id);
        while (stack.length) {
          const id = stack.pop()!;
          if (out.has(id) || taken.has(id)) continue;
          out.add(id);
          stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return out;
      };
      const boot = closure(['src/boot.ts'], new Set());
      const taken = new Set(boot);
      for (const [name, rels] of [['app', ['src/main.tsx']], ['shell', ['src/ui/AppShell.tsx']], ['list', ['src/renderer/EntityScreen.tsx', 'src/renderer/EntityList.tsx']], ['form', ['src/renderer/EntityForm.tsx']]] as const) {
        for (const id of closure([...rels], taken)) { group.set(id, name); taken.add(id); }
      }
    },
  };
  return { plugin, groupOf: (id) => group.get(id) ?? null };
}
const groups = firstScreenGroups();

/**
 * react-router 7 points every condition of its package exports at dist/development (react-router issues 12532 and
 * 14102, meant to be temporary), so the production build carried its development code and warnings: 213 KB of the
 * app chunk every page evaluates before its first render. The build takes the production files the package ships
 * beside them; the dev server keeps the development ones.
 */
function reactRouterProduction(): Plugin {
  const dist = fileURLToPath(new URL('../node_modules/react-router/dist/production/', import.meta.url));
  return {
    name: 'bo-react-router-production',
    apply: 'build',
    config: () => ({ resolve: { alias: [
      { find: /^react-router$/, replacement: `${dist}index.mjs` },
      { find: /^react-router\/dom$/, replacement: `${dist}dom-export.mjs` },
    ] } }),
  };
}

/** The web app: built into web/dist and served by the Fastify server from the same origin. */
export default defineConfig({
  root,
  plugins: [react(), reactRouterProduction(), routeChunks(), groups.plugin],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // each set is closed over its imports, less the sets before it, so the chunks import one way (list → shell → app → boot)
          includeDependenciesRecursively: false,
          groups: (['app', 'shell', 'list', 'form'] as const).map((name, i) => ({ name, test: (id: string) => groups.groupOf(id) === name, priority: 4 - i })),
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: api, changeOrigin: true },
      '/public': { target: api, changeOrigin: true },
      '/socket.io': { target: api, changeOrigin: true, ws: true },
    },
  },
});
