/** "a", "a = เอ", "a = เอ / A": one option per line, value first. */
export function parseOptions(text: string): { value: string; label: { th: string; en: string } }[] {
  return text.split('\n').map((l) => l.trim()).filter(Boolean).map((l) => {
    const [value, rest] = l.split('=').map((s) => s.trim());
    const [th, en] = (rest ?? value!).split('/').map((s) => s.trim());
    return { value: value!, label: { th: th || value!, en: en || th || value! } };
  });
}
