import { useEffect, useRef } from 'react';

/**
 * Lines read from a serial scanner or scale (the /test_com_serial screen, or
 * any screen that opens a port) are published here; other screens subscribe to
 * use them as barcode input. Also dispatched on window as the DOM event
 * `serial-line` (detail: {line}) for code outside React.
 */
type Listener = (line: string) => void;
const listeners = new Set<Listener>();
export const SERIAL_LINE_EVENT = 'serial-line';

export function publishScan(line: string): void {
  const text = line.replace(/[\r\n]+$/, '');
  if (!text) return;
  for (const l of listeners) l(text);
  if (typeof window !== 'undefined') window.dispatchEvent(new CustomEvent(SERIAL_LINE_EVENT, { detail: { line: text } }));
}

export function onScan(listener: Listener): () => void {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}

/** Calls `handler` with every scanned line while the component is mounted. */
export function useScannedLine(handler: Listener): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => onScan((line) => ref.current(line)), []);
}

/** Splits a stream of text into lines, keeping an unfinished tail for the next chunk. */
export function splitLines(buffer: string, chunk: string): { lines: string[]; rest: string } {
  const all = (buffer + chunk).split(/\r\n|\r|\n/);
  const rest = all.pop() ?? '';
  return { lines: all, rest };
}
