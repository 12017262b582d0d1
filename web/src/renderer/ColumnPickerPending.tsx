// Apart from ColumnPicker.tsx, so showing it does not load the picker's code.

/** What the picker looks like while its code loads: the same box and label, not yet clickable. */
export function ColumnPickerPending({ label, count }: { label: string; count: number }) {
  return (
    <div className="p-multiselect p-component p-inputwrapper p-inputwrapper-filled bo-columns-pending" aria-hidden="true">
      <div className="p-multiselect-label-container"><div className="p-multiselect-label">{`${label} (${count})`}</div></div>
      <div className="p-multiselect-trigger"><span className="p-multiselect-trigger-icon pi pi-table" /></div>
    </div>
  );
}
