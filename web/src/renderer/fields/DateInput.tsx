import { useRef } from 'react';
import { Calendar } from 'primereact/calendar';
import { addLocale } from 'primereact/api';
import {
  TH_CALENDAR_LOCALE, displayYear, formatLocal, isoDateToLocal, localToIsoDate, localToWallInput, parseDateText, wallInputToLocal,
} from '../../core/thai-dates.ts';

addLocale('th', TH_CALENDAR_LOCALE);

export interface DateInputProps {
  /** "YYYY-MM-DD", or with `withTime` the Bangkok wall clock "YYYY-MM-DDTHH:mm"; '' when empty. */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  withTime?: boolean;
  lang: string;
  id?: string;
  ariaLabel?: string;
  describedBy?: string;
  invalid?: boolean;
  disabled?: boolean;
  compact?: boolean;
  inputRef?: React.Ref<HTMLInputElement>;
}

/**
 * The one date input of the app: the UI kit's calendar in the reader's language,
 * Buddhist-era years in Thai (in the text and the year picker), Western in English.
 * Typing "18/11/2569", "18 พ.ย. 2569" or "2026-11-18" works too.
 */
export function DateInput({ value, onChange, onBlur, withTime, lang, id, ariaLabel, describedBy, invalid, disabled, compact, inputRef }: DateInputProps) {
  const date = withTime ? wallInputToLocal(value) : isoDateToLocal(value);
  const typed = useRef<string | null>(null);
  const thisYear = new Date().getFullYear();
  return (
    <Calendar
      inputId={id} inputRef={inputRef} value={date} disabled={disabled} invalid={invalid}
      locale={lang === 'en' ? 'en' : 'th'} showTime={withTime} hourFormat="24" showIcon iconPos="right"
      showButtonBar showOnFocus={false} className={`bo-date ${compact ? 'p-inputtext-sm' : ''}`}
      aria-label={ariaLabel} aria-describedby={describedBy}
      formatDateTime={(d) => formatLocal(d, lang, withTime)}
      parseDateTime={(text) => parseDateText(text) ?? (null as unknown as Date)}
      yearNavigator yearRange={`${thisYear - 100}:${thisYear + 30}`}
      yearNavigatorTemplate={(ev) => {
        // the kit passes the years and its own change handler; only the shown number differs
        const o = ev as unknown as { value: number; onChange: (e: unknown, v: number) => void; names: number[] };
        return (
          <select className="p-datepicker-year bo-year-select" aria-label={lang === 'en' ? 'Year' : 'ปี'} value={o.value}
            onChange={(e) => o.onChange(e, Number(e.target.value))}>
            {o.names.map((y) => <option key={y} value={y}>{displayYear(y, lang)}</option>)}
          </select>
        );
      }}
      onInput={(e) => { typed.current = (e.target as HTMLInputElement).value; }}
      onChange={(e) => {
        const d = e.value as Date | null | undefined;
        // text being typed that is no date yet ("", "15/11/25") changes nothing until it is one or the field is left
        // (onBlur clears an emptied field): clearing the value at once made a screen that fills an empty value with
        // its default (a report's dates) write the default back over what was being typed
        if (!d && typed.current !== null) return;
        typed.current = null;
        onChange(d ? (withTime ? localToWallInput(d) : localToIsoDate(d)) : '');
      }}
      onBlur={() => {
        // text typed but not understood stays visible to correct; emptied text clears the value
        if (typed.current !== null && typed.current.trim() === '') onChange('');
        typed.current = null;
        onBlur?.();
      }}
    />
  );
}
