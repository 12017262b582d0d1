import type { ComponentType } from 'react';
import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';

type Row = Record<string, unknown>;

export interface FormPanelProps {
  entity: EntitySchema;
  id: number;
  record: Row;
  /** Reads the record again (the panel changed it on the server: a scan counted on a line). */
  reload: () => void;
}

/**
 * A panel that a feature adds under a stored record's form (the scan panel of stock documents,
 * a document's chain): features register theirs (web/src/pages/…/…-form-panels.tsx, imported by
 * App.tsx), so the generic form imports no feature's screens.
 */
export interface FormPanel {
  key: string;
  /** Whether the panel belongs on this entity's form (a schema key it reads, not a list of entity names where one exists). */
  applies: (entity: EntitySchema) => boolean;
  /** 'body': under the fields and related lists; 'actions': among the form's action buttons. */
  place: 'body' | 'actions';
  Component: ComponentType<FormPanelProps>;
}

const panels: FormPanel[] = [];

export function registerFormPanel(panel: FormPanel): void {
  const i = panels.findIndex((p) => p.key === panel.key);
  if (i >= 0) panels[i] = panel; else panels.push(panel);
}

export function formPanels(entity: EntitySchema, place: FormPanel['place']): FormPanel[] {
  return panels.filter((p) => p.place === place && p.applies(entity));
}
