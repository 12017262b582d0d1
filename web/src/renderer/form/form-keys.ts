/**
 * The form's keyboard (issue 38 §6): Enter moves to the next field, and on a line's last
 * field adds a line and goes to its first field; Ctrl+S saves (EntityForm); a form opens
 * with focus on its first empty field.
 */

/** The fields Enter and the first focus move between: enabled inputs that are Tab stops and shown. */
export function focusableFields(root: ParentNode): HTMLElement[] {
  const all = root.querySelectorAll<HTMLElement>('input:not([type=hidden]):not([type=color]), select, textarea');
  // a dropdown's focus is a read-only input it hides (PrimeReact): it is still a field
  return [...all].filter((el) => !(el as HTMLInputElement).disabled && (!(el as HTMLInputElement).readOnly || !!el.closest('.p-dropdown')) && el.tabIndex >= 0
    && el.getClientRects().length > 0 && !el.closest('[aria-hidden="true"]'));
}

function isEmpty(el: HTMLElement): boolean {
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) return false;
  const link = el.closest('.bo-link-select');
  if (link) return link.hasAttribute('data-empty');
  const dropdown = el.closest('.p-dropdown');
  if (dropdown) return !dropdown.classList.contains('p-inputwrapper-filled');
  return (el as HTMLInputElement).value === '';
}

/** Puts the focus on the form's first empty field (or its first field), unless the person is already typing somewhere in it. */
export function focusFirstEmpty(form: HTMLElement, preferId?: string | null): void {
  // someone is already typing (in this form, or in a panel of it such as the scan box): leave the focus there
  const active = document.activeElement;
  if (active && active !== form && (form.contains(active) || active.matches('input, textarea, select'))) return;
  const fields = focusableFields(form);
  const preferred = preferId ? fields.find((f) => f.id === preferId) : undefined;
  const target = preferred ?? fields.find(isEmpty) ?? fields[0];
  target?.focus({ preventScroll: false });
}

/**
 * Enter on a field: not a save. Moves to the next field; on the last field of the last line
 * of a lines grid, `addLine` adds one and the focus goes to its first field.
 * Answers whether the key was taken.
 */
export function enterMoves(e: KeyboardEvent | React.KeyboardEvent, form: HTMLElement, addLine: (grid: HTMLElement) => boolean = clickAddLine): boolean {
  if (e.key !== 'Enter' || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey || e.defaultPrevented) return false;
  const el = e.target as HTMLElement;
  if (!(el instanceof HTMLInputElement || el instanceof HTMLSelectElement)) return false;
  // an open dropdown takes Enter as its choice
  if (el.getAttribute('aria-expanded') === 'true' || document.querySelector('.p-dropdown-panel, .p-datepicker:not(.p-datepicker-inline)')) return false;
  e.preventDefault();
  const row = el.closest<HTMLElement>('[data-line-row]');
  if (row) {
    const inRow = focusableFields(row);
    const grid = row.closest<HTMLElement>('[data-lines-grid]');
    const rows = grid ? [...grid.querySelectorAll<HTMLElement>('[data-line-row]')] : [];
    if (inRow[inRow.length - 1] === el && grid && rows[rows.length - 1] === row) {
      if (addLine(grid)) return true;
    }
  }
  const fields = focusableFields(form);
  const i = fields.indexOf(el);
  const next = fields[i + 1];
  if (next) { next.focus(); if (next instanceof HTMLInputElement) next.select?.(); }
  return true;
}

/** Adds a line with the grid's own button (the grid then focuses the new line's first field). */
export function clickAddLine(grid: HTMLElement): boolean {
  const b = grid.querySelector<HTMLButtonElement>('[data-add-line]');
  if (!b || b.disabled) return false;
  b.click();
  return true;
}
