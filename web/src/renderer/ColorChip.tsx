/** Expands #rgb to #rrggbb so an alpha suffix can be appended. */
export function fullHex(color: string): string | null {
  const m = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.exec(color.trim());
  if (!m) return null;
  const h = m[1]!;
  return `#${h.length === 3 ? h.split('').map((c) => c + c).join('') : h}`.toLowerCase();
}

/** A label on a tinted pill in its colour (enum options with `color`, links with `colorField`). */
export function ColorChip({ color, children }: { color?: string | null; children: React.ReactNode }) {
  const hex = color ? fullHex(color) : null;
  return (
    <span className="bo-chip" data-color={hex ?? undefined}
      style={hex ? { background: `${hex}1f`, color: hex, borderColor: `${hex}66` } : undefined}>
      {hex && <span className="bo-chip-dot" style={{ background: hex }} aria-hidden="true" />}
      {children}
    </span>
  );
}
