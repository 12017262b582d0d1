import { MultiSelect } from 'primereact/multiselect';

export interface ColumnPickerProps {
  label: string;
  value: string[];
  options: Array<{ label: string; value: string }>;
  onChange: (shown: string[]) => void;
}

/** The list's column picker; its own chunk (the UI kit's MultiSelect and virtual scroller), loaded after the rows. */
export default function ColumnPicker({ label, value, options, onChange }: ColumnPickerProps) {
  return (
    <MultiSelect
      aria-label={label}
      value={value}
      options={options}
      onChange={(e) => onChange(e.value as string[])}
      selectedItemsLabel={`${label} ({0})`}
      maxSelectedLabels={0}
      placeholder={label}
      dropdownIcon="pi pi-table"
      className="bo-columns"
      panelClassName="bo-columns-panel"
      // tall enough for every column of a schema: the fifth option was cut off at the default height
      scrollHeight="min(60vh, 420px)"
      display="comma"
    />
  );
}
