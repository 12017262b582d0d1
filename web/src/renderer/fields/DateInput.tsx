import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Calendar } from 'primereact/calendar';
import { addLocale, localeOption } from 'primereact/api';
import { CalendarIcon } from 'primereact/icons/calendar';
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
 * How the shown field was reached before the calendar took its place: focused (by the pointer, or by the keyboard or
 * the form's Enter, which select the text as a browser's Tab does), or its button clicked (the panel opens).
 */
type Arm = { how: 'focus'; pointer: boolean } | { how: 'open' };

function setRef<T>(ref: React.Ref<T> | undefined, value: T | null): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) (ref as React.MutableRefObject<T | null>).current = value;
}

/**
 * The one date input of the app: the UI kit's calendar in the reader's language,
 * Buddhist-era years in Thai (in the text and the year picker), Western in English.
 * Typing "18/11/2569", "18 พ.ย. 2569" or "2026-11-18" works too.
 *
 * Until a person reaches the field (focus, or a click on its button) it is the calendar's closed markup only: the kit's
 * `Calendar` builds its whole panel (the month's grid, the year list) on every render, panel closed, which was 29 ms of
 * a quotation's cold render and 47 ms of a dashboard's with two dates (docs/performance.md, Browser). Reaching it puts
 * the calendar in its place, focused (its text selected unless a pointer put the caret), or with its panel open.
 */
export function DateInput(props: DateInputProps) {
  const [armed, setArmed] = useState<Arm | null>(null);
  const calendar = useRef<Calendar>(null);
  // the kit hands its input to its own ref in a passive effect, after these: read it off the element
  const liveInput = () => calendar.current?.getElement()?.querySelector('input') ?? null;
  // armed once: the closed field that arms it is gone after
  useLayoutEffect(() => {
    if (!armed) return;
    if (armed.how === 'open') calendar.current?.show();
    else liveInput()?.focus();
  }, [armed]);
  // the selection after the kit's own first effects, which write the input's text (and so move the caret to its end)
  useEffect(() => {
    if (armed?.how !== 'focus' || armed.pointer) return;
    const input = liveInput();
    if (input && document.activeElement === input) input.select();
  }, [armed]);
  if (!armed) return <ClosedDate {...props} onArm={setArmed} />;
  return <LiveDate {...props} calendar={calendar} />;
}

/** The closed calendar's markup (classes, roles, labels and the text it shows), as the kit's `Calendar` draws it. */
function ClosedDate({ value, withTime, lang, id, ariaLabel, describedBy, invalid, disabled, compact, inputRef, onArm }: DateInputProps & { onArm: (a: Arm) => void }) {
  const date = withTime ? wallInputToLocal(value) : isoDateToLocal(value);
  const text = date ? formatLocal(date, lang, withTime) : '';
  // the text is set as the kit sets it, on the element (no value attribute)
  const shown = useRef<HTMLInputElement | null>(null);
  const pointer = useRef(false);
  useLayoutEffect(() => { if (shown.current) shown.current.value = text; }, [text]);
  const root = ['bo-date', compact ? 'p-inputtext-sm' : '', 'p-calendar p-component p-inputwrapper p-calendar-w-btn p-calendar-w-btn-right',
    disabled ? 'p-calendar-disabled' : '', text ? 'p-inputwrapper-filled' : '', invalid ? 'p-invalid' : ''].filter(Boolean).join(' ');
  return (
    <span className={root} aria-label={ariaLabel} aria-describedby={describedBy} data-pc-name="calendar" data-pc-section="root">
      <input ref={(el) => { setRef(inputRef, el); shown.current = el; }} className={`p-inputtext p-component${disabled ? ' p-disabled' : ''}`} autoComplete="off" id={id}
        role="combobox" disabled={disabled} aria-expanded="false" aria-autocomplete="none" aria-haspopup="dialog" inputMode="none"
        data-pc-name="inputtext" data-pc-section="root" type="text"
        onPointerDown={() => { pointer.current = true; }}
        onFocus={() => onArm({ how: 'focus', pointer: pointer.current })} />
      <button aria-label={localeOption('chooseDate', lang === 'en' ? 'en' : 'th')} className={`p-datepicker-trigger p-button p-component p-button-icon-only${disabled ? ' p-disabled' : ''}`}
        disabled={disabled} type="button" tabIndex={-1} aria-haspopup="dialog" aria-expanded="false" data-pc-name="button" data-pc-section="root"
        // the panel opens from the calendar's first layout, inside this click: the click must not reach the document,
        // where the panel's outside-click listener would close it again
        onClick={(e) => { e.stopPropagation(); onArm({ how: 'open' }); }}>
        <CalendarIcon />
        <span className="p-button-label p-c" data-pc-section="label">&nbsp;</span>
      </button>
    </span>
  );
}

function LiveDate({ value, onChange, onBlur, withTime, lang, id, ariaLabel, describedBy, invalid, disabled, compact, inputRef, calendar }: DateInputProps & { calendar: React.RefObject<Calendar | null> }) {
  const date = withTime ? wallInputToLocal(value) : isoDateToLocal(value);
  const typed = useRef<string | null>(null);
  const thisYear = new Date().getFullYear();
  return (
    <Calendar
      ref={calendar}
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
