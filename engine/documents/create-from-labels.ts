import type { EntitySchema } from '../schema/schema-types.ts';
import type { DocumentSource } from '../schema/document-spec-types.ts';
import type { LocalizedText } from '../schema/localized-text.ts';

/**
 * The words of a create-from screen, shared by the server's menu and the web app:
 * what the schema's `document.from[]` entry declares, else words made from the two
 * entities' labels, so a document declared without them still has its screen.
 */
export interface CreateFromScreen {
  target: string;
  source: string;
  /** Always `/{target}/{source}` (the spec's routes: /receipt/sales_order, …). */
  path: string;
  label: LocalizedText;
  action: LocalizedText;
  menu: boolean;
}

export function createFromScreen(target: EntitySchema, spec: DocumentSource, source?: EntitySchema): CreateFromScreen {
  const src = source?.label ?? { th: spec.source, en: spec.source };
  return {
    target: target.name,
    source: spec.source,
    path: `/${target.name}/${spec.source}`,
    label: spec.label ?? { th: `${target.label.th}จาก${src.th}`, en: `${target.labelPlural?.en ?? target.label.en} from ${source?.labelPlural?.en ?? src.en}` },
    action: spec.action ?? { th: `สร้าง${target.label.th}`, en: `Create ${target.label.en.toLowerCase()}` },
    menu: spec.menu === true,
  };
}

/** Every create-from screen the schemas declare, in schema order. */
export function createFromScreens(all: Iterable<EntitySchema>, get: (name: string) => EntitySchema | undefined): CreateFromScreen[] {
  const out: CreateFromScreen[] = [];
  for (const t of all) for (const spec of t.document?.from ?? []) out.push(createFromScreen(t, spec, get(spec.source)));
  return out;
}
