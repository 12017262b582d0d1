// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render } from '@testing-library/react';
import { Button } from 'primereact/button';
import { PlainButton, type PlainButtonProps } from './PlainButton.tsx';

/** What the theme and a person's tools see of a button: its classes, its parts' classes and texts, its name and state. */
function shape(el: HTMLButtonElement) {
  const sorted = (c: string) => c.split(/\s+/).filter(Boolean).sort().join(' ');
  return {
    classes: sorted(el.className),
    type: el.getAttribute('type'),
    disabled: el.disabled,
    ariaLabel: el.getAttribute('aria-label'),
    parts: [...el.children].map((c) => ({ tag: c.tagName, classes: sorted(c.className), text: c.textContent })),
  };
}

function kitShape(props: PlainButtonProps): ReturnType<typeof shape> {
  const { container } = render(<Button {...(props as object)} />);
  const s = shape(container.querySelector('button')!);
  cleanup();
  return s;
}

function plainShape(props: PlainButtonProps): ReturnType<typeof shape> {
  const { container } = render(<PlainButton {...props} />);
  const s = shape(container.querySelector('button')!);
  cleanup();
  return s;
}

const CASES: [string, PlainButtonProps][] = [
  ['an icon-only round text button', { icon: 'pi pi-bars', text: true, rounded: true, severity: 'secondary', 'aria-label': 'เมนู', type: 'button' }],
  ['an icon and a label', { icon: 'pi pi-plus', label: 'สร้าง', type: 'button' }],
  ['outlined, small', { icon: 'pi pi-sign-out', label: 'ออกจากระบบ', outlined: true, size: 'small', severity: 'secondary', type: 'button', className: 'bo-logout' }],
  ['a label only, text', { label: 'ล้างตัวกรอง', text: true, severity: 'secondary', type: 'button' }],
  ['disabled', { icon: 'pi pi-angle-left', text: true, rounded: true, disabled: true, 'aria-label': 'ก่อนหน้า', type: 'button' }],
  ['a label and its own aria-label', { icon: 'pi pi-cog', label: 'ตั้งค่า', 'aria-label': 'ตั้งค่าระบบ', text: true, type: 'button' }],
];

describe('PlainButton', () => {
  afterEach(cleanup);

  it.each(CASES)('has the UI kit Button\'s markup: %s', (_name, props) => {
    expect(plainShape(props)).toEqual(kitShape(props));
  });

  it('shows a spinner and is disabled while loading, as the kit Button is', () => {
    const props: PlainButtonProps = { icon: 'pi pi-download', label: 'ส่งออก', outlined: true, loading: true, type: 'button' };
    const mine = plainShape(props);
    const kit = kitShape(props);
    // the kit draws its spinner as an SVG; the classes of the button itself and its state are the same
    expect(mine.classes).toBe(kit.classes);
    expect(mine.disabled).toBe(true);
    expect(kit.disabled).toBe(true);
    expect(mine.parts[0]!.classes).toContain('p-button-loading-icon');
  });

  it('counts a badge in its name, as the kit Button does', () => {
    const props: PlainButtonProps = { icon: 'pi pi-filter', label: 'ตัวกรอง', badge: '2', type: 'button' };
    expect(plainShape(props).ariaLabel).toBe(kitShape(props).ariaLabel);
    expect(plainShape(props).parts.at(-1)).toEqual({ tag: 'SPAN', classes: 'p-badge p-badge-no-gutter p-component', text: '2' });
  });

  it('is a button that answers clicks, and none while disabled', () => {
    const click = vi.fn();
    const { container, rerender } = render(<PlainButton label="บันทึก" onClick={click} />);
    const button = container.querySelector('button')!;
    expect(button.getAttribute('type')).toBe('button');
    fireEvent.click(button);
    expect(click).toHaveBeenCalledTimes(1);
    rerender(<PlainButton label="บันทึก" onClick={click} disabled />);
    fireEvent.click(button);
    expect(click).toHaveBeenCalledTimes(1);
  });
});
