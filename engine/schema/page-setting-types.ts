import type { FormSection, LinkFilterValue } from './schema-types.ts';
import type { LocalizedText } from './localized-text.ts';
import type { HiddenIn } from './schema-overlay.ts';

// The page-setting API's shapes, shared by the server that answers them and the editor that shows them.

/** The editable values of one field, as the page-setting screen shows them. */
export interface FieldSettings {
  label: LocalizedText;
  hidden: HiddenIn;
  required: boolean;
  readOnly: boolean;
  default: unknown;
  width: number | null;
  linkFilter: Record<string, LinkFilterValue> | null;
  pickerColumns: string[] | null;
}

/** The editable values of a page (list and form). */
export interface PageSettings {
  label: LocalizedText;
  listColumns: string[];
  fieldOrder: string[];
  defaultSort: string | null;
  pageSize: number | null;
  formSections: FormSection[];
}
