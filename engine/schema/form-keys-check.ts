import type { EntitySchema } from './schema-types.ts';

type Bad = (at: string, why: string) => void;

/**
 * Field keys only the form reads, checked at start so a wrong name fails there and not on screen:
 * a lines field's `balance` names two money fields of its lines (the form totals them and shows the
 * difference), a link's `pickerLabel` names fields of its target (the choices' label and order).
 */
export function checkFormKeys(e: EntitySchema, byName: Map<string, EntitySchema>, bad: Bad): void {
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.balance) {
      const lines = f.type === 'lines' ? byName.get(f.entity ?? '') : undefined;
      if (f.type !== 'lines') bad(`/fields/${name}/balance`, 'only a lines field has a balance');
      for (const side of ['debit', 'credit'] as const) {
        if (lines && lines.fields[f.balance[side]]?.type !== 'money') bad(`/fields/${name}/balance/${side}`, `"${f.balance[side]}" is not a money field of the lines`);
      }
    }
    if (f.pickerLabel) {
      const target = f.type === 'link' ? byName.get(f.entity ?? '') : undefined;
      if (f.type !== 'link') bad(`/fields/${name}/pickerLabel`, 'only a link has a picker label');
      for (const c of f.pickerLabel) if (target && !target.fields[c]) bad(`/fields/${name}/pickerLabel`, `"${c}" is not a field of ${target.name}`);
    }
  }
}
