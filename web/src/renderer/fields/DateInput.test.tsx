// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { DateInput, type DateInputProps } from './DateInput.tsx';

/** The markup a person's browser styles and reads: tags, classes, attributes (the closed panel's generated id left out) and the text shown. */
function markup(el: Element): unknown {
  const attrs = Object.fromEntries([...el.attributes]
    .filter((a) => a.name !== 'aria-controls' && a.name !== 'class')
    .map((a) => [a.name, a.value]));
  return {
    tag: el.tagName,
    classes: el.getAttribute('class')?.split(/\s+/).filter(Boolean).sort() ?? [],
    attrs,
    value: el instanceof HTMLInputElement ? el.value : undefined,
    children: el.tagName === 'svg' ? el.innerHTML : [...el.children].map(markup),
  };
}

/** The calendar itself, as the field becomes once reached: focused, then blurred to close nothing. */
function liveMarkup(props: DateInputProps): unknown {
  const { container } = render(<DateInput {...props} />);
  const input = container.querySelector('input')!;
  act(() => { input.focus(); });
  const live = container.querySelector('input')!;
  expect(live).not.toBe(input);
  // the kit marks its wrapper while focused: compare with the closed, unfocused state
  act(() => { live.blur(); });
  const out = markup(container.firstElementChild!);
  cleanup();
  return out;
}

function closedMarkup(props: DateInputProps): unknown {
  const { container } = render(<DateInput {...props} />);
  const out = markup(container.firstElementChild!);
  cleanup();
  return out;
}

const base = { onChange: () => undefined };
const CASES: [string, DateInputProps][] = [
  ['a Thai date', { ...base, value: '2026-11-18', lang: 'th', id: 'd1', ariaLabel: 'วันที่' }],
  ['an empty, small, invalid, disabled English date', { ...base, value: '', lang: 'en', id: 'd2', compact: true, invalid: true, disabled: true }],
  ['a Thai date and time, described', { ...base, value: '2026-11-18T09:30', withTime: true, lang: 'th', id: 'd3', describedBy: 'd3-error' }],
  ['an empty Thai date', { ...base, value: '', lang: 'th', id: 'd4' }],
];

describe('DateInput before it is reached', () => {
  afterEach(cleanup);

  it.each(CASES.filter(([, p]) => !p.disabled))('shows the closed calendar\'s markup and text: %s', (_name, props) => {
    expect(closedMarkup(props)).toEqual(liveMarkup(props));
  });

  it('a disabled field is the closed calendar\'s markup too (it is never reached)', () => {
    const props = CASES[1]![1];
    const closed = closedMarkup(props) as { classes: string[]; children: { attrs: Record<string, string> }[] };
    expect(closed.classes).toEqual(['bo-date', 'p-calendar', 'p-calendar-disabled', 'p-calendar-w-btn', 'p-calendar-w-btn-right', 'p-component', 'p-inputtext-sm', 'p-inputwrapper', 'p-invalid']);
    expect(closed.children[0]!.attrs.disabled).toBe('');
  });

  it('becomes the calendar when focused, focused itself with its text selected (as Tab and Enter leave it), and takes typed dates', () => {
    const onChange = vi.fn();
    const { container } = render(<DateInput value="2026-11-18" lang="th" id="d5" onChange={onChange} />);
    const first = container.querySelector<HTMLInputElement>('#d5')!;
    act(() => { first.focus(); });
    const live = container.querySelector<HTMLInputElement>('#d5')!;
    expect(live).not.toBe(first);
    expect(document.activeElement).toBe(live);
    expect(live.value).toBe(first.value);
    expect([live.selectionStart, live.selectionEnd]).toEqual([0, live.value.length]);
    fireEvent.input(live, { target: { value: '20/11/2569' } });
    fireEvent.blur(live);
    expect(onChange).toHaveBeenLastCalledWith('2026-11-20');
  });

  it('puts the caret after the text when a pointer focused it', () => {
    const { container } = render(<DateInput value="2026-11-18" lang="th" id="d8" onChange={() => undefined} />);
    const first = container.querySelector<HTMLInputElement>('#d8')!;
    act(() => { fireEvent.pointerDown(first); first.focus(); });
    const live = container.querySelector<HTMLInputElement>('#d8')!;
    expect(document.activeElement).toBe(live);
    expect([live.selectionStart, live.selectionEnd]).toEqual([live.value.length, live.value.length]);
  });

  it('opens the calendar\'s panel from its button', () => {
    const { container } = render(<DateInput value="2026-11-18" lang="th" id="d6" onChange={() => undefined} />);
    act(() => { container.querySelector<HTMLButtonElement>('button')!.click(); });
    expect(document.querySelector('.p-datepicker')).not.toBeNull();
  });

  it('hands the input to the form\'s ref, first the shown one, then the calendar\'s', () => {
    const ref = { current: null as HTMLInputElement | null };
    const { container } = render(<DateInput value="" lang="th" id="d7" onChange={() => undefined} inputRef={ref} />);
    expect(ref.current).toBe(container.querySelector('#d7'));
    act(() => { ref.current!.focus(); });
    expect(ref.current).toBe(container.querySelector('#d7'));
    expect(ref.current).toBe(document.activeElement);
  });
});
